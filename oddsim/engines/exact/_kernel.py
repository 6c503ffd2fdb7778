"""Private Numba kernels of the exact engine: a DP over casualty states.

A side's state is how many casualties it has taken in each of four classes of its order of
loss (0 air, 1 submarine or, in land battles, units landed from the sea, 2 everything else, 3 the
destroyer kept last while enemy subs live: it moves in the order of loss with their presence);
within a class, units are always lost in order, so the counts say exactly which units are left.
A side whose units may leave the battle early (subs that submerge, or all but the landed units
in a retreat) has a second layer of states, after they left: the leaving classes are frozen
there (their units survive, outside the battle). A joint state is (attacker state, defender
state); casualties only grow, so states are visited in index order. Each round has two phases
(submarine first strike, then general fire); the loop "nothing changed" is solved in closed form.

Per joint state, ``_moves`` lists each side's next states and their chances for each phase
(compact lists, see ``_buffers``), and ``_spread`` adds their outer product to the mass of the
states they lead to.

Numba counts references to arrays with atomic operations, which doubled the DP's time, and its
pruning pass removes an increment/decrement pair only where nothing between them may drop
another reference. So the kernels run once per state (``_moves``, ``_spread``, the small
phases of ``_dp``) are written to leave no pair unpruned, checked in their LLVM IR by
``tests/engines/exact/test_reference_counts.py``: no call that LLVM does not inline while they
hold arrays (``_moves``' helpers are inlined), no array made or handed to an inlined helper
inside a branch, and every array used last after every branch (``_held``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from oddsim._runtime.jit import inline_jit, jit
from oddsim.engines.exact._tables import (
    AIR,
    F_DEPARTED,
    F_DESTROYER,
    F_NON_AIR,
    F_NON_SUB,
    F_ONLY_DEFENCELESS,
    F_SLOTS_LEFT,
    F_SUB,
    F_UNITS,
    G_AIR,
    G_AIR_OTHER,
    G_OTHER,
    G_SUB,
    H_AIR,
    H_ANY,
    H_SUB,
    KEPT,
    N_CLASSES,
    N_GROUPS,
    N_HIT_KINDS,
    OTHER,
    SUB,
)


class Rules(NamedTuple):
    """The edition's rules the DP reads."""

    attacker_subs_first: bool  # attacking subs strike first when the defender has no destroyer
    defender_subs_first: bool
    air_needs_destroyer: bool  # aircraft hit subs only with a destroyer on their side


class RetreatRule(NamedTuple):
    """The attacker's state-based retreat policy (each part off by default)."""

    max_units: int  # retreat with this many units left or fewer (negative: never)
    min_win: float  # retreat when the chance to win by fighting on is below this
    max_air_risk: float  # retreat when the next round kills an aircraft with more than this chance


class DPSettings(NamedTuple):
    """How the DP runs for one battle."""

    defender_holds: bool  # the defender has units that take no hits (a non-casualty AA gun), so it
    # keeps the territory when both armies are destroyed
    prune: float  # moves and states carrying less mass than this are dropped (counted as pruned)
    track_rounds: bool  # mass is also weighted by rounds fought (``Work.w1``/``w2``)


class BetweenRounds(NamedTuple):
    """Where mass moves between rounds, per joint state (an empty array: nowhere)."""

    submerge_to: np.ndarray  # subs submerging: the state after they left (itself where none do)
    retreat_to: np.ndarray  # the attacker's retreat: -1 the battle ends, another state the landed
    # units fight on there, itself no retreat is possible
    win_chance: np.ndarray  # the attacker's chance to win by fighting on (or the state's score),
    # which its policy's ``min_win`` reads


class Start(NamedTuple):
    """The mass before round 1: joint states (increasing) and their mass."""

    idx: np.ndarray
    val: np.ndarray


class Buffers(NamedTuple):
    """Scratch arrays of the round moves (``_buffers``)."""

    a_prob: np.ndarray  # dense probabilities per attacker state (to sum fire of several kinds)
    d_prob: np.ndarray
    a_touched: np.ndarray  # the states of ``a_prob`` written
    d_touched: np.ndarray
    compact_idx: np.ndarray  # the compact lists, one row each (``A_FIRST``.. ``RUN``): states
    compact_p: np.ndarray  # ... and their chances


class Lists(NamedTuple):
    """Compact lists of next states and their chances: the ``Buffers``' rows (2-D), or flat
    arrays that hold them one after another (``_flat``'s view of those rows, or a ``MoveStore``)."""

    idx: np.ndarray
    p: np.ndarray


class Weighted(NamedTuple):
    """A joint array of mass and the same mass weighted by rounds fought (length 1: not tracked)."""

    x: np.ndarray
    w: np.ndarray


class Rows(NamedTuple):
    """Per attacker state, the range of defender states with mass in its row."""

    lo: np.ndarray
    hi: np.ndarray


class Terminal(NamedTuple):
    """The DP's ends per joint state: the mass where battles ended, it weighted by rounds, and
    the outcome code there."""

    final: np.ndarray
    final_w: np.ndarray
    outcome: np.ndarray


class DPResult(NamedTuple):
    """What the DP returns besides the ends it wrote in ``Work``."""

    ends: np.ndarray  # the joint states where battles ended, increasing
    rounds: float  # the expected number of rounds
    pruned: float  # the mass pruned


class RoundsResult(NamedTuple):
    """What ``rounds_kernel`` returns."""

    final: np.ndarray  # the mass where battles ended, per joint state
    outcome: np.ndarray  # their outcome codes
    final_w: np.ndarray  # the mass weighted by rounds (where landed units fought on: the round the
    # others left)
    rounds: float
    pruned: float
    rest: np.ndarray  # the mass still fighting after the round limit (landed units that stay)
    rest_w: np.ndarray  # it weighted by the round the others left


# outcome codes; RETREAT_LEFT: the attacker's units in the battle are gone, those that left live
ONGOING, ATTACKER_WINS, DEFENDER_WINS, DRAW, STALEMATE, RETREAT, RETREAT_LEFT = 0, 1, 2, 3, 4, 5, 6


# ``_target_distribution``'s mode: which of the firing side's units fire, as bits
SUBS_FIRE, AIR_APART, OTHERS_FIRE, ENEMY_SUBS = 1, 2, 4, 8


