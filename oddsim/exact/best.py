"""The best retreat: the attacker's optimal stopping policy, computed exactly over the DP's states.

``RetreatPolicy(best="tuv")`` maximises the expected TUV swing (defender IPC lost minus attacker
IPC lost); ``best="value"`` adds the territory's value when the attacker takes it. The exact
engine finds the policy here (``best_retreat_kernel``: value = max(retreat now, fight a round and
act best afterwards), ties fighting on; no retreat before round 1) and then fights the battle
under it like any state-based policy. The Monte Carlo engine plays the policy table the exact
engine computed: the one place where the engines share a decision rather than a rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from oddsim.battle import RetreatPolicy
from oddsim.exact import _kernel as k
from oddsim.exact import _tables as t
from oddsim.exact._best import best_retreat_kernel
from oddsim.names import describe_counts
from oddsim.result import BattleResult, RetreatPlanRow


@dataclass(frozen=True)
class BestRetreat:
    """The best policy of one battle: its expected objective from the start, and whether it
    retreats in each joint state (the end of a round there)."""

    objective: float
    retreat: np.ndarray  # int8 per joint state


def best_retreat(policy: RetreatPolicy, p, prune: float, land_battle: bool, a_total: int,
                 d_total: int) -> BestRetreat:
    """Solve the optimal stopping problem of ``policy``'s objective for the exact engine's
    prepared battle ``p`` (``solve._Prepared``); ``*_total``: the IPCs each side fights with.
    Only the states the battle reaches when fought to the end (found by a forward sweep) are
    solved: the policy's battles reach no others, since a retreat only ends some of them
    earlier."""
    low = p.low
    n = p.joint
    own = np.arange(n)
    submerge_to = p.submerge_to if len(p.submerge_to) else own
    # the states the battle gets to, fought to the end; after a retreat that leaves the landed
    # units fighting, also those they get to from there. With no policy the kernel never reads
    # the retreat inputs: placeholders stand for them
    visited = np.zeros(n)
    never, unused, no_moves = k.RetreatRule(-1, -1.0, 1.0), np.zeros(1), np.zeros(0, dtype=np.int64)
    k.solve_kernel(p.A, p.D, p.start_idx, p.start_val, p.work(p.end), p.rules, p.holds, prune, never,
                   unused, unused, p.submerge_to, no_moves, False, visited)
    retreat_to = p.retreat_to
    partial = (retreat_to >= 0) & (retreat_to != own) & (visited > 0.0)
    if partial.any():
        after = np.zeros(n)
        np.add.at(after, retreat_to[partial], visited[partial])
        k.solve_kernel(p.A, p.D, no_moves, np.zeros(0), p.work(after), p.rules, p.holds, prune, never,
                       unused, unused, p.submerge_to, no_moves, False, visited)
    a, d = p.a_counts, p.d_counts
    # IPCs lost by a side destroyed: what it fought with but the units that left the battle early
    a_dead = a_total - a.departed @ low.cost
    d_dead = d_total - d.departed @ low.cost
    takes = (p.A.flags[:, t.F_LAND] == 1) & land_battle
    v_end, v_start, retreat = best_retreat_kernel(p.A, p.D, p.rules, p.holds, submerge_to, retreat_to,
                                                  visited > 0.0, a.ipc_lost, d.ipc_lost, a_total, a_dead,
                                                  d_dead, takes, policy.territory_bonus)
    # plain sums, not BLAS dot products: on a busy machine BLAS threads can take milliseconds
    objective = float((p.start_val * v_start[p.start_idx]).sum())
    if p.end is not None:
        objective += float((p.end * v_end).sum())
    return BestRetreat(objective, retreat)


def retreat_plan(names: list[str], a_counts: t.SideCounts, d_counts: t.SideCounts, n_defender: int,
                 mass: np.ndarray, weighted: np.ndarray) -> tuple[RetreatPlanRow, ...]:
    """The plan's rows: each state where the policy retreats and the battle gets there (units in
    the battle on each side), with the chance of retreating there and the mean round it happens
    (``mass``/``weighted``: the retreat mass per joint state, and the same weighted by rounds).
    Most likely first."""
    states = np.flatnonzero(mass > 0.0)
    sides = []
    for counts, index in ((a_counts, states // n_defender), (d_counts, states % n_defender)):
        alive, damaged, gone = counts.alive, counts.damaged, counts.departed
        described = {}  # each side state is described once
        for i in np.unique(index).tolist():
            units = alive[i] - gone[i]
            left = [(name, n) for name, n in zip(names, units.tolist(), strict=True) if n > 0]
            hurt = {name: h for name, h in zip(names, np.minimum(damaged[i], units).tolist(), strict=True)
                    if h > 0}
            described[i] = describe_counts(left, hurt)
        sides.append([described[i] for i in index.tolist()])
    rows = [RetreatPlanRow(attacker, defender, p, w / p) for attacker, defender, p, w in
            zip(*sides, mass[states].tolist(), weighted[states].tolist(), strict=True)]
    return tuple(sorted(rows, key=lambda row: (-row.probability, row.attacker, row.defender)))


def mix_plans(parts: Sequence[tuple[float, BattleResult]]) -> tuple[RetreatPlanRow, ...]:
    """One plan from those of the parts of a battle split by its AA outcomes (``(probability,
    BattleResult)`` each): the same states add up, their mean rounds weighted."""
    rows: dict[tuple[str, str], list[float]] = {}
    for share, result in parts:
        for row in result.retreat_plan or ():
            entry = rows.setdefault((row.attacker, row.defender), [0.0, 0.0])
            entry[0] += share * row.probability
            entry[1] += share * row.probability * row.mean_round
    plan = [RetreatPlanRow(a, d, p, w / p) for (a, d), (p, w) in rows.items() if p > 0]
    return tuple(sorted(plan, key=lambda row: (-row.probability, row.attacker, row.defender)))
