"""A game file loaded once: its board and the map's ruleset it is fought under."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from oddsim.model.battle import Battle
from oddsim.model.rules import Ruleset
from oddsim.model.side import ArmySpec
from oddsim.triplea.armies import Armies, battle_of
from oddsim.triplea.battlefields import Battlefield, battlefield
from oddsim.triplea.board import Board, board_from_root
from oddsim.triplea.document import read_game_root


@dataclass(frozen=True)
class Game:
    """A game in progress: its ``board``, the ``rules`` of its map, and ``label``, how answers
    and errors name the file."""

    board: Board
    rules: Ruleset
    label: str


def load_game(source: str | Path | bytes, name: str | None = None, rules: Ruleset | None = None) -> Game:
    """The game in the file at ``source`` (a path, or the file's bytes as sent to the server;
    ``name`` says how errors name it); ``rules``: the ruleset to fight under instead of the
    map's own (a test's). Raises ``GameFileError`` (``BoardError``, ``RulesetError``) in one line."""
    label = name or ("the game file" if isinstance(source, bytes) else str(source))
    root = read_game_root(source, label)
    board = board_from_root(root)
    return Game(board, rules if rules is not None else map_ruleset(root, label), label)


def map_ruleset(root: ElementTree.Element, origin: str) -> Ruleset:
    """The ruleset a game file's own units and properties make (``oddsim.triplea.ruleset``)."""
    from oddsim.triplea.ruleset import ruleset_from_game_root

    return ruleset_from_game_root(root, origin)


def board_battle(game: Game, territory: str, attacker: str | None = None,
                 options: Mapping[str, object] | None = None, attacker_army: ArmySpec = None,
                 defender_army: ArmySpec = None,
                 flag: str = "--attacker") -> tuple[Battle, Armies, Battlefield]:
    """The battle in ``territory`` as the board has it (``attacker``: the player attacking, at
    sea, as ``flag`` names it), with ``options`` as ``battle_from`` takes them and
    ``attacker_army``/``defender_army`` (given) instead of the board's; BoardError naming the
    fix where the board holds no battle there, BattleError where oddsim cannot fight it."""
    field = battlefield(game.board, territory, attacker, flag)
    battle, armies = battle_of(field, game.board, game.rules, options, attacker_army, defender_army)
    return battle, armies, field