@inline_jit
def _target_distribution(target, fire_dist, fire_lo, fire_hi, mode, next_hit, class_info, stride, prob,
                         touched, out_idx, out_p):
    """Distribution of the target's next state under one side's fire: submarine hits first,
    then hits of aircraft that fire apart, then general hits, each taken in the order of loss
    (the target side's ``next_hit``, ``class_info`` and ``stride``). ``mode``: the bits of who
    fires (``SUBS_FIRE``, ``OTHERS_FIRE``; ``AIR_APART``: aircraft fire apart; ``ENEMY_SUBS``: the
    firing side has subs in the battle, so a destroyer kept last waits). ``fire_*``: the firing
    side's hit distribution per group (``_tables.G_*``) in its state and the range of hit counts
    with weight (``SideTables`` rows). Writes it as a compact list (``out_idx``/``out_p``, distinct
    states) and returns (its length, the chance the target stays as it is). Once the target
    cannot take more hits of a kind, the rest of that hit distribution's tail lands on the state
    reached. ``prob``/``touched`` are scratch (left cleared) for fire of several kinds, whose
    paths can meet in the same state.

    Its three ways are written out here, not in helpers: a helper given arrays inside a branch
    holds references that Numba counts per call (see ``_held``)."""
    subs_fire = (mode & SUBS_FIRE) != 0
    others_fire = (mode & OTHERS_FIRE) != 0
    column = N_HIT_KINDS if mode & ENEMY_SUBS else 0
    # no submarine apart from the rest: air hits are general here
    air_apart = (mode & AIR_APART) != 0 and class_info[SUB] != 0
    s_hi = fire_hi[G_SUB] if subs_fire else 0
    air_fires = others_fire and air_apart
    a_hi = fire_hi[G_AIR] if air_fires else 0
    g_group = G_OTHER if air_apart else G_AIR_OTHER
    one_class = (class_info[AIR] == 0 and class_info[SUB] == 0 and class_info[KEPT] == 0
                 and target < class_info[2 * N_CLASSES])
    n = 0
    stay = 0.0
    if not others_fire and not subs_fire:  # nobody fires at the target
        out_idx[0] = target
        out_p[0] = 1.0
        n = 1
        stay = 1.0
    elif others_fire and (s_hi > 0 or a_hi > 0):
        # hits of several kinds, summed in the dense ``prob`` (the states first reached listed in
        # ``touched``), then copied out (and cleared) as a compact list
        h_sub = H_SUB + column
        h_air = H_AIR + column
        h_any = H_ANY + column
        g_lo = fire_lo[g_group]
        g_hi = fire_hi[g_group]
        s_state = target
        for sh in range(s_hi + 1):
            if sh > 0:
                s_state = next_hit[s_state, h_sub]
            s_last = sh == s_hi or next_hit[s_state, h_sub] == s_state
            ps = 1.0
            if subs_fire:  # (the tail summed only at the last state: this loop is hot)
                if s_last:
                    ps = 0.0
                    for i in range(sh, s_hi + 1):
                        ps += fire_dist[G_SUB, i]
                else:
                    ps = fire_dist[G_SUB, sh]
            if ps != 0.0:
                a_state = s_state
                for ah in range(a_hi + 1):
                    if ah > 0:
                        a_state = next_hit[a_state, h_air]
                    a_last = ah == a_hi or next_hit[a_state, h_air] == a_state
                    pa = ps
                    if air_fires:
                        if a_last:
                            q = 0.0
                            for i in range(ah, a_hi + 1):
                                q += fire_dist[G_AIR, i]
                        else:
                            q = fire_dist[G_AIR, ah]
                        pa = ps * q
                    if pa != 0.0:
                        g_state = a_state
                        for gh in range(g_hi + 1):
                            if gh > 0:
                                g_state = next_hit[g_state, h_any]
                            g_last = gh == g_hi or next_hit[g_state, h_any] == g_state
                            if gh < g_lo and not g_last:
                                continue
                            if g_last:
                                q = 0.0
                                for i in range(max(gh, g_lo), g_hi + 1):
                                    q += fire_dist[g_group, i]
                            else:
                                q = fire_dist[g_group, gh]
                            p = pa * q
                            if p != 0.0:
                                if prob[g_state] == 0.0:
                                    touched[n] = g_state
                                    n += 1
                                prob[g_state] += p
                            if g_last:
                                break
                    if a_last:
                        break
            if s_last:
                break
        stay = prob[target]
        for t in range(n):
            out_idx[t] = touched[t]
            out_p[t] = prob[touched[t]]
            prob[touched[t]] = 0.0
    else:  # hits of one kind: submarine hits (a first strike) or general hits
        group, kind = (g_group, H_ANY) if others_fire else (G_SUB, H_SUB)
        lo = fire_lo[group]
        hi = fire_hi[group]
        if kind == H_ANY and one_class:
            # one class, ``left`` hits from its end: the h-th hit moves ``step`` further
            step = stride[OTHER]
            left = class_info[OTHER] - target // step
            for h in range(lo, min(hi, left) + 1):
                if fire_dist[group, h] != 0.0:
                    out_idx[n] = target + h * step
                    out_p[n] = fire_dist[group, h]
                    n += 1
            if hi > left:  # the side cannot take all the hits: the rest of the tail lands on its end
                p = 0.0
                for i in range(max(lo, left), hi + 1):
                    p += fire_dist[group, i]
                if lo <= left and n > 0 and out_idx[n - 1] == target + left * step:
                    out_p[n - 1] = p
                elif p != 0.0:
                    out_idx[n] = target + left * step
                    out_p[n] = p
                    n += 1
        else:
            # one hit after another along the order of loss (``next_hit`` column): distinct
            # states, in increasing order; hits beyond what the side can take land on the last
            column += kind
            state = target
            h = 0
            while h < lo and next_hit[state, column] != state:  # the first lo hits are certain
                state = next_hit[state, column]
                h += 1
            h = lo
            while h <= hi:
                nxt = next_hit[state, column]
                if nxt == state or h == hi:  # the last state: the rest of the tail lands here
                    p = 0.0
                    for i in range(h, hi + 1):
                        p += fire_dist[group, i]
                else:
                    p = fire_dist[group, h]
                if p != 0.0:
                    out_idx[n] = state
                    out_p[n] = p
                    n += 1
                if nxt == state:
                    break
                state = nxt
                h += 1
        stay = out_p[0] if n > 0 and out_idx[0] == target else 0.0
    _held(fire_dist, fire_lo, fire_hi, next_hit)
    _held(class_info, stride, prob, touched)
    _held(out_idx, out_p, out_idx, out_p)
    return n, stay


# rows of the compact lists in ``_buffers``: each phase's next states of each side, then scratch
A_FIRST, D_FIRST, A_GENERAL, D_GENERAL, KEEP, RUN = 0, 1, 2, 3, 4, 5
N_LISTS = 6


@jit
def _buffers(na, nd):
    """Scratch arrays for ``_moves`` (``Buffers``): dense probabilities and touched lists (to
    sum fire of several kinds), and the compact lists (rows ``A_FIRST``.. ``RUN``)."""
    a_prob = np.zeros(na)
    d_prob = np.zeros(nd)
    a_touched = np.zeros(na, dtype=np.int64)
    d_touched = np.zeros(nd, dtype=np.int64)
    compact_idx = np.zeros((N_LISTS, max(na, nd)), dtype=np.int64)
    compact_p = np.zeros((N_LISTS, max(na, nd)))
    return Buffers(a_prob, d_prob, a_touched, d_touched, compact_idx, compact_p)


@jit
def _flat(compact):
    """The compact lists of ``_buffers`` (one row each) as one flat array, a view: list L starts
    at L times the row width (as ``_spread`` reads them)."""
    return compact.reshape(compact.shape[0] * compact.shape[1])


@inline_jit
def _strikes_first(ia, idd, A, D, rules):
    """(attacker's subs strike first, defender's subs strike first) in joint state (ia, idd).
    (The tables read first, in one straight run: see ``_held``.)"""
    a_subs_roll = A.dist[ia, G_SUB, 0] < 1.0
    d_subs_roll = D.dist[idd, G_SUB, 0] < 1.0
    a_destroyer = A.flags[ia, F_DESTROYER] != 0
    d_destroyer = D.flags[idd, F_DESTROYER] != 0
    a_first = rules.attacker_subs_first and not d_destroyer and a_subs_roll
    d_first = rules.defender_subs_first and not a_destroyer and d_subs_roll
    return a_first, d_first


@inline_jit
def _phase(ia, idd, A, D, rules, buf, general, a_first, d_first):
    """One phase of a round from (ia, idd): the first strike (``general`` False: the subs that
    strike first fire, ``a_first``/``d_first``) or general fire (everything that has not fired
    yet; aircraft fire apart from the rest only while they cannot hit subs that are there).
    The next states go to the compact lists ``A_FIRST``/``D_FIRST`` or ``A_GENERAL``/``D_GENERAL``.
    Returns (n_attacker, n_defender, the chance that the phase changes nothing). (Each side's
    tables are picked by index from a tuple, not in a branch: an array chosen in a branch keeps
    its reference counts, see ``_held``.)"""
    a_prob, d_prob, a_touched, d_touched, compact_idx, compact_p = buf
    tables = (A, D)
    probs = (a_prob, d_prob)
    touches = (a_touched, d_touched)
    restricted = general and rules.air_needs_destroyer
    stay = 1.0
    n_a = n_d = 0
    for side in range(2):  # the attacker's next states (under the defender's fire), the defender's
        hit = tables[side]  # the side that takes the hits, in state `target`
        fire = tables[1 - side]  # the side that fires, in state `firing`
        target = ia if side == 0 else idd
        firing = idd if side == 0 else ia
        subs_first = d_first if side == 0 else a_first  # the firing side's subs strike first
        # aircraft fire apart when they cannot hit the enemy's subs (no destroyer of their own)
        air_apart = restricted and fire.flags[firing, F_DESTROYER] == 0 and hit.flags[target, F_SUB] == 1
        mode = (SUBS_FIRE * (subs_first != general) + AIR_APART * air_apart + OTHERS_FIRE * general
                + ENEMY_SUBS * (fire.flags[firing, F_SUB] == 1))
        lists = (A_GENERAL if general else A_FIRST) + side  # (D_FIRST, D_GENERAL: one row further)
        n, p = _target_distribution(target, fire.dist[firing], fire.lo[firing], fire.hi[firing], mode,
                                    hit.next_hit, hit.class_info, hit.stride, probs[side], touches[side],
                                    compact_idx[lists], compact_p[lists])
        stay *= p
        if side == 0:
            n_a = n
        else:
            n_d = n
    _held(a_prob, d_prob, a_touched, d_touched)
    _held(compact_idx, compact_p, compact_idx, compact_p)
    return n_a, n_d, stay


