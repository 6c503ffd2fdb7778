"""Validated public wrapper of the exact engine: lower the battle, run the DP, build the result."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from oddsim.battle import Battle
from oddsim.dice import add_dice, low_luck_pmf
from oddsim.errors import TooLargeError
from oddsim.exact import _kernel as k
from oddsim.lowering import LoweredBattle, SideArrays, lower
from oddsim.result import BattleResult, describe_units, survivor_table

MAX_JOINT_STATES = 4_000_000
"""Largest number of joint casualty states the exact engine accepts (about 100 MB of memory)."""
MAX_WORK = 10_000_000_000
"""Largest estimated work (states x hit spread of each side), about ten seconds."""
MAX_TABLE_ENTRIES = 40_000_000
"""Largest per-side hit-distribution table (states x groups x dice), about 320 MB."""
PRUNE = 1e-18
"""Moves carrying less probability than this, and states reached with less, are dropped; their
total is reported as ``truncated_mass`` (typically below 1e-13)."""


@dataclass(frozen=True)
class _SideLayout:
    """How one side's order of loss is split into classes for the DP."""

    class_len: np.ndarray
    class_slots: np.ndarray
    slot_unit: np.ndarray
    slot_kill: np.ndarray

    @property
    def n_states(self) -> int:
        return int(np.prod(self.class_len + 1))


def _layout(low: LoweredBattle, side: SideArrays, enemy: SideArrays, is_attacker: bool) -> _SideLayout:
    """Split a side's loss slots into air / sub / other only where the enemy's hits tell them
    apart: enemy subs or AA (air split), enemy aircraft that need a destroyer to hit subs."""
    enemy_has = lambda mask: bool(np.any(enemy.count[mask] > 0))  # noqa: E731
    split_air = enemy_has(low.is_sub) or (is_attacker and enemy_has(low.is_aa))
    split_sub = low.air_needs_destroyer and enemy_has(low.is_air)
    units = np.repeat(side.step_unit, side.step_count)
    kills = np.repeat(side.step_kill, side.step_count)
    classes = np.full(units.shape, k.OTHER, dtype=np.int64)
    if split_air:
        classes[low.is_air[units]] = k.AIR
    if split_sub:
        classes[low.is_sub[units]] = k.SUB
    class_len = np.array([np.sum(classes == c) for c in range(k.N_CLASSES)], dtype=np.int64)
    class_slots = np.zeros((k.N_CLASSES, max(1, int(class_len.max()))), dtype=np.int64)
    for c in range(k.N_CLASSES):
        positions = np.flatnonzero(classes == c)
        class_slots[c, : len(positions)] = positions
    return _SideLayout(class_len, class_slots, units.astype(np.int64), kills.astype(np.int64))


def _hit_spread(dice: int) -> float:
    """How many hit counts of ``dice`` dice carry weight: about 16 standard deviations, at most
    every count."""
    return min(dice + 1.0, 8.0 * math.sqrt(dice) + 1.0)


def estimate_work(battle: Battle) -> tuple[int, float]:
    """(joint casualty states, estimated work) of solving ``battle`` exactly. On this kind of
    machine one unit of work is about a nanosecond."""
    low = lower(battle)
    a = _layout(low, low.attacker, low.defender, True)
    d = _layout(low, low.defender, low.attacker, False)
    return _work(low, a, d)


def _work(low: LoweredBattle, a: _SideLayout, d: _SideLayout) -> tuple[int, float]:
    joint = a.n_states * d.n_states
    spread = _hit_spread(int(low.attacker.count.sum())) * _hit_spread(int(low.defender.count.sum()))
    return joint, joint * spread


@dataclass(frozen=True)
class _Prepared:
    """Everything the kernels need for one battle."""

    low: LoweredBattle
    a: _SideLayout
    d: _SideLayout
    a_tables: tuple
    d_tables: tuple
    A: tuple  # noqa: N815 - the attacker's tables as the kernels take them
    D: tuple  # noqa: N815
    rules: tuple
    holds: bool
    retreat: tuple
    air_alive: np.ndarray
    win_chance: np.ndarray
    start: np.ndarray


