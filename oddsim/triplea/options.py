"""The parts of a TripleA game file a ruleset is read from, as plain Python values: the unit
types, each attachment's options, the game's ``<property>`` values and the production frontiers.

TripleA still accepts older spellings of the format (``attatchment``, ``isInfantry`` for
``isLandTransportable``...), and so does this reader, in one place: ``LEGACY_OPTIONS`` and
``_ATTACHMENT_LISTS``. Every name read here is TripleA's own; what it means to oddsim is decided
in the modules that map it (units, supports, properties, techs).
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property

_ATTACHMENT_LISTS = ("attachmentList", "attatchmentList")
_ATTACHMENTS = ("attachment", "attatchment")

LEGACY_OPTIONS = {
    "isparatroop": "isAirTransportable",
    "isinfantry": "isLandTransportable",
    "ismechanized": "isLandTransportable",
}
"""Older option names TripleA reads as newer ones (its LegacyPropertyMapper), by lowercase name."""

LEGACY_PROPERTIES = {
    "battleships repair at end of round": "Units Repair Hits End Turn",
    "units repair at end of round": "Units Repair Hits End Turn",
    "battleships repair at beginning of round": "Units Repair Hits Start Turn",
    "units repair at beginning of round": "Units Repair Hits Start Turn",
}
"""Older property names TripleA reads as newer ones, by lowercase name."""


@dataclass(frozen=True)
class Attachment:
    """One ``<attachment>``: its name, what it is attached to, its kind (the Java class's last
    word: ``UnitAttachment``) and its options in file order (an option may repeat)."""

    name: str
    attach_to: str
    kind: str
    options: tuple[tuple[str, str], ...] = field(default=())

    def get(self, name: str, default: str | None = None) -> str | None:
        """The last value of option ``name`` (the one TripleA keeps), or ``default``."""
        found = default
        for key, value in self.options:
            if key == name:
                found = value
        return found

    def all(self, name: str) -> list[str]:
        """Every value of a repeatable option (``givesMovement``, ``whenCombatDamaged``)."""
        return [value for key, value in self.options if key == name]


@dataclass(frozen=True)
class GameParts:
    """What a ruleset is read from: the game's title, its unit types in file order, every
    attachment, its properties (name -> value text), production rules (name -> (unit, PUs,
    quantity)), frontiers (name -> rule names), each player's frontier, and its technologies."""

    title: str
    units: tuple[str, ...]
    attachments: tuple[Attachment, ...]
    properties: dict[str, str]
    production_rules: dict[str, tuple[str, int, int]]
    frontiers: dict[str, tuple[str, ...]]
    player_frontiers: dict[str, str]
    players: tuple[str, ...]
    technologies: tuple[str, ...]
    placed: tuple[tuple[str, str], ...] = ()  # (unit, owner) of each unit the game starts with

    @cached_property
    def holders(self) -> dict[str, set[str]]:
        """Unit -> the players who may have it: those whose production frontier sells it or who
        start with one, among the players who buy units (a neutral power that never buys is
        left out) where the file names any."""
        found: dict[str, set[str]] = {}
        for player, frontier in self.player_frontiers.items():
            for rule_name in self.frontiers.get(frontier, ()):
                rule = self.production_rules.get(rule_name)
                if rule is not None:
                    found.setdefault(rule[0], set()).add(player)
        buyers = set(self.player_frontiers)
        for unit, owner in self.placed:
            if not buyers or owner in buyers:
                found.setdefault(unit, set()).add(owner)
        return found

    def attachments_of(self, kind: str) -> Iterator[Attachment]:
        return (a for a in self.attachments if a.kind == kind)

    def unit_attachment(self, unit: str) -> Attachment:
        """The ``unitAttachment`` of a unit (its options merged if the file gives several), or
        an empty one."""
        return self._unit_attachments.get(unit) or Attachment("unitAttachment", unit, "UnitAttachment")

    @cached_property
    def _unit_attachments(self) -> dict[str, Attachment]:
        """Each unit's ``unitAttachment``, read once (a large map has thousands of attachments)."""
        options: dict[str, list[tuple[str, str]]] = {}
        for attachment in self.attachments_of("UnitAttachment"):
            options.setdefault(attachment.attach_to, []).extend(attachment.options)
        return {unit: Attachment("unitAttachment", unit, "UnitAttachment", tuple(found))
                for unit, found in options.items()}

    def flag(self, name: str, default: bool = False) -> bool:
        """A true/false property (any case); ``default`` when the file does not set it."""
        value = self.properties.get(name)
        return default if value is None else value.strip().lower() == "true"

    def number(self, name: str, default: int) -> int:
        value = self.properties.get(name)
        try:
            return int(str(value).strip()) if value is not None else default
        except ValueError:
            return default


