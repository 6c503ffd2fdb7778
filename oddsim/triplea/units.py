"""Each TripleA unit type as an oddsim unit record (the ``[units.NAME]`` keys), from its
``unitAttachment`` options, with what oddsim does not compute about it named.

The mapping, option by option (TripleA's names): ``attack``, ``defense``, ``movement``,
``hitPoints`` (legacy ``isTwoHit``; the "Two hit battleship" property sets a unit named
battleship), ``isAir`` / ``isSea`` (the domain), ``isSub`` (or ``isFirstStrike`` + ``canEvade`` +
``canNotTarget`` and ``canNotBeTargetedBy`` naming exactly the aircraft) -> ``submarine``,
``isDestroyer`` -> ``destroyer``, ``isAA`` / ``isAAforCombatOnly`` -> ``aa`` (an AA gun that does
not fight in the rounds), ``isInfrastructure`` / ``isFactory`` -> not a combatant, taken with the
territory, ``transportCapacity`` on a ship -> ``transport``, ``transportCost`` -> ``heavy_cargo``
(over the lightest land unit's), ``carrierCost`` / ``carrierCapacity`` -> carriers, ``attackRolls``
/ ``defenseRolls`` / ``chooseBestRoll`` where the schema has those keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from oddsim.model.not_modelled import NotModelled
from oddsim.triplea import computed
from oddsim.triplea.computed import Loads
from oddsim.triplea.options import Attachment, GameParts

_REFUSED_FLAGS = (
    ("isSuicide", "a suicide unit (dies after it fires)"),
    ("isSuicideOnAttack", "a suicide unit on attack (dies after it fires)"),
    ("isSuicideOnDefense", "a suicide unit on defence (dies after it fires)"),
    ("isSuicideOnHit", "dies when it hits"),
    ("isKamikaze", "a kamikaze unit"),
)
"""Options that change how a unit fights in a way oddsim does not compute: a battle with the
unit is refused."""

_NOTED_FLAGS = (
    ("isMarine", "a marine: its bonus attacking from a transport (an amphibious assault) is not "
                 "added"),
    ("canRetreatOnStalemate", "may retreat on a stalemate: oddsim ends the battle there"),
    ("attackingLimit", "a limit on how many may attack is not checked"),
)
"""Options oddsim does not compute that leave a plain battle's answer as it is: named only."""


@dataclass(frozen=True)
class AAUnit:
    """An AA unit's firing, as TripleA's options give it (checked for agreement across units by
    the properties' mapping: oddsim has one AA rule per ruleset)."""

    name: str
    hit: int
    die_sides: int
    max_attacks: int
    max_rounds: int
    targets_all_air: bool
    type_aa: str


@dataclass
class UnitReading:
    """What the units of a file read as: each oddsim unit's record (TripleA name -> record), the
    AA units, bombarding ships, and what is not modelled."""

    records: dict[str, dict[str, object]] = field(default_factory=dict)
    aa: list[AAUnit] = field(default_factory=list)
    bombard: dict[str, int] = field(default_factory=dict)
    not_modelled: list[NotModelled] = field(default_factory=list)


def _number(attachment: Attachment, name: str, default: int) -> int:
    text = attachment.get(name)
    if text is None:
        return default
    try:
        return int(text.strip())
    except ValueError:
        return default


def _flag(attachment: Attachment, name: str) -> bool:
    text = attachment.get(name)
    return text is not None and text.strip().lower() == "true"


def _names(attachment: Attachment, name: str) -> set[str] | None:
    text = attachment.get(name)
    return None if text is None else {part for part in text.split(":") if part}


