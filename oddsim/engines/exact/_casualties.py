"""Private Numba kernels of best casualties: the zero-sum game of choosing each loss, solved exactly.

A state is a composition: how many units of each type each side has left (``CasualtySide``
numbers a side's compositions in mixed radix, so removing a unit always lowers the index). A
round follows the rulebook: the attacker rolls; the defender chooses its casualties knowing those
hits, before its own roll; the defender rolls with every unit (its casualties still fire); the
attacker chooses its casualties knowing everything. So, with ``M(a, h, d')`` the best the attacker
makes of losing ``h`` units from ``a`` against ``d'``,

    V(a, d) = sum_ha P_a(ha) min_{d' = d less ha units} sum_hd P_d(hd) M(a, hd, d')

(the attacker maximises the goal, the defender minimises it; a side that follows a fixed order
has one option). ``M(a, h, d') = max over one unit u of M(a - u, h - 1, d')`` builds the choice
of h units from single losses, so no set of units is ever enumerated for the attacker. The
"nothing happened" term (no hits either side) is V(a, d) itself, solved in closed form: V =
(the rest) / (1 - P_a(0) P_d(0)). Defender compositions outer, attacker inner, both increasing:
every state a value reads is done. ``M`` is kept by attacker composition first: a pair's
options (every d' <= d) lie in one block of some ten thousand numbers, which stays in the cache.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from oddsim._runtime.jit import inline_jit, jit
from oddsim.engines.dice import add_dice_with, hit_chance, low_luck_pmf, low_luck_strength

GOAL_TAKE, GOAL_WIN, GOAL_TUV, GOAL_VALUE = 0, 1, 2, 3
"""What the attacker maximises (and the defender minimises): the chance of taking the territory,
of winning, the expected TUV swing, or that plus the territory's value when taken."""

ONGOING, ATTACKER_WINS, DEFENDER_WINS, DRAW, STALEMATE = 0, 1, 2, 3, 4
"""Outcome of a composition pair (``_outcome``)."""

TIE = 1e-12
"""How much better (plus this, relative to the value's size plus 1) an option must be to replace
the one the side's own order of loss takes: ties keep the order, so the advice names a change
only where it pays."""

NO_HIT_EPS = 1e-15
"""Below this chance that a round changes anything, neither side can hit: a stalemate."""


class CasualtySide(NamedTuple):
    """One side's compositions and what each needs, as the kernels read them (K composition types,
    S = prod(n + 1) compositions). A two-hit unit is two types: whole, and damaged (a hit moves a
    whole one to the damaged type, whose stride is smaller: every hit lowers the index); a
    composition past what the side can reach (more two-hit units than it has) is never read."""

    n: np.ndarray  # int64[K]: most units of each type
    stride: np.ndarray  # int64[K]: mixed-radix stride of each type
    move: np.ndarray  # int64[K]: how much a hit on one unit of the type lowers the index
    last: np.ndarray  # bool[K]: taken only once the side has nothing else (transports)
    start: int  # the composition the battle starts in
    counts: np.ndarray  # int64[S, K]: units of each type in each composition
    units: np.ndarray  # int64[S]: units in each composition
    capacity: np.ndarray  # int64[S]: hits the composition can take (a whole two-hit unit: 2)
    others: np.ndarray  # int64[S]: its units of types that are not ``last``
    fights: np.ndarray  # bool[S]: some unit that can fire is left (else the side is beaten)
    land: np.ndarray  # bool[S]: a land unit is left (the attacker takes the territory with it)
    ipc: np.ndarray  # float64[S]: IPC value of the units left
    hit: np.ndarray  # float64[S, H + 1]: hits it scores in a round, H = the enemy's units at most
    hit_top: np.ndarray  # int64[S]: its most hits with some chance (the rows' nonzero end)
    fixed_to: np.ndarray  # int64[S, E + 1]: the composition after h losses by its order of loss
    # (E = its own units)
    prefer: np.ndarray  # int64[K]: its types in its order of loss (ties go to the first)
    best: bool  # it chooses each loss (else it follows ``fixed_to``)
    holds: bool  # it has units that never take part in combat rounds (a non-casualty AA gun)


