"""The game's ``<property>`` values that change a battle, as oddsim's combat keys.

- "Defending Subs Sneak Attack": defending submarines strike first too (``combat.sub_first_strike``
  both; else only attacking ones). TripleA checks for a destroyer each round (``each_round``).
- "Air Attack Sub Restricted": aircraft hit submarines only with a destroyer.
- "Submersible Subs" / "Sub Retreat Before Battle": submarines submerge at the start of a round
  (before any fire) or at its end.
- The AA units' ``attackAA`` (``combat.aa_hit``) and ``maxAAattacks`` (dice per gun; -1: one die per
  aircraft, one gun firing), "Choose AA Casualties" (the attacker's order of loss; else each die
  at one aircraft: "Roll AA Individually").
- "Units Repair Hits End Turn" / "... Start Turn": a damaged unit stays damaged for the rest of
  the turn either way (``combat.repair`` end_of_turn).
- "Shore Bombard Per Ground Unit Restricted", "Naval Bombard Casualties Return Fire": the
  ``bombard`` keys; "Transport Casualties Restricted": transports are taken last.
- ``transportCapacity`` / ``transportCost``: how many land units a transport carries, and of
  those how many heavier ones.

Properties that change a battle in ways oddsim does not compute are named (``NOTED``).
"""

from __future__ import annotations

from collections.abc import Mapping

from oddsim.model.not_modelled import NotModelled
from oddsim.triplea.options import GameParts
from oddsim.triplea.units import UnitReading

NOTED = (
    ("Low Luck", "Low Luck: give --dice lowluck (oddsim's dice are a battle option)"),
    ("Kamikaze Airplanes", "kamikaze aircraft are not modelled"),
    ("Use Kamikaze Suicide Attacks", "kamikaze suicide attacks are not modelled"),
    ("Battles May Be Preceeded By Air Battles", "air battles before a battle are not modelled"),
    ("Partial Amphibious Retreat", "a partial amphibious retreat is not modelled: the attacker "
                                   "retreats all or nothing"),
    ("Attacker Retreat Planes", "aircraft-only retreat from an amphibious assault is not "
                                "modelled"),
    ("Super Sub Defence Bonus", None),
)
"""(property, what oddsim says when it is on) for properties that change a battle beyond the
keys; ``None``: named only when its number is not 0."""


def dice_sides(root_sides: str | None) -> int:
    """The game's die (``<diceSides value=...>``, 6 when absent)."""
    try:
        return max(2, int(root_sides)) if root_sides is not None else 6
    except ValueError:
        return 6


def combat_keys(parts: GameParts, units: UnitReading, records: Mapping[str, Mapping[str, object]],
                names: Mapping[str, str], sides: int) -> tuple[dict[str, object], list[NotModelled]]:
    """The dotted ruleset keys the properties and units give, and what is not modelled."""
    notes: list[NotModelled] = []
    keys: dict[str, object] = {
        "combat.sub_first_strike": "both" if parts.flag("Defending Subs Sneak Attack") else "attacker",
        "combat.sub_strike_rounds": "every",
        "combat.sub_strike_destroyer": "each_round",
        "combat.air_hits_subs": "with_destroyer" if parts.flag("Air Attack Sub Restricted") else "always",
        "combat.submerge": "start" if parts.flag("Sub Retreat Before Battle") else "end",
        "combat.repair": "end_of_turn",
        "bombard.one_per_landed_unit": parts.flag("Shore Bombard Per Ground Unit Restricted"),
        "bombard.casualties_fire_back": parts.flag("Naval Bombard Casualties Return Fire"),
        "bombard.units": {names[unit]: value for unit, value in units.bombard.items()},
        "amphibious.ignore_subs_and_transports": parts.flag("Ignore Sub In Movement")
        and parts.flag("Ignore Transport In Movement"),
    }
    if not parts.flag("Submersible Subs") and any(r.get("submarine") for r in records.values()):
        notes.append(NotModelled("Submersible Subs", "off: submarines may not submerge (leave "
                                 "--submerge at its default)", False))
    keys.update(_aa_keys(parts, units, names, sides, notes))
    keys.update(_transport_keys(parts, records, notes))
    keys.update(_raid_keys(parts, names, sides))
    for name, said in NOTED:
        value = parts.properties.get(name)
        if value is None:
            continue
        if said is None:
            if parts.number(name, 0):
                notes.append(NotModelled(name, f"{value}: not added", False))
        elif value.strip().lower() == "true":
            notes.append(NotModelled(name, said, False))
    return keys, notes


