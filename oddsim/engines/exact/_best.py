"""Private Numba kernels of the best retreat: optimal stopping over the exact engine's states.

At the end of every round the attacker either retreats (the battle ends, or its landed units
fight on alone) or fights one more round and then acts best again; the value of a joint state is
the larger of the two. Casualties only grow, so one backward sweep over the states, in the same
order as ``_kernel.win_chance_kernel``, gives every value: a round's moves lead to later states,
and the "nothing changed" loop back to the same state is solved in closed form (if fighting on
is best once in a state, it is best every time the battle comes back to it).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from oddsim._runtime.jit import inline_jit, jit
from oddsim.engines.exact._kernel import (
    ATTACKER_WINS,
    DEFENDER_WINS,
    DRAW,
    ONGOING,
    OWN_STRIKES,
    RETREAT_LEFT,
    _buffers,
    _held,
    _joint_outcome,
    _moves,
    _record_lists,
    _record_moves,
    _spare_room,
)
from oddsim.engines.exact._tables import N_CLASSES

TIE_TOLERANCE = 1e-9
"""How much better (relative to the value of fighting on, plus 1) a retreat must be to be taken:
far above the rounding of the sweep's sums, far below any difference a player could see."""


class Objective(NamedTuple):
    """What the best retreat's objective counts, per side state: the TUV swing (defender IPC
    lost minus attacker IPC lost) plus ``territory_bonus`` when the attacker takes the territory."""

    a_ipc: np.ndarray  # IPCs the attacker lost while it fights on
    d_ipc: np.ndarray  # the defender's
    a_total: int  # IPCs the attacker fights with
    a_dead_ipc: np.ndarray  # IPCs the attacker lost once its units in the battle are destroyed
    # (those that left early survive)
    d_dead_ipc: np.ndarray  # the defender's
    a_takes: np.ndarray  # 1 where the attacker has a land unit
    territory_bonus: float


class BestValues(NamedTuple):
    """What ``best_retreat_kernel`` returns."""

    end_values: np.ndarray  # the value at the end of a round (the attacker decides) of each live state
    start_values: np.ndarray  # the value at the start of a round of each start state
    fights: np.ndarray  # int8 per joint state: 0 where the best policy retreats, else 1
    retreats: np.ndarray  # the states where it retreats, decreasing


