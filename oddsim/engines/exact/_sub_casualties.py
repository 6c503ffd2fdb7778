"""Private Numba kernels of best casualties at sea with submarines: typed hits and a first strike.

A round has two phases, as the fixed-order engine plays them (``_kernel``). Phase 1, the surprise
strike: the subs of a side whose enemy has no destroyer (where the edition gives them a first
strike) fire, and their casualties are removed before phase 2. Phase 2, general fire: every unit
that has not fired yet. Within a phase the rulebook's order holds: the attacker rolls, the
defender chooses its casualties knowing those hits, the defender rolls (its casualties of this
phase still fire), the attacker chooses knowing everything.

Hits are typed: a sub's hit never goes to an aircraft; an aircraft's hit goes to a sub only
with a destroyer on its side (where the edition says so). A side that takes hits of kinds
(subs' S, restricted aircraft's X, general G) chooses its losses group after group, as the
fixed-order engine takes them, each group as many hits as it can (``typed_options``): so a fixed
order's losses are always among its options; a type taken last (transports) takes a hit only
where no other unit that hit could take is left. With the continuation C of a phase (after
phase 1: the value W of phase 2; after phase 2: V, the next round),

    phase(a, d) = sum_ta P(ta) min_{d' in opts_D(d, ta)} sum_td P(td) M(a, td, d'),
    M(a, td, d') = max_{a' in opts_A(a, td)} C(a', d')

and a round's "nothing changed" (every hit unpaid, both phases) is solved in closed form.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from oddsim._runtime.jit import jit
from oddsim.engines.exact._casualties import (
    NO_HIT_EPS,
    ONGOING,
    STALEMATE,
    TIE,
    _outcome,
    end_value,
)

SUB, AIR, SURFACE, LAST = 0, 1, 2, 3
"""Classes of a composition type, by the hits it may take (``TypedSide.cls``)."""


class TypedSide(NamedTuple):
    """What the typed game reads of one side, beside its ``CasualtySide``: per composition its
    hit distributions by who fires (rows: compositions, then one row of no hit), whether it has a
    destroyer and a sub, and as a target its options per hit triple (S, X, G) folded at ``dims``."""

    cls: np.ndarray  # int64[K]: SUB, AIR, SURFACE or LAST
    ps: np.ndarray  # float64[S + 1, H + 1]: hits of its subs
    px: np.ndarray  # its aircraft's hits
    pg: np.ndarray  # its other units' hits (neither sub nor aircraft)
    pxg: np.ndarray  # its aircraft's and other units' hits together
    destroyer: np.ndarray  # bool[S]
    sub: np.ndarray  # bool[S]
    dims: np.ndarray  # int64[3]: most S, X and G hits aimed at it that count (more fold in)
    opt_start: np.ndarray  # int64[S * T + 1]: options of composition s under triple t
    opt_items: np.ndarray  # int64[...]: the compositions it may keep
    fixed: np.ndarray  # int64[S * T]: the composition its order of loss keeps


class SubRules(NamedTuple):
    """The edition's submarine rules for this battle."""

    a_first: bool  # attacking subs strike first while the defender has no destroyer
    d_first: bool
    air_needs_destroyer: bool  # aircraft hit subs only with a destroyer on their side


