"""The lattice sweep behind ``lattice.solve_sub_armies`` and the purchase sweeps: the figures of
one battle for many armies of one side at once, from one backward DP over the lattice of their
states (``_lattice``) against the other side's casualty states.

What it takes: battles without a retreat policy, submerging subs, crash fighters, ``keep_land``
or a destroyer kept last on the swept side, and whose swept armies all have the same units that
take no part in combat (an AA gun that is no casualty). ``sweep`` answers None for any other
battle, and marks the armies whose battle AA splits by its outcome (``oddsim.model.aa_fire``): the
caller solves those one by one. Round 1's own steps are applied per army on top of the sweep:
AA fire, a bombardment (firing back or not), subs that strike first in round 1 only.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from oddsim.engines.exact import _lattice as lat
from oddsim.engines.exact import _tables as t
from oddsim.engines.exact._inputs import (
    MAX_TABLE_ENTRIES,
    group_distribution,
    side_tables,
    size,
    support_rules,
    unit_types,
)
from oddsim.engines.exact._kernel import Rules, bombard_round_kernel, first_round_kernel
from oddsim.engines.lowering import aa_dice
from oddsim.model.aa_fire import split_aircraft
from oddsim.model.battle import Battle, Submerge
from oddsim.model.forces import Force
from oddsim.model.rules import AACasualties, Domain, SubStrikeDestroyer

MAX_CODES = 4_000_000
"""Largest product of (slots + 1) over the swept side's loss kinds (its lattice's dense map, of
8 bytes an entry)."""
MAX_SWEEP_STATES = 1_000_000
"""Largest number of joint states one sweep takes (two tables of ``N_VALUES`` floats each)."""

FIGURES = ("attacker_win", "defender_win", "draw", "stalemate", "takes_territory", "attacker_ipc_lost",
           "defender_ipc_lost", "tuv_swing", "expected_rounds")
"""The columns of ``sweep``'s figures, named as ``BattleResult``'s (``takes_territory`` 0 at sea)."""


def battle_with(battle: Battle, side: str, force: Force) -> Battle:
    """``battle`` with ``side``'s army replaced by ``force``, every other option kept."""
    return replace(battle, **{side: replace(getattr(battle, side), army=force)})


def force_of(names: tuple[str, ...], counts: np.ndarray, damaged: np.ndarray | None = None) -> Force:
    """The ``Force`` of a count per unit type (``names``' order) and damaged units likewise."""
    hurt = () if damaged is None else tuple(
        (n, int(d)) for n, d in zip(names, damaged.tolist(), strict=True) if d)
    return Force(tuple((n, int(c)) for n, c in zip(names, counts.tolist(), strict=True) if c), hurt)


def fits(battle: Battle, side: str) -> bool:
    """Whether the sweep takes ``battle`` with ``side``'s armies swept (else: one solve each)."""
    if battle.retreat is not None or battle.crash_fighters or battle.best_losses:
        return False  # (a side choosing each loss is a game per battle: ``casualties``)
    if battle.attacker.submerge is not Submerge.NEVER or battle.defender.submerge is not Submerge.NEVER:
        return False
    if side == "attacker":
        return not battle.attacker.keep_land and not battle.attacker.destroyer_last
    return not battle.defender.destroyer_last


