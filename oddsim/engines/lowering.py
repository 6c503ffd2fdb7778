"""Lower a Battle into flat NumPy arrays: the spec both engines read, and nothing of their logic."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, NamedTuple, TypeVar

import numpy as np

from oddsim.errors import BattleError
from oddsim.model.aa_fire import aa_hit as model_aa_hit
from oddsim.model.aa_fire import split_aircraft
from oddsim.model.battle import Battle, Dice, Submerge
from oddsim.model.order_of_loss import LossKind, LossStep
from oddsim.model.rules import (
    AADice,
    AirHitsSubs,
    DiceRule,
    Domain,
    Ruleset,
    SubFirstStrike,
    SubmergeTiming,
    SubStrikeDestroyer,
    SubStrikeRounds,
    SupportRule,
    SupportSide,
)

SUBMERGE_NEVER, SUBMERGE_ALWAYS, SUBMERGE_ALONE = 0, 1, 2
T = TypeVar("T")


@dataclass(frozen=True)
class SideArrays:
    """One side: units at the start and its order of loss, as arrays indexed by unit type."""

    count: np.ndarray  # int64[n_types]: units at the start
    damaged: np.ndarray  # int64[n_types]: of those, already damaged two-hit units
    value: np.ndarray  # int64[n_types]: hit value in combat rounds (attack or defense)
    dice: np.ndarray  # int64[n_types]: dice each unit rolls in combat rounds (heavy bombers: 2)
    best_of: np.ndarray  # bool[n_types]: only the best of those dice counts (one hit at most)
    step_unit: np.ndarray  # int64[n_steps]: unit type of each loss step
    step_kill: np.ndarray  # int64[n_steps]: 1 = the step removes units, 0 = it damages them
    step_count: np.ndarray  # int64[n_steps]: casualties the step can take
    step_landed: np.ndarray  # int64[n_steps]: 1 = the attacker's units that came by sea
    submerge: int  # SUBMERGE_NEVER, SUBMERGE_ALWAYS or SUBMERGE_ALONE
    support_side: int  # which support rules act for this side: 0 attack, 1 defense
    # destroyer last: the step of the side's last destroyer (one unit, -1: none), taken only just
    # before step ``reserve_before`` (the units chosen last, or the end) while enemy subs live
    reserved_step: int = -1
    reserve_before: int = 0


@dataclass(frozen=True)
class LoweredBattle:
    """Unit table, rule flags and both sides, all plain arrays and scalars."""

    cost: np.ndarray  # int64[n_types]
    is_air: np.ndarray  # bool[n_types]
    is_land: np.ndarray
    is_sub: np.ndarray
    is_destroyer: np.ndarray
    is_aa: np.ndarray
    defenceless: np.ndarray  # never fires in combat rounds; a side of only these is destroyed
    # support rules: supporter/supported masks [n_rules, n_types], per-supporter count, value, side
    support_supporter: np.ndarray
    support_supported: np.ndarray
    support_per: np.ndarray
    support_value: np.ndarray  # (0 for a bonus rule)
    support_side: np.ndarray
    # bonus rules (``support_adds``): what each adds (0 for a value rule), its bonus type (an index
    # per side: a unit takes one rule of each type), and per role the unit types in the order
    # they receive support (``support_order[0]`` attacking, ``[1]`` defending); see ``_bonus_order``
    support_bonus: np.ndarray
    support_group: np.ndarray
    support_order: np.ndarray
    support_adds: bool
    attacker_subs_first: bool  # attacking subs strike first when the defender has no destroyer
    defender_subs_first: bool
    subs_first_round_one: bool  # ... in round 1 only (from round 2 on they fire in general fire)
    air_needs_destroyer: bool  # aircraft hit subs only with a destroyer on their side
    aa_per_gun: bool  # dice = min(per_gun * guns, aircraft), else one die per aircraft
    aa_dice_per_gun: int
    aa_hit: int  # with the defender's technology (radar)
    aa_dice: int  # dice the defender's AA guns roll before the first round (0: no AA fire)
    low_luck: bool  # hits = total strength // sides, plus one with chance (total % sides) / sides
    dice_sides: int  # faces of every die (combat.dice_sides): a roll at or under a value hits
    submerge_at_start: bool  # subs submerge at the start of a round (else at its end)
    bombard_dice: np.ndarray  # int64[dice_sides + 1]: bombarding ships' dice that hit on v or less, by v
    bombard_fire_back: bool  # the defender's bombardment casualties fire in round 1
    attacker: SideArrays
    defender: SideArrays

    @property
    def n_types(self) -> int:
        return len(self.cost)


def lower(battle: Battle, plain: bool = True) -> LoweredBattle:
    """The arrays for this battle; both engines start from these. A battle no engine's states can
    hold is refused (``check_plain``) unless ``plain`` is False (arrays that lay out states only)."""
    if plain:
        check_plain(battle)
    rules: Ruleset = battle.rules
    c = rules.combat
    aa_hit = 0 if battle.aa_fired else model_aa_hit(battle)  # (fired: split apart, stages.aa_split)
    return LoweredBattle(
        **_unit_arrays(rules),
        **_support_arrays(rules, battle.attacker.tech, battle.defender.tech),
        attacker_subs_first=_subs_first(battle, attacking=True),
        defender_subs_first=_subs_first(battle, attacking=False),
        subs_first_round_one=c.sub_strike_rounds is SubStrikeRounds.FIRST,
        air_needs_destroyer=c.air_hits_subs is AirHitsSubs.WITH_DESTROYER,
        aa_per_gun=c.aa_dice is AADice.PER_GUN,
        aa_dice_per_gun=c.aa_dice_per_gun,
        aa_hit=aa_hit,
        aa_dice=_aa_dice(battle, rules),
        low_luck=battle.dice is Dice.LOW_LUCK,
        dice_sides=c.dice_sides,
        submerge_at_start=c.submerge is SubmergeTiming.START,
        bombard_dice=_bombard_dice(battle),
        bombard_fire_back=rules.bombard.casualties_fire_back,
        attacker=_side(battle, battle.attacker.steps, attacking=True),
        defender=_side(battle, battle.defender.steps, attacking=False),
    )


def check_plain(battle: Battle) -> None:
    """Refuse a battle that is not one plain battle: AA fire that picks its casualties among two
    or more aircraft types (``oddsim.model.aa_fire.split_aircraft``), which the engines' states,
    following the order of loss, cannot hold; ``oddsim.stages.aa_split`` splits it first."""
    if split_aircraft(battle) is not None:
        raise BattleError("AA fire picks its casualties among several aircraft types in this battle, and "
                          "an engine fights one plain battle: use oddsim.solve or oddsim.simulate, which "
                          "split it by the AA outcome")


def _subs_first(battle: Battle, attacking: bool) -> bool:
    """Whether the side's subs may strike first in this battle (each round still only while
    the enemy has no destroyer): the edition allows it for the side (``sub_first_strike``),
    unless a reading takes it away for the whole battle: the enemy has a destroyer when the
    battle starts (``sub_strike_destroyer = "at_attack"``; in a battle in progress, the armies
    it resumes with), or the strike comes in round 1 only (``sub_strike_rounds = "first"``),
    which a battle in progress has fought."""
    c = battle.rules.combat
    allowed = (SubFirstStrike.ATTACKER, SubFirstStrike.BOTH) if attacking else (SubFirstStrike.BOTH,)
    if c.sub_first_strike not in allowed:
        return False
    if c.sub_strike_rounds is SubStrikeRounds.FIRST and battle.in_progress:
        return False
    if c.sub_strike_destroyer is SubStrikeDestroyer.AT_ATTACK:
        enemy = battle.side(not attacking).army
        return not any(n > 0 and battle.rules.unit(name).destroyer for name, n in enemy.counts)
    return True


_PER_RULESET: dict[tuple, tuple[Ruleset, Any]] = {}
"""What ``_per_ruleset`` made, by (id of the ruleset, what, its arguments)."""


def _per_ruleset(rules: Ruleset, what: Callable[..., T], *args: Any) -> T:
    """``what(rules, *args)``, made once per ruleset and arguments: the tables every battle of an
    edition shares (its units, support rules, values with a technology), which were most of the
    time of lowering a small battle. Callers copy what they may change."""
    key = (id(rules), what, *args)
    held = _PER_RULESET.get(key)
    if held is not None and held[0] is rules:
        return held[1]
    made = what(rules, *args)
    if len(_PER_RULESET) >= 256:  # rulesets made on the fly (house rules): keep it small
        _PER_RULESET.clear()
    _PER_RULESET[key] = (rules, made)
    return made


def unit_names(rules: Ruleset) -> tuple[str, ...]:
    """The edition's unit names in its order (made once per ruleset)."""
    return _per_ruleset(rules, _make_unit_names)