OWN_STRIKES = -1  # ``_moves``: the round's first strikes are those of the state itself


@jit
def _moves(ia, idd, A, D, rules, buf, strikes):
    """Both phases of one round from joint state (ia, idd), as compact lists of each side's next
    states: phase 1 (first strike) in ``A_FIRST``/``D_FIRST`` (none when no sub strikes first),
    phase 2 in ``A_GENERAL``/``D_GENERAL``. Returns (n1_a, n1_d, stay1, n2_a, n2_d, stay2), the
    stays being the chances that the phase changes nothing. ``strikes``: ``OWN_STRIKES``, or
    general fire only (no phase 1), after a first strike in which the attacker's subs struck
    (``strikes`` & 1) and the defender's (& 2): the one call that ``_aircraft_loss_chance``
    needs, so that the moves are compiled once (``_phase`` and what it calls are inlined
    here, at one call site each)."""
    a_first, d_first = _strikes_first(ia, idd, A, D, rules)
    if strikes != OWN_STRIKES:
        a_first, d_first = (strikes & 1) == 1, (strikes & 2) == 2
    first = strikes == OWN_STRIKES and (a_first or d_first)
    n1_a = n1_d = n2_a = n2_d = 0
    stay1 = stay2 = 1.0
    for general in (False, True):
        if not general and not first:
            continue  # no sub strikes first
        n_a, n_d, stay = _phase(ia, idd, A, D, rules, buf, general, a_first, d_first)
        if general:
            n2_a, n2_d, stay2 = n_a, n_d, stay
        else:
            n1_a, n1_d, stay1 = n_a, n_d, stay
    _held_tables(A, D, buf)
    return n1_a, n1_d, stay1, n2_a, n2_d, stay2


@jit
def _held_tables(A, D, buf):  # noqa: N803
    """``_held`` for the two sides' tables and the buffers."""
    return A.flags.shape[0] + D.flags.shape[0] + buf.a_prob.shape[0] >= 0


@jit
def _round_moves(ia, idd, A, D, rules, buf):
    """``_moves``, with the defender's phase-2 states also in the dense buffer (``d_prob``, listed
    in ``d_touched``; the caller clears it), as ``win_chance_kernel`` reads them."""
    a_prob, d_prob, a_touched, d_touched, compact_idx, compact_p = buf
    n1_a, n1_d, stay1, n2_a, n2_d, stay2 = _moves(ia, idd, A, D, rules, buf, OWN_STRIKES)
    for t in range(n2_d):
        d_touched[t] = compact_idx[D_GENERAL, t]
        d_prob[d_touched[t]] = compact_p[D_GENERAL, t]
    return n1_a, n1_d, stay1, n2_a, n2_d, stay2


class MoveStore(NamedTuple):
    """Each state's round moves (``_moves``) as one sweep recorded them, for later sweeps over the
    same states to read where they lie instead of computing them again. State j's record starts
    at ``o = at[j] - 1`` (``at[j]`` 0: none) in both ``idx`` and ``p``: ``idx[o:o + 4]`` the four
    list lengths (n1_a, n1_d, n2_a, n2_d), ``p[o]``/``p[o + 1]`` the two "no change" chances
    (stay1, stay2; ``p[o + 2:o + 4]`` unused), then from ``o + 4`` on the four compact lists of
    ``_moves`` one after another (states in ``idx``, chances in ``p``): phase 1 attacker and
    defender, phase 2 attacker and defender (``_record_lists``). The last ``record_room``
    entries of the arrays hold the one record of a state that did not fit, until the next one.
    ``used``: [entries written, 1 while recording]; once the arrays are full, no more records.
    ``track_from``: per attacker state, the largest defender state from which a retreat may lie
    ahead. A solve reading the store weights mass by rounds only up to there: that weight is read
    only where battles end in a retreat, and none follows a state that no retreat state
    dominates (casualties only grow, and each side's state index with them)."""

    at: np.ndarray
    idx: np.ndarray
    p: np.ndarray
    used: np.ndarray
    track_from: np.ndarray


@jit
def record_room(n_attacker: int, n_defender: int) -> int:
    """The most entries one record takes: each list holds distinct states of its side."""
    return 4 + 2 * (n_attacker + n_defender)


@jit
def _record_moves(j, moves, buf, store, spare):
    """Copy the round moves of joint state j (``moves``: what ``_moves`` returned, whose lists
    are in ``buf``) into a new record of ``store``, while it records and has room before
    ``spare`` (``_spare_room``), else into its spare room from ``spare`` on, kept there until
    the next state that does not fit. Returns the record's offset. (The caller computes the
    moves: a call that LLVM does not inline, made here, would keep this kernel's reference
    counts, once per state; see ``_held``.)"""
    at, idx, p, used = store.at, store.idx, store.p, store.used
    compact_idx, compact_p = buf.compact_idx, buf.compact_p
    n1_a, n1_d, stay1, n2_a, n2_d, stay2 = moves
    fits = used[1] != 0 and used[0] + 4 + n1_a + n1_d + n2_a + n2_d <= spare
    o = used[0] if fits else spare
    idx[o], idx[o + 1], idx[o + 2], idx[o + 3] = n1_a, n1_d, n2_a, n2_d
    p[o], p[o + 1], p[o + 2], p[o + 3] = stay1, stay2, 0.0, 0.0
    end = _save(compact_idx, compact_p, A_FIRST, idx, p, o + 4, n1_a)
    end = _save(compact_idx, compact_p, D_FIRST, idx, p, end, n1_d)
    end = _save(compact_idx, compact_p, A_GENERAL, idx, p, end, n2_a)
    end = _save(compact_idx, compact_p, D_GENERAL, idx, p, end, n2_d)
    if fits:
        at[j] = o + 1
        used[0] = end
    _held(at, idx, p, used)
    _held(compact_idx, compact_p, compact_idx, compact_p)
    return o


@jit
def _spare_room(store, n_attacker, n_defender):
    """Where a ``MoveStore``'s spare room starts: its last ``record_room`` entries."""
    return store.idx.shape[0] - record_room(n_attacker, n_defender)


@inline_jit
def _record_lists(idx, p, o):
    """The four lists of the record at offset o of a ``MoveStore`` (``idx``, ``p``): their offsets
    and lengths, phase 1 attacker and defender, phase 2 attacker and defender, each phase's
    "no change" chance after its lists."""
    n1_a, n1_d, n2_a, n2_d = idx[o], idx[o + 1], idx[o + 2], idx[o + 3]
    o1_a = o + 4
    o1_d = o1_a + n1_a
    o2_a = o1_d + n1_d
    return o1_a, n1_a, o1_d, n1_d, p[o], o2_a, n2_a, o2_a + n2_a, n2_d, p[o + 1]


@inline_jit
def _save(compact_idx, compact_p, row, idx, p, o, n):
    """Copy the compact list in row ``row`` of ``_buffers``' lists, n entries, into the store at
    offset o; returns the offset after it. (Indexed in place, no row views: see ``_held``.)"""
    for t in range(n):
        idx[o + t] = compact_idx[row, t]
        p[o + t] = compact_p[row, t]
    return o + n


@jit
def _clear(dense, touched, n):
    for t in range(n):
        dense[touched[t]] = 0.0