def sweep(battle: Battle, side: str, counts: np.ndarray,
          damaged: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray] | None:
    """The figures (``FIGURES`` columns, one row per army) of ``battle`` with ``side``'s army
    replaced by each row of ``counts`` (units per type in the edition's order; ``damaged``: of
    them, damaged two-hit units), and which rows the caller must solve apart (their battle is
    split by the AA outcome; their figures are NaN). None: the battle does not fit the sweep
    (``fits``, or its lattice is too large, or its armies differ in units that do not fight)."""
    if not fits(battle, side):
        return None
    counts = np.ascontiguousarray(counts, dtype=np.int64)
    damaged = np.zeros_like(counts) if damaged is None else np.ascontiguousarray(damaged, dtype=np.int64)
    names = tuple(u.name for u in battle.rules.units)
    largest = battle_with(battle, side, force_of(names, counts.max(axis=0)))
    low, a_layout, d_layout = size(largest, plain=False).lowered  # (its AA-split armies: apart)
    swept_is_attacker = side == "attacker"
    steps = low.attacker if swept_is_attacker else low.defender
    kinds = list(zip(steps.step_unit.tolist(), steps.step_kill.tolist(), steps.step_landed.tolist(),
                     strict=True))
    if len(set(kinds)) != len(kinds) or steps.reserved_step >= 0:
        return None  # not a fixed priority of kinds
    idle_types = np.setdiff1d(np.flatnonzero(counts.max(axis=0)), steps.step_unit)
    if (counts[:, idle_types] != counts[0, idle_types]).any():
        return None  # the armies differ in units that hold the territory without fighting
    if side == "attacker" and battle.attacker.landed is not None:
        landed = [(names.index(name), n) for name, n in battle.attacker.landed.counts]
        if any((counts[:, u] < n).any() for u, n in landed):
            return None  # some army lacks the units landed from the sea (its solve says so)
    starts = _kind_counts(battle, side, counts, damaged, steps)
    kind_max = steps.step_count.astype(np.int64)
    if float(np.prod(kind_max + 1.0)) > MAX_CODES:
        return None
    idle = np.zeros(len(names), dtype=np.int64)
    idle[idle_types] = counts[0, idle_types]
    fixed_layout = d_layout if swept_is_attacker else a_layout
    swept_layout = a_layout if swept_is_attacker else d_layout
    fixed, fixed_counts, fixed_reached = side_tables(low, fixed_layout, not swept_is_attacker)
    types, support = unit_types(low), support_rules(low)
    loss_kinds = lat.LossKinds(steps.step_unit, steps.step_kill, kind_max, starts, idle)
    dice = t.SideDice(idle, idle, steps.value, steps.dice, steps.best_of, steps.support_side,
                      low.dice_sides)
    tables, aa_next, swept_left, fighting, start_state = lat.lattice_side(
        loss_kinds, dice, types, support, low.low_luck, swept_layout.rolls + 1, MAX_TABLE_ENTRIES)
    n_swept = tables.flags.shape[0]
    if n_swept == 0 or n_swept * fixed.flags.shape[0] > MAX_SWEEP_STATES:
        return None
    fixed_left = (fixed_layout.fighting_value - fixed_counts.ipc_lost).astype(np.float64)
    swept_reached = np.ones(n_swept, dtype=np.bool_)
    A, D = (tables, fixed) if swept_is_attacker else (fixed, tables)  # noqa: N806 - the kernels' names
    a_left, d_left = (swept_left, fixed_left) if swept_is_attacker else (fixed_left, swept_left)
    a_reached, d_reached = ((swept_reached, fixed_reached) if swept_is_attacker
                            else (fixed_reached, swept_reached))
    holds = d_layout.idle
    keys = _rule_keys(battle, side, counts, names)
    figures = np.full((len(counts), len(FIGURES)), np.nan)
    apart = _split_by_aa(battle, side, counts, damaged, names)
    for key in np.unique(keys):
        rows = np.flatnonzero((keys == key) & ~apart)
        if not len(rows):
            continue
        flags = low  # (the first strikes depend on the armies only through a destroyer at the start)
        if battle.rules.combat.sub_strike_destroyer is SubStrikeDestroyer.AT_ATTACK:
            flags = size(battle_with(battle, side, force_of(names, counts[rows[0]])), plain=False).lowered[0]
        first_rules = Rules(flags.attacker_subs_first, flags.defender_subs_first, low.air_needs_destroyer)
        rules = Rules(False, False, low.air_needs_destroyer) if low.subs_first_round_one else first_rules
        v1 = lat.sweep_kernel(A, D, rules, holds, a_left, d_left, a_reached, d_reached)
        values = _start_values(battle, low, side, counts[rows], start_state[rows], aa_next, A, D, a_layout,
                               v1, rules, first_rules, holds, names)
        at_start = swept_left[start_state[rows]]
        fixed_total = np.full(len(rows), float(fixed_layout.fighting_value))
        a_total, d_total = (at_start, fixed_total) if swept_is_attacker else (fixed_total, at_start)
        figures[rows] = _figures(values, a_total, d_total)
    return figures, apart


