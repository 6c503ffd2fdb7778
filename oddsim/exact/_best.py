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
from oddsim.exact._kernel import (
    ATTACKER_WINS,
    DEFENDER_WINS,
    DRAW,
    ONGOING,
    RETREAT_LEFT,
    _buffers,
    _clear,
    _gather,
    _outcome,
    _round_moves,
)


@jit
def best_retreat_kernel(A, D, rules, defender_holds, submerge_to, retreat_to, live, a_ipc, d_ipc,
                        a_total, a_dead_ipc, d_dead_ipc, a_takes, territory_bonus):
    """Values of the best retreat policy, whose objective is the TUV swing (defender IPC lost
    minus attacker IPC lost) plus ``territory_bonus`` when the attacker takes the territory.
    Per side state: ``*_ipc`` IPCs lost while the side fights on, ``*_dead_ipc`` once its units
    in the battle are destroyed (those that left early survive), ``a_takes`` 1 where the attacker
    has a land unit; ``a_total`` IPCs the attacker fights with. ``submerge_to``/``retreat_to`` as in
    ``_kernel.solve_kernel``: a retreat to -1 ends the battle, to another state leaves the landed
    units fighting there, to the state itself is impossible.

    Returns (value at the end of a round, where the attacker decides; value at the start of a
    round, which is fought whatever the value of retreating, as round 1 is; 1 where the best
    policy retreats). Ties fight on. Only the ``live`` states are solved (those the battle gets
    to with a weight the engine does not prune); the others keep the value 0."""
    na = A[3].shape[0]
    nd = D[3].shape[0]
    v_end = np.zeros(na * nd)
    v_mid = np.zeros(na * nd)  # after the first-strike phase of a round
    v_start = np.zeros(na * nd)
    retreat = np.zeros(na * nd, dtype=np.int8)
    buf = _buffers(na, nd)
    a_prob, d_prob, a_touched, d_touched, compact_idx, compact_p = buf
    for ia in range(na - 1, -1, -1):
        for idd in range(nd - 1, -1, -1):
            j = ia * nd + idd
            if not live[j]:
                continue
            code = _outcome(A[3][ia], D[3][idd], A[4][ia], D[4][idd], rules[2], defender_holds)
            if code != ONGOING:
                # IPCs lost as the result counts them
                a_lost = a_ipc[ia]
                if code == DEFENDER_WINS or code == DRAW:
                    a_lost = a_total
                elif code == RETREAT_LEFT:
                    a_lost = a_dead_ipc[ia]
                d_lost = d_dead_ipc[idd] if code == ATTACKER_WINS or code == DRAW else d_ipc[idd]
                value = float(d_lost - a_lost)
                if code == ATTACKER_WINS and a_takes[ia]:
                    value += territory_bonus
                v_end[j] = v_mid[j] = v_start[j] = value
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
                    leave = float(d_ipc[idd] - a_ipc[ia]) if target < 0 else v_end[target]
                    if leave > fight:
                        v_end[j] = leave
                        retreat[j] = 1
            v_mid[j] = after_second + stay2 * v_end[j]
            v_start[j] = after_first + stay1 * v_mid[j]
    return v_end, v_start, retreat