def read_units(parts: GameParts, names: Mapping[str, str], costs: Mapping[str, int],
               dice_sides: int, game_sides: int, loads: Loads) -> UnitReading:
    """Every unit type of the file as an oddsim record (``names``: TripleA -> oddsim name);
    ``dice_sides``: the die the ruleset rolls, ``game_sides``: the game's (where the engines do
    not roll that one yet, every unit that rolls a die is refused)."""
    reading = UnitReading()
    attachments = {unit: parts.unit_attachment(unit) for unit in parts.units}
    air = {unit for unit, ua in attachments.items() if _flag(ua, "isAir")}
    land_costs = [_number(ua, "transportCost", -1) for unit, ua in attachments.items()
                  if not _flag(ua, "isAir") and not _flag(ua, "isSea")]
    lightest = min((cost for cost in land_costs if cost > 0), default=0)
    carrier_costs = [_number(attachments[unit], "carrierCost", -1) for unit in air]
    smallest_carrier_cost = min((cost for cost in carrier_costs if cost > 0), default=1)
    air_sub_restricted = parts.flag("Air Attack Sub Restricted")
    for unit, ua in attachments.items():
        record, notes = _unit_record(unit, ua, parts, air, lightest, smallest_carrier_cost,
                                     air_sub_restricted, dice_sides, reading, loads)
        if game_sides != dice_sides and (record["attack"] or record["defense"] or record.get("aa")):
            notes.insert(0, (f"rolling the game's {game_sides}-sided dice, which oddsim's engines "
                             "do not roll yet", True))
        record["cost"] = costs.get(unit, 0)
        reading.records[unit] = record
        reading.not_modelled += [NotModelled(names[unit], reason, refuses, unit=True)
                                 for reason, refuses in notes]
    return reading


