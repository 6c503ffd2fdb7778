"""Private Numba kernels of the best retreat: optimal stopping over the exact engine's states.

At the end of every round the attacker either retreats (the battle ends, or its landed units
fight on alone) or fights one more round and then acts best again; the value of a joint state is
the larger of the two. Casualties only grow, so one backward sweep over the states, in the same
order as ``_kernel.win_chance_kernel``, gives every value: a round's moves lead to later states,
and the "nothing changed" loop back to the same state is solved in closed form (if fighting on
is best once in a state, it is best every time the battle comes back to it).
"""

from __future__ import annotations

import numpy as np

from oddsim._jit import jit
from oddsim.exact._kernel import ONGOING, _buffers, _clear, _gather, _outcome, _round_moves


@jit
def outcome_codes_kernel(A, D, rules, defender_holds):
    """The outcome code of every joint state (``_kernel.ONGOING`` while the battle goes on)."""
    na = A[3].shape[0]
    nd = D[3].shape[0]
    codes = np.zeros(na * nd, dtype=np.int8)
    for ia in range(na):
        for idd in range(nd):
            codes[ia * nd + idd] = _outcome(A[3][ia], D[3][idd], A[4][ia], D[4][idd], rules[2],
                                            defender_holds)
    return codes


@jit
def best_retreat_kernel(A, D, rules, codes, terminal, submerge_to, retreat_to, retreat_value):
    """Values of the best retreat policy. ``codes``: outcome per joint state; ``terminal``: the
    objective where the battle has ended; ``submerge_to``/``retreat_to`` as in
    ``_kernel.solve_kernel`` (a retreat to -1 ends the battle with ``retreat_value``, to another
    state leaves the landed units fighting there, to the state itself is impossible).

    Returns (value at the end of a round, where the attacker decides; value at the start of a
    round, which is fought whatever the value of retreating, as round 1 is; 1 where the best
    policy retreats). Ties fight on."""
    na = A[3].shape[0]
    nd = D[3].shape[0]
    v_end = np.zeros(na * nd)
    v_mid = np.zeros(na * nd)  # after the first-strike phase of a round
    v_start = np.zeros(na * nd)
    retreat = np.zeros(na * nd, dtype=np.int8)
    buf = _buffers(na, nd)
    a_prob, d_prob, a_touched, d_touched, compact_idx, compact_p, counts = buf
    for ia in range(na - 1, -1, -1):
        for idd in range(nd - 1, -1, -1):
            j = ia * nd + idd
            if codes[j] != ONGOING:
                v_end[j] = v_mid[j] = v_start[j] = terminal[j]
                continue
            n1_a, n1_d, stay1, n2_a, n2_d, stay2 = _round_moves(ia, idd, A, D, rules, buf)
            # the values of this state are still 0, so the gathers leave out "no change"
            after_second = _gather(v_end, nd, compact_idx[2], compact_p[2], n2_a, d_touched, d_prob, n2_d)
            _clear(d_prob, d_touched, n2_d)
            for t in range(n1_d):
                d_prob[compact_idx[1, t]] = compact_p[1, t]
            after_first = _gather(v_mid, nd, compact_idx[0], compact_p[0], n1_a, compact_idx[1], d_prob,
                                  n1_d)
            _clear(d_prob, compact_idx[1], n1_d)
            if n1_a == 0:  # no first strike: the round goes straight to general fire
                after_first = 0.0
            if submerge_to[j] != j:  # subs submerge before the attacker decides
                v_end[j] = v_end[submerge_to[j]]
            else:
                fight = (after_first + stay1 * after_second) / (1.0 - stay1 * stay2)
                v_end[j] = fight
                target = retreat_to[j]
                if target != j:
                    leave = retreat_value[j] if target < 0 else v_end[target]
                    if leave > fight:
                        v_end[j] = leave
                        retreat[j] = 1
            v_mid[j] = after_second + stay2 * v_end[j]
            v_start[j] = after_first + stay1 * v_mid[j]
    return v_end, v_start, retreat