class FireRules(NamedTuple):
    """How a side's K types fire (``fire_groups``): value, dice and best-of per type, which never
    fire, and its support rules (supporter/supported masks [rule, type], units per supporter, the
    value they raise to)."""

    value: np.ndarray
    dice: np.ndarray
    best_of: np.ndarray
    defenceless: np.ndarray
    sup_supporter: np.ndarray
    sup_supported: np.ndarray
    sup_per: np.ndarray
    sup_value: np.ndarray
    sides: int  # faces of every die: a roll at or under a value hits


class Goal(NamedTuple):
    """The goal and what it counts."""

    kind: int  # GOAL_TAKE, GOAL_WIN, GOAL_TUV or GOAL_VALUE
    territory: float  # IPCs added when the attacker takes the territory (GOAL_VALUE)
    a_total: float  # IPCs the attacker starts with
    d_total: float
    retreat: bool  # the attacker may retreat at the end of each round (the best retreat, same goal)


class SubSets(NamedTuple):
    """Per defender composition d, its sub-compositions (every d' with d' <= d by type) in
    ``items[start[d]:start[d + 1]]``, with the units each one has lost (``removed``)."""

    start: np.ndarray
    items: np.ndarray
    removed: np.ndarray


@jit
def fire_groups(row, fire, raised, rolls, chance):
    """The dice one composition (``row``: units by type) rolls in a round, support applied (rule r
    raises up to ``sup_per[r]`` supported units per supporter to ``sup_value[r]``, in type order):
    groups of ``rolls[g]`` rolls that each hit with ``chance[g]``. Returns (groups, strength: the
    Low Luck total of dice x values); ``raised`` is scratch."""
    value, dice, best_of, defenceless = fire.value, fire.dice, fire.best_of, fire.defenceless
    sup_supporter, sup_supported, sup_per, sup_value = (fire.sup_supporter, fire.sup_supported, fire.sup_per,
                                                        fire.sup_value)
    n_types = row.shape[0]
    raised[:, :] = 0
    for r in range(sup_per.shape[0]):
        capacity = 0
        for k in range(n_types):
            if sup_supporter[r, k]:
                capacity += row[k] * sup_per[r]
        for k in range(n_types):
            if sup_supported[r, k] and value[k] < sup_value[r] and capacity > 0:
                done = 0
                for v in range(raised.shape[1]):
                    done += raised[k, v]
                take = min(capacity, row[k] - done)
                raised[k, sup_value[r]] += take
                capacity -= take
    groups = 0
    strength = 0
    for k in range(n_types):
        if row[k] == 0 or defenceless[k]:
            continue
        plain = row[k]
        for v in range(raised.shape[1]):
            plain -= raised[k, v]
        for v in range(fire.sides + 1):
            m = plain if v == 0 else raised[k, v]
            at = value[k] if v == 0 else v
            if m == 0 or at == 0:
                continue
            strength += m * low_luck_strength(at, dice[k], best_of[k], fire.sides)
            rolls[groups] = m if best_of[k] else m * dice[k]
            chance[groups] = hit_chance(at, dice[k], best_of[k], fire.sides)
            groups += 1
    return groups, strength


@jit
def hit_table(counts, fire, low_luck, cap):
    """Per composition (``counts[s, k]``), the distribution of hits its units score in a round
    (``fire_groups``), hits past ``cap`` folded into ``cap``."""
    n_states, n_types = counts.shape
    max_dice = 0
    for k in range(n_types):
        max_dice += counts[n_states - 1, k] * fire.dice[k]
    out = np.zeros((n_states, cap + 1))
    dist = np.zeros(max_dice + 2)
    scratch = np.zeros(2 * max_dice + 4)
    pmf = np.zeros(max_dice + 2)
    raised = np.zeros((n_types, fire.sides + 1), dtype=np.int64)
    rolls = np.zeros((fire.sides + 1) * n_types, dtype=np.int64)
    chance = np.zeros((fire.sides + 1) * n_types)
    for s in range(n_states):
        groups, strength = fire_groups(counts[s], fire, raised, rolls, chance)
        dist[:] = 0.0
        dist[0] = 1.0
        size = 1
        if low_luck:
            size = low_luck_pmf(strength, fire.sides, dist)
        else:
            for g in range(groups):
                size = add_dice_with(dist, size, rolls[g], chance[g], scratch, pmf)
        for h in range(size):
            out[s, min(h, cap)] += dist[h]
    return out


@inline_jit
def _hittable(side, s, k):
    """Whether a hit may go to a unit of type k in composition s (one is there; a type taken last
    only once nothing else is)."""
    return side.counts[s, k] > 0 and (not side.last[k] or side.others[s] == 0)