def _prepare(battle: Battle) -> _Prepared:
    low = lower(battle)
    a = _layout(low, low.attacker, low.defender, True)
    d = _layout(low, low.defender, low.attacker, False)
    joint, work = _work(low, a, d)
    if joint > MAX_JOINT_STATES or work > MAX_WORK:
        raise TooLargeError(
            f"battle too large for the exact engine: {joint:,} casualty states and about "
            f"{work / 1e9:,.0f} s of work, the limit is {MAX_JOINT_STATES:,} states and "
            f"{MAX_WORK / 1e9:,.0f} s; use --method mc (or auto)")
    tables = []
    for layout, side, is_attacker in ((a, low.attacker, True), (d, low.defender, False)):
        max_dice = int((side.count * side.dice).sum()) + 1  # + 1: a Low Luck bonus hit
        if layout.n_states * k.N_GROUPS * (max_dice + 1) > MAX_TABLE_ENTRIES:
            raise TooLargeError(
                f"battle too large for the exact engine: the {'attacker' if is_attacker else 'defender'}'s "
                f"hit tables would need {layout.n_states * (max_dice + 1):,} entries; use --method mc")
        tables.append(k.side_tables(
            layout.class_len, layout.class_slots, layout.slot_unit, layout.slot_kill, side.count,
            side.damaged, side.value, side.dice, side.best_of, low.low_luck, low.cost, low.is_air,
            low.is_sub, low.is_destroyer, low.is_land, low.defenceless, low.support_supporter,
            low.support_supported, low.support_per, low.support_value, low.support_side,
            side.support_side, max_dice))
    (a_stride, a_alive, a_damaged, a_ipc, a_flags, a_dist, a_lo, a_hi) = tables[0]
    (d_stride, d_alive, d_damaged, d_ipc, d_flags, d_dist, d_lo, d_hi) = tables[1]
    start = np.zeros(joint)
    aa = _aa_distribution(low, battle)
    if aa is None:
        start[0] = 1.0
    else:
        k.pre_battle_aa(a_stride, a.class_len, aa, start, d.n_states)
    A = (a.class_len, a.class_slots, a_stride, a_flags, a_dist, a_lo, a_hi)  # noqa: N806
    D = (d.class_len, d.class_slots, d_stride, d_flags, d_dist, d_lo, d_hi)  # noqa: N806
    rules = (low.attacker_subs_first, low.defender_subs_first, low.air_needs_destroyer)
    holds = bool(np.any((low.defender.count > 0) & (_combatant(low, low.defender) == 0)))
    policy = battle.retreat
    retreat = (-1, -1.0, 1.0)  # never
    if policy is not None:
        retreat = (-1 if policy.units_left is None else policy.units_left,
                   -1.0 if policy.below_win is None else float(policy.below_win),
                   1.0 if policy.aircraft_risk is None else float(policy.aircraft_risk))
    if policy is not None and policy.below_win is not None:
        win_chance = k.win_chance_kernel(A, D, rules, holds)
    else:
        win_chance = np.ones(joint)
    return _Prepared(low, a, d, (a_alive, a_damaged, a_ipc, a_flags), (d_alive, d_damaged, d_ipc),
                     A, D, rules, holds, retreat, (a_alive * low.is_air).sum(axis=1), win_chance,
                     start)


def solve(battle: Battle) -> BattleResult:
    """Exact outcome distribution of the battle (fought to the end, or to the attacker's
    retreat)."""
    p = _prepare(battle)
    policy = battle.retreat
    if policy is not None and policy.after_round is not None:
        final, outcome, final_w, rounds, pruned = k.rounds_kernel(
            p.A, p.D, p.start, p.rules, p.holds, PRUNE, p.retreat, p.air_alive, p.win_chance,
            policy.after_round)
    else:
        final, outcome, final_w, rounds, pruned = k.solve_kernel(
            p.A, p.D, p.start, p.rules, p.holds, PRUNE, p.retreat, p.air_alive, p.win_chance)
    a_alive, a_damaged, a_ipc, a_flags = p.a_tables
    d_alive, d_damaged, d_ipc = p.d_tables
    return _result(battle, p.low, p.a, p.d, (a_alive, a_damaged), (d_alive, d_damaged), a_ipc,
                   d_ipc, a_flags, final, outcome, final_w, rounds, pruned)


@dataclass(frozen=True)
class RetreatTable:
    """The attacker's state-based retreat decisions for every joint casualty state, and how to
    find a state from the units left in each loss step (for the Monte Carlo engine, which rolls
    its own dice but takes the decisions of "below a win chance" and "aircraft risk" from here).

    A side's state index is sum over its loss steps of (casualties taken in the step) x
    ``stride`` of the step; the joint index is attacker index x ``n_defender_states`` + defender
    index."""

    attacker_step_stride: np.ndarray
    defender_step_stride: np.ndarray
    n_defender_states: int
    retreat: np.ndarray  # int8 per joint state


def retreat_table(battle: Battle) -> RetreatTable:
    """The exact engine's retreat decisions for ``battle``'s policy (raises TooLargeError for
    battles the exact engine cannot take)."""
    p = _prepare(battle)
    mask = k.retreat_mask_kernel(p.A, p.D, p.rules, p.holds, p.retreat, p.air_alive, p.win_chance)
    return RetreatTable(_step_strides(p.a, p.low.attacker), _step_strides(p.d, p.low.defender),
                        p.d.n_states, mask)


def _step_strides(layout: _SideLayout, side: SideArrays) -> np.ndarray:
    """Stride of each loss step in the side's state index: its slots' class stride (a step's
    slots share one class, and casualties within a class follow the order of loss)."""
    stride = np.cumprod(np.concatenate(([1], layout.class_len[:-1] + 1)))
    first_slot = np.concatenate(([0], np.cumsum(side.step_count)[:-1]))
    step_class = np.zeros(len(side.step_count), dtype=np.int64)
    for c in range(k.N_CLASSES):
        slots = layout.class_slots[c, : layout.class_len[c]]
        for step, first in enumerate(first_slot):
            if side.step_count[step] and first in slots:
                step_class[step] = c
    return stride[step_class].astype(np.int64)


