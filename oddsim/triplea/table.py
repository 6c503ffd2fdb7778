"""A TripleA game file as the table of a ruleset file (what a TOML file would hold), with the
file's unit names and what oddsim does not compute: units (``units``), support rules
(``supports``), combat properties (``properties``), technologies (``techs``) and costs (``costs``)
mapped onto the ruleset's declared keys.

``oddsim.model.rules`` reads the table as it reads a ruleset file (``game_ruleset``); this module
never imports it (``loads``, the one question it asks of the schema, is passed in), so that
``load_ruleset`` can reach it without a cycle.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from oddsim.model.not_modelled import NotModelled
from oddsim.triplea import computed
from oddsim.triplea.costs import unit_costs
from oddsim.triplea.document import GameFileError
from oddsim.triplea.names import name_table
from oddsim.triplea.options import GameParts, read_parts
from oddsim.triplea.properties import combat_keys, dice_sides
from oddsim.triplea.supports import map_supports, read_supports
from oddsim.triplea.techs import tech_tables, technologies
from oddsim.triplea.units import read_units

MAX_GAME_UNIT_TYPES = 512
"""Most unit types a game file may define (Total World War, the largest BEST map, has 390)."""


@dataclass(frozen=True)
class GameTable:
    """A game file read: the ruleset's ``table``, every TripleA unit name -> its oddsim name
    (``unit_names``), and what oddsim does not compute (``notes``)."""

    table: dict
    unit_names: Mapping[str, str]
    notes: tuple[NotModelled, ...]


def game_table(root: ElementTree.Element, origin: str, loads: Callable[[dict], bool]) -> GameTable:
    """The ruleset table a ``<game>`` element says; ``loads`` tells whether a ruleset table loads
    (``oddsim.model.rules.loads``: which features the engines compute)."""
    parts = read_parts(root)
    if not parts.units:
        raise GameFileError(f"{origin} is a TripleA game with no unit types (its <unitList> is "
                            "empty or missing); give a map's game file")
    die = root.find("diceSides")
    sides = dice_sides(die.get("value") if die is not None else None)
    naming = name_table(parts.units)
    names = {unit: oddsim for unit, (oddsim, _) in naming.items()}
    rolled = sides if computed.dice_sides(loads, sides) else 6
    units = read_units(parts, names, unit_costs(parts), rolled, sides, loads)
    supports = map_supports(read_supports(parts), parts, units.records, names, rolled, loads)
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
    notes = units.not_modelled + supports.not_modelled + property_notes + _file_notes(parts)
    return GameTable(table, names, tuple(notes))


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