def _make_unit_names(rules: Ruleset) -> tuple[str, ...]:
    return tuple(u.name for u in rules.units)


def _unit_arrays(rules: Ruleset) -> dict[str, Any]:
    """The edition's unit table (``LoweredBattle.cost`` to ``defenceless``), made once per
    ruleset and read-only (every battle of the edition shares it)."""
    return _per_ruleset(rules, _make_unit_arrays)


def _make_unit_arrays(rules: Ruleset) -> dict[str, np.ndarray]:
    units = rules.units

    def mask(predicate) -> np.ndarray:
        return np.array([bool(predicate(u)) for u in units], dtype=np.bool_)

    arrays = {"cost": np.array([u.cost for u in units], dtype=np.int64),
              "is_air": mask(lambda u: u.domain is Domain.AIR),
              "is_land": mask(lambda u: u.domain is Domain.LAND),
              "is_sub": mask(lambda u: u.submarine),
              "is_destroyer": mask(lambda u: u.destroyer),
              "is_aa": mask(lambda u: u.aa),
              "defenceless": mask(lambda u: u.defenceless)}
    for array in arrays.values():
        array.flags.writeable = False
    return arrays


def _support_arrays(rules: Ruleset, attacker_tech: tuple[str, ...],
                    defender_tech: tuple[str, ...]) -> dict[str, Any]:
    """``LoweredBattle``'s support rows (``support_supporter`` to ``support_side``): each side's
    rules for its role, changed by its technology. Fresh arrays from a table made once."""
    made = _per_ruleset(rules, _make_support_arrays, attacker_tech, defender_tech)
    return {name: array.copy() if isinstance(array, np.ndarray) else array
            for name, array in made.items()}