@jit
def best_retreat_kernel(A, D, rules, defender_holds, submerge_to, retreat_to, live, start_idx, objective,  # noqa: N803
                        store):
    """Values of the best retreat policy, whose objective (``Objective``) is the TUV swing
    (defender IPC lost minus attacker IPC lost) plus ``territory_bonus`` when the attacker takes
    the territory. ``submerge_to`` (empty: nothing submerges) and ``retreat_to`` as in
    ``_kernel.BetweenRounds``: a retreat to -1 ends the battle, to another state leaves the
    landed units fighting there, to the state itself is impossible.

    Returns ``BestValues``: (the value at the end of a round, where the attacker decides, of
    each ``live`` state; the value at the start of a round, which is fought whatever the value of retreating,
    as round 1 is, of each state of ``start_idx`` (increasing); per joint state 0 where the best
    policy retreats, else 1 (int8); those states, decreasing), and sets the store's
    ``track_from`` (``MoveStore``) for the solve under the policy. Ties fight on: retreating
    must beat fighting by more than ``TIE_TOLERANCE`` (relative), so that two values equal but
    for rounding (a state worth exactly 0 either way) do not retreat on the last bit. Only the
    ``live`` states are solved (increasing: every state, or those the battle gets to with a
    weight the engine does not prune); the others keep the value 0. The values are kept by
    attacker state, each over the run of defender states its live states span (``_rows``):
    where the battle reaches a few per cent of the joint states, as at sea, joint-sized arrays
    cost more in fresh memory pages than the sweep.
    The round moves are read where they lie in ``store`` (``_kernel.MoveStore``): where a forward
    sweep recorded them, else they are computed here and recorded for the next sweep (or kept in
    its spare room while they are read)."""
    a_ipc, d_ipc, a_total, a_dead_ipc, d_dead_ipc, a_takes, territory_bonus = objective
    na = A.flags.shape[0]
    nd = D.flags.shape[0]
    row_lo, row_hi, row_at, size = _rows(live, na, nd)
    v_end = np.zeros(size)
    v_mid = np.zeros(size)  # after the first-strike phase of a round
    end_values = np.zeros(live.shape[0])
    start_values = np.zeros(start_idx.shape[0])
    fights = np.ones(na * nd, dtype=np.int8)
    ahead = np.full(na, -1, dtype=np.int64)  # per attacker state, its largest retreat state's defender
    retreats = np.empty(live.shape[0], dtype=np.int64)
    n_retreats = 0
    buf = _buffers(na, nd)
    acc = np.zeros(nd)
    idx, p = store.idx, store.p
    spare = _spare_room(store, na, nd)
    rows = (row_lo, row_hi, row_at)
    next_start = start_idx.shape[0] - 1
    for n in range(live.shape[0] - 1, -1, -1):  # casualties only grow: later states first
        j = live[n]
        ia = j // nd
        idd = j % nd
        here = _position(row_lo, row_at, ia, idd)
        while next_start >= 0 and start_idx[next_start] > j:
            next_start -= 1
        is_start = next_start >= 0 and start_idx[next_start] == j
        code = _joint_outcome(ia, idd, A, D, rules, defender_holds)  # (row views made here cost atomics)
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
            v_end[here] = v_mid[here] = end_values[n] = value
            if is_start:
                start_values[next_start] = value
            continue
        # the round's moves where they lie in the store: the state's record (from a forward sweep,
        # or computed here)
        o = store.at[j] - 1
        if o < 0:
            o = _record_moves(j, _moves(ia, idd, A, D, rules, buf, OWN_STRIKES), buf, store, spare)
        o1_a, n1_a, o1_d, n1_d, stay1, o2_a, n2_a, o2_d, n2_d, stay2 = _record_lists(idx, p, o)
        # the values of this state are still 0, so the gathers leave out "no change"
        after_second = _gather_lists(v_end, rows, nd, idx, p, o2_a, n2_a, idx, p, o2_d, n2_d, acc)
        after_first = _gather_lists(v_mid, rows, nd, idx, p, o1_a, n1_a, idx, p, o1_d, n1_d, acc)
        if submerge_to.shape[0] and submerge_to[j] != j:  # subs submerge before the attacker decides
            v_end[here] = _value(v_end, rows, nd, submerge_to[j])
        else:
            fight = (after_first + stay1 * after_second) / (1.0 - stay1 * stay2)
            v_end[here] = fight
            target = retreat_to[j]
            if target != j:
                leave = float(d_ipc[idd] - a_ipc[ia]) if target < 0 else _value(v_end, rows, nd, target)
                if leave > fight + TIE_TOLERANCE * (1.0 + abs(fight)):
                    v_end[here] = leave
                    fights[j] = 0
                    retreats[n_retreats] = j
                    n_retreats += 1
                    ahead[ia] = max(ahead[ia], idd)
        end_values[n] = v_end[here]
        v_mid[here] = after_second + stay2 * v_end[here]
        if is_start:
            start_values[next_start] = after_first + stay1 * v_mid[here]
    _set_track_from(ahead, A.class_info[2 * N_CLASSES], nd, store.track_from)
    return BestValues(end_values, start_values, fights, retreats[:n_retreats])


@jit
def _set_track_from(ahead, layer_size, nd, track_from):
    """The store's ``track_from``: per attacker state the largest defender state of a retreat
    state at it or at a later one (with as many casualties or more: side states only grow), and
    every state once the attacker's others have left (layer 1, past ``layer_size``: the landed
    units fight on, and losing there is a retreat too)."""
    largest = -1
    for ia in range(ahead.shape[0] - 1, -1, -1):
        largest = max(largest, ahead[ia])
        track_from[ia] = nd - 1 if ia >= layer_size else largest


@jit
def visited_states(visited, row_lo, row_hi, nd, clear):
    """The joint states where ``visited`` (a joint array) is not 0, increasing, found along each
    attacker state's run of defender states from ``row_lo`` to ``row_hi`` (where a sweep wrote),
    and with ``clear`` cleared there: a scan of the runs, not of every joint state."""
    n = 0
    for a in range(row_lo.shape[0]):
        for d in range(row_lo[a], row_hi[a] + 1):
            if visited[a * nd + d] != 0:
                n += 1
    states = np.empty(n, dtype=np.int64)
    n = 0
    for a in range(row_lo.shape[0]):
        for d in range(row_lo[a], row_hi[a] + 1):
            if visited[a * nd + d] != 0:
                states[n] = a * nd + d
                if clear:
                    visited[a * nd + d] = 0
                n += 1
    return states


@jit
def _rows(live, na, nd):
    """Where each attacker state's values lie: the run of defender states from ``row_lo`` to
    ``row_hi`` that its ``live`` joint states span, from ``row_at`` on (an empty run: lo > hi),
    and the size of all runs."""
    row_lo = np.full(na, nd, dtype=np.int64)
    row_hi = np.full(na, -1, dtype=np.int64)
    for n in range(live.shape[0]):
        ia = live[n] // nd
        idd = live[n] % nd
        row_lo[ia] = min(row_lo[ia], idd)
        row_hi[ia] = max(row_hi[ia], idd)
    row_at = np.zeros(na, dtype=np.int64)
    size = 0
    for ia in range(na):
        row_at[ia] = size
        if row_hi[ia] >= row_lo[ia]:
            size += row_hi[ia] - row_lo[ia] + 1
    return row_lo, row_hi, row_at, size