@jit
def _paid(loss, cap, s_hits, x_hits, g_hits):
    """Whether hits (S, X, G), taken group after group as the fixed-order engine takes them (the
    subs' hits, then the aircraft's that cannot hit subs, then the rest), each group as many as it
    can, can leave losses ``loss`` (hits taken per class SUB, AIR, SURFACE, LAST) from a side of
    ``cap`` (hits it can take per class): S never on aircraft, X never on subs, a LAST unit only
    where that group may hit nothing else left."""
    for s_sub in range(min(loss[SUB], s_hits) + 1):
        for s_surf in range(min(loss[SURFACE], s_hits - s_sub) + 1):
            s_last = min(s_hits, cap[SUB] + cap[SURFACE] + cap[LAST]) - s_sub - s_surf
            if s_last < 0 or s_last > loss[LAST]:
                continue
            if s_last > 0 and cap[SUB] + cap[SURFACE] - s_sub - s_surf > 0:
                continue
            room = cap[AIR] + cap[SURFACE] - s_surf + cap[LAST] - s_last
            x_total = min(x_hits, room)
            for x_air in range(min(loss[AIR], x_total) + 1):
                for x_surf in range(min(loss[SURFACE] - s_surf, x_total - x_air) + 1):
                    x_last = x_total - x_air - x_surf
                    if x_last < 0 or x_last > loss[LAST] - s_last:
                        continue
                    if x_last > 0 and cap[AIR] - x_air + cap[SURFACE] - s_surf - x_surf > 0:
                        continue
                    left = cap[SUB] + cap[AIR] + cap[SURFACE] + cap[LAST] - s_sub - s_surf - s_last - x_total
                    g_total = min(g_hits, left)
                    rest = (loss[SUB] - s_sub) + (loss[AIR] - x_air) + (loss[SURFACE] - s_surf - x_surf)
                    g_last = loss[LAST] - s_last - x_last
                    if rest + g_last != g_total:
                        continue
                    if g_last > 0 and left - g_total - (cap[LAST] - loss[LAST]) > 0:
                        continue
                    return True
    return False


