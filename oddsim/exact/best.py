"""The best retreat: the attacker's optimal stopping policy, computed exactly over the DP's states.

``RetreatPolicy(best="tuv")`` maximises the expected TUV swing (defender IPC lost minus attacker
IPC lost); ``best="value"`` adds the territory's value when the attacker takes it. The exact
engine finds the policy here (``best_retreat_kernel``: value = max(retreat now, fight a round and
act best afterwards), ties fighting on; no retreat before round 1) and then fights the battle
under it like any state-based policy. The Monte Carlo engine plays the policy table the exact
engine computed: the one place where the engines share a decision rather than a rule.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from oddsim.battle import RetreatPolicy
from oddsim.exact import _kernel as k
from oddsim.exact._best import best_retreat_kernel, outcome_codes_kernel
from oddsim.lowering import LoweredBattle
from oddsim.result import RetreatPlanRow, describe_units


@dataclass(frozen=True)
class BestRetreat:
    """The best policy of one battle: its expected objective from the start, and whether it
    retreats in each joint state (the end of a round there)."""

    objective: float
    retreat: np.ndarray  # int8 per joint state


def best_retreat(policy: RetreatPolicy, low: LoweredBattle, land_battle: bool, a_tables: tuple,
                 d_tables: tuple, a_total: int, d_total: int, A: tuple, D: tuple,  # noqa: N803
                 rules: tuple, holds: bool, submerge_to: np.ndarray, retreat_to: np.ndarray,
                 start: np.ndarray, end: np.ndarray) -> BestRetreat:
    """Solve the optimal stopping problem of ``policy``'s objective. ``*_tables`` are each side's
    (alive, damaged, IPC lost, flags, departed) per state; ``*_total`` the IPCs each side fights
    with; ``start``/``end`` the joint mass before round 1 and at the end of round 1 (where the
    pre-battle phase fought it), as the exact engine's solve uses them."""
    a_alive, _, a_ipc, a_flags, a_gone = a_tables
    d_alive, _, d_ipc, _, d_gone = d_tables
    na, nd = len(a_ipc), len(d_ipc)
    codes = outcome_codes_kernel(A, D, rules, holds)
    grid = codes.reshape(na, nd)
    # IPCs lost where the battle ends, as the result counts them: a side destroyed loses what it
    # fought with but the units that left the battle early
    a_left_early = (a_total - a_gone @ low.cost)[:, None]
    d_left_early = (d_total - d_gone @ low.cost)[None, :]
    a_lost = np.where((grid == k.DEFENDER_WINS) | (grid == k.DRAW), a_total,
                      np.where(grid == k.RETREAT_LEFT, a_left_early, a_ipc[:, None]))
    d_lost = np.where((grid == k.ATTACKER_WINS) | (grid == k.DRAW), d_left_early, d_ipc[None, :])
    terminal = (d_lost - a_lost).astype(np.float64)
    if land_battle and policy.territory_bonus:
        takes = (grid == k.ATTACKER_WINS) & (a_flags[:, 5] == 1)[:, None]
        terminal += policy.territory_bonus * takes
    retreat_value = (d_ipc[None, :] - a_ipc[:, None]).astype(np.float64).ravel()
    v_end, v_start, retreat = best_retreat_kernel(A, D, rules, codes, terminal.ravel(), submerge_to,
                                                  retreat_to, retreat_value)
    return BestRetreat(float(start @ v_start + end @ v_end), retreat)


def retreat_plan(names: list[str], a_tables: tuple, d_tables: tuple, n_defender: int,
                 mass: np.ndarray, weighted: np.ndarray) -> tuple[RetreatPlanRow, ...]:
    """The plan's rows: each state where the policy retreats and the battle gets there (units in
    the battle on each side), with the chance of retreating there and the mean round it happens
    (``mass``/``weighted``: the retreat mass per joint state, and the same weighted by rounds).
    Most likely first."""
    a_alive, a_damaged, _, _, a_gone = a_tables
    d_alive, d_damaged, _, _, d_gone = d_tables
    rows = []
    for j in np.flatnonzero(mass > 0.0):
        ia, idd = divmod(int(j), n_defender)
        a_units = a_alive[ia] - a_gone[ia]
        d_units = d_alive[idd] - d_gone[idd]
        rows.append(RetreatPlanRow(
            attacker=describe_units(names, a_units, np.minimum(a_damaged[ia], a_units)),
            defender=describe_units(names, d_units, np.minimum(d_damaged[idd], d_units)),
            probability=float(mass[j]), mean_round=float(weighted[j] / mass[j])))
    return tuple(sorted(rows, key=lambda row: (-row.probability, row.attacker, row.defender)))
