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
from oddsim.exact._best import best_retreat_kernel
from oddsim.lowering import LoweredBattle
from oddsim.names import describe_counts
from oddsim.result import BattleResult, RetreatPlanRow


@dataclass(frozen=True)
class BestRetreat:
    """The best policy of one battle: its expected objective from the start, and whether it
    retreats in each joint state (the end of a round there)."""

    objective: float
    retreat: np.ndarray  # int8 per joint state


def best_retreat(policy: RetreatPolicy, low: LoweredBattle, land_battle: bool, a_tables: tuple,
                 d_tables: tuple, a_total: int, d_total: int, A: tuple, D: tuple,  # noqa: N803
                 rules: tuple, holds: bool, submerge_to: np.ndarray, retreat_to: np.ndarray,
                 start: np.ndarray, end: np.ndarray, prune: float) -> BestRetreat:
    """Solve the optimal stopping problem of ``policy``'s objective. ``*_tables`` are each side's
    (alive, damaged, IPC lost, flags, departed) per state; ``*_total`` the IPCs each side fights
    with; ``start``/``end`` the joint mass before round 1 and at the end of round 1 (where the
    pre-battle phase fought it), as the exact engine's solve uses them. Only the states the
    battle reaches when fought to the end (found by a forward sweep) are solved: the policy's
    battles reach no others, since a retreat only ends some of them earlier."""
    _, _, a_ipc, a_flags, a_gone = a_tables
    _, _, d_ipc, _, d_gone = d_tables
    n = len(start)
    # the states the battle gets to, fought to the end; after a retreat that leaves the landed
    # units fighting, also those they get to from there
    visited = np.zeros(n)
    # with no policy the kernel never reads the retreat inputs: placeholders stand for them
    never, unused = (-1, -1.0, 1.0), np.zeros(1)
    k.solve_kernel(A, D, start, end, rules, holds, prune, never, unused, unused, submerge_to,
                   submerge_to, False, visited)
    if np.any(retreat_to >= 0):  # a retreat may leave landed units fighting in another state
        own = np.arange(n)
        partial = (retreat_to >= 0) & (retreat_to != own) & (visited > 0.0)
        after = np.zeros(n)
        np.add.at(after, retreat_to[partial], visited[partial])
        k.solve_kernel(A, D, np.zeros(n), after, rules, holds, prune, never, unused, unused,
                       submerge_to, submerge_to, False, visited)
    # IPCs lost by a side destroyed: what it fought with but the units that left the battle early
    a_dead = a_total - a_gone @ low.cost
    d_dead = d_total - d_gone @ low.cost
    takes = (a_flags[:, 5] == 1) & land_battle
    v_end, v_start, retreat = best_retreat_kernel(A, D, rules, holds, submerge_to, retreat_to,
                                                  visited > 0.0, a_ipc, d_ipc, a_total, a_dead, d_dead,
                                                  takes, policy.territory_bonus)
    # plain sums, not BLAS dot products: on a busy machine BLAS threads can take milliseconds
    return BestRetreat(float((start * v_start).sum() + (end * v_end).sum()), retreat)


def retreat_plan(names: list[str], a_tables: tuple, d_tables: tuple, n_defender: int,
                 mass: np.ndarray, weighted: np.ndarray) -> tuple[RetreatPlanRow, ...]:
    """The plan's rows: each state where the policy retreats and the battle gets there (units in
    the battle on each side), with the chance of retreating there and the mean round it happens
    (``mass``/``weighted``: the retreat mass per joint state, and the same weighted by rounds).
    Most likely first."""
    states = np.flatnonzero(mass > 0.0)
    sides = []
    for (alive, damaged, _, _, gone), index in ((a_tables, states // n_defender),
                                                (d_tables, states % n_defender)):
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