@jit
def typed_options(counts, capacity, role, pair, cls, sub_start, sub_items, dims):
    """Per composition s and hit triple t = (S, X, G) (index (S * (dims[1] + 1) + X) * (dims[2] + 1)
    + G), the compositions the side may keep (``_paid``). ``sub_start``/``sub_items``: each
    composition's sub-compositions."""
    n_states, n_types = counts.shape
    n_t = (dims[0] + 1) * (dims[1] + 1) * (dims[2] + 1)
    start = np.zeros(n_states * n_t + 1, dtype=np.int64)
    chunks = []
    loss = np.zeros(4, dtype=np.int64)
    cap = np.zeros(4, dtype=np.int64)
    total = 0
    for s in range(n_states):
        m = sub_start[s + 1] - sub_start[s]
        took = np.zeros((n_t, m), dtype=np.bool_)
        cap[:] = 0
        for k in range(n_types):
            cap[cls[k]] += counts[s, k] * (2 if role[k] == 1 else 1)
        for j in range(m):
            keep = sub_items[sub_start[s] + j]
            loss[:] = 0
            for k in range(n_types):
                if role[k] == 1:  # a whole two-hit unit: its damaged ones (``pair``) counted with it
                    p = pair[k]
                    loss[cls[k]] += 2 * (counts[s, k] - counts[keep, k]) + counts[s, p] - counts[keep, p]
                elif role[k] == 0:
                    loss[cls[k]] += counts[s, k] - counts[keep, k]
            for t in range(n_t):
                sh = t // ((dims[1] + 1) * (dims[2] + 1))
                xh = (t // (dims[2] + 1)) % (dims[1] + 1)
                gh = t % (dims[2] + 1)
                if _paid(loss, cap, sh, xh, gh):
                    took[t, j] = True
        for t in range(n_t):
            n = 0
            for j in range(m):
                n += took[t, j]
            start[s * n_t + t + 1] = n
            total += n
        chunks.append((s, took))
    for i in range(n_states * n_t):
        start[i + 1] += start[i]
    items = np.zeros(total, dtype=np.int64)
    for s, took in chunks:
        m = took.shape[1]
        for t in range(n_t):
            j0 = start[s * n_t + t]
            for j in range(m):
                if took[t, j]:
                    items[j0] = sub_items[sub_start[s] + j]
                    j0 += 1
    return start, items


@jit
def _phase_fire(F, f, first, phase2, apart):  # noqa: N803 - the firing side
    """The rows of ``F``'s hit tables that fire in a phase from composition f: (S row, X row, G
    row, whether G is ``pxg``). Phase 1: only its subs, if they strike ``first``; phase 2: its subs
    unless they struck first, its aircraft apart (``apart``) or with the rest."""
    none = F.ps.shape[0] - 1
    if not phase2:
        return (f if first else none), none, none, False
    return (none if first else f), (f if apart else none), f, not apart


@jit
def _triple(T, sh, xh, gh):  # noqa: N803 - the target
    d0, d1, d2 = T.dims[0], T.dims[1], T.dims[2]
    return (min(sh, d0) * (d1 + 1) + min(xh, d1)) * (d2 + 1) + min(gh, d2)


@jit
def _n_triples(T):  # noqa: N803
    return (T.dims[0] + 1) * (T.dims[1] + 1) * (T.dims[2] + 1)


@jit
def _strikes(A, D, AT, DT, rules, a, d):  # noqa: N803
    """(the attacker's subs strike first, the defender's) in (a, d)."""
    a_first = rules.a_first and AT.sub[a] and not DT.destroyer[d]
    d_first = rules.d_first and DT.sub[d] and not AT.destroyer[a]
    return a_first, d_first


@jit
def _fire_list(F, f, first, phase2, apart, T, t_state, out_t, out_p):  # noqa: N803
    """The hit triples (on target T in ``t_state``) a firing side scores in a phase, with their
    chances: a compact list in ``out_t``/``out_p``; returns its length and the chance that no hit
    of them can be paid (the target keeps its composition). Triples folded at ``T.dims``."""
    rs, rx, rg, merged = _phase_fire(F, f, first, phase2, apart)
    g_table = F.pxg if merged else F.pg
    n = 0
    n_t = _n_triples(T)
    dense = np.zeros(n_t)
    for sh in range(F.ps.shape[1]):
        p1 = F.ps[rs, sh]
        if p1 == 0.0:
            continue
        for xh in range(F.px.shape[1]):
            p2 = p1 * F.px[rx, xh]
            if p2 == 0.0:
                continue
            for gh in range(g_table.shape[1]):
                p3 = p2 * g_table[rg, gh]
                if p3 != 0.0:
                    dense[_triple(T, sh, xh, gh)] += p3
    stay = 0.0
    for t in range(n_t):
        if dense[t] != 0.0:
            out_t[n] = t
            out_p[n] = dense[t]
            n += 1
            i = t_state * n_t + t
            if T.opt_start[i + 1] - T.opt_start[i] == 1 and T.opt_items[T.opt_start[i]] == t_state:
                stay += dense[t]
    return n, stay


@jit
def _unpaid(T, s, t):  # noqa: N803
    """Whether triple t changes nothing in composition s (no hit can be paid)."""
    i = s * _n_triples(T) + t
    return T.opt_start[i + 1] - T.opt_start[i] == 1 and T.opt_items[T.opt_start[i]] == s


@jit
def _fill_m(A, AT, M, C, a, d, only_paid):  # noqa: N803
    """``M[a, d, t]`` = the best the attacker keeps from a under triple t against d (C[d, a']);
    ``only_paid``: the triples that change a (the others read C[d, a] itself, not known yet)."""
    n_t = M.shape[2]
    for t in range(n_t):
        unpaid = _unpaid(AT, a, t)
        if only_paid == unpaid:
            continue
        i = a * n_t + t
        if not A.best:
            M[a, d, t] = C[d, AT.fixed[i]]
            continue
        m = -np.inf
        for j in range(AT.opt_start[i], AT.opt_start[i + 1]):
            v = C[d, AT.opt_items[j]]
            if v > m:
                m = v
        M[a, d, t] = m


@jit
def _defender_value(A, D, AT, DT, M, a, d, dp, td_t, td_p, n_td):  # noqa: N803
    """sum_td P(td) M[a, dp, td] with the unknown self term (td unpaid, dp == d) left out."""
    total = 0.0
    for i in range(n_td):
        t = td_t[i]
        if dp == d and _unpaid(AT, a, t):
            continue
        total += td_p[i] * M[a, dp, t]
    return total


@jit
def _defender_keeps(A, D, AT, DT, M, a, d, t, td_t, td_p, n_td):  # noqa: N803
    """The composition the defender keeps under attacker triple t (changing d), and its value:
    its order of loss's, unless another option is better for it by more than ``TIE``."""
    i = d * _n_triples(DT) + t
    keep = DT.fixed[i]
    if not D.best:
        return keep, _defender_value(A, D, AT, DT, M, a, d, keep, td_t, td_p, n_td)
    value = np.inf
    choice = -1
    for j in range(DT.opt_start[i], DT.opt_start[i + 1]):
        if DT.opt_items[j] == keep:
            choice = keep
            value = _defender_value(A, D, AT, DT, M, a, d, keep, td_t, td_p, n_td)
    for j in range(DT.opt_start[i], DT.opt_start[i + 1]):
        dp = DT.opt_items[j]
        v = _defender_value(A, D, AT, DT, M, a, d, dp, td_t, td_p, n_td)
        if choice < 0 or v < value - TIE * (abs(value) + 1.0):
            value, choice = v, dp
    return choice, value


@jit
def _both_fire(A, D, AT, DT, rules, a, d, phase2, bufs):  # noqa: N803
    """Both sides' hit lists of one phase from (a, d) into ``bufs`` (the attacker's targets and
    chances, then the defender's): each list's length and its chance that no hit can be paid."""
    a_first, d_first = _strikes(A, D, AT, DT, rules, a, d)
    ta_t, ta_p, td_t, td_p = bufs
    a_apart = rules.air_needs_destroyer and not AT.destroyer[a] and DT.sub[d]
    d_apart = rules.air_needs_destroyer and not DT.destroyer[d] and AT.sub[a]
    n_ta, stay_a = _fire_list(AT, a, a_first, phase2, a_apart, DT, d, ta_t, ta_p)
    n_td, stay_d = _fire_list(DT, d, d_first, phase2, d_apart, AT, a, td_t, td_p)
    return n_ta, stay_a, n_td, stay_d


@jit
def _phase(A, D, AT, DT, rules, M, a, d, phase2, bufs):  # noqa: N803
    """One phase from (a, d): (R, q) with the phase's value R + q C(a, d) (q: nothing changes)."""
    ta_t, ta_p, td_t, td_p = bufs
    n_ta, stay_a, n_td, stay_d = _both_fire(A, D, AT, DT, rules, a, d, phase2, bufs)
    total = 0.0
    for i in range(n_ta):
        t = ta_t[i]
        if _unpaid(DT, d, t):
            total += ta_p[i] * _defender_value(A, D, AT, DT, M, a, d, d, td_t, td_p, n_td)
        else:
            total += ta_p[i] * _defender_keeps(A, D, AT, DT, M, a, d, t, td_t, td_p, n_td)[1]
    return total, stay_a * stay_d


@jit
def solve_kernel(A, D, AT, DT, rules, goal, V, W, M1, M2):  # noqa: N803
    """Fill ``V[d, a]`` (the goal's value at the start of a round), ``W[d, a]`` (at the start of
    phase 2) and the attacker's best ``M1``/``M2`` (after the defender's hits of phase 1/2)."""
    n_d, n_a = V.shape
    n_t = M2.shape[2]
    bufs = (np.zeros(_n_triples(DT), dtype=np.int64), np.zeros(_n_triples(DT)),
            np.zeros(n_t, dtype=np.int64), np.zeros(n_t))
    for d in range(n_d):
        for a in range(n_a):
            _fill_m(A, AT, M2, V, a, d, True)
            _fill_m(A, AT, M1, W, a, d, True)
            code = _outcome(A, D, a, d)
            if code != ONGOING:
                v = end_value(A, D, goal, a, d, code)
                w = v
            else:
                r2, q2 = _phase(A, D, AT, DT, rules, M2, a, d, True, bufs)
                a_first, d_first = _strikes(A, D, AT, DT, rules, a, d)
                r1, q1 = 0.0, 1.0
                if a_first or d_first:
                    r1, q1 = _phase(A, D, AT, DT, rules, M1, a, d, False, bufs)
                if 1.0 - q1 * q2 < NO_HIT_EPS:
                    v = end_value(A, D, goal, a, d, STALEMATE)
                else:
                    v = (r1 + q1 * r2) / (1.0 - q1 * q2)
                w = r2 + q2 * v
            V[d, a] = v
            W[d, a] = w
            _fill_m(A, AT, M2, V, a, d, False)
            _fill_m(A, AT, M1, W, a, d, False)


@jit
def attacker_keeps(A, AT, M, C, a, t, dp):  # noqa: N803
    """The composition the attacker keeps from a under the defender's triple t against dp (its
    continuation ``C``): its order of loss's, unless another is better by more than ``TIE``."""
    i = a * M.shape[2] + t
    keep = AT.fixed[i]
    if not A.best:
        return keep
    value = -np.inf
    choice = -1
    for j in range(AT.opt_start[i], AT.opt_start[i + 1]):
        if AT.opt_items[j] == keep:
            choice, value = keep, C[dp, keep]
    for j in range(AT.opt_start[i], AT.opt_start[i + 1]):
        ap = AT.opt_items[j]
        if choice < 0 or C[dp, ap] > value + TIE * (abs(value) + 1.0):
            choice, value = ap, C[dp, ap]
    return choice


@jit
def _phase_moves(A, D, AT, DT, rules, M, C, j, phase2, mass, into, bufs):  # noqa: N803
    """Spread ``mass`` at the pair ``j`` (joint d * n_a + a) over the pairs one phase leads to
    (``into``, joint too), the part where nothing changes left out (the caller's closed form)."""
    n_a = into.shape[0] // C.shape[0]
    d, a = j // n_a, j % n_a
    ta_t, ta_p, td_t, td_p = bufs
    n_ta, _, n_td, _ = _both_fire(A, D, AT, DT, rules, a, d, phase2, bufs)
    for i in range(n_ta):
        t = ta_t[i]
        dp = d if _unpaid(DT, d, t) else _defender_keeps(A, D, AT, DT, M, a, d, t, td_t, td_p, n_td)[0]
        for k in range(n_td):
            ap = a if _unpaid(AT, a, td_t[k]) else attacker_keeps(A, AT, M, C, a, td_t[k], dp)
            if ap == a and dp == d:
                continue
            into[dp * n_a + ap] += mass * ta_p[i] * td_p[k]


@jit
def forward_kernel(A, D, AT, DT, rules, V, W, M1, M2, start_idx, start_mass):  # noqa: N803
    """Mass at each end of the battle (joint d * n_a + a) when both sides play their policies from
    the start pairs, and the expected rounds fought. ``x``: mass at a round's start, ``y``: at
    phase 2's start; every move lowers the joint index, so predecessors come first."""
    n_d, n_a = V.shape
    x = np.zeros(n_d * n_a)
    y = np.zeros(n_d * n_a)
    end = np.zeros(n_d * n_a)
    bufs = (np.zeros(_n_triples(DT), dtype=np.int64), np.zeros(_n_triples(DT)),
            np.zeros(M2.shape[2], dtype=np.int64), np.zeros(M2.shape[2]))
    for i in range(start_idx.shape[0]):
        x[start_idx[i]] += start_mass[i]
    rounds = 0.0
    for j in range(n_d * n_a - 1, -1, -1):
        if x[j] == 0.0 and y[j] == 0.0:
            continue
        d, a = j // n_a, j % n_a
        if _outcome(A, D, a, d) != ONGOING:
            end[j] += x[j] + y[j]
            continue
        _, q2 = _phase(A, D, AT, DT, rules, M2, a, d, True, bufs)
        a_first, d_first = _strikes(A, D, AT, DT, rules, a, d)
        strike = a_first or d_first
        q1 = _phase(A, D, AT, DT, rules, M1, a, d, False, bufs)[1] if strike else 1.0
        if 1.0 - q1 * q2 < NO_HIT_EPS:
            end[j] += x[j] + y[j]
            continue
        # X (round starts here) = x + q2 Y, Y (phase 2 starts here) = y + q1 X
        total_x = (x[j] + q2 * y[j]) / (1.0 - q1 * q2)
        total_y = y[j] + q1 * total_x
        rounds += total_x
        if strike:
            _phase_moves(A, D, AT, DT, rules, M1, W, j, False, total_x, y, bufs)
        _phase_moves(A, D, AT, DT, rules, M2, V, j, True, total_y, x, bufs)
        x[j] = 0.0
        y[j] = 0.0
    return end, rounds
