"""Private Numba kernels of the lattice sweep (``lattice``): one side's states as the sub-armies
of its largest army, and one backward sweep that gives every joint state's expectations.

The swept side's state is how many loss slots of each *kind* it has left, a kind being one step
of its largest army's order of loss (unit type, damage or kill, landed from the sea or not).
With an order of loss that is a fixed priority of kinds (as ``casualty_order`` makes it without
``keep_land`` or a destroyer kept last), a sub-army's own order is its largest army's restricted
to the units it has, and a sub-army that takes a hit is another sub-army: so the states of all
sub-armies together form one lattice, and one DP over it (against the other side's usual
casualty states) solves every sub-army's battle at once.

The states are indexed so that a hit always leads to a larger index, as the other side's are
(``_tables``): the DP kernels of ``_kernel`` (the round's moves, round 1 under its own rules,
a bombardment that fires back) read the lattice's tables as they read any side's.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from oddsim._runtime.jit import jit
from oddsim.engines.exact import _kernel as k
from oddsim.engines.exact import _tables as t

H_AA = t.N_HIT_KINDS  # a hit of AA fire before round 1: aircraft only
N_KINDS_OF_HIT = t.N_HIT_KINDS + 1

# the expectations the sweep carries per joint state, as columns
(V_ATTACKER_WIN, V_DEFENDER_WIN, V_DRAW, V_STALEMATE, V_TAKES, V_ATTACKER_LEFT, V_DEFENDER_LEFT,
 V_ROUNDS) = range(8)
N_VALUES = 8
"""``V_*_LEFT``: the IPC value of the side's units left at the end (none where it was destroyed);
``V_ROUNDS``: the rounds fought."""


@jit
def _after_hit(code, counts, kind, kind_unit, stride, is_air, is_sub):
    """The lattice code after one hit of ``kind`` (``t.H_*`` or ``H_AA``) on the state ``counts``
    (slots left per kind, code ``code``): the first kind with a slot left that can take it."""
    for c in range(counts.shape[0]):
        if counts[c] == 0:
            continue
        u = kind_unit[c]
        if kind == t.H_SUB and is_air[u]:
            continue
        if kind == t.H_AIR and is_sub[u]:
            continue
        if kind == H_AA and not is_air[u]:
            continue
        return code - stride[c]
    return code


@jit
def _decode(code, stride, radix, counts):
    for c in range(counts.shape[0]):
        counts[c] = (code // stride[c]) % radix[c]


class LossKinds(NamedTuple):
    """The swept side's loss kinds (the steps of its largest army's order of loss) and armies."""

    kind_unit: np.ndarray  # each kind's unit type
    kind_kill: np.ndarray  # 1: a casualty of the kind kills a unit, 0: it damages one
    kind_max: np.ndarray  # the kind's slots in the largest army
    starts: np.ndarray  # slots left per kind, one row per sub-army
    idle: np.ndarray  # units of the side without loss slots (in every state), per type


class LatticeSide(NamedTuple):
    """What ``lattice_side`` makes of the swept side."""

    tables: t.SideTables  # as ``_tables.side_tables`` makes them: ``next_hit`` per hit kind, twice, as
    # the side keeps no destroyer last
    aa_next: np.ndarray  # the state after one AA hit
    left_value: np.ndarray  # the IPC value of the units left, per state
    fighting: np.ndarray  # the units left per state and type
    start_state: np.ndarray  # each start's state (-1 with no states)


@jit
def lattice_side(kinds, dice, types, support, low_luck, max_dice, max_entries):
    """The swept side's tables over every state reached from ``kinds.starts`` by hits
    (``LossKinds``), its units rolling as ``dice`` says (a ``_tables.SideDice``, whose counts
    are not read) with the ``UnitTypes`` and ``Support`` rules. Returns a ``LatticeSide``. Where
    the hit tables would have more than ``max_entries`` entries, the tables are of no state."""
    kind_unit, kind_kill, kind_max, starts, idle = kinds
    cost, is_air, is_sub = types.cost, types.is_air, types.is_sub
    n_kinds = kind_unit.shape[0]
    n_types = cost.shape[0]
    radix = np.empty(n_kinds, dtype=np.int64)
    stride = np.empty(n_kinds, dtype=np.int64)
    size = 1
    for c in range(n_kinds):
        radix[c] = kind_max[c] + 1
        stride[c] = size
        size *= radix[c]
    mark = np.zeros(size, dtype=np.bool_)
    start_code = np.zeros(starts.shape[0], dtype=np.int64)
    for i in range(starts.shape[0]):
        for c in range(n_kinds):
            start_code[i] += starts[i, c] * stride[c]
        mark[start_code[i]] = True
    counts = np.zeros(n_kinds, dtype=np.int64)
    n = 0
    for code in range(size - 1, -1, -1):  # a hit lowers the code: one pass finds every state
        if not mark[code]:
            continue
        n += 1
        _decode(code, stride, radix, counts)
        for kind in range(N_KINDS_OF_HIT):
            mark[_after_hit(code, counts, kind, kind_unit, stride, is_air, is_sub)] = True
    if n * t.N_GROUPS * (max_dice + 1) > max_entries:
        n = 0
        mark[:] = False
    index = np.full(size, -1, dtype=np.int64)
    codes = np.empty(n, dtype=np.int64)
    s = 0
    for code in range(size - 1, -1, -1):  # the largest code first: a hit leads to a larger index
        if mark[code]:
            index[code] = s
            codes[s] = code
            s += 1
    next_hit = np.zeros((n, 2 * t.N_HIT_KINDS), dtype=np.int64)
    aa_next = np.zeros(n, dtype=np.int64)
    fighting = np.zeros((n, n_types), dtype=np.int64)
    left_value = np.zeros(n)
    slots_left = np.zeros(n, dtype=np.int64)
    for s in range(n):
        code = codes[s]
        _decode(code, stride, radix, counts)
        for kind in range(t.N_HIT_KINDS):
            to = index[_after_hit(code, counts, kind, kind_unit, stride, is_air, is_sub)]
            next_hit[s, kind] = to
            next_hit[s, kind + t.N_HIT_KINDS] = to
        aa_next[s] = index[_after_hit(code, counts, H_AA, kind_unit, stride, is_air, is_sub)]
        for u in range(n_types):
            fighting[s, u] = idle[u]
        for c in range(n_kinds):
            slots_left[s] += counts[c]
            if kind_kill[c]:
                fighting[s, kind_unit[c]] += counts[c]
                left_value[s] += counts[c] * cost[kind_unit[c]]
    for i in range(starts.shape[0]):
        start_code[i] = index[start_code[i]]  # (-1 with no states)
    flags = t.side_flags(fighting, np.zeros_like(fighting), slots_left, types)
    dist, lo, hi = t.hit_distributions(fighting, dice, types, support, low_luck, max_dice,
                                       np.ones(n, dtype=np.bool_))
    # every class "present" and one layer of all states: the kernels walk ``next_hit`` (never a
    # class's stride), and aircraft fire apart wherever the rules say so
    class_info = np.zeros(2 * t.N_CLASSES + 1, dtype=np.int64)
    for c in range(t.N_CLASSES):
        class_info[c] = 1
    class_info[2 * t.N_CLASSES] = n
    tables = t.SideTables(class_info, np.zeros((t.N_CLASSES, 1), dtype=np.int64),
                          np.ones(t.N_CLASSES, dtype=np.int64), flags, dist, lo, hi, next_hit)
    return LatticeSide(tables, aa_next, left_value, fighting, start_code)


@jit
def sweep_kernel(A, D, rules, defender_holds, a_left, d_left, a_reached, d_reached):  # noqa: N803
    """The expectations (``V_*`` columns) of the battle from the start of a round in every joint
    state of ``a_reached`` x ``d_reached`` side states (``a_left``/``d_left``: the IPC value of
    each side state's units), gathered backwards over the moves ``solve_kernel`` spreads forwards
    (the "nothing changed" loops of a round in closed form, as in ``win_chance_kernel``)."""
    na = A.flags.shape[0]
    nd = D.flags.shape[0]
    v1 = np.zeros((na * nd, N_VALUES))  # at the start of a round
    v2 = np.zeros((na * nd, N_VALUES))  # after the first-strike phase
    buf = k._buffers(na, nd)
    compact_idx, compact_p = buf[4], buf[5]
    # the lists' rows, made once: views made per state cost Numba's reference counts (``k._held``)
    a_first_idx, a_first_p = compact_idx[k.A_FIRST], compact_p[k.A_FIRST]
    d_first_idx, d_first_p = compact_idx[k.D_FIRST], compact_p[k.D_FIRST]
    a_general_idx, a_general_p = compact_idx[k.A_GENERAL], compact_p[k.A_GENERAL]
    d_general_idx, d_general_p = compact_idx[k.D_GENERAL], compact_p[k.D_GENERAL]
    after_first = np.zeros(N_VALUES)
    after_second = np.zeros(N_VALUES)
    for ia in range(na - 1, -1, -1):
        if not a_reached[ia]:
            continue
        for idd in range(nd - 1, -1, -1):
            if not d_reached[idd]:
                continue
            j = ia * nd + idd
            code = k._joint_outcome(ia, idd, A, D, rules, defender_holds)
            if code != k.ONGOING:
                _terminal(v1, j, code, A.flags[ia, t.F_LAND], a_left[ia], d_left[idd])
                for q in range(N_VALUES):
                    v2[j, q] = v1[j, q]
                continue
            n1_a, n1_d, stay1, n2_a, n2_d, stay2 = k._moves(ia, idd, A, D, rules, buf, k.OWN_STRIKES)
            # v1[j] and v2[j] are still 0: the gathers leave out "nothing changed", in the closed form
            _gather(v1, nd, a_general_idx, a_general_p, n2_a, d_general_idx, d_general_p, n2_d, after_second)
            after_first[:] = 0.0
            if n1_a:
                _gather(v2, nd, a_first_idx, a_first_p, n1_a, d_first_idx, d_first_p, n1_d, after_first)
            after_first[V_ROUNDS] += 1.0  # the round fought from here
            scale = 1.0 / (1.0 - stay1 * stay2)
            for q in range(N_VALUES):
                v1[j, q] = (after_first[q] + stay1 * after_second[q]) * scale
                v2[j, q] = after_second[q] + stay2 * v1[j, q]
    return v1


@jit
def _terminal(values, j, code, takes, a_left, d_left):
    """The expectations of joint state j (``values[j]``) where the battle is over (outcome
    ``code``)."""
    out = values[j]
    out[:] = 0.0
    if code == k.ATTACKER_WINS:
        out[V_ATTACKER_WIN] = 1.0
        out[V_TAKES] = 1.0 if takes == 1 else 0.0
    elif code == k.DEFENDER_WINS:
        out[V_DEFENDER_WIN] = 1.0
    elif code == k.DRAW:
        out[V_DRAW] = 1.0
    elif code == k.STALEMATE:
        out[V_STALEMATE] = 1.0
    destroyed_a = code == k.DEFENDER_WINS or code == k.DRAW
    destroyed_d = code == k.ATTACKER_WINS or code == k.DRAW
    out[V_ATTACKER_LEFT] = 0.0 if destroyed_a else a_left
    out[V_DEFENDER_LEFT] = 0.0 if destroyed_d else d_left


@jit
def _gather(values, nd, a_idx, a_p, n_a, d_idx, d_p, n_d, out):
    """out = sum of P(a) * P(d) * values[a, d] over the two compact lists."""
    out[:] = 0.0
    for s in range(n_a):
        base = a_idx[s] * nd
        for t_ in range(n_d):
            w = a_p[s] * d_p[t_]
            row = values[base + d_idx[t_]]
            for q in range(out.shape[0]):
                out[q] += w * row[q]


@jit
def start_values(v1, nd, a0, d0, a_dist, a_row, a_next, d_dist, d_next):
    """Each start's expectations (start i: attacker state ``a0[i]``, defender state ``d0[i]``)
    over where the fire before round 1 leaves the two sides: ``a_dist[a_row[i]]`` hits on the
    attacker (AA fire; row 0: none), each moving its state to ``a_next[state]``, and ``d_dist``
    hits on the defender (a bombardment; ``[1.0]``: none) along ``d_next``; hits past what a
    side can take leave it where it stands, their chance added there, as ``solve`` spreads
    them."""
    n = a0.shape[0]
    out = np.zeros((n, N_VALUES))
    a_states = np.empty(a_dist.shape[1], dtype=np.int64)
    a_p = np.zeros(a_dist.shape[1])
    d_states = np.empty(d_dist.shape[0], dtype=np.int64)
    d_p = np.zeros(d_dist.shape[0])
    n_d = _spread_hits(d0[0], d_dist, d_next, d_states, d_p)
    for i in range(n):
        if i > 0 and d0[i] != d0[i - 1]:
            n_d = _spread_hits(d0[i], d_dist, d_next, d_states, d_p)
        n_a = _spread_hits(a0[i], a_dist[a_row[i]], a_next, a_states, a_p)
        for s in range(n_a):
            for t_ in range(n_d):
                w = a_p[s] * d_p[t_]
                row = v1[a_states[s] * nd + d_states[t_]]
                for q in range(N_VALUES):
                    out[i, q] += w * row[q]
    return out


@jit
def _spread_hits(start, dist, next_state, states, chances):
    """A side's states after ``dist`` hits (chance per count; trailing zeros end it) from
    ``start`` along ``next_state``, into ``states``/``chances``; returns how many."""
    n = 0
    state = start
    for h in range(dist.shape[0]):
        if n == 0 or states[n - 1] != state:
            states[n] = state
            chances[n] = 0.0
            n += 1
        chances[n - 1] += dist[h]
        state = next_state[state]
    return n


@jit
def spread_hits(start, dist, next_state):
    """``_spread_hits`` into new arrays: the states and their chances."""
    states = np.empty(dist.shape[0], dtype=np.int64)
    chances = np.zeros(dist.shape[0])
    n = _spread_hits(start, dist, next_state, states, chances)
    return states[:n], chances[:n]