def read_parts(root: ElementTree.Element) -> GameParts:
    """The parts of a ``<game>`` element a ruleset is read from."""
    info = root.find("info")
    title = (info.get("name") if info is not None else None) or "TripleA game"
    units = tuple(unit.get("name", "") for unit in root.iterfind("unitList/unit") if unit.get("name"))
    attachments: list[Attachment] = []
    for list_tag in _ATTACHMENT_LISTS:
        for holder in root.iterfind(list_tag):
            for tag in _ATTACHMENTS:
                attachments += [_attachment(element) for element in holder.iterfind(tag)]
    production = root.find("production")
    rules: dict[str, tuple[str, int, int]] = {}
    frontiers: dict[str, tuple[str, ...]] = {}
    player_frontiers: dict[str, str] = {}
    if production is not None:
        for rule in production.iterfind("productionRule"):
            read = _production_rule(rule)
            if read is not None:
                rules[rule.get("name", "")] = read
        for frontier in production.iterfind("productionFrontier"):
            frontiers[frontier.get("name", "")] = tuple(
                item.get("name", "") for item in frontier.iterfind("frontierRules"))
        for player in production.iterfind("playerProduction"):
            player_frontiers[player.get("player", "")] = player.get("frontier", "")
    players = tuple(player.get("name", "") for player in root.iterfind("playerList/player"))
    technologies = tuple(tech.get("name", "") for tech in root.iterfind("technology/technologies/techname"))
    placed = tuple((item.get("unitType", ""), item.get("owner", ""))
                   for item in root.iterfind("initialize/unitInitialize/unitPlacement"))
    return GameParts(title, units, tuple(attachments), _properties(root), rules, frontiers,
                     player_frontiers, players, technologies, placed)


def _attachment(element: ElementTree.Element) -> Attachment:
    options = []
    for option in element.iterfind("option"):
        name = option.get("name", "")
        options.append((LEGACY_OPTIONS.get(name.lower(), name), option.get("value", "")))
    kind = element.get("javaClass", "").rsplit(".", 1)[-1]
    return Attachment(element.get("name", ""), element.get("attachTo", ""), kind, tuple(options))


def _production_rule(rule: ElementTree.Element) -> tuple[str, int, int] | None:
    """(unit, PUs, quantity) of a rule that buys units for PUs, or None for another resource."""
    result = rule.find("result")
    costs = {cost.get("resource", ""): cost.get("quantity", "0") for cost in rule.iterfind("cost")}
    if result is None or "PUs" not in costs:
        return None
    try:
        return result.get("resourceOrUnit", ""), int(costs["PUs"]), max(1, int(result.get("quantity", "1")))
    except ValueError:
        return None


def _properties(root: ElementTree.Element) -> dict[str, str]:
    found: dict[str, str] = {}
    for holder in root.iterfind("propertyList"):
        for prop in holder.iterfind("property"):
            name = prop.get("name", "")
            name = LEGACY_PROPERTIES.get(name.lower(), name)
            value = prop.get("value")
            if value is None:
                inner = prop.find("value")
                value = inner.text if inner is not None and inner.text is not None else ""
                if prop.find("boolean") is not None and not value:
                    value = "false"
            found[name] = value
    return found