def _aa_distribution(low: LoweredBattle, battle: Battle) -> np.ndarray | None:
    """Hit distribution of the AA fire before the first round, or None when there is none."""
    if battle.sea:
        return None
    guns = int(low.defender.count[low.is_aa].sum())
    aircraft = int(low.attacker.count[low.is_air].sum())
    if guns == 0 or aircraft == 0:
        return None
    dice = min(low.aa_dice_per_gun * guns, aircraft) if low.aa_per_gun else aircraft
    dist = np.zeros(dice + 2)
    if low.low_luck:
        size = low_luck_pmf(dice * low.aa_hit, dist)
        return dist[:size]
    dist[0] = 1.0
    add_dice(dist, 1, dice, low.aa_hit / 6, np.zeros(dice + 2))
    return dist[: dice + 1]


def _result(battle, low, a, d, a_tables, d_tables, a_ipc, d_ipc, a_flags, final, outcome, final_w,
            rounds, pruned) -> BattleResult:
    mass = final.reshape(a.n_states, d.n_states)
    codes = outcome.reshape(a.n_states, d.n_states)
    by_code = {code: float(mass[codes == code].sum())
               for code in (k.ATTACKER_WINS, k.DEFENDER_WINS, k.DRAW, k.STALEMATE, k.RETREAT)}
    retreat_rounds = float(final_w[outcome == k.RETREAT].sum())
    a_dead = (codes == k.DEFENDER_WINS) | (codes == k.DRAW)
    d_dead = (codes == k.ATTACKER_WINS) | (codes == k.DRAW)
    a_left = np.where(a_dead, 0.0, mass).sum(axis=1)  # P(battle ends with attacker in state i)
    d_left = np.where(d_dead, 0.0, mass).sum(axis=0)
    # a side destroyed loses what it fought with; a non-casualty AA gun is captured, not lost
    a_total = int((low.attacker.count * low.cost * _combatant(low, low.attacker)).sum())
    d_total = int((low.defender.count * low.cost * _combatant(low, low.defender)).sum())
    a_none = float(mass[a_dead].sum())
    d_none = float(mass[d_dead].sum())
    take = 0.0
    if not battle.sea:
        wins = np.where(codes == k.ATTACKER_WINS, mass, 0.0).sum(axis=1)
        take = float(wins[a_flags[:, 5] == 1].sum())
    names = [u.name for u in battle.rules.units]
    return BattleResult(
        battle=battle.describe(),
        method="exact",
        attacker_win=by_code[k.ATTACKER_WINS],
        defender_win=by_code[k.DEFENDER_WINS],
        draw=by_code[k.DRAW],
        stalemate=by_code[k.STALEMATE],
        retreat=by_code[k.RETREAT],
        retreat_round=retreat_rounds / by_code[k.RETREAT] if by_code[k.RETREAT] > 0 else None,
        takes_territory=None if battle.sea else take,
        attacker_ipc_lost=a_none * a_total + float(a_left @ a_ipc),
        defender_ipc_lost=d_none * d_total + float(d_left @ d_ipc),
        expected_rounds=float(rounds),
        attacker_survivors=_survivors(a_left, a_none, a_tables, low.attacker, low, names,
                                      np.where(codes == k.RETREAT, mass, 0.0).sum(axis=1)),
        defender_survivors=_survivors(d_left, d_none, d_tables, low.defender, low, names),
        truncated_mass=float(pruned),
    )


def _survivors(left, none, tables, side, low, names, retreated=None):
    """Group the side's end states by the units they leave (those that retreated apart)."""
    alive, damaged = tables
    table: dict[str, list] = {"none": [0, 0, none]}
    states = np.flatnonzero(left)
    units = alive[states] * _combatant(low, side)
    hurt = np.minimum(damaged[states], units)
    counts = units.sum(axis=1).tolist()
    ipcs = (units @ low.cost).tolist()
    gone = np.zeros(len(states)) if retreated is None else retreated[states]
    for row, row_hurt, count, ipc, p, p_gone in zip(units.tolist(), hurt.tolist(), counts, ipcs,
                                                    left[states].tolist(), gone.tolist(), strict=True):
        key = describe_units(names, row, row_hurt)
        if p - p_gone > 0:
            table.setdefault(key, [count, ipc, 0.0])[2] += p - p_gone
        if p_gone > 0:
            table.setdefault(f"{key} (retreated)", [count, ipc, 0.0])[2] += p_gone
    return survivor_table({key: tuple(row) for key, row in table.items()})


def _combatant(low, side) -> np.ndarray:
    """Units that take part in combat rounds (a non-casualty AA gun does not survive as such)."""
    in_steps = np.zeros(len(low.cost), dtype=np.int64)
    in_steps[side.step_unit] = 1
    return in_steps