def _aa_keys(parts: GameParts, units: UnitReading, names: Mapping[str, str], sides: int,
             notes: list[NotModelled]) -> dict[str, object]:
    """One AA rule for the ruleset, from its AA units (which must agree: else the others are
    refused) and the AA properties."""
    if not units.aa:
        return {}
    first = units.aa[0]
    keys: dict[str, object] = {"combat.aa_hit": max(0, min(first.hit, sides))}
    if first.max_attacks > 0:
        keys["combat.aa_dice"] = "per_gun"
        keys["combat.aa_dice_per_gun"] = min(first.max_attacks, 100)
    else:
        keys["combat.aa_dice"] = "per_aircraft"
    choose = parts.flag("Choose AA Casualties")
    if choose or first.max_attacks > 0:
        keys["combat.aa_casualties"] = "attacker_chooses"
        if not choose:
            notes.append(NotModelled("Choose AA Casualties", "off: AA hits fall on random "
                                     "aircraft in TripleA; oddsim lets the attacker choose", False))
    else:
        keys["combat.aa_casualties"] = "per_aircraft"
    for other in units.aa[1:]:
        if (other.hit, other.max_attacks) != (first.hit, first.max_attacks):
            notes.append(NotModelled(names[other.name], f"AA fire unlike {names[first.name]}'s "
                                     "(oddsim has one AA rule per game)", True, unit=True))
    return keys


