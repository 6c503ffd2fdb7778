"""A TripleA game file as an oddsim ruleset: its units (``units``), support rules
(``supports``), combat properties (``properties``), technologies (``techs``) and costs (``costs``)
mapped onto the ruleset's
declared keys (``oddsim.model.rules.ruleset_from_keys``), with what oddsim does not compute named
per unit and property (``Ruleset.not_modelled``).

``load_game_ruleset(path)`` is what ``--rules FILE.xml`` and ``oddsim.Battle(rules="FILE.xml")``
reach (``oddsim.model.rules.load_ruleset`` tells a game file by its content);
``game_rules(root, origin)`` keeps the TripleA -> oddsim unit names beside the ruleset, for a
reader of the board.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from oddsim.model.rules import NotModelled, Ruleset, parse_ruleset
from oddsim.triplea import computed
from oddsim.triplea.costs import unit_costs
from oddsim.triplea.document import read_game_root
from oddsim.triplea.names import name_table
from oddsim.triplea.options import GameParts, read_parts
from oddsim.triplea.properties import combat_keys, dice_sides
from oddsim.triplea.supports import map_supports, read_supports
from oddsim.triplea.techs import tech_tables, technologies
from oddsim.triplea.units import read_units

MAX_GAME_UNIT_TYPES = 512
"""Most unit types a game file may define (Total World War, the largest BEST map, has 390)."""


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
    parts = read_parts(root)
    die = root.find("diceSides")
    sides = dice_sides(die.get("value") if die is not None else None)
    table, names, notes = _table(parts, sides, origin)
    ruleset = parse_ruleset(table, origin, max_units=MAX_GAME_UNIT_TYPES)
    return GameRules(replace(ruleset, not_modelled=tuple(notes)), names, table)


def ruleset_from_game_root(root: ElementTree.Element, origin: str) -> Ruleset:
    """The Ruleset of a ``<game>`` element, what it does not model in its ``not_modelled``."""
    return game_rules(root, origin).ruleset


def load_game_ruleset(source: str | Path | bytes, name: str | None = None) -> Ruleset:
    """The Ruleset of a TripleA game file, given its path or bytes (``GameFileError`` for a file
    that is not one, ``RulesetError`` for one whose units break oddsim's bounds)."""
    label = name or (str(source) if not isinstance(source, bytes) else "the game file")
    return ruleset_from_game_root(read_game_root(source, label), label)


def load_game_rules(source: str | Path | bytes, name: str | None = None) -> GameRules:
    """``game_rules`` of a game file given by path or bytes."""
    label = name or (str(source) if not isinstance(source, bytes) else "the game file")
    return game_rules(read_game_root(source, label), label)


def _table(parts: GameParts, sides: int, origin: str
           ) -> tuple[dict, dict[str, str], list[NotModelled]]:
    """The ruleset's table (as a TOML file would hold it), the unit names, and the notes."""
    naming = name_table(parts.units)
    names = {unit: oddsim for unit, (oddsim, _) in naming.items()}
    rolled = sides if computed.dice_sides(sides) else 6
    units = read_units(parts, names, unit_costs(parts), rolled, sides)
    supports = map_supports(read_supports(parts), parts, units.records, names, rolled)
    keys, property_notes = combat_keys(parts, units, units.records, names, rolled)
    if rolled != 6:
        keys["combat.dice_sides"] = rolled
    elif sides != 6:
        property_notes.append(NotModelled("diceSides", f"the game rolls {sides}-sided dice, which "
                                          "oddsim's engines do not roll yet: every unit that rolls "
                                          "one is refused", False))
    table: dict = {"name": parts.title, "title": parts.title}
    for dotted, value in keys.items():
        section, _, leaf = dotted.partition(".")
        table.setdefault(section, {})[leaf] = value
    table["support"] = supports.rules
    techs = tech_tables(parts, units.records, names, int(str(keys.get("combat.aa_hit", 1))), rolled)
    if supports.improved_artillery and "improvedArtillerySupport" in technologies(parts):
        techs["improved-artillery"] = {"per_supporter": supports.improved_artillery}
    if techs:
        table["tech"] = techs
    table["units"] = {names[unit]: {**record, "aliases": list(naming[unit][1])}
                      for unit, record in units.records.items()}
    notes = units.not_modelled + supports.not_modelled + property_notes
    notes += _file_notes(parts)
    return table, names, notes


def _file_notes(parts: GameParts) -> list[NotModelled]:
    """What the file holds beyond units and properties that may change a battle."""
    notes = []
    if any(True for _ in parts.attachments_of("TerritoryEffectAttachment")):
        notes.append(NotModelled("territory effects", "some territories raise or lower units' "
                                 "values (territoryEffect): oddsim uses the plain values", False))
    if any(True for _ in parts.attachments_of("TriggerAttachment")):
        notes.append(NotModelled("triggers", "triggers may change units during a game: the file's "
                                 "values are used", False))
    return notes


__all__ = ["MAX_GAME_UNIT_TYPES", "GameRules", "game_rules", "load_game_rules", "load_game_ruleset",
           "ruleset_from_game_root"]
