"""A small plain battle solved in one kernel call: its side tables, the DP and the result's sums.

A battle with no retreat policy, nothing fired before round 1 (AA guns, a bombardment), no subs
that submerge and no round 1 under rules of its own needs none of ``solve._prepare``'s Python
between its side tables and the DP, nor between the DP and the sums its result reads. Called
one after the other from Python, the three kernels each paid for their arguments and results:
the side tables' 26 arrays were made Python objects to be handed straight back to the DP, some
40 us of a 200 us solve of 20 against 18 units. Here the same kernels (``_both_side_tables``,
``_dp``, ``end_state_sums``) run inside one, and only what the result keeps comes back. Larger
battles (``_kept``'s joint arrays, kept from one solve for the next) go through ``solve._prepare``.
"""

from __future__ import annotations

import numpy as np

from oddsim._runtime.jit import inline_jit, jit
from oddsim.engines.exact._kernel import Rules, Work, _dp
from oddsim.engines.exact._outcomes import end_state_sums
from oddsim.engines.exact._tables import G_SUB, _both_side_tables


@jit
def solve_plain(a_length, a_slots, a_slot_unit, a_slot_kill, a_leave, a_layers, a_kept_before, a_count,
                a_damaged, a_value, a_dice_per_unit, a_best_of, a_support_side, a_max_dice, d_length, d_slots,
                d_slot_unit, d_slot_kill, d_leave, d_layers, d_kept_before, d_count, d_damaged, d_value,
                d_dice_per_unit, d_best_of, d_support_side, d_max_dice, cost, is_air, is_sub, is_destroyer,
                is_land, defenceless, supporter, supported, per, support_value, rule_side, low_luck,
                attacker_subs_first, defender_subs_first, air_needs_destroyer, defender_holds, prune, a_total,
                d_total):
    """The battle from both sides whole (each side's ``Classes`` and ``SideDice`` fields and its
    most dice, as ``_tables.side_tables`` takes them; the unit types, support rules and dice;
    the DP's rules, as ``_kernel._dp`` reads them; each side's IPC in the fight, as
    ``end_state_sums``). Returns each side's ``SideCounts`` fields (attacker, then defender),
    then ``end_state_sums``'s nine figures, the expected rounds and the mass pruned."""
    start = np.zeros(1, dtype=np.int64)  # both sides whole: joint state 0, with all the mass
    (A, a_counts, _), (D, d_counts, _) = _both_side_tables(  # noqa: N806 - the kernels' names
        a_length, a_slots, a_slot_unit, a_slot_kill, a_leave, a_layers, a_kept_before, a_count, a_damaged,
        a_value, a_dice_per_unit, a_best_of, a_support_side, a_max_dice, start, d_length, d_slots,
        d_slot_unit, d_slot_kill, d_leave, d_layers, d_kept_before, d_count, d_damaged, d_value,
        d_dice_per_unit, d_best_of, d_support_side, d_max_dice, start, cost, is_air, is_sub, is_destroyer,
        is_land, defenceless, supporter, supported, per, support_value, rule_side, low_luck)
    na, nd = A.flags.shape[0], D.flags.shape[0]
    joint = na * nd
    first_strikes = (attacker_subs_first and _rolls_sub_dice(A.dist)
                     or defender_subs_first and _rolls_sub_dice(D.dist))
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
    rules = Rules(attacker_subs_first, defender_subs_first, air_needs_destroyer)
    # (visited and store given as None, as ``solve_kernel`` gives them: left out, Numba would
    # compile the DP once more for its defaults)
    ends, rounds, pruned = _dp(A, D, start, np.ones(1), work, rules, defender_holds, prune, None, no_moves,
                               np.zeros(0), no_moves, no_moves, False, None, None)
    (by_code, a_mass, d_mass, retreat_w, take, a_lost, d_lost, swings, swing_mass) = end_state_sums(
        ends, x1, untracked, outcome, nd, A.flags, a_counts.ipc_lost, a_counts.departed, a_total,
        d_counts.ipc_lost, d_counts.departed, d_total, cost)
    return (a_counts.alive, a_counts.damaged, a_counts.departed, a_counts.ipc_lost, d_counts.alive,
            d_counts.damaged, d_counts.departed, d_counts.ipc_lost, by_code, a_mass, d_mass, retreat_w, take,
            a_lost, d_lost, swings, swing_mass, rounds, pruned)


@inline_jit
def _rolls_sub_dice(dist):
    """Whether the side's subs roll in some state (a hit chance in the sub group): the DP then
    keeps the mass between the first-strike and the general phase of a round."""
    for s in range(dist.shape[0]):
        if dist[s, G_SUB, 0] < 1.0:
            return True
    return False