def _unit_record(unit: str, ua: Attachment, parts: GameParts, air: set[str], lightest: int,
                 smallest_carrier_cost: int, air_sub_restricted: bool, dice_sides: int,
                 reading: UnitReading, loads: Loads) -> tuple[dict[str, object], list[tuple[str, bool]]]:
    notes: list[tuple[str, bool]] = []
    is_air, is_sea = _flag(ua, "isAir"), _flag(ua, "isSea")
    attack, defense = _number(ua, "attack", 0), _number(ua, "defense", 0)
    record: dict[str, object] = {
        "attack": attack, "defense": defense,
        "move": max(0, min(_number(ua, "movement", 0), 100)),
        "domain": "air" if is_air else "sea" if is_sea else "land",
    }
    hits = _number(ua, "hitPoints", 1)
    if ua.get("isTwoHit") is not None:
        hits = 2 if _flag(ua, "isTwoHit") else 1
    if unit == "battleship" and "Two hit battleship" in parts.properties:
        hits = 2 if parts.flag("Two hit battleship") else 1
    hits = max(1, hits)
    if hits > 2 and not computed.unit_key(loads, "hits", hits):
        notes.append((f"a unit of {hits} hit points, which oddsim's engines do not compute yet", True))
        hits = 2
    record["hits"] = hits
    _rolls(ua, record, notes, loads)
    for value, side in ((attack, "attack"), (defense, "defense")):
        if value > dice_sides:
            record[side] = dice_sides  # (it hits on every roll, as it does at the die's sides)
    _combat_roles(unit, ua, air, air_sub_restricted, record, notes)
    _aa(unit, ua, air, dice_sides, record, notes, reading)
    if _flag(ua, "isInfrastructure") or _flag(ua, "isFactory") or _flag(ua, "isAA"):
        record.update(combatant=False, can_attack=False, defenceless=True)
        if attack or defense:
            notes.append(("infrastructure that also fights (its dice are not rolled)", True))
    if _flag(ua, "canBombard") and is_sea:
        reading.bombard[unit] = max(1, min(_number(ua, "bombard", -1) if _number(ua, "bombard", -1) > 0
                                           else attack, dice_sides))
    capacity = _number(ua, "transportCapacity", -1)
    if is_sea and capacity > 0:
        record["transport"] = True
        if defense == 0:
            record["defenceless"] = True
        if parts.flag("Transport Casualties Restricted"):
            record["casualty_last"] = True
    cost = _number(ua, "transportCost", -1)
    if not is_air and not is_sea and lightest and cost > lightest:
        record["heavy_cargo"] = True
    if is_air and _number(ua, "carrierCost", -1) > 0:
        record["lands_on_carrier"] = True
        if _number(ua, "carrierCost", -1) != smallest_carrier_cost:
            notes.append((f"takes {_number(ua, 'carrierCost', -1)} places on a carrier: oddsim counts "
                          f"one", False))
    carrier = _number(ua, "carrierCapacity", -1)
    if is_sea and carrier > 0:
        record["carries_aircraft"] = min(100, carrier // smallest_carrier_cost)
        if any(value.startswith("unitsMayNotLandOnCarrier") for value in ua.all("whenCombatDamaged")):
            record["carries_aircraft_damaged"] = 0
    for option, reason in _REFUSED_FLAGS:
        if _flag(ua, option):
            notes.append((reason, True))
    for option, reason in _NOTED_FLAGS:
        if ua.get(option) not in (None, "false", "0", "-1"):
            notes.append((reason, False))
    return record, notes


def _rolls(ua: Attachment, record: dict[str, object], notes: list[tuple[str, bool]],
           loads: Loads) -> None:
    """``attackRolls`` / ``defenseRolls`` / ``chooseBestRoll``, onto the schema's keys where the
    engines compute them (``oddsim.triplea.computed``), else named as not computed."""
    for option, key in (("attackRolls", "attack_rolls"), ("defenseRolls", "defense_rolls")):
        rolls = _number(ua, option, 1)
        if rolls == 1:
            continue
        rolls = max(0, min(rolls, 20))
        if computed.unit_key(loads, key, rolls):
            record[key] = rolls
        else:
            notes.append((f"a unit rolling {rolls} dice "
                          f"{'attacking' if key == 'attack_rolls' else 'defending'} ({option})", True))
    if _flag(ua, "chooseBestRoll"):
        if computed.unit_key(loads, "choose_best_roll", True):
            record["choose_best_roll"] = True
        else:
            notes.append(("a unit of which only the best die counts (chooseBestRoll)", True))


def _combat_roles(unit: str, ua: Attachment, air: set[str], air_sub_restricted: bool,
                  record: dict[str, object], notes: list[tuple[str, bool]]) -> None:
    """Submarine and destroyer roles; first strike, evasion and targeting limits that do not
    make a submarine are refused."""
    cannot_target = _names(ua, "canNotTarget")
    cannot_be_targeted = _names(ua, "canNotBeTargetedBy")
    first, evade = _flag(ua, "isFirstStrike"), _flag(ua, "canEvade")
    if _flag(ua, "isSub"):
        record["submarine"] = True
        if cannot_target is not None and cannot_target != air:
            notes.append(("a submarine whose canNotTarget is not exactly the aircraft", True))
        restricted = air if air_sub_restricted else set()
        if cannot_be_targeted is not None and cannot_be_targeted != restricted:
            notes.append(("a submarine whose canNotBeTargetedBy differs from the game's "
                          "'Air Attack Sub Restricted'", True))
    elif first or evade or cannot_target or cannot_be_targeted:
        if first and evade and cannot_target == air and cannot_be_targeted in (air, set(), None):
            record["submarine"] = True
        else:
            said = [name for name, on in (("isFirstStrike", first), ("canEvade", evade),
                                           ("canNotTarget", bool(cannot_target)),
                                           ("canNotBeTargetedBy", bool(cannot_be_targeted))) if on]
            notes.append((f"{' / '.join(said)} without the rest of a submarine's abilities", True))
    if _flag(ua, "isDestroyer"):
        record["destroyer"] = True


def _aa(unit: str, ua: Attachment, air: set[str], dice_sides: int, record: dict[str, object],
        notes: list[tuple[str, bool]], reading: UnitReading) -> None:
    """An AA unit that fires at aircraft before the first round (``isAAforCombatOnly`` or the
    legacy ``isAA``)."""
    if not (_flag(ua, "isAAforCombatOnly") or _flag(ua, "isAA")):
        return
    targets = _names(ua, "targetsAA")
    aa = AAUnit(unit, _number(ua, "attackAA", 1), _number(ua, "attackAAmaxDieSides", -1),
                _number(ua, "maxAAattacks", -1), _number(ua, "maxRoundsAA", 1),
                targets is None or targets == air, ua.get("typeAA", "AA") or "AA")
    reading.aa.append(aa)
    record["aa"] = True
    if _number(ua, "attack", 0) == 0:
        record["can_attack"] = False
    if _number(ua, "defense", 0) == 0:
        record["defenceless"] = True
    else:
        notes.append(("an AA gun that also fights in the rounds", True))
    if not aa.targets_all_air:
        notes.append(("an AA gun that targets only some units (targetsAA)", True))
    if aa.max_rounds != 1:
        rounds = "every round" if aa.max_rounds < 0 else f"{aa.max_rounds} rounds"
        notes.append((f"an AA gun that fires in {rounds} (maxRoundsAA)", True))
    if aa.die_sides > 0 and aa.die_sides != dice_sides:
        notes.append((f"an AA gun rolling a {aa.die_sides}-sided die (attackAAmaxDieSides)", True))