@jit
def _aircraft_loss_chance(ia, idd, A, D, rules, buf, air_alive):
    """Chance that the next round from (ia, idd) kills at least one attacking aircraft. Subs never
    hit aircraft, so only general fire can: it is weighed over each first-strike outcome."""
    a_prob, d_prob, a_touched, d_touched, compact_idx, compact_p = buf
    a_first, d_first = _strikes_first(ia, idd, A, D, rules)
    n1_a, n1_d, stay1, n2_a, n2_d, stay2 = _moves(ia, idd, A, D, rules, buf, OWN_STRIKES)
    first_a = compact_idx[A_FIRST, :max(n1_a, 1)].copy()
    first_ap = compact_p[A_FIRST, :max(n1_a, 1)].copy()
    first_d = compact_idx[D_FIRST, :max(n1_d, 1)].copy()
    first_dp = compact_p[D_FIRST, :max(n1_d, 1)].copy()
    if n1_a == 0:  # no first strike: the round starts and ends its first step here
        first_a[0], first_ap[0], first_d[0], first_dp[0] = ia, 1.0, idd, 1.0
    keep = 0.0
    for s in range(first_a.shape[0]):
        for t in range(first_d.shape[0]):
            p = first_ap[s] * first_dp[t]
            if D.flags[first_d[t], F_SLOTS_LEFT] == 0:  # the defender is gone: nothing fires back
                keep += p
                continue
            m_a = _moves(first_a[s], first_d[t], A, D, rules, buf, int(a_first) + 2 * int(d_first))[3]
            for u in range(m_a):
                if air_alive[compact_idx[A_GENERAL, u]] == air_alive[ia]:
                    keep += p * compact_p[A_GENERAL, u]
    return 1.0 - keep


class Work(NamedTuple):
    """The DP's joint arrays (index a * n_defender + d), made zeroed by the caller so that pages
    of states never reached are never touched; ``track``/``first_strikes`` off: length 1."""

    x1: np.ndarray  # mass arriving at the start of a round; once a state is visited, its final mass
    x2: np.ndarray  # mass arriving after the first-strike phase (used when subs strike first)
    w1: np.ndarray  # x1 weighted by rounds fought so far (where the attacker's others have retreated
    # and the landed units fight on: by the round they left); once visited, the final weighted mass
    w2: np.ndarray  # x2 weighted the same way
    outcome: np.ndarray  # int8: the outcome code of each state where the battle ended
    row_lo: np.ndarray  # int64[n_attacker]: first defender state with mass in the attacker's row
    row_hi: np.ndarray  # int64[n_attacker]: last one


@jit
def solve_kernel(A, D, start, work, rules, settings, retreat, air_alive, between, visited, store):  # noqa: N803
    """The DP (``_dp``, which says what each argument is) as Python calls it: a kernel of its
    own, so that the kernels that call ``_dp`` (``_plain.solve_plain``) are not what Python calls."""
    return _dp(A, D, start, work, rules, settings, retreat, air_alive, between, visited, store)