@inline_jit
def _outcome(A, D, a, d):  # noqa: N803 - the two sides
    """The outcome of compositions (a, d): ONGOING while both sides have a unit that can fire."""
    if A.fights[a] and D.fights[d]:
        return ONGOING
    if A.fights[a]:
        return ATTACKER_WINS
    if D.fights[d]:
        return DEFENDER_WINS
    # no side can fire: units that cannot are destroyed by none, or lost where the enemy has none left
    if A.units[a] > 0 and D.units[d] > 0:
        return STALEMATE
    if A.units[a] > 0:
        return ATTACKER_WINS
    if D.units[d] > 0 or D.holds:
        return DEFENDER_WINS
    return DRAW


@jit
def end_value(A, D, goal, a, d, code):  # noqa: N803
    """The goal's value where the battle ends at (a, d) with ``code``: a side beaten loses the
    units it has left (those that cannot fire are destroyed)."""
    won = code == ATTACKER_WINS
    take = won and A.land[a]
    if goal.kind == GOAL_TAKE:
        return 1.0 if take else 0.0
    if goal.kind == GOAL_WIN:
        return 1.0 if won else 0.0
    a_left = 0.0 if code == DEFENDER_WINS or code == DRAW else A.ipc[a]
    d_left = 0.0 if code == ATTACKER_WINS or code == DRAW else D.ipc[d]
    value = (goal.d_total - d_left) - (goal.a_total - a_left)
    if goal.kind == GOAL_VALUE and take:
        value += goal.territory
    return value


@inline_jit
def _capped(hit, s, r, limit):
    """P(exactly r hits) of row s with hits past ``limit`` (the units to hit) counted at ``limit``."""
    if r < limit:
        return hit[s, r]
    total = 0.0
    for h in range(limit, hit.shape[1]):
        total += hit[s, h]
    return total


@inline_jit
def _after_defender_fire(A, D, M, a, d, dp):  # noqa: N803
    """The value, to the attacker, of the defender having lost down to ``dp``: the defender fires
    with ``d`` (its casualties still fire) and the attacker takes its hits best (``M``)."""
    total = 0.0
    for hd in range(D.hit_top[d] + 1):
        total += D.hit[d, hd] * M[a, dp, hd]
    return total


@jit
def solve_kernel(A, D, goal, subsets, V, M, F, leave):  # noqa: N803
    """Fill ``V[d, a]`` (the goal's value at the end of a round, where the attacker may retreat with
    ``goal.retreat``), ``F[d, a]`` (at the start of a round, which is fought: round 1; ``F`` may be
    ``V`` without retreats), ``leave[d, a]`` (1 where the attacker retreats) and ``M[a, d, h]`` (the
    best the attacker makes of losing h units from a, against d) for every composition pair. A
    retreat must beat fighting on by more than ``TIE``; if fighting on is best once in a state, it
    is best each time the battle comes back to it, so the closed form holds."""
    n_d, n_a = V.shape
    n_h = M.shape[2]
    best_r = np.zeros(D.capacity.max() + 1)
    for d in range(n_d):
        for a in range(n_a):
            # M for one hit or more reads only smaller attacker compositions
            if a > 0:
                nothing_else = A.others[a] == 0  # (a type taken last may be hit: ``_hittable``)
                for h in range(1, n_h):
                    if A.best:
                        m = -np.inf
                        for k in range(A.n.shape[0]):
                            if A.counts[a, k] > 0 and (nothing_else or not A.last[k]):
                                m = max(m, M[a - A.move[k], d, h - 1])
                        M[a, d, h] = m
                    else:
                        M[a, d, h] = V[d, A.fixed_to[a, min(h, A.fixed_to.shape[1] - 1)]]
            code = _outcome(A, D, a, d)
            if code != ONGOING:
                v = end_value(A, D, goal, a, d, code)
            else:
                p00 = A.hit[a, 0] * D.hit[d, 0]
                if 1.0 - p00 < NO_HIT_EPS:
                    v = end_value(A, D, goal, a, d, STALEMATE)
                else:
                    # no attacker hit: the defender keeps d; its hits other than none
                    rest = 0.0
                    for hd in range(1, D.hit.shape[1]):
                        rest += D.hit[d, hd] * M[a, d, hd]
                    total = A.hit[a, 0] * rest
                    units = D.capacity[d]
                    if D.best:
                        best_r[: units + 1] = np.inf
                        for j in range(subsets.start[d], subsets.start[d + 1]):
                            r = subsets.removed[j]
                            if r > 0:
                                s = _after_defender_fire(A, D, M, a, d, subsets.items[j])
                                if s < best_r[r]:
                                    best_r[r] = s
                        for r in range(1, units + 1):
                            total += _capped(A.hit, a, r, units) * best_r[r]
                    else:
                        for r in range(1, units + 1):
                            p = _capped(A.hit, a, r, units)
                            if p != 0.0:
                                total += p * _after_defender_fire(A, D, M, a, d, D.fixed_to[d, r])
                    v = total / (1.0 - p00)
                    if goal.retreat:
                        gone = end_value(A, D, goal, a, d, STALEMATE)  # (the losses so far, not taken)
                        if gone > v + TIE * (abs(v) + 1.0):
                            leave[d, a] = 1
                            F[d, a] = total + p00 * gone
                            v = gone
            if leave[d, a] == 0:
                F[d, a] = v
            V[d, a] = v
            M[a, d, 0] = v
            if a == 0:
                for h in range(1, n_h):
                    M[0, d, h] = v