def _kind_counts(battle: Battle, side: str, counts: np.ndarray, damaged: np.ndarray, steps) -> np.ndarray:
    """Each army's loss slots per kind (a step of the largest army's order of loss): a unit's
    free hits (hits - 1 for each, less those its damaged units took), a kill for each unit,
    those landed from the sea first."""
    landed = np.zeros(counts.shape[1], dtype=np.int64)
    if side == "attacker" and battle.attacker.landed is not None:
        index = {u.name: i for i, u in enumerate(battle.rules.units)}
        for name, n in battle.attacker.landed.counts:
            landed[index[name]] = n
    taken_landed = np.minimum(counts, landed)
    free_hits = [u.hits - 1 for u in battle.rules.units]  # (each unit's, as casualty_order counts them)
    starts = np.empty((len(counts), len(steps.step_unit)), dtype=np.int64)
    for c, (u, kill, is_landed) in enumerate(zip(steps.step_unit.tolist(), steps.step_kill.tolist(),
                                                 steps.step_landed.tolist(), strict=True)):
        if not kill:
            starts[:, c] = counts[:, u] * free_hits[u] - damaged[:, u]
        elif is_landed:
            starts[:, c] = taken_landed[:, u]
        else:
            starts[:, c] = counts[:, u] - taken_landed[:, u]
    return starts


def _rule_keys(battle: Battle, side: str, counts: np.ndarray, names: tuple[str, ...]) -> np.ndarray:
    """Per army, which first-strike rules its battle has: where a destroyer at the start takes
    the enemy's first strike away (``sub_strike_destroyer = "at_attack"``), whether it has one."""
    rules = battle.rules
    if rules.combat.sub_strike_destroyer is not SubStrikeDestroyer.AT_ATTACK:
        return np.zeros(len(counts), dtype=np.int64)
    destroyer = np.array([rules.unit(n).destroyer for n in names], dtype=bool)
    return (counts[:, destroyer].sum(axis=1) > 0).astype(np.int64)


def _split_by_aa(battle: Battle, side: str, counts: np.ndarray, damaged: np.ndarray,
                 names: tuple[str, ...]) -> np.ndarray:
    """Per army, whether AA fire splits its battle by outcome (``oddsim.model.aa_fire.split_aircraft``), asked
    only of the armies where it may (two kinds of aircraft or more among the attackers)."""
    apart = np.zeros(len(counts), dtype=bool)
    rules = battle.rules
    if battle.sea or rules.combat.aa_casualties is not AACasualties.PER_AIRCRAFT:
        return apart
    air = np.array([rules.unit(n).domain is Domain.AIR for n in names], dtype=bool)
    if side == "attacker":
        maybe = np.flatnonzero((counts[:, air] > 0).sum(axis=1) >= 2)
    else:
        attacker_air = sum(1 for name, _ in battle.attacker.army.counts
                           if rules.unit(name).domain is Domain.AIR)
        maybe = np.arange(len(counts)) if attacker_air >= 2 else np.zeros(0, dtype=np.int64)
    for i in maybe.tolist():
        army = force_of(names, counts[i], damaged[i])
        apart[i] = split_aircraft(battle_with(battle, side, army)) is not None
    return apart