def _make_support_arrays(rules: Ruleset, attacker_tech: tuple[str, ...],
                         defender_tech: tuple[str, ...]) -> dict[str, Any]:
    n = len(rules.units)
    names = [u.name for u in rules.units]
    support_rows = [(side, rule) for side, techs, role in ((0, attacker_tech, SupportSide.ATTACK),
                                                           (1, defender_tech, SupportSide.DEFENSE))
                    for rule in _support_for(rules, techs, role)]
    supporter = np.zeros((len(support_rows), n), dtype=np.bool_)
    supported = np.zeros((len(support_rows), n), dtype=np.bool_)
    for r, (_, rule) in enumerate(support_rows):
        for name in rule.supporters:
            supporter[r, names.index(name)] = True
        for name in rule.supported:
            supported[r, names.index(name)] = True
    if any(rule.bonus is not None for _, rule in support_rows):
        support_rows = _bonus_order(rules, support_rows, (attacker_tech, defender_tech))
        for r, (_, rule) in enumerate(support_rows):
            supporter[r] = [u.name in rule.supporters for u in rules.units]
            supported[r] = [u.name in rule.supported for u in rules.units]
    groups: list[dict[str, int]] = [{}, {}]
    group = [groups[side].setdefault(rule.bonus_type or f"#{r}", len(groups[side]))
             for r, (side, rule) in enumerate(support_rows)]
    order = np.array([_support_unit_order(rules, techs, attacking)
                      for techs, attacking in ((attacker_tech, True), (defender_tech, False))],
                     dtype=np.int64).reshape(2, n)
    return {"support_supporter": supporter, "support_supported": supported,
            "support_per": np.array([r.per_supporter for _, r in support_rows], dtype=np.int64),
            "support_value": np.array([r.value or 0 for _, r in support_rows], dtype=np.int64),
            "support_side": np.array([side for side, _ in support_rows], dtype=np.int64),
            "support_bonus": np.array([r.bonus or 0 for _, r in support_rows], dtype=np.int64),
            "support_group": np.array(group, dtype=np.int64),
            "support_order": order,
            "support_adds": any(rule.bonus is not None for _, rule in support_rows)}