@jit
def defender_choice(A, D, M, subsets, a, d, r):  # noqa: N803
    """The composition the defender keeps when it takes ``r`` hits (r >= 1) in (a, d): its order
    of loss's, unless another is better for it by more than ``TIE``."""
    r = min(r, D.capacity[d])
    keep = D.fixed_to[d, r]
    if not D.best:
        return keep
    value = _after_defender_fire(A, D, M, a, d, keep)
    for j in range(subsets.start[d], subsets.start[d + 1]):
        if subsets.removed[j] == r:
            s = _after_defender_fire(A, D, M, a, d, subsets.items[j])
            if s < value - TIE * (abs(value) + 1.0):
                value, keep = s, subsets.items[j]
    return keep


@jit
def attacker_choice(A, M, a, h, dp):  # noqa: N803
    """The composition the attacker keeps when it takes ``h`` hits in a against ``dp``: one loss at
    a time, each the best (``M``), ties to its order of loss."""
    h = min(h, A.capacity[a])
    if not A.best:
        return A.fixed_to[a, h]
    while h > 0 and A.capacity[a] > 0:
        pick = -1
        value = -np.inf
        for i in range(A.prefer.shape[0]):
            k = A.prefer[i]
            if _hittable(A, a, k):
                m = M[a - A.move[k], dp, h - 1]
                if pick < 0 or m > value + TIE * (abs(value) + 1.0):
                    pick, value = k, m
        a -= A.move[pick]
        h -= 1
    return a


@jit
def forward_kernel(A, D, M, subsets, start_idx, start_mass, leave):  # noqa: N803
    """Mass at each end of the battle (joint index d * n_a + a) when both sides play their policies
    from the start compositions, the mass that retreats there (``leave``, joint: 1 where the
    attacker retreats at the end of a round; round 1 is fought), that mass weighted by the rounds
    fought before it retreated, and the expected rounds fought."""
    n_a, n_d = M.shape[0], M.shape[1]
    x = np.zeros(n_d * n_a)
    xw = np.zeros(n_d * n_a)  # the mass arriving, weighted by the rounds it has fought
    first = np.zeros(n_d * n_a)
    gone = np.zeros(n_d * n_a)
    gone_w = np.zeros(n_d * n_a)
    for i in range(start_idx.shape[0]):
        first[start_idx[i]] += start_mass[i]
    rounds = 0.0
    for j in range(n_d * n_a - 1, -1, -1):  # every move lowers the index: predecessors first
        if x[j] == 0.0 and first[j] == 0.0:
            continue
        d, a = j // n_a, j % n_a
        p00 = A.hit[a, 0] * D.hit[d, 0]
        if _outcome(A, D, a, d) != ONGOING or 1.0 - p00 < NO_HIT_EPS:
            x[j] += first[j]
            continue
        if leave[j]:  # the mass that got here retreats; round 1 is fought, and retreats if nothing happened
            gone[j] += x[j] + first[j] * p00
            gone_w[j] += xw[j] + first[j] * p00
            w = first[j]
            ww = first[j]  # (its rounds-weighted mass after this one round)
        else:
            # geometric: P(leave by a move after n rounds here) = p00^(n-1) T, sum of n: T / (1 - p00)^2
            w = (x[j] + first[j]) / (1.0 - p00)
            ww = xw[j] / (1.0 - p00) + w / (1.0 - p00)
        x[j] = 0.0
        xw[j] = 0.0
        rounds += w
        units = D.capacity[d]
        for r in range(units + 1):
            pr = _capped(A.hit, a, r, units)
            if pr == 0.0:
                continue
            dp = d if r == 0 else defender_choice(A, D, M, subsets, a, d, r)
            for hd in range(D.hit.shape[1]):
                q = D.hit[d, hd]
                if q == 0.0 or r == 0 and hd == 0:
                    continue
                ap = a if hd == 0 else attacker_choice(A, M, a, hd, dp)
                x[dp * n_a + ap] += w * pr * q
                xw[dp * n_a + ap] += ww * pr * q
    return x, gone, gone_w, rounds