def _start_values(battle, low, side, counts, start_state, aa_next, A, D, a_layout, v1, rules, first_rules,  # noqa: N803
                  holds, names) -> np.ndarray:
    """Each army's expectations from the start of its battle: the sweep's (``v1``) over where
    AA fire and a bombardment leave the two sides before round 1, with round 1 fought apart
    where it has steps of its own (a bombardment that fires back, subs that strike first in
    round 1 only), as ``solve._start_mass`` does for one battle."""
    swept_is_attacker = side == "attacker"
    nd = D.flags.shape[0]
    rule_set = battle.rules
    unit_types = [rule_set.unit(n) for n in names]
    aa_units = np.array([u.aa for u in unit_types], dtype=bool)
    air = np.array([u.domain is Domain.AIR for u in unit_types], dtype=bool)
    subs = np.array([u.submarine for u in unit_types], dtype=bool)
    fixed = battle.side(not swept_is_attacker).army
    fixed_counts = np.array([fixed.count(n) for n in names], dtype=np.int64)
    a_counts = counts if swept_is_attacker else np.broadcast_to(fixed_counts, counts.shape)
    d_counts = np.broadcast_to(fixed_counts, counts.shape) if swept_is_attacker else counts
    a0 = start_state if swept_is_attacker else np.zeros(len(counts), dtype=np.int64)
    d0 = np.zeros(len(counts), dtype=np.int64) if swept_is_attacker else start_state
    # AA fire: its dice per army, one hit distribution per number of dice (row 0: none)
    shots = np.zeros(len(counts), dtype=np.int64)
    if not (battle.sea or battle.in_progress):
        guns, aircraft = d_counts[:, aa_units].sum(axis=1).tolist(), a_counts[:, air].sum(axis=1).tolist()
        shots = np.array([aa_dice(rule_set, g, n) for g, n in zip(guns, aircraft, strict=True)],
                         dtype=np.int64)
    a_dist = np.zeros((int(shots.max()) + 1, int(shots.max()) + 2))
    a_dist[0, 0] = 1.0
    for n in np.unique(shots[shots > 0]).tolist():
        dice = np.zeros(low.dice_sides + 1, dtype=np.int64)
        dice[low.aa_hit] = n
        hits = group_distribution(dice, low.low_luck)
        assert hits is not None  # (n dice)
        a_dist[n, :len(hits)] = hits
    a_next = aa_next if swept_is_attacker else _aircraft_chain(A, a_layout)
    bombard = group_distribution(low.bombard_dice, low.low_luck)
    fire_back = bombard is not None and low.bombard_fire_back
    d_dist = bombard if bombard is not None and not fire_back else np.ones(1)
    d_next = np.ascontiguousarray(D.next_hit[:, t.H_ANY])
    values = lat.start_values(v1, nd, np.ascontiguousarray(a0, dtype=np.int64),
                              np.ascontiguousarray(d0, dtype=np.int64), a_dist, shots, a_next, d_dist, d_next)
    strikes = (first_rules.attacker_subs_first & (a_counts[:, subs].sum(axis=1) > 0)
               | first_rules.defender_subs_first & (d_counts[:, subs].sum(axis=1) > 0))
    special = np.arange(len(counts)) if fire_back else np.flatnonzero(low.subs_first_round_one & strikes)
    for i in special.tolist():  # round 1 fought apart from the start mass
        mass = np.zeros(A.flags.shape[0] * nd)
        a_states, a_p = lat.spread_hits(int(a0[i]), a_dist[shots[i]], a_next)
        mass[a_states * nd + int(d0[i])] = a_p
        if fire_back:
            left, end = bombard_round_kernel(A, D, mass, bombard, rules, holds)
        else:
            left, end = first_round_kernel(A, D, mass, first_rules, holds)
        values[i] = left @ v1 + end @ v1
        values[i, lat.V_ROUNDS] += end.sum()
    return values


def _aircraft_chain(A, layout) -> np.ndarray:  # noqa: N803
    """Where one more AA hit takes the attacker's tables' states (``_tables``): along its
    aircraft class, which AA hits alone reach before round 1."""
    chain = np.arange(A.flags.shape[0], dtype=np.int64)
    stride = int(A.stride[t.AIR])
    for lost in range(int(layout.class_len[t.AIR])):
        chain[lost * stride] = (lost + 1) * stride
    return chain


def _figures(values: np.ndarray, a_total: np.ndarray, d_total: np.ndarray) -> np.ndarray:
    """``FIGURES`` from the sweep's expectations and each side's IPC value at the start."""
    out = np.empty((len(values), len(FIGURES)))
    chances = (lat.V_ATTACKER_WIN, lat.V_DEFENDER_WIN, lat.V_DRAW, lat.V_STALEMATE, lat.V_TAKES)
    for column, v in enumerate(chances):
        out[:, column] = np.minimum(values[:, v], 1.0)  # (a sum of many ways may round past 1)
    out[:, 5] = a_total - values[:, lat.V_ATTACKER_LEFT]
    out[:, 6] = d_total - values[:, lat.V_DEFENDER_LEFT]
    out[:, 7] = out[:, 6] - out[:, 5]
    out[:, 8] = values[:, lat.V_ROUNDS]
    return out
