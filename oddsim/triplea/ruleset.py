"""A TripleA game file as an oddsim Ruleset, with the file's unit names beside it
(``GameRules``): what a reader of a board needs. The mapping itself is ``oddsim.triplea.table``;
``--rules FILE.xml`` and ``oddsim.Battle(rules="FILE.xml")`` reach it through
``oddsim.model.rules.load_ruleset``, which tells a game file by its content.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from oddsim.model.not_modelled import NotModelled
from oddsim.model.rules import Ruleset, game_ruleset, loads
from oddsim.triplea.document import game_file_label, read_game_root
from oddsim.triplea.table import MAX_GAME_UNIT_TYPES, game_table


@dataclass(frozen=True)
class GameRules:
    """A game file's ruleset, the file's unit names mapped to oddsim's (TripleA name -> oddsim
    name, every unit type of the file), and the ruleset as a table of keys (what ``--rule``
    changes)."""

    ruleset: Ruleset
    unit_names: Mapping[str, str]
    table: Mapping[str, object]

    @property
    def not_modelled(self) -> tuple[NotModelled, ...]:
        return self.ruleset.not_modelled


def game_rules(root: ElementTree.Element, origin: str) -> GameRules:
    """The ruleset a ``<game>`` element says (``origin``: how errors and readings name it)."""
    read = game_table(root, origin, loads)
    return GameRules(game_ruleset(read, origin), read.unit_names, read.table)


def ruleset_from_game_root(root: ElementTree.Element, origin: str) -> Ruleset:
    """The Ruleset of a ``<game>`` element, what it does not model in its ``not_modelled``."""
    return game_rules(root, origin).ruleset


def load_game_rules(source: str | Path | bytes, name: str | None = None) -> GameRules:
    """``game_rules`` of a game file given by path or bytes (``GameFileError`` for a file that is
    not one, ``RulesetError`` for one beyond oddsim's bounds)."""
    label = game_file_label(source, name)
    return game_rules(read_game_root(source, label), label)


def load_game_ruleset(source: str | Path | bytes, name: str | None = None) -> Ruleset:
    """The Ruleset of a TripleA game file, given its path or bytes."""
    return load_game_rules(source, name).ruleset


__all__ = ["MAX_GAME_UNIT_TYPES", "GameRules", "game_rules", "load_game_rules", "load_game_ruleset",
           "ruleset_from_game_root"]
