"""A small plain battle solved in one kernel call: its side tables, the DP and the result's sums.

A battle with no retreat policy, nothing fired before round 1 (AA guns, a bombardment), no subs
that submerge and no round 1 under rules of its own needs none of ``solve.prepare``'s Python
between its side tables and the DP, nor between the DP and the sums its result reads. Called
one after the other from Python, the three kernels each paid for their arguments and results:
the side tables' 26 arrays were made Python objects to be handed straight back to the DP, some
40 us of a 200 us solve of 20 against 18 units. Here the same kernels (``both_side_tables``,
``_dp``, ``end_state_sums``) run inside one, and only what the result keeps comes back. Larger
battles (``array_pool``'s joint arrays, kept from one solve for the next) go through
``solve.prepare``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from oddsim._runtime.jit import inline_jit, jit
from oddsim.engines.exact._kernel import BetweenRounds, DPSettings, Rules, Start, Terminal, Work, _dp
from oddsim.engines.exact._outcomes import EndSums, end_state_sums
from oddsim.engines.exact._tables import G_SUB, SideCounts, Support, UnitTypes, both_side_tables


class PlainBattle(NamedTuple):
    """What ``solve_plain`` reads besides the two sides' ``SideInputs``."""

    types: UnitTypes
    support: Support
    low_luck: bool
    rules: Rules
    defender_holds: bool  # as ``_kernel.DPSettings``
    prune: float
    a_total: int  # the IPC each side fights with (``end_state_sums``)
    d_total: int


class PlainAnswer(NamedTuple):
    """What ``solve_plain`` returns: what the result keeps."""

    a_counts: SideCounts
    d_counts: SideCounts
    sums: EndSums
    rounds: float  # the expected number of rounds
    pruned: float  # the mass pruned


@jit
def solve_plain(attacker, defender, battle):
    """The battle from both sides whole: each side's ``_tables.SideInputs`` (its seeds: joint
    state 0, both sides whole) and the rest of the battle (``PlainBattle``). Returns a
    ``PlainAnswer``."""
    start = Start(attacker.seeds, np.ones(1))  # both sides whole: joint state 0, with all the mass
    (A, a_counts, _), (D, d_counts, _) = both_side_tables(  # noqa: N806 - the kernels' names
        attacker, defender, battle.types, battle.support, battle.low_luck)
    rules = battle.rules
    na, nd = A.flags.shape[0], D.flags.shape[0]
    joint = na * nd
    first_strikes = (rules.attacker_subs_first and _rolls_sub_dice(A.dist)
                     or rules.defender_subs_first and _rolls_sub_dice(D.dist))
    x1 = np.zeros(joint)
    x2 = np.zeros(joint if first_strikes else 1)
    outcome = np.zeros(joint, dtype=np.int8)
    row_lo = np.empty(na, dtype=np.int64)
    row_hi = np.empty(na, dtype=np.int64)
    for ia in range(na):  # (loops: an array slice assignment costs seconds to compile)
        row_lo[ia] = nd
        row_hi[ia] = -1
    untracked = np.zeros(1)  # rounds-weighted mass: not tracked without a retreat or submerging subs
    no_moves = np.zeros(0, dtype=np.int64)
    work = Work(x1, x2, untracked, np.zeros(1), outcome, row_lo, row_hi)
    # (the arguments typed as ``solve_kernel``'s of a battle without a retreat policy: typed
    # otherwise, Numba would compile the whole DP once more. Rounds are not tracked: a constant
    # here, which the compiler folds into the DP it inlines, some 20 us of land 20 vs 18)
    settings = DPSettings(battle.defender_holds, battle.prune, False)
    ends, rounds, pruned = _dp(A, D, start, work, rules, settings, None, no_moves,
                               BetweenRounds(no_moves, no_moves, np.zeros(0)), None, None)
    sums = end_state_sums(ends, Terminal(x1, untracked, outcome), nd, A.flags, a_counts, battle.a_total,
                          d_counts, battle.d_total, battle.types.cost)
    return PlainAnswer(a_counts, d_counts, sums, rounds, pruned)


@inline_jit
def _rolls_sub_dice(dist):
    """Whether the side's subs roll in some state (a hit chance in the sub group): the DP then
    keeps the mass between the first-strike and the general phase of a round."""
    for s in range(dist.shape[0]):
        if dist[s, G_SUB, 0] < 1.0:
            return True
    return False
