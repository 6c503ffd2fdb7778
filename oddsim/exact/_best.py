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

from oddsim._jit import hot_jit, jit
from oddsim.exact._kernel import (
    ATTACKER_WINS,
    DEFENDER_WINS,
    DRAW,
    ONGOING,
    RETREAT_LEFT,
    _buffers,
    _compact,
    _outcome,
    _stored_moves,
)


@jit
def best_retreat_kernel(A, D, rules, defender_holds, submerge_to, retreat_to, live, a_ipc, d_ipc,
                        a_total, a_dead_ipc, d_dead_ipc, a_takes, territory_bonus, store):
    """Values of the best retreat policy, whose objective is the TUV swing (defender IPC lost
    minus attacker IPC lost) plus ``territory_bonus`` when the attacker takes the territory.
    Per side state: ``*_ipc`` IPCs lost while the side fights on, ``*_dead_ipc`` once its units
    in the battle are destroyed (those that left early survive), ``a_takes`` 1 where the attacker
    has a land unit; ``a_total`` IPCs the attacker fights with. ``submerge_to`` (empty: nothing
    submerges) and ``retreat_to`` as in ``_kernel.solve_kernel``: a retreat to -1 ends the
    battle, to another state leaves the landed units fighting there, to the state itself is
    impossible.

    Returns (value at the end of a round, where the attacker decides; value at the start of a
    round, which is fought whatever the value of retreating, as round 1 is; 1 where the best
    policy retreats). Ties fight on. Only the ``live`` states are solved (increasing: every
    state, or those the battle gets to with a weight the engine does not prune); the others
    keep the value 0. Their round moves come from ``store`` (``_kernel.MoveStore``) where a
    forward sweep recorded them, else they are computed here and recorded for the next sweep."""
    na = A[3].shape[0]
    nd = D[3].shape[0]
    v_end = np.zeros(na * nd)
    v_mid = np.zeros(na * nd)  # after the first-strike phase of a round
    v_start = np.zeros(na * nd)
    retreat = np.zeros(na * nd, dtype=np.int8)
    buf = _buffers(na, nd)
    rows = np.zeros(nd)
    d2_idx = np.zeros(nd, dtype=np.int64)
    d2_p = np.zeros(nd)
    a_prob, d_prob, a_touched, d_touched, compact_idx, compact_p = buf
    for n in range(live.shape[0] - 1, -1, -1):  # casualties only grow: later states first
        j = live[n]
        ia = j // nd
        idd = j % nd
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
        o = store.at[j] - 1
        if o >= 0:  # recorded: the lists are read where they lie in the store
            idx, p = store.idx, store.p
            n1_a, n1_d, n2_a, n2_d = idx[o], idx[o + 1], idx[o + 2], idx[o + 3]
            stay1, stay2 = p[o], p[o + 1]
            o1_d = o + 4 + n1_a
            o2_a = o1_d + n1_d
            # the values of this state are still 0, so the gathers leave out "no change"
            after_second = _gather_lists(v_end, nd, idx, p, o2_a, n2_a, idx, p, o2_a + n2_a, n2_d, rows)
            after_first = _gather_lists(v_mid, nd, idx, p, o + 4, n1_a, idx, p, o1_d, n1_d, rows)
        else:
            n1_a, n1_d, stay1, n2_a, n2_d, stay2 = _stored_moves(j, ia, idd, A, D, rules, buf, store)
            n2_d = _compact(d_prob, d_touched, n2_d, d2_idx, d2_p)
            after_second = _gather_lists(v_end, nd, compact_idx[2], compact_p[2], 0, n2_a, d2_idx, d2_p, 0,
                                         n2_d, rows)
            after_first = _gather_lists(v_mid, nd, compact_idx[0], compact_p[0], 0, n1_a, compact_idx[1],
                                        compact_p[1], 0, n1_d, rows)
        if submerge_to.shape[0] and submerge_to[j] != j:  # subs submerge before the attacker decides
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


@hot_jit
def _gather_lists(values, nd, a_idx, a_p, a_at, n_a, d_idx, d_p, d_at, n_d, rows):
    """Sum of P(a) * P(d) * values[a, d] over two compact distributions, the attacker's the
    ``n_a`` entries of (``a_idx``, ``a_p``) from ``a_at`` on, the defender's likewise: where they
    lie in the move store, without copying them out. When the touched defender states are close
    together, the value rows are first summed along the dense run they span, weighted by P(a),
    into ``rows`` (scratch, at least ``nd`` long; an element-wise loop, which vectorises), then
    weighted by P(d)."""
    if n_a == 0 or n_d == 0:
        return 0.0
    d_min = nd
    d_max = -1
    for t in range(d_at, d_at + n_d):
        d_min = min(d_min, d_idx[t])
        d_max = max(d_max, d_idx[t])
    width = d_max - d_min + 1
    total = 0.0
    if width > 4 * n_d:  # spread out: entry by entry
        for s in range(a_at, a_at + n_a):
            base = a_idx[s] * nd
            row = 0.0
            for t in range(d_at, d_at + n_d):
                row += d_p[t] * values[base + d_idx[t]]
            total += a_p[s] * row
        return total
    acc = rows[:width]
    acc[:] = 0.0
    for s in range(a_at, a_at + n_a):
        base = a_idx[s] * nd + d_min
        row = values[base: base + width]
        c = a_p[s]
        for q in range(width):
            acc[q] += c * row[q]
    for t in range(d_at, d_at + n_d):
        total += d_p[t] * acc[d_idx[t] - d_min]
    return total
