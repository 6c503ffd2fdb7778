"""TripleA's support rules (every ``UnitSupportAttachment``, and the legacy ``artillery`` /
``artillerySupportable`` flags, which TripleA reads as one rule: +1 attack to one supportable unit
per artillery, bonus type ``ArtyOld``) as oddsim ``[[support]]`` rules.

TripleA adds a ``bonus`` to a supported unit's strength; oddsim's rules today say the ``value`` a
supported unit hits on. A rule is written as a value when that says the same: its supported units
share one base value on its side, and no supported unit could take two bonuses at once (one bonus
type per unit and side, each counted once). Rules with the same supported units, value, side and
number are one oddsim rule with several supporters (fighters and tanks both supporting tactical
bombers). A rule that cannot be said so (stacking bonuses, enemy-side rules, roll bonuses, a
minus) makes every rule of the file TripleA's additive kind where the engines compute it
(``oddsim.triplea.computed``); until they do, it is named as not modelled on its supporter, and a
battle with that supporter is refused.

A rule for no player (``players`` left empty: a technology or trigger gives it) is not applied,
and is named. A rule for some players only applies as it is where every player who may have the
supporter (its frontier sells it, or it starts with one: ``GameParts.holders``) is one of them (a
nation's own artillery supporting its own infantry); else it is refused on its supporter, since
oddsim's sides have no player.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from oddsim.model.not_modelled import NotModelled
from oddsim.triplea import computed
from oddsim.triplea.computed import Loads
from oddsim.triplea.options import Attachment, GameParts

OLD_ARTILLERY = "ArtyOld"


@dataclass(frozen=True)
class Support:
    """One TripleA support rule, read: who gives it, to whom, how much, on which sides."""

    name: str
    supporter: str
    supported: tuple[str, ...]
    sides: tuple[str, ...]  # "attack" and/or "defense"
    bonus: int
    number: int
    bonus_type: str
    bonus_count: int
    enemy: bool
    strength: bool
    roll: bool
    aa: bool  # raises AA fire (dice AAroll / AAstrength)
    players: tuple[str, ...]
    improved_artillery: bool


def read_supports(parts: GameParts) -> list[Support]:
    """Every support rule of the file, the legacy artillery one included."""
    rules = [_support(a) for a in parts.attachments_of("UnitSupportAttachment")]
    supportable = tuple(unit for unit in parts.units
                        if _true(parts.unit_attachment(unit).get("artillerySupportable")))
    for unit in parts.units:
        ua = parts.unit_attachment(unit)
        if _true(ua.get("artillery")) and supportable:
            count = _int(ua.get("unitSupportCount"), 1)
            rules.append(Support(f"artillery {unit}", unit, supportable, ("attack",), 1,
                                 count if count > 0 else 1, OLD_ARTILLERY, 1, False, True, False,
                                 False, parts.players, True))
    return rules


def _support(attachment: Attachment) -> Support:
    sides = tuple(side for word, side in (("offence", "attack"), ("defence", "defense"))
                  if word in _words(attachment.get("side", "")))
    dice = _words(attachment.get("dice", ""))
    count_text, _, type_name = (attachment.get("bonusType") or "").rpartition(":")
    count = _int(count_text, 1) if count_text else 1
    return Support(attachment.name, attachment.attach_to,
                   tuple(p for p in (attachment.get("unitType") or "").split(":") if p), sides,
                   _int(attachment.get("bonus"), 0), _int(attachment.get("number"), 0),
                   type_name or (attachment.get("bonusType") or attachment.name),
                   count if count > 0 else 100,
                   "enemy" in _words(attachment.get("faction", "")), "strength" in dice,
                   "roll" in dice, bool(dice & {"aaroll", "aastrength"}),
                   tuple(p for p in (attachment.get("players") or "").split(":") if p),
                   _true(attachment.get("impArtTech")))


def _words(text: str | None) -> set[str]:
    return {word.strip().lower() for word in (text or "").split(":") if word.strip()}


def _true(text: str | None) -> bool:
    return text is not None and text.strip().lower() == "true"


def _int(text: str | None, default: int) -> int:
    try:
        return int(str(text).strip()) if text is not None else default
    except ValueError:
        return default


@dataclass
class SupportReading:
    """The oddsim ``[[support]]`` tables, the improved-artillery numbers, what is not modelled."""

    rules: list[dict[str, object]]
    improved_artillery: dict[str, int]
    not_modelled: list[NotModelled]


def map_supports(supports: list[Support], parts: GameParts, records: Mapping[str, Mapping[str, object]],
                 names: Mapping[str, str], dice_sides: int, loads: Loads) -> SupportReading:
    """The support rules as oddsim rules (``records``: TripleA unit -> its oddsim record, for the
    base values; ``names``: TripleA -> oddsim name)."""
    notes: list[NotModelled] = []
    everyone = set(parts.player_frontiers) or set(parts.players)  # the players who buy units
    active = []
    for rule in supports:
        if (rule.supporter not in names or not rule.number or not rule.sides
                or not any(unit in names for unit in rule.supported)):
            continue
        if not rule.players and rule.bonus_type != OLD_ARTILLERY:  # (the legacy rule: everyone's)
            notes.append(NotModelled(names[rule.supporter], f"support '{rule.name}' is given by a "
                                     "technology or trigger: not applied", False, unit=True))
            continue
        holders = parts.holders.get(rule.supporter) or everyone
        if rule.bonus_type != OLD_ARTILLERY and holders and not holders <= set(rule.players):
            missed = ", ".join(sorted(holders - set(rule.players)))
            notes.append(NotModelled(names[rule.supporter], f"support '{rule.name}' does not help "
                                     f"{missed} (oddsim's sides have no player)", True, unit=True))
            continue
        if not (rule.strength or rule.roll):
            if rule.aa:
                notes.append(NotModelled(names[rule.supporter], f"support '{rule.name}' raises AA "
                                         "fire", True, unit=True))
            continue  # (a rule that raises nothing: no dice named)
        active.append(rule)
    stacking = _stacking(active)
    improved = {names[rule.supporter]: min(rule.number * 2, 100)
                for rule in active if rule.improved_artillery}
    if any(_why_not_value(rule, records, stacking) for rule in active) and computed.bonus_supports(loads):
        kept = []
        for rule in active:
            reason = _why_not_bonus(rule, loads)
            if reason is None:
                kept.append(rule)
            else:
                notes.append(NotModelled(names[rule.supporter], f"support '{rule.name}' {reason}",
                                         True, unit=True))
        return SupportReading(_bonus_rules(kept, names), improved, notes)
    merged: dict[tuple, list[str]] = {}
    for rule in active:
        reason = _why_not_value(rule, records, stacking)
        if reason is not None:
            notes.append(NotModelled(names[rule.supporter], f"support '{rule.name}': {reason}",
                                     True, unit=True))
            continue
        supported = tuple(sorted(names[unit] for unit in rule.supported if unit in names))
        for side in rule.sides:
            base = {_base(records[unit], side) for unit in rule.supported if unit in records}
            value = min(base.pop() + rule.bonus, dice_sides)
            key = (supported, value, side, rule.number)
            merged.setdefault(key, [])
            if names[rule.supporter] not in merged[key]:
                merged[key].append(names[rule.supporter])
    rules = [{"supporters": supporters, "supported": list(supported), "per_supporter": number,
              "value": max(1, value), "side": side}
             for (supported, value, side, number), supporters in merged.items()]
    return SupportReading(rules, improved, notes)


def _bonus_to(rule: Support) -> str:
    return "strength_and_rolls" if rule.strength and rule.roll else "rolls" if rule.roll else "strength"


def _why_not_bonus(rule: Support, loads: Loads) -> str | None:
    """Why a rule cannot be written in TripleA's additive form today (what the engines refuse
    at load), or None when it can."""
    if rule.enemy and not computed.bonus_rule(loads, "enemy", 1, "strength"):
        return "lowers or raises the enemy's units"
    if _bonus_to(rule) != "strength" and not computed.bonus_rule(loads, "allied", 1, _bonus_to(rule)):
        return "adds dice (a roll bonus)"
    if rule.bonus_count > 1 and not computed.bonus_rule(loads, "allied", rule.bonus_count, "strength"):
        return f"lets a unit take {rule.bonus_count} bonuses of type {rule.bonus_type}"
    return None


def _bonus_rules(rules: list[Support], names: Mapping[str, str]) -> list[dict[str, object]]:
    """Every rule in TripleA's own additive form (``bonus``, ``faction``, ``bonus_type``), one per
    side it helps; a bonus type's count is its rules' largest (TripleA keeps one per type)."""
    counts: dict[str, int] = {}
    for rule in rules:
        counts[rule.bonus_type] = max(counts.get(rule.bonus_type, 1), min(rule.bonus_count, 100))
    return [{"supporters": [names[rule.supporter]],
             "supported": [names[unit] for unit in rule.supported if unit in names],
             "per_supporter": min(rule.number, 100), "bonus": max(-120, min(rule.bonus, 120)),
             "side": side, "faction": "enemy" if rule.enemy else "allied",
             "bonus_type": rule.bonus_type, "bonus_type_count": counts[rule.bonus_type],
             "bonus_to": _bonus_to(rule)}
            for rule in rules for side in rule.sides]


def _base(record: Mapping[str, object], side: str) -> int:
    value = record.get(side, 0)
    return value if isinstance(value, int) else 0


def _stacking(rules: list[Support]) -> set[tuple[str, str]]:
    """(unit, side) pairs that rules of two bonus types (or one counted more than once) reach:
    their bonuses add up, which a value cannot say."""
    types: dict[tuple[str, str], set[str]] = {}
    many: set[tuple[str, str]] = set()
    for rule in rules:
        for unit in rule.supported:
            for side in rule.sides:
                types.setdefault((unit, side), set()).add(rule.bonus_type)
                if rule.bonus_count > 1:
                    many.add((unit, side))
    return many | {pair for pair, kinds in types.items() if len(kinds) > 1}


def _why_not_value(rule: Support, records: Mapping[str, Mapping[str, object]],
                   stacking: set[tuple[str, str]]) -> str | None:
    """Why a rule cannot be an oddsim value rule, or None when it can."""
    if rule.enemy:
        return "lowers or raises the enemy's units"
    if rule.roll or not rule.strength:
        return "adds dice (a roll bonus)"
    if rule.bonus <= 0:
        return f"a bonus of {rule.bonus}"
    for side in rule.sides:
        bases = {_base(records[unit], side) for unit in rule.supported if unit in records}
        if len(bases) != 1:
            return f"its supported units differ in {side} ({', '.join(map(str, sorted(bases)))})"
        if any((unit, side) in stacking for unit in rule.supported):
            return "its bonus adds to another support's"
    return None