@jit
def _dp(A, D, start, work, rules, settings, retreat, air_alive, between, visited, store):  # noqa: N803
    """Run the DP from the mass before round 1 (``start``, a ``Start``: after the pre-battle
    phase) and ``work.x1`` (mass at the end of round 1, when the caller fought it). ``A``/``D``
    are each side's ``SideTables``; ``settings`` the ``DPSettings``.

    Between rounds (``between``, ``BetweenRounds``), mass at state j moves to ``submerge_to[j]``
    (subs submerging; an empty array: nothing submerges) when that is not j; else, when the
    attacker's ``retreat`` policy retreats there, to ``retreat_to[j]`` (-1: the battle ends in a
    retreat; j: no retreat is possible): it retreats when it has ``max_units`` or fewer, when
    its chance to win by fighting on (``win_chance``, per joint state) is below ``min_win``, or
    when the next round would kill one of its ``air_alive`` aircraft with more than
    ``max_air_risk`` chance (``retreat`` None: it never retreats, and the kernel is compiled
    without the retreat code). Fills ``work.x1`` with the terminal mass, ``work.w1`` with it
    weighted by rounds (when ``track_rounds``; where the others retreated and the landed units
    fought on, by the round the others left) and ``work.outcome``, which are left 0 at every
    other state (as are ``x2`` and ``w2``: a caller that keeps the arrays clears them at the
    ends alone); returns a ``DPResult``. ``visited``, when given, receives the mass that reaches
    each state not pruned (the states the battle gets to); when it is empty (with a store),
    those states are marked in the store instead (``at`` -1 where no record is made there).
    ``store``, when given (a ``MoveStore``: by the best retreat only), gives the round moves it
    has, and records those computed here while it records, and leaves the rounds-weighted mass
    untracked past the store's ``track_from``. ``air_alive`` None (the best retreat's): the
    kernel is compiled without the policy's aircraft rule, which the best retreat replaces (a
    third of the solve under its policy at sea, and some seconds of compile, for a call never
    made).

    Each state is visited once, in index order, through the phases of a round: the mass that
    arrives there (``_arrivals``, ``_arrived``), the end of the battle (``_battle_over``), where
    it goes between rounds (``_moved``), the round's moves, the round fought there
    (``_round_fought_here``, the "nothing changed" loop in closed form) or once before the mass
    moves on (``_round_then_moved``), and the round's two phases of fire spread to the states
    they lead to (``_spread``)."""
    na = A.flags.shape[0]
    nd = D.flags.shape[0]
    defender_holds, prune, track_rounds = settings
    submerge_to, retreat_to, win_chance = between
    start_idx, start_val = start
    x1, x2, w1, w2, outcome, row_lo, row_hi = work
    # (records of arrays made once: made per state in a kernel that counts references, each
    # costs atomic increments, a quarter of the DP's time on land)
    rows = Rows(row_lo, row_hi)
    end_of_round, mid_round = Weighted(x1, w1), Weighted(x2, w2)
    first_strikes = x2.shape[0] > 1
    ends = np.empty(64, dtype=np.int64)
    n_ends = 0
    rounds = 0.0
    pruned = 0.0
    buf = _buffers(na, nd)
    lists_idx, lists_p, width = _flat(buf.compact_idx), _flat(buf.compact_p), buf.compact_idx.shape[1]
    spare = 0  # (with a store: where its spare room starts, ``_record_moves``)
    if store is not None:
        lists_idx, lists_p = store.idx, store.p
        spare = _spare_room(store, na, nd)
    lists, scratch = Lists(lists_idx, lists_p), Lists(buf.compact_idx, buf.compact_p)
    policy = False
    if retreat is not None:  # (None: no policy, and ``_retreats`` is not even compiled)
        policy = retreat.max_units >= 0 or retreat.min_win > 0.0 or retreat.max_air_risk < 1.0
        if air_alive is None and retreat.max_air_risk < 1.0:
            raise ValueError("a solve without aircraft counts (air_alive None) has no aircraft rule")
    moves = submerge_to.shape[0] > 0
    next_start = 0
    for t in range(start_idx.shape[0]):
        _widen(row_lo, row_hi, start_idx[t] // nd, start_idx[t] % nd, start_idx[t] % nd)
    for ia in range(na):
        for idd in range(row_lo[ia], nd):
            if idd > row_hi[ia]:  # (the row's range grows as mass moves along it)
                break
            j = ia * nd + idd
            m_start = 0.0
            if next_start < start_idx.shape[0] and start_idx[next_start] == j:
                m_start = start_val[next_start]
                next_start += 1
            m_end, m2 = _arrivals(x1, x2, j, first_strikes)
            total = m_start + m_end + m2
            if total == 0.0:
                continue
            u1, u2 = _arrived(x1, w1, w2, j, first_strikes, track_rounds)
            if total < prune:
                pruned += total
                continue
            if visited is not None:
                if visited.shape[0]:
                    visited[j] = total
                elif store.at[j] == 0:  # (no masses asked for: marked in the store, -1 for no record yet)
                    store.at[j] = -1
            code = _joint_outcome(ia, idd, A, D, rules, defender_holds)
            if code != ONGOING:
                _battle_over(x1, w1, outcome, j, code, total, u1 + u2, track_rounds)
                ends, n_ends = _append(ends, n_ends, j)
                continue
            tracked = track_rounds
            if store is not None and idd > store.track_from[ia]:
                tracked = False  # no retreat lies ahead: the weighted mass is read nowhere after
            # between rounds: subs submerge, else the attacker may retreat
            target = submerge_to[j] if moves else j
            if retreat is not None and target == j and policy:
                if air_alive is None:  # (the best retreat's: compiled without the aircraft rule)
                    retreating = _state_retreats(ia, j, A, retreat, win_chance)
                else:
                    retreating = _retreats(ia, idd, A, D, rules, buf, retreat, air_alive, win_chance)
                if retreating:
                    target = retreat_to[j]
            # the round's four lists of moves, at offsets of lists_idx/lists_p: the flattened compact
            # lists of ``_moves``, or with a store the state's record where it lies there
            o1_a, o1_d, o2_a, o2_d = A_FIRST * width, D_FIRST * width, A_GENERAL * width, D_GENERAL * width
            if target != j and m_start == 0.0 and m2 == 0.0:
                # all the mass here leaves at the end of a round: none fights one from here
                n1_a = n1_d = n2_a = n2_d = 0
                stay1 = stay2 = 0.0
            elif store is None:
                n1_a, n1_d, stay1, n2_a, n2_d, stay2 = _moves(ia, idd, A, D, rules, buf, OWN_STRIKES)
            else:
                o = store.at[j] - 1
                if o < 0:
                    o = _record_moves(j, _moves(ia, idd, A, D, rules, buf, OWN_STRIKES), buf, store, spare)
                o1_a, n1_a, o1_d, n1_d, stay1, o2_a, n2_a, o2_d, n2_d, stay2 = _record_lists(
                    lists_idx, lists_p, o)
            final = 0.0
            final_w = 0.0
            if target != j:
                x_round, u_round, x_after_first, u_after_first, leaving, leaving_w = _round_then_moved(
                    m_start, m_end, m2, u1, u2, stay1, stay2, tracked)
                if target < 0:  # the battle ends in a retreat
                    final = leaving
                    final_w = leaving_w
                    outcome[j] = RETREAT
                    ends, n_ends = _append(ends, n_ends, j)
                else:
                    _moved(x1, w1, rows, nd, target, leaving, leaving_w, tracked)
            else:
                # once the attacker's others have retreated (retreat_to[j] == j: the landed units
                # fight on) the weight keeps the round they left: no round is added
                add = 1.0
                if tracked and retreat_to.shape[0] and retreat_to[j] == j:
                    add = 0.0
                x_round, u_round, x_after_first, u_after_first = _round_fought_here(
                    m_start + m_end, m2, u1, u2, stay1, stay2, tracked, add)
            rounds += x_round
            # the round's fire spread into x1 (general fire) and x2 (a first strike). The "no
            # change" share also lands on this state's own slot, which is set to its final mass after.
            pruned += _spread(end_of_round, nd, x_after_first, u_after_first, lists, o2_a, n2_a, o2_d,
                                    n2_d, scratch, prune, rows)
            if n1_a:
                pruned += _spread(mid_round, nd, x_round, u_round, lists, o1_a, n1_a, o1_d, n1_d,
                                        scratch, prune, rows)
                x2[j] = 0.0  # (the first strike's "no change" share, counted in x_round)
                if track_rounds:
                    w2[j] = 0.0
            x1[j] = final
            if track_rounds:
                w1[j] = final_w
    return DPResult(ends[:n_ends], rounds, pruned)


@jit
def _arrivals(x1, x2, j, first_strikes):
    """The start of a round: the mass that arrived at joint state j at the end of a round (in
    ``x1``) and after a first strike (taken out of ``x2``). (The phases' helpers take the work
    arrays, not ``Work``: one call each, none counting references.)"""
    m_end = x1[j]
    # (x2 holds one zero without first strikes: read and cleared either way, no branch, so that
    # the arrays' reference counts pair up and Numba's pruning removes them)
    k = j if first_strikes else 0
    m2 = x2[k]
    x2[k] = 0.0  # (x2 and w2 are left all zeros: only x1, w1, outcome hold the ends)
    return m_end, m2


@jit
def _arrived(x1, w1, w2, j, first_strikes, track_rounds):
    """Where some mass arrived at joint state j (``_arrivals``): its rounds-weighted twins (at
    the end of a round, after a first strike), taken out of the work arrays with the mass (the
    state's entries then read 0, to be set to its final mass)."""
    x1[j] = 0.0  # from here on the state's final mass
    # (untracked, w1 and w2 hold one zero: read and cleared either way, as in ``_arrivals``)
    k1 = j if track_rounds else 0
    k2 = j if track_rounds and first_strikes else 0
    u1 = w1[k1]
    w1[k1] = 0.0
    u2 = w2[k2]
    w2[k2] = 0.0
    return u1, u2


@jit
def _battle_over(x1, w1, outcome, j, code, total, total_w, track_rounds):
    """The battle is over at joint state j (outcome ``code``): all its mass ends there (weighted:
    ``total_w``)."""
    x1[j] = total
    k = j if track_rounds else 0  # (untracked: w1's one entry written back, no branch)
    kept = w1[k]
    w1[k] = total_w if track_rounds else kept
    outcome[j] = code


@inline_jit
def _round_fought_here(m1, m2, u1, u2, stay1, stay2, tracked, add):
    """The rounds fought from a joint state whose mass stays between rounds, "nothing changed"
    looping back in closed form, from the mass that arrived at the start of a round (``m1``) and
    after a first strike (``m2``), weighted ``u1``/``u2``: the mass at the start of a round
    (``x_round``) and after its first strike, and both weighted by rounds (``tracked``; ``add``:
    the round each adds, 0 once the attacker's others left)."""
    x_round = (m1 + stay2 * m2) / (1.0 - stay1 * stay2)
    x_after_first = m2 + stay1 * x_round
    u_round = 0.0
    u_after_first = 0.0
    if tracked:
        u_round = (u1 + add * m1 + stay2 * (u2 + add * x_after_first)) / (1.0 - stay1 * stay2)
        u_after_first = u2 + stay1 * u_round
    return x_round, u_round, x_after_first, u_after_first


@inline_jit
def _round_then_moved(m_start, m_end, m2, u1, u2, stay1, stay2, tracked):
    """A joint state whose mass moves on (or leaves the battle) at the end of a round: the mass
    before round 1 (``m_start``) and after a first strike (``m2``, weighted ``u2``) fight the
    round out first, once; that at its end (``m_end``, weighted ``u1``) leaves at once. Returns
    the mass at the start of that round and after its first strike (each with its weighted
    twin), and the mass that leaves, weighted likewise."""
    x_round = m_start
    u_round = m_start if tracked else 0.0
    x_after_first = m2 + stay1 * x_round
    u_after_first = u2 + stay1 * u_round if tracked else 0.0
    leaving = m_end + stay2 * x_after_first
    leaving_w = u1 + stay2 * u_after_first
    return x_round, u_round, x_after_first, u_after_first, leaving, leaving_w


@jit
def _moved(x1, w1, rows, nd, target, mass, weighted, tracked):
    """Between rounds: ``mass`` moved to joint state ``target`` (subs submerged, or the attacker's
    others retreated), to be fought from there."""
    x1[target] += mass
    k = target if tracked else 0  # (not tracked: 0.0 added to w1's first entry, no branch)
    w1[k] += weighted if tracked else 0.0
    _widen(rows.lo, rows.hi, target // nd, target % nd, target % nd)


@jit
def _append(values, n, value):
    """values[n] = value, doubling the array when it is full; returns (array, n + 1)."""
    if n == values.shape[0]:
        bigger = np.empty(2 * n, dtype=values.dtype)
        for i in range(n):  # (a loop: a slice assignment compiles its error messages, 2 s)
            bigger[i] = values[i]
        values = bigger
    values[n] = value
    return values, n + 1


@jit
def _widen(row_lo, row_hi, row, lo, hi):
    """Make the attacker row's range of defender states with mass cover lo..hi."""
    row_lo[row] = min(row_lo[row], lo)  # (no branch: see ``_arrivals``)
    row_hi[row] = max(row_hi[row], hi)


@inline_jit
def _retreats(ia, idd, A, D, rules, buf, retreat, air_alive, win_chance):
    """Whether the attacker's policy retreats at the end of a round in joint state (ia, idd).
    Inlined: a call passing the side tables cost more than the test itself, once per state."""
    if _state_retreats(ia, ia * D.flags.shape[0] + idd, A, retreat, win_chance):
        return True
    max_air_risk = retreat.max_air_risk
    return (max_air_risk < 1.0 and air_alive[ia] > 0
            and _aircraft_loss_chance(ia, idd, A, D, rules, buf, air_alive) > max_air_risk)


@inline_jit
def _state_retreats(ia, j, A, retreat, win_chance):
    """``_retreats`` without the aircraft rule, in joint state j (attacker state ia): the units
    left, the chance to win (or the state's score; else no table). A loop that has no aircraft
    rule to test runs a third faster without its call (``solve_kernel`` at sea)."""
    max_units, min_win = retreat.max_units, retreat.min_win
    return A.flags[ia, F_UNITS] <= max_units or (min_win > 0.0 and win_chance[j] < min_win)


@jit
def retreat_mask_kernel(A, D, rules, defender_holds, retreat, air_alive, win_chance):
    """Whether the attacker's state-based retreat rules fire at the end of a round, for every
    joint state that is still being fought (1) or not (0)."""
    na = A.flags.shape[0]
    nd = D.flags.shape[0]
    mask = np.zeros(na * nd, dtype=np.int8)
    buf = _buffers(na, nd)
    for ia in range(na):
        for idd in range(nd):
            code = _joint_outcome(ia, idd, A, D, rules, defender_holds)
            if code == ONGOING and _retreats(ia, idd, A, D, rules, buf, retreat, air_alive, win_chance):
                mask[ia * nd + idd] = 1
    return mask


@jit
def rounds_kernel(A, D, start_mass, end_mass, rules, settings, retreat, air_alive, between, max_rounds):  # noqa: N803
    """Like ``solve_kernel`` for an attacker that retreats after ``max_rounds`` rounds at the
    latest: the DP is swept round by round (no closed form for "nothing changed"). Returns a
    ``RoundsResult``: the ends as ``solve_kernel`` leaves them in its work arrays, and the mass
    still fighting after ``max_rounds`` (landed units that could not retreat), at the end of
    that round, for ``solve_kernel`` to finish, with that mass weighted by the round the others
    left. Where the others retreated and the landed units fight on (``retreat_to[j] == j``) the
    mass carries that weight (``*_w``), and the final weight of the battles that end there is
    the round the others left, not the rounds fought. (``settings.track_rounds`` is not read:
    the weights are tracked where they are needed.)"""
    defender_holds, prune = settings.defender_holds, settings.prune
    retreat_to = between.retreat_to
    na = A.flags.shape[0]
    nd = D.flags.shape[0]
    cur = start_mass.copy()
    final = np.zeros(na * nd)
    final_w = np.zeros(na * nd)
    outcome = np.zeros(na * nd, dtype=np.int8)
    rounds = 0.0
    pruned = 0.0
    fights_on = False  # some states are those where the others left (only they carry weights)
    for j in range(retreat_to.shape[0]):
        if retreat_to[j] == j:
            fights_on = True
            break
    size_w = na * nd if fights_on else 1  # (weight 0: never written)
    cur_w = np.zeros(size_w)
    no_rows = Rows(np.zeros(na, dtype=np.int64), np.zeros(na, dtype=np.int64))  # every state is swept here
    buf = _buffers(na, nd)
    flat_idx, flat_p, width = _flat(buf.compact_idx), _flat(buf.compact_p), buf.compact_idx.shape[1]
    ended = Terminal(final, final_w, outcome)
    lists, scratch = Lists(flat_idx, flat_p), Lists(buf.compact_idx, buf.compact_p)
    first = 1
    if end_mass.sum() > 0.0:  # the caller fought round 1
        nxt = end_mass.copy()
        nxt_w = np.zeros(size_w)
        _end_of_round(Weighted(nxt, nxt_w), 1, max_rounds, ended, A, D, rules, defender_holds, buf, retreat,
                      air_alive, between)
        cur += nxt
        cur_w += nxt_w
        first = 2
    for fought in range(first, max_rounds + 1):
        mid = np.zeros(na * nd)
        nxt = np.zeros(na * nd)
        mid_w = np.zeros(size_w)
        nxt_w = np.zeros(size_w)
        mid_round, end_of_round = Weighted(mid, mid_w), Weighted(nxt, nxt_w)
        for ia in range(na):
            for idd in range(nd):
                j = ia * nd + idd
                if cur[j] == 0.0 and mid[j] == 0.0:
                    continue
                left = fights_on and retreat_to[j] == j
                code = _joint_outcome(ia, idd, A, D, rules, defender_holds)
                if code != ONGOING:
                    final[j] += cur[j] + mid[j]
                    if left:
                        final_w[j] += cur_w[j] + mid_w[j]
                    else:
                        final_w[j] += (fought - 1) * cur[j] + fought * mid[j]
                    outcome[j] = code
                    continue
                if cur[j] + mid[j] < prune:
                    pruned += cur[j] + mid[j]
                    continue
                n1_a, n1_d, stay1, n2_a, n2_d, stay2 = _moves(ia, idd, A, D, rules, buf, OWN_STRIKES)
                rounds += cur[j]
                middle = cur[j] + mid[j]
                middle_w = cur_w[j] + mid_w[j] if left else 0.0
                if n1_a:
                    # phase 1 from the round start; its own share joins the mid-round mass here
                    pruned += _spread(mid_round, nd, cur[j], cur_w[j] if left else 0.0, lists,
                                            A_FIRST * width, n1_a, D_FIRST * width, n1_d, scratch, prune,
                                            no_rows)
                    middle = mid[j]
                    middle_w = mid_w[j] if left else 0.0
                # phase 2 from all mid-round mass here
                pruned += _spread(end_of_round, nd, middle, middle_w, lists, A_GENERAL * width, n2_a,
                                        D_GENERAL * width, n2_d, scratch, prune, no_rows)
        _end_of_round(end_of_round, fought, max_rounds, ended, A, D, rules, defender_holds, buf,
                      retreat, air_alive, between)
        cur = nxt
        cur_w = nxt_w
    return RoundsResult(final, outcome, final_w, rounds, pruned, cur, cur_w)


@jit
def _end_of_round(mass, fought, max_rounds, ended, A, D, rules, defender_holds, buf, retreat, air_alive,  # noqa: N803
                  between):
    """Between rounds in ``rounds_kernel``: finished battles are recorded (in ``ended``, a
    ``Terminal``), subs submerge, then the attacker's policy (or the round limit) may retreat.
    Mass moved to a later state is handled there, later in the same sweep; mass whose others
    retreat now is weighted by this round (``mass.w``, see ``rounds_kernel``)."""
    nxt, nxt_w = mass
    final, final_w, outcome = ended
    submerge_to, retreat_to, win_chance = between
    na = A.flags.shape[0]
    nd = D.flags.shape[0]
    for ia in range(na):
        for idd in range(nd):
            j = ia * nd + idd
            if nxt[j] == 0.0:
                continue
            left = retreat_to[j] == j  # the others retreated before: weights carried
            code = _joint_outcome(ia, idd, A, D, rules, defender_holds)
            if code != ONGOING:
                final[j] += nxt[j]
                final_w[j] += nxt_w[j] if left else fought * nxt[j]
                outcome[j] = code
                nxt[j] = 0.0
                continue
            target = submerge_to[j] if submerge_to.shape[0] else j
            retreating = False
            if target == j and (fought == max_rounds or _retreats(
                    ia, idd, A, D, rules, buf, retreat, air_alive, win_chance)):
                target = retreat_to[j]
                retreating = target != j
            if target < 0:
                final[j] += nxt[j]
                final_w[j] += fought * nxt[j]
                outcome[j] = RETREAT
                nxt[j] = 0.0
            elif target != j:
                nxt[target] += nxt[j]
                if retreating:  # the others leave now, the landed units fight on
                    nxt_w[target] += fought * nxt[j]
                nxt[j] = 0.0


@jit
def win_chance_kernel(A, D, rules, defender_holds, submerge_to, a_reached, d_reached):
    """Chance that the attacker wins by fighting to the end (subs submerging as their policies
    say), from the start of a round in each joint state: the same moves as ``solve_kernel``,
    gathered backwards. Only states of ``a_reached`` x ``d_reached`` side states are solved
    (their moves never leave them); the others read 0."""
    na = A.flags.shape[0]
    nd = D.flags.shape[0]
    v1 = np.zeros(na * nd)  # at the start of a round
    v2 = np.zeros(na * nd)  # after the first-strike phase
    buf = _buffers(na, nd)
    a_prob, d_prob, a_touched, d_touched, compact_idx, compact_p = buf
    for ia in range(na - 1, -1, -1):
        if not a_reached[ia]:
            continue
        for idd in range(nd - 1, -1, -1):
            if not d_reached[idd]:
                continue
            j = ia * nd + idd
            code = _joint_outcome(ia, idd, A, D, rules, defender_holds)
            if code != ONGOING:
                v1[j] = v2[j] = 1.0 if code == ATTACKER_WINS else 0.0
                continue
            n1_a, n1_d, stay1, n2_a, n2_d, stay2 = _round_moves(ia, idd, A, D, rules, buf)
            # v1[j] and v2[j] are still 0 here, so the gathers leave out the "no change" move,
            # which the closed form below accounts for
            after_second = _gather(v1, nd, compact_idx[2], compact_p[2], n2_a, d_touched, d_prob, n2_d)
            _clear(d_prob, d_touched, n2_d)
            for t in range(n1_d):
                d_prob[compact_idx[1, t]] = compact_p[1, t]
            after_first = _gather(v2, nd, compact_idx[0], compact_p[0], n1_a, compact_idx[1], d_prob,
                                  n1_d)
            _clear(d_prob, compact_idx[1], n1_d)
            if n1_a == 0:  # no first strike: the round goes straight to general fire
                after_first = 0.0
            if submerge_to.shape[0] and submerge_to[j] != j:
                v1[j] = v1[submerge_to[j]]
            else:
                v1[j] = (after_first + stay1 * after_second) / (1.0 - stay1 * stay2)
            v2[j] = after_second + stay2 * v1[j]
    return v1


@jit
def _gather(values, nd, a_idx, a_p, n_a, d_idx, d_dense, n_d):
    """Sum of P(a) * P(d) * values[a, d] over the two distributions."""
    total = 0.0
    for s in range(n_a):
        base = a_idx[s] * nd
        row = 0.0
        for t in range(n_d):
            row += d_dense[d_idx[t]] * values[base + d_idx[t]]
        total += a_p[s] * row
    return total


@jit
def _spread(into, nd, mass, weight, lists, a_at, n_a, d_at, n_d, scratch, eps, rows):
    """into.x[a, d] += mass * P(a) * P(d) (and into.w the same with ``weight``): the outer
    product of two compact lists, the attacker's the ``n_a`` entries of ``lists`` (flat
    ``Lists``: rows of the flattened ``_buffers`` lists, or a ``MoveStore``) from ``a_at`` on,
    the defender's the ``n_d`` from ``d_at`` on: a round's general fire (into ``x1``/``w1``, at
    the end of the round) or its first strike (into ``x2``/``w2``, mid-round). Moves that would
    carry less than ``eps`` on either side are dropped; returns the mass dropped. When the
    defender's states kept are consecutive (one class taking general hits, as in land battles)
    each row is one contiguous run, which vectorises. ``rows`` are widened to cover what was
    written; ``scratch`` (the ``Buffers``' lists) gives the scratch rows ``KEEP`` and ``RUN``.
    (The lists are indexed in place, no views: see ``_held``.)"""
    dest, dest_w = into
    idx, p = lists
    compact_idx, compact_p = scratch
    row_lo, row_hi = rows
    n_keep = 0
    d_min = nd
    d_max = -1
    d_dropped = 0.0
    for t in range(d_at, d_at + n_d):
        if mass * p[t] < eps:
            d_dropped += p[t]
            continue
        compact_idx[KEEP, n_keep] = idx[t]
        compact_p[KEEP, n_keep] = p[t]
        n_keep += 1
        d_min = min(d_min, idx[t])
        d_max = max(d_max, idx[t])
    consecutive = n_keep > 0 and d_max - d_min == n_keep - 1  # (the states in a list are distinct)
    if consecutive:
        for t in range(n_keep):
            compact_p[RUN, compact_idx[KEEP, t] - d_min] = compact_p[KEEP, t]
    dropped = 0.0
    for s in range(a_at, a_at + n_a):
        c = mass * p[s]
        if c < eps:
            dropped += c
            continue
        dropped += c * d_dropped
        if n_keep == 0:
            continue
        a = idx[s]
        base = a * nd
        row_lo[a] = min(row_lo[a], d_min)  # (``_widen``, written out: no call per row)
        row_hi[a] = max(row_hi[a], d_max)
        if consecutive:
            _add_run(dest, base + d_min, c, compact_p, n_keep)
            if weight != 0.0:
                _add_run(dest_w, base + d_min, weight * p[s], compact_p, n_keep)
        elif weight != 0.0:  # (one pass over the states for both: half the index loads)
            cw = weight * p[s]
            for t in range(n_keep):
                q = base + compact_idx[KEEP, t]
                dest[q] += c * compact_p[KEEP, t]
                dest_w[q] += cw * compact_p[KEEP, t]
        else:
            for t in range(n_keep):
                dest[base + compact_idx[KEEP, t]] += c * compact_p[KEEP, t]
    _held(dest, dest_w, compact_idx, compact_p)
    _held(idx, p, row_lo, row_hi)
    return dropped


@inline_jit
def _add_run(dest, at, c, compact_p, n):
    """dest[at:at + n] += c * the run (``compact_p``'s row ``RUN``): a slice indexed from 0 lets
    Numba drop its negative-index checks and vectorise the loop. Inlined (Numba's IR): a call
    that LLVM does not inline holds ``_spread``'s arrays across it, with reference counts
    that are not pruned on its error path."""
    row = dest[at: at + n]
    for k in range(n):
        row[k] += c * compact_p[RUN, k]


@jit
def _held(a, b, c, d):
    """Nothing, given four arrays: called last in a kernel run once per state, it makes each
    array's last use there, after every branch. Numba counts references to arrays with atomic
    operations, and its pruning pass removes a pair only where the array's last use does not
    depend on a branch (the last use sets where the reference is dropped); unpaired, they doubled
    the DP's time. This call costs nothing after LLVM inlines it."""
    return a.shape[0] + b.shape[0] + c.shape[0] + d.shape[0] >= 0


# a side's facts in one state that decide whether the battle is over (``_facts``), as bits
_SLOTS, _WEAK, _DEPARTED, _DESTROYER, _NON_AIR, _NON_SUB, _FIRES_SUB, _FIRES_AIR, _FIRES_OTHER = (
    1, 2, 4, 8, 16, 32, 64, 128, 256)


@jit
def _facts(flags, dist, s):
    """A side's facts in state ``s`` that ``_outcome`` judges, as bits: read in one straight run,
    so that the arrays' reference counts pair up and Numba's pruning removes them."""
    return ((flags[s, F_SLOTS_LEFT] > 0) * _SLOTS | (flags[s, F_ONLY_DEFENCELESS] == 1) * _WEAK
            | (flags[s, F_DEPARTED] > 0) * _DEPARTED | (flags[s, F_DESTROYER] == 1) * _DESTROYER
            | (flags[s, F_NON_AIR] == 1) * _NON_AIR | (flags[s, F_NON_SUB] == 1) * _NON_SUB
            | (dist[s, G_SUB, 0] < 1.0) * _FIRES_SUB | (dist[s, G_AIR, 0] < 1.0) * _FIRES_AIR
            | (dist[s, G_OTHER, 0] < 1.0) * _FIRES_OTHER)


@jit
def _can_hit(fire, target, air_needs_destroyer):
    """Whether one side can still hurt the other (their ``_facts``): some group with a chance to
    hit and a target."""
    if not target & _SLOTS:
        return False
    if fire & _FIRES_OTHER:
        return True
    if fire & _FIRES_SUB and target & _NON_AIR:
        return True
    if fire & _FIRES_AIR:
        if not air_needs_destroyer or fire & _DESTROYER:
            return True
        if target & _NON_SUB:
            return True
    return False


@jit
def _joint_outcome(ia, idd, A, D, rules, defender_holds):
    """The outcome code of joint state (ia, idd)."""
    return _outcome(_facts(A.flags, A.dist, ia), _facts(D.flags, D.dist, idd), rules.air_needs_destroyer,
                    defender_holds)


@jit
def _outcome(a, d, air_needs_destroyer, defender_holds):
    """The outcome code of a joint state (ONGOING while the battle goes on) from the two sides'
    ``_facts``, judged on the units in the battle; units that left it early turn a loss into a
    retreat."""
    code = _battle_outcome(a, d, air_needs_destroyer, defender_holds)
    if (code == DEFENDER_WINS or code == DRAW) and a & _DEPARTED:
        return RETREAT_LEFT
    if code == DRAW and d & _DEPARTED:
        return DEFENDER_WINS
    return code


@jit
def _battle_outcome(a, d, air_needs_destroyer, defender_holds):
    a_left = a & _SLOTS
    d_left = d & _SLOTS
    if not a_left and not d_left:
        return DEFENDER_WINS if defender_holds else DRAW
    if not d_left:
        return ATTACKER_WINS
    if not a_left:
        return DEFENDER_WINS
    # a side with only defenceless units left loses them to an enemy that can fight
    a_weak = a & _WEAK
    d_weak = d & _WEAK
    if a_weak and d_weak:
        return STALEMATE
    if d_weak:
        return ATTACKER_WINS  # defenceless units left alone are destroyed
    if a_weak:
        return DEFENDER_WINS
    if not _can_hit(a, d, air_needs_destroyer) and not _can_hit(d, a, air_needs_destroyer):
        return STALEMATE
    return ONGOING


@jit
def submerge_kernel(A, D, rules, defender_holds, a_willing, d_willing):
    """Where each joint state goes between rounds when subs submerge (itself where none do): a
    side's subs go where it is ``*_willing`` (per side state: its policy says so and its subs
    are in the battle), the battle is still being fought and the enemy has no destroyer in it.
    One pass: the outcome is only judged where some side is willing."""
    na = A.flags.shape[0]
    nd = D.flags.shape[0]
    a_leave = A.class_info[2 * N_CLASSES] * nd  # to the attacker's second layer
    d_leave = D.class_info[2 * N_CLASSES]
    moves = np.empty(na * nd, dtype=np.int64)
    for ia in range(na):
        for idd in range(nd):
            j = ia * nd + idd
            moves[j] = j
            if not (a_willing[ia] or d_willing[idd]):
                continue
            if _joint_outcome(ia, idd, A, D, rules, defender_holds) != ONGOING:
                continue
            if a_willing[ia] and D.flags[idd, F_DESTROYER] == 0:
                moves[j] += a_leave
            if d_willing[idd] and A.flags[ia, F_DESTROYER] == 0:
                moves[j] += d_leave
    return moves


@jit
def bombard_round_kernel(A, D, start_mass, bombard_dist, rules, defender_holds):
    """Round 1 of a land battle whose bombardment casualties fire back: the bombardment's hits
    join the attacker's general fire, the defender fires from its state before it. Returns the
    start mass that does not fight (a battle already over) and the mass at the end of round 1."""
    na = A.flags.shape[0]
    nd = D.flags.shape[0]
    left = np.zeros(na * nd)
    after = np.zeros(na * nd)
    buf = _buffers(na, nd)
    a_prob, d_prob, a_touched, d_touched, compact_idx, compact_p = buf
    width = A.dist.shape[2] + bombard_dist.shape[0]
    fire = np.zeros((N_GROUPS, width))
    fire_lo = np.zeros(N_GROUPS, dtype=np.int64)
    fire_hi = np.zeros(N_GROUPS, dtype=np.int64)
    for g in range(N_GROUPS):
        fire[g, 0] = 1.0
    for j in range(na * nd):
        m = start_mass[j]
        if m == 0.0:
            continue
        ia = j // nd
        idd = j % nd
        if _joint_outcome(ia, idd, A, D, rules, defender_holds) != ONGOING:
            left[j] += m
            continue
        fire[G_AIR_OTHER, :] = 0.0
        for h in range(A.lo[ia, G_AIR_OTHER], A.hi[ia, G_AIR_OTHER] + 1):
            for b in range(bombard_dist.shape[0]):
                fire[G_AIR_OTHER, h + b] += A.dist[ia, G_AIR_OTHER, h] * bombard_dist[b]
        fire_hi[G_AIR_OTHER] = A.hi[ia, G_AIR_OTHER] + bombard_dist.shape[0] - 1
        a_mode = SUBS_FIRE + OTHERS_FIRE + ENEMY_SUBS * (D.flags[idd, F_SUB] == 1)
        na_t, _ = _target_distribution(ia, D.dist[idd], D.lo[idd], D.hi[idd], a_mode, A.next_hit,
                                       A.class_info, A.stride, a_prob, a_touched, compact_idx[A_GENERAL],
                                       compact_p[A_GENERAL])
        d_mode = OTHERS_FIRE + ENEMY_SUBS * (A.flags[ia, F_SUB] == 1)
        nd_t, _ = _target_distribution(idd, fire, fire_lo, fire_hi, d_mode, D.next_hit, D.class_info,
                                       D.stride, d_prob, d_touched, compact_idx[D_GENERAL],
                                       compact_p[D_GENERAL])
        for s in range(na_t):
            for t in range(nd_t):
                after[compact_idx[A_GENERAL, s] * nd + compact_idx[D_GENERAL, t]] += (
                    m * compact_p[A_GENERAL, s] * compact_p[D_GENERAL, t])
    return left, after


@jit
def first_round_kernel(A, D, start_mass, rules, defender_holds):
    """Round 1 fought under ``rules`` where they are not those of the rounds after it (subs that
    strike first in round 1 only, ``sub_strike_rounds = "first"``): the first strike, then
    general fire, once, as a round of ``rounds_kernel`` is. Returns the start mass that does not
    fight (a battle already over) and the mass at the end of round 1, before anything between
    rounds (battles that ended in it included); ``solve_kernel`` takes it on from there."""
    na = A.flags.shape[0]
    nd = D.flags.shape[0]
    left = np.zeros(na * nd)
    mid = np.zeros(na * nd)  # after the first strike
    after = np.zeros(na * nd)
    no_weight = np.zeros(1)  # (rounds are not weighted here: every battle in ``after`` fought one)
    no_rows = Rows(np.zeros(na, dtype=np.int64), np.zeros(na, dtype=np.int64))  # every state is swept here
    buf = _buffers(na, nd)
    flat_idx, flat_p, width = _flat(buf.compact_idx), _flat(buf.compact_p), buf.compact_idx.shape[1]
    lists, scratch = Lists(flat_idx, flat_p), Lists(buf.compact_idx, buf.compact_p)
    mid_round, end_of_round = Weighted(mid, no_weight), Weighted(after, no_weight)
    for j in range(na * nd):
        if start_mass[j] == 0.0 and mid[j] == 0.0:
            continue
        ia = j // nd
        idd = j % nd
        if _joint_outcome(ia, idd, A, D, rules, defender_holds) != ONGOING:
            left[j] += start_mass[j]  # over before round 1
            after[j] += mid[j]  # over after the first strike: in round 1
            continue
        n1_a, n1_d, stay1, n2_a, n2_d, stay2 = _moves(ia, idd, A, D, rules, buf, OWN_STRIKES)
        middle = start_mass[j] + mid[j]
        if n1_a:
            # the first strike from the round's start; its own share ("no change") joins mid[j]
            _spread(mid_round, nd, start_mass[j], 0.0, lists, A_FIRST * width, n1_a, D_FIRST * width,
                          n1_d, scratch, 0.0, no_rows)
            middle = mid[j]
        # general fire from all the mass here after the first strike (its own share stays at j)
        _spread(end_of_round, nd, middle, 0.0, lists, A_GENERAL * width, n2_a, D_GENERAL * width, n2_d,
                      scratch, 0.0, no_rows)
    return left, after


@jit
def pre_battle_aa(a_stride, a_class_len, aa_dist, out_mass, nd):
    """Spread the start state over the attacker's states after AA fire: AA hits take only
    aircraft, which are their own class whenever the defender has AA."""
    for hits in range(aa_dist.shape[0]):
        lost = min(a_class_len[AIR], hits)
        out_mass[lost * a_stride[AIR] * nd] += aa_dist[hits]