@jit
def _keeps(D, subsets, d, r, value):  # noqa: N803
    """The composition the defender keeps from d after r hits (r >= 1) where keeping d' is worth
    ``value[d']`` to the attacker: its order of loss's, unless another is lower by ``TIE``."""
    r = min(r, D.capacity[d])
    keep = D.fixed_to[d, r]
    if not D.best or r == 0:
        return keep
    v = value[keep]
    for j in range(subsets.start[d], subsets.start[d + 1]):
        if subsets.removed[j] == r and value[subsets.items[j]] < v - TIE * (abs(v) + 1.0):
            keep, v = subsets.items[j], value[subsets.items[j]]
    return keep


@jit
def bombard_tables(A, D, M, F, subsets, a, d0, fire_back):  # noqa: N803
    """The values ``bombard_kernel`` chooses by, from attacker composition a: per d2 <= d0, round 1's
    end where the defender keeps d2 (its fire from d0, then the attacker's best loss); per d1, the
    value where the defender keeps d1 after the bombardment (with ``fire_back``: round 1 from
    there; else ``F``)."""
    at_end = np.zeros(d0 + 1)
    for d2 in range(d0 + 1):
        at_end[d2] = _after_defender_fire(A, D, M, a, d0, d2)
    start = np.zeros(d0 + 1)
    for d1 in range(d0 + 1):
        if not fire_back:
            start[d1] = F[d1, a]
            continue
        total = 0.0
        units = D.capacity[d1]
        for r in range(units + 1):
            p = _capped(A.hit, a, r, units)
            if p != 0.0:
                total += p * at_end[d1 if r == 0 else _keeps(D, subsets, d1, r, at_end)]
        start[d1] = total
    return at_end, start


@jit
def bombard_kernel(A, D, M, F, subsets, a, d0, bombard, fire_back, mass, first, after):  # noqa: N803
    """The goal's value from attacker composition a against the defender's d0 before a shore
    bombardment of ``bombard`` hits (a distribution): the defender loses its bombardment
    casualties knowing those hits; with ``fire_back`` they still fire in round 1, which is fought
    here (the defender firing from d0, its losses of round 1 chosen knowing the attacker's round-1
    hits), else round 1 starts after them (``F``). With ``mass`` > 0, that mass is spread over the
    pairs round 1 starts in (``first``, joint d * n_a + a: no fire back) or those it ends in
    (``after``)."""
    n_a = F.shape[1]
    if _outcome(A, D, a, d0) != ONGOING:
        if mass != 0.0:
            first[d0 * n_a + a] += mass
        return F[d0, a]
    at_end, start = bombard_tables(A, D, M, F, subsets, a, d0, fire_back)
    value = 0.0
    for b in range(bombard.shape[0]):
        p = bombard[b]
        if p == 0.0:
            continue
        d1 = d0 if b == 0 else _keeps(D, subsets, d0, b, start)
        value += p * start[d1]
        if mass == 0.0:
            continue
        if not fire_back:
            first[d1 * n_a + a] += mass * p
            continue
        units = D.capacity[d1]
        for r in range(units + 1):
            pr = _capped(A.hit, a, r, units)
            if pr == 0.0:
                continue
            d2 = d1 if r == 0 else _keeps(D, subsets, d1, r, at_end)
            for hd in range(D.hit_top[d0] + 1):
                q = D.hit[d0, hd]
                if q != 0.0:
                    ap = a if hd == 0 else attacker_choice(A, M, a, hd, d2)
                    after[d2 * n_a + ap] += mass * p * pr * q
    return value