def _bonus_order(rules: Ruleset, rows: list[tuple[int, SupportRule]],
                 techs: tuple[tuple[str, ...], tuple[str, ...]]) -> list[tuple[int, SupportRule]]:
    """Bonus rules in the order TripleA offers them to a unit (its ``SupportRuleSort``, allied
    rules): the larger bonus first, then the rule supporting fewer unit types (so that a rule
    for mech infantry alone is used before one for infantry and mech infantry), then the
    stronger supporter (dice x value in the rule's role), then the file's order. Each unit, in
    ``_support_unit_order``, takes from each bonus type the first of its rules that covers it
    and has support left (one support per type: ``bonus_type_count`` 1)."""
    def power(side: int, rule: SupportRule) -> int:
        table = _per_ruleset(rules, _make_role_table, techs[side], side == 0)
        return max(int(table.value[table.unit_index[name]] * table.dice[table.unit_index[name]])
                   for name in rule.supporters)

    return sorted(rows, key=lambda row: (row[0], -(row[1].bonus or 0), len(row[1].supported),
                                         -power(*row)))


def _support_unit_order(rules: Ruleset, techs: tuple[str, ...], attacking: bool) -> list[int]:
    """The unit types in the order their units receive bonus support in a role: as TripleA's
    ``PowerStrengthAndRolls`` sorts a side's units, strongest (value before support) first and
    those of value 0 last, ties in the ruleset's order."""
    value = _per_ruleset(rules, _make_role_table, techs, attacking).value.tolist()
    return sorted(range(len(value)), key=lambda u: (value[u] == 0, -value[u]))


class _RoleTable(NamedTuple):
    """How an edition's units fight in one role with some technology: unit index by name, and
    per unit type the hit value, dice and whether only the best die counts (as lists)."""

    unit_index: dict[str, int]
    value: np.ndarray  # (``_side`` hands out copies)
    dice: np.ndarray
    best_of: np.ndarray
    aa: frozenset[str]  # AA guns
    air: frozenset[str]  # aircraft


def _make_role_table(rules: Ruleset, techs: tuple[str, ...], attacking: bool) -> _RoleTable:
    """A unit rolls its ``attack_rolls`` or ``defense_rolls`` dice (a technology's
    ``attack_dice`` replaces the first), of which only the best counts where the unit says so
    (``choose_best_roll``) or the technology does (``attack_dice_rule = "best"``): the one
    mechanism of several dice per unit. A unit that rolls no die hits on nothing (value 0)."""
    units = rules.units
    value = {u.name: (u.attack if attacking else u.defense) for u in units}
    dice = {u.name: u.attack_rolls if attacking else u.defense_rolls for u in units}
    best_of = {u.name for u in units if u.choose_best_roll}
    for name in techs:
        tech = rules.technology(name)
        value.update(dict(tech.attack if attacking else tech.defense))
        if attacking:
            dice.update(dict(tech.attack_dice))
            if tech.attack_dice_rule is DiceRule.BEST:
                best_of.update(unit for unit, _ in tech.attack_dice)
    return _RoleTable({u.name: i for i, u in enumerate(units)},
                      np.array([value[u.name] if not u.defenceless and dice[u.name] else 0
                                for u in units], dtype=np.int64),
                      np.array([dice[u.name] for u in units], dtype=np.int64),
                      np.array([u.name in best_of for u in units], dtype=np.bool_),
                      frozenset(u.name for u in units if u.aa),
                      frozenset(u.name for u in units if u.domain is Domain.AIR))


def _aa_dice(battle: Battle, rules: Ruleset) -> int:
    """Dice the defender's AA guns roll at the attacker's aircraft before the first round of a
    land battle: one per aircraft, or per gun up to ``aa_dice_per_gun`` each (never more than
    the aircraft); none in a battle in progress, which is past it."""
    if battle.sea or battle.in_progress:
        return 0
    table = _per_ruleset(rules, _make_role_table, (), True)
    guns = sum(n for name, n in battle.defender.army.counts if name in table.aa)
    if guns == 0:  # (most battles: the aircraft need no count)
        return 0
    aircraft = sum(n for name, n in battle.attacker.army.counts if name in table.air)
    return aa_dice(rules, guns, aircraft)


def aa_dice(rules: Ruleset, guns: int, aircraft: int) -> int:
    """Dice ``guns`` AA guns roll at ``aircraft`` attacking aircraft before round 1 of a land
    battle (``_aa_dice``; the lattice of sub-armies asks it per sub-army)."""
    if guns == 0 or aircraft == 0:
        return 0
    if rules.combat.aa_dice is AADice.PER_GUN:
        return min(rules.combat.aa_dice_per_gun * guns, aircraft)
    return aircraft