@jit
def _value(values, rows, nd, j):
    """The value of joint state j (0 outside its attacker state's run)."""
    row_lo, row_hi, row_at = rows
    ia = j // nd
    idd = j % nd
    inside = row_lo[ia] <= idd <= row_hi[ia]
    value = values[_position(row_lo, row_at, ia, idd)] if inside else 0.0
    _held(values, row_lo, row_hi, row_at)  # (every array's last use after the branch: see ``_held``)
    return value


@inline_jit
def _position(row_lo, row_at, ia, idd):
    """Where the value of joint state (ia, idd) lies in the values kept by ``_rows``."""
    return row_at[ia] + idd - row_lo[ia]


@jit
def _gather_lists(values, rows, nd, a_idx, a_p, a_at, n_a, d_idx, d_p, d_at, n_d, acc):
    """Sum of P(a) * P(d) * value(a, d) over two compact distributions, the attacker's the
    ``n_a`` entries of (``a_idx``, ``a_p``) from ``a_at`` on, the defender's likewise: where they
    lie in the move store, without copying them out (values by ``_rows``: 0 outside a run).
    When the touched defender states are close together, each attacker state's values along
    the part of the run they span are summed, weighted by P(a), into ``acc`` (scratch, at least
    ``nd`` long; an element-wise loop, which vectorises; four rows at a time where each holds the
    whole run, as on land: a quarter of the loads and stores), then weighted by P(d).
    (Called twice per state: one return, after every branch, with every array used last there,
    so that Numba's pruning removes its reference counts; see ``_kernel._held``.)"""
    row_lo, row_hi, row_at = rows
    d_min = nd
    d_max = -1
    for t in range(d_at, d_at + n_d):
        d_min = min(d_min, d_idx[t])
        d_max = max(d_max, d_idx[t])
    width = max(d_max - d_min + 1, 0)
    run = acc[:width]
    total = 0.0
    if n_a == 0 or n_d == 0:
        total = 0.0
    elif width > 4 * n_d:  # spread out: entry by entry
        for s in range(a_at, a_at + n_a):
            a = a_idx[s]
            lo = row_lo[a]
            hi = row_hi[a]
            base = _position(row_lo, row_at, a, 0)
            row = 0.0
            if lo <= d_min and d_max <= hi:  # (most rows: every entry in the run, no test each)
                for t in range(d_at, d_at + n_d):
                    row += d_p[t] * values[base + d_idx[t]]
            else:
                for t in range(d_at, d_at + n_d):
                    d = d_idx[t]
                    if lo <= d <= hi:
                        row += d_p[t] * values[base + d]
            total += a_p[s] * row
    else:
        for q in range(width):
            run[q] = 0.0
        whole = n_a >= 4  # every attacker row holds the whole run (land: every state is solved)
        if whole:
            for s in range(a_at, a_at + n_a):
                if row_lo[a_idx[s]] > d_min or row_hi[a_idx[s]] < d_max:
                    whole = False
                    break
        rest = a_at
        if whole:  # four rows at a time: a quarter of the loads and stores of the run
            while rest + 3 < a_at + n_a:
                s = rest
                r0 = values[_position(row_lo, row_at, a_idx[s], d_min):][:width]
                r1 = values[_position(row_lo, row_at, a_idx[s + 1], d_min):][:width]
                r2 = values[_position(row_lo, row_at, a_idx[s + 2], d_min):][:width]
                r3 = values[_position(row_lo, row_at, a_idx[s + 3], d_min):][:width]
                c0, c1, c2, c3 = a_p[s], a_p[s + 1], a_p[s + 2], a_p[s + 3]
                for q in range(width):
                    run[q] += (c0 * r0[q] + c1 * r1[q]) + (c2 * r2[q] + c3 * r3[q])
                rest += 4
        for s in range(rest, a_at + n_a):
            a = a_idx[s]
            lo = max(d_min, row_lo[a])
            hi = min(d_max, row_hi[a])
            if lo > hi:
                continue
            first = _position(row_lo, row_at, a, lo)
            row = values[first: first + hi - lo + 1]
            part = run[lo - d_min: hi - d_min + 1]
            c = a_p[s]
            for q in range(hi - lo + 1):
                part[q] += c * row[q]
        for t in range(d_at, d_at + n_d):
            total += d_p[t] * run[d_idx[t] - d_min]
    _held(values, row_lo, row_hi, row_at)
    _held(a_idx, a_p, d_idx, d_p)
    _held(acc, run, acc, run)
    return total