def _transport_keys(parts: GameParts, records: Mapping[str, Mapping[str, object]],
                    notes: list[NotModelled]) -> dict[str, object]:
    """``transport.capacity`` / ``max_heavy`` from the transports' ``transportCapacity`` and the
    land units' ``transportCost``: as many of the lightest as fit, and as many heavy ones as fit
    beside light ones."""
    capacities = {_int(parts.unit_attachment(unit).get("transportCapacity"))
                  for unit, record in records.items() if record.get("transport")}
    costs = sorted({cost for unit, record in records.items() if record.get("domain") == "land"
                    for cost in [_int(parts.unit_attachment(unit).get("transportCost"))] if cost > 0})
    capacities.discard(-1)
    if not capacities or not costs:
        return {}
    capacity = max(capacities)
    light, heavy = costs[0], costs[-1]
    fits = max(1, min(capacity // light, 20))
    max_heavy = 0
    while max_heavy < fits and (max_heavy + 1) * heavy + (fits - max_heavy - 1) * light <= capacity:
        max_heavy += 1
    if len(capacities) > 1 or len(costs) > 2:
        notes.append(NotModelled("transportCapacity", f"transports read as carrying {fits} land "
                                 f"units, at most {max_heavy} heavy (TripleA counts each unit's "
                                 "transportCost)", False))
    return {"transport.capacity": fits, "transport.max_heavy": max_heavy}


def _raid_keys(parts: GameParts, names: Mapping[str, str], sides: int) -> dict[str, object]:
    """Strategic bombing raids: the bombers' ``bombingBonus`` (where "Use Bombing Max Dice Sides
    And Bonus" is on), the damage cap (a facility's ``maxDamage`` where damage is done to units,
    twice the territory's value where no facility states one, else the territory's value), AA
    built into a facility (``isAAforBombingThisUnitOnly`` on a unit that is not itself an AA gun:
    a legacy ``isAA`` gun fires at bombers only where it stands) and the air battle before a raid
    (``airAttack`` of escorts, ``airDefense`` of interceptors)."""
    options = {unit: parts.unit_attachment(unit) for unit in parts.units}

    def number(unit: str, name: str, default: int) -> int:
        value = _int(options[unit].get(name))
        return default if value == -1 else value

    def on(unit: str, name: str) -> bool:
        return (options[unit].get(name) or "").strip().lower() == "true"

    bombers = [unit for unit in parts.units if on(unit, "isStrategicBomber")]
    tactical = [unit for unit in bombers if options[unit].get("bombingTargets")]
    strategic = [unit for unit in bombers if unit not in tactical]
    keys: dict[str, object] = {"raid.air_battle": parts.flag("Raids May Be Preceeded By Air Battles"),
                               "raid.builtin_aa": any(on(unit, "isAAforBombingThisUnitOnly")
                                                      and not on(unit, "isAA")
                                                      and not on(unit, "isAAforCombatOnly")
                                                      for unit in parts.units)}
    if parts.flag("Use Bombing Max Dice Sides And Bonus"):
        if strategic:
            keys["raid.damage_bonus"] = max(0, min(number(strategic[0], "bombingBonus", 0), 100))
        if tactical:
            keys["raid.tactical_bonus"] = max(0, min(number(tactical[0], "bombingBonus", 0), 100))
    damageable = {unit: number(unit, "maxDamage", -1) for unit in parts.units
                  if on(unit, "canBeDamaged") or on(unit, "isFactory")}
    kinds = _facility_kinds({unit: cap for unit, cap in damageable.items() if cap >= 0}, on)
    if parts.flag("Damage From Bombing Done To Units Instead Of Territories") and kinds:
        keys["raid.cap"] = "facility"
        keys["raid.facility_caps"] = {kind: min(damageable[unit], 1000) for unit, kind in kinds.items()}
        targets = {kinds[target] for unit in tactical
                   for target in (options[unit].get("bombingTargets") or "").split(":") if target in kinds}
        keys["raid.tactical_targets"] = sorted(targets)
    elif parts.flag("Damage From Bombing Done To Units Instead Of Territories"):
        keys["raid.cap"] = "double_territory"
    else:
        keys["raid.cap"] = "territory"
    escorts = [unit for unit in parts.units if on(unit, "canEscort")]
    interceptors = [unit for unit in parts.units if on(unit, "canIntercept")]
    if escorts and keys["raid.air_battle"]:
        keys["raid.escort_hit"] = max(0, min(number(escorts[0], "airAttack", 0), sides, 6))
    if interceptors and keys["raid.air_battle"]:
        keys["raid.interceptor_hit"] = max(0, min(number(interceptors[0], "airDefense", 0), sides, 6))
    return keys


def _facility_kinds(caps: Mapping[str, int], on) -> dict[str, str]:
    """The raid's kinds of facility (``oddsim.raid.FACILITIES``) for the units a raid damages:
    an air base (``isAirBase``), a naval base (``repairsUnits``), and of the factories the one of
    the highest ``maxDamage`` is ``major``, of the lowest ``minor`` (a factory between the two,
    an upgrade, raids as the major one does)."""
    kinds: dict[str, str] = {}
    factories = []
    for unit in caps:
        if on(unit, "isAirBase"):
            kinds.setdefault(unit, "air_base")
        elif on(unit, "isFactory") or on(unit, "canProduceUnits"):
            factories.append(unit)
        else:
            kinds.setdefault(unit, "naval_base")
    if factories:
        kinds[min(factories, key=lambda unit: caps[unit])] = "minor"
        kinds[max(factories, key=lambda unit: caps[unit])] = "major"
    taken: dict[str, str] = {}
    for unit, kind in kinds.items():
        taken.setdefault(kind, unit)
    return {unit: kind for unit, kind in kinds.items() if taken[kind] == unit}


def _int(text: str | None) -> int:
    try:
        return int(str(text).strip()) if text is not None else -1
    except ValueError:
        return -1