def _bombard_dice(battle: Battle) -> np.ndarray:
    dice = np.zeros(battle.rules.combat.dice_sides + 1, dtype=np.int64)
    if battle.attacker.bombard is not None:
        values = battle.bombard_values()
        for name, n in battle.attacker.bombard.counts:
            dice[values[name]] += n
    return dice


def _support_for(rules: Ruleset, techs: tuple[str, ...], role: SupportSide) -> list[SupportRule]:
    """The support rules acting for a side in this role, with its technologies applied."""
    per_supporter: dict[str, int] = {}
    extra: list[SupportRule] = []
    for name in techs:
        tech = rules.technology(name)
        per_supporter.update(dict(tech.per_supporter))
        extra.extend(tech.support)
    result = []
    for rule in (*rules.support, *extra):
        if rule.side is not role:
            continue
        boost = max((per_supporter.get(s, 0) for s in rule.supporters), default=0)
        result.append(replace(rule, per_supporter=max(rule.per_supporter, boost)))
    return result


def _reserve_last_destroyer(battle: Battle, steps: tuple[LossStep, ...],
                            attacking: bool) -> tuple[tuple[LossStep, ...], int, int]:
    """Destroyer last: ``steps`` with the side's last destroyer as a step of its own, its index
    and the index of the first step of units chosen last (or the end). Off (index -1) when the
    option is, or when the side has no destroyer or the enemy no submarine (then the rule never
    acts)."""
    wanted = battle.side(attacking).destroyer_last
    if not wanted:
        return steps, -1, 0
    rules = battle.rules
    enemy = battle.side(not attacking).army
    destroyers = [i for i, s in enumerate(steps) if s.kind is LossKind.KILL and rules.unit(s.unit).destroyer]
    if not wanted or not destroyers or not any(rules.unit(name).submarine for name, _ in enemy.counts):
        return steps, -1, 0
    last = destroyers[-1]
    step = steps[last]
    split = [replace(step, count=step.count - 1)] if step.count > 1 else []
    out = (*steps[:last], *split, replace(step, count=1), *steps[last + 1:])
    reserved = last + len(split)
    before = next((i for i, s in enumerate(out) if i > reserved and rules.unit(s.unit).casualty_last),
                  len(out))
    return out, reserved, before


def _side(battle: Battle, steps: tuple[LossStep, ...], attacking: bool) -> SideArrays:
    rules = battle.rules
    side = battle.side(attacking)
    force = side.army
    steps, reserved, before = _reserve_last_destroyer(battle, steps, attacking)
    table = _per_ruleset(rules, _make_role_table, side.tech, attacking)
    index = table.unit_index
    n_types = len(index)
    start = [0] * (2 * n_types)  # the units at the start, then the damaged ones among them
    for name, n in force.counts:
        start[index[name]] = n
    for name, n in force.damaged:
        start[n_types + index[name]] = n
    kill = LossKind.KILL
    units: list[int] = []
    kills: list[bool] = []
    slots: list[int] = []
    landed: list[bool] = []
    for s in steps:
        units.append(index[s.unit])
        kills.append(s.kind is kill)
        slots.append(s.count)
        landed.append(s.landed)
    # one array of the counts and the steps' four columns, each a contiguous row of it (made from
    # one list: each array made apart, and each count set in it, cost more than the lists)
    made = np.array(start + units + kills + slots + landed, dtype=np.int64)
    step_rows = made[2 * n_types:].reshape(4, len(steps))
    return SideArrays(
        count=made[:n_types],
        damaged=made[n_types:2 * n_types],
        value=table.value.copy(),
        dice=table.dice.copy(),
        best_of=table.best_of.copy(),
        step_unit=step_rows[0],
        step_kill=step_rows[1],
        step_count=step_rows[2],
        step_landed=step_rows[3],
        submerge=_SUBMERGE_CODE[side.submerge],
        support_side=0 if attacking else 1,
        reserved_step=reserved,
        reserve_before=before,
    )


_SUBMERGE_CODE = {policy: code for code, policy in enumerate(Submerge)}
"""``SideArrays.submerge`` of each policy (SUBMERGE_NEVER, SUBMERGE_ALWAYS, SUBMERGE_ALONE)."""
