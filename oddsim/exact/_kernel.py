"""Private Numba kernels of the exact engine: a DP over casualty states.

A side's state is how many casualties it has taken in each of three classes of its order of
loss (0 air, 1 submarine, 2 everything else); within a class, units are always lost in order,
so the counts say exactly which units are left. A joint state is (attacker state, defender
state); casualties only grow, so states are visited in index order. Each round has two phases
(submarine first strike, then general fire); the loop "nothing changed" is solved in closed form.
"""

from __future__ import annotations

import numpy as np

from oddsim._jit import jit
from oddsim.dice import add_dice, hit_chance, low_luck_pmf

AIR, SUB, OTHER = 0, 1, 2
N_CLASSES = 3
# hit groups: who fired the dice, which decides what they may hit
G_SUB, G_AIR, G_OTHER, G_AIR_OTHER = 0, 1, 2, 3
N_GROUPS = 4
TAIL = 1e-17  # hit-count tails lighter than this are cut from the loops (mass kept at the edge)

# outcome codes
ONGOING, ATTACKER_WINS, DEFENDER_WINS, DRAW, STALEMATE = 0, 1, 2, 3, 4


@jit
def decode(state: int, stride: np.ndarray, class_len: np.ndarray, counts: np.ndarray) -> None:
    for c in range(N_CLASSES):
        counts[c] = (state // stride[c]) % (class_len[c] + 1)


@jit
def side_tables(class_len, class_slots, slot_unit, slot_kill, start_count, start_damaged,
                value, dice_per_unit, best_of, low_luck, cost,
                is_air, is_sub, is_dd, is_land, defenceless, sup_supporter, sup_supported,
                sup_per, sup_value, sup_side, side, max_dice):
    """Per state of one side: units alive (and how many of them damaged), IPC lost, flags, and
    hit distributions per group."""
    n_types = start_count.shape[0]
    stride = np.ones(N_CLASSES, dtype=np.int64)
    for c in range(1, N_CLASSES):
        stride[c] = stride[c - 1] * (class_len[c - 1] + 1)
    n_states = stride[N_CLASSES - 1] * (class_len[N_CLASSES - 1] + 1)
    alive = np.zeros((n_states, n_types), dtype=np.int64)
    damaged = np.zeros((n_states, n_types), dtype=np.int64)
    ipc_lost = np.zeros(n_states, dtype=np.int64)
    # flags: 0 slots left, 1 only defenceless left, 2 has destroyer, 3 has non-air, 4 has non-sub,
    # 5 has land unit, 6 has air unit, 7 has submarine
    flags = np.zeros((n_states, 8), dtype=np.int64)
    dist = np.zeros((n_states, N_GROUPS, max_dice + 1))
    lo = np.zeros((n_states, N_GROUPS), dtype=np.int64)
    hi = np.zeros((n_states, N_GROUPS), dtype=np.int64)
    counts = np.zeros(N_CLASSES, dtype=np.int64)
    scratch = np.zeros(2 * max_dice + 2)
    boosted = np.zeros(n_types, dtype=np.int64)
    boost_value = np.zeros(n_types, dtype=np.int64)
    for s in range(n_states):
        decode(s, stride, class_len, counts)
        for u in range(n_types):
            alive[s, u] = start_count[u]
        left = 0
        for c in range(N_CLASSES):
            for j in range(counts[c]):
                k = class_slots[c, j]
                if slot_kill[k] == 1:
                    alive[s, slot_unit[k]] -= 1
                    ipc_lost[s] += cost[slot_unit[k]]
                else:
                    damaged[s, slot_unit[k]] += 1
            left += class_len[c] - counts[c]
        for u in range(n_types):
            # free hits come before any kill of the type, so the killed ones were damaged
            damaged[s, u] = min(alive[s, u], start_damaged[u] + damaged[s, u])
        flags[s, 0] = left
        only_defenceless = 1
        for u in range(n_types):
            if alive[s, u] > 0:
                if not defenceless[u]:
                    only_defenceless = 0
                if is_dd[u]:
                    flags[s, 2] = 1
                if not is_air[u]:
                    flags[s, 3] = 1
                if not is_sub[u]:
                    flags[s, 4] = 1
                if is_land[u]:
                    flags[s, 5] = 1
                if is_air[u]:
                    flags[s, 6] = 1
                if is_sub[u]:
                    flags[s, 7] = 1
        flags[s, 1] = only_defenceless if left > 0 else 0
        # dice by group and value, with support
        boosted[:] = 0
        for r in range(sup_per.shape[0]):
            if sup_side[r] != side:
                continue
            capacity = 0
            for u in range(n_types):
                if sup_supporter[r, u]:
                    capacity += alive[s, u] * sup_per[r]
            for u in range(n_types):
                if sup_supported[r, u] and value[u] < sup_value[r] and capacity > 0:
                    take = min(capacity, alive[s, u] - boosted[u])
                    boosted[u] += take
                    boost_value[u] = sup_value[r]
                    capacity -= take
        size_of = np.ones(N_GROUPS, dtype=np.int64)
        strength = np.zeros(N_GROUPS, dtype=np.int64)
        for g in range(N_GROUPS):
            dist[s, g, :] = 0.0
            dist[s, g, 0] = 1.0
        for u in range(n_types):
            if alive[s, u] == 0 or defenceless[u]:
                continue
            g = G_SUB if is_sub[u] else (G_AIR if is_air[u] else G_OTHER)
            for portion in range(2):
                n = alive[s, u] - boosted[u] if portion == 0 else boosted[u]
                v = value[u] if portion == 0 else boost_value[u]
                if n == 0 or v == 0:
                    continue
                strength[g] += n * dice_per_unit[u] * v
                if g != G_SUB:
                    strength[G_AIR_OTHER] += n * dice_per_unit[u] * v
                rolls = n if best_of[u] else n * dice_per_unit[u]
                p = hit_chance(v, dice_per_unit[u], best_of[u])
                size_of[g] = add_dice(dist[s, g], size_of[g], rolls, p, scratch)
                if g != G_SUB:
                    size_of[G_AIR_OTHER] = add_dice(dist[s, G_AIR_OTHER], size_of[G_AIR_OTHER], rolls,
                                                    p, scratch)
        for g in range(N_GROUPS):
            if low_luck:
                dist[s, g, :] = 0.0
                size_of[g] = low_luck_pmf(strength[g], dist[s, g])
            size = size_of[g]
            a, b = 0, size - 1
            tail = 0.0
            while a < b and tail + dist[s, g, a] < TAIL:
                tail += dist[s, g, a]
                a += 1
            dist[s, g, a] += tail
            tail = 0.0
            while b > a and tail + dist[s, g, b] < TAIL:
                tail += dist[s, g, b]
                b -= 1
            dist[s, g, b] += tail
            lo[s, g] = a
            hi[s, g] = b
    return stride, alive, damaged, ipc_lost, flags, dist, lo, hi


@jit
def _hit_one(counts, class_len, class_slots, kind):
    """Take one hit of ``kind`` (0 submarine: not aircraft, 1 restricted air: not subs,
    2 general) on the first unit in the order of loss that can take it; False if none can."""
    best_class = -1
    best_pos = 1 << 60
    for c in range(N_CLASSES):
        if (kind == 0 and c == AIR) or (kind == 1 and c == SUB):
            continue
        if counts[c] < class_len[c]:
            pos = class_slots[c, counts[c]]
            if pos < best_pos:
                best_pos = pos
                best_class = c
    if best_class < 0:
        return False
    counts[best_class] += 1
    return True


@jit
def _encode(counts, stride):
    result = 0
    for c in range(N_CLASSES):
        result += counts[c] * stride[c]
    return result


@jit
def _target_distribution(target, fire_dist, fire_lo, fire_hi, subs_fire, air_restricted,
                         others_fire, stride, class_len, class_slots, prob, touched, work):
    """Distribution of the target's next state under one side's fire: submarine hits first,
    then restricted air hits, then general hits, each taken in the order of loss. Fills
    ``prob``/``touched`` and returns how many states were touched. States are built one hit at
    a time, so a hit count costs one step, not a replay."""
    n_touched = 0
    if class_len[SUB] == 0:
        air_restricted = False  # no submarine apart from the rest: air hits are general here
    s_hi = fire_hi[G_SUB] if subs_fire else 0
    a_hi = fire_hi[G_AIR] if (others_fire and air_restricted) else 0
    g_group = G_OTHER if air_restricted else G_AIR_OTHER
    g_lo = fire_lo[g_group] if others_fire else 0
    g_hi = fire_hi[g_group] if others_fire else 0
    if s_hi == 0 and a_hi == 0 and class_len[AIR] == 0 and class_len[SUB] == 0:
        # one class and general hits only: the k-th hit count moves k steps along the order
        left = class_len[OTHER] - target // stride[OTHER]
        for gh in range(g_lo, g_hi + 1):
            p = fire_dist[g_group, gh] if others_fire else 1.0
            if p == 0.0:
                continue
            nxt = target + min(gh, left) * stride[OTHER]
            if prob[nxt] == 0.0:
                touched[n_touched] = nxt
                n_touched += 1
            prob[nxt] += p
        return n_touched
    s_counts = work[0]
    a_counts = work[1]
    g_counts = work[2]
    decode(target, stride, class_len, s_counts)
    s_more = True
    for sh in range(s_hi + 1):
        if sh > 0:
            s_more = s_more and _hit_one(s_counts, class_len, class_slots, 0)
        ps = fire_dist[G_SUB, sh] if subs_fire else 1.0
        if ps == 0.0:
            continue
        a_counts[:] = s_counts
        a_more = True
        for ah in range(a_hi + 1):
            if ah > 0:
                a_more = a_more and _hit_one(a_counts, class_len, class_slots, 1)
            pa = ps * (fire_dist[G_AIR, ah] if (others_fire and air_restricted) else 1.0)
            if pa == 0.0:
                continue
            g_counts[:] = a_counts
            g_more = True
            for gh in range(g_hi + 1):
                if gh > 0:
                    g_more = g_more and _hit_one(g_counts, class_len, class_slots, 2)
                if gh < g_lo:
                    continue
                p = pa * (fire_dist[g_group, gh] if others_fire else 1.0)
                if p == 0.0:
                    continue
                nxt = _encode(g_counts, stride)
                if prob[nxt] == 0.0:
                    touched[n_touched] = nxt
                    n_touched += 1
                prob[nxt] += p
    return n_touched


@jit
def solve_kernel(a_class_len, a_class_slots, a_stride, a_flags, a_dist, a_lo, a_hi,
                 d_class_len, d_class_slots, d_stride, d_flags, d_dist, d_lo, d_hi,
                 start_mass, attacker_subs_first, defender_subs_first, air_needs_destroyer,
                 defender_holds, prune):
    """Run the DP from ``start_mass`` (joint states after the pre-battle phase, flattened as
    a * n_defender + d). Returns terminal mass per joint state with its outcome code, the
    expected number of rounds, and the mass pruned away as negligible. ``defender_holds``: the
    defender has units that take no hits (a non-casualty AA gun), so it keeps the territory when
    both armies are destroyed."""
    na = a_flags.shape[0]
    nd = d_flags.shape[0]
    x1 = start_mass.copy()  # mass arriving at the start of a round
    x2 = np.zeros(na * nd)  # mass arriving after the first-strike phase
    final = np.zeros(na * nd)
    outcome = np.zeros(na * nd, dtype=np.int8)
    rounds = 0.0
    pruned = 0.0
    a_prob = np.zeros(na)
    d_prob = np.zeros(nd)
    a_touched = np.zeros(na, dtype=np.int64)
    d_touched = np.zeros(nd, dtype=np.int64)
    a1_idx = np.zeros(na, dtype=np.int64)
    a1_p = np.zeros(na)
    a2_idx = np.zeros(na, dtype=np.int64)
    a2_p = np.zeros(na)
    d1_idx = np.zeros(nd, dtype=np.int64)
    d1_p = np.zeros(nd)
    counts = np.zeros((3, N_CLASSES), dtype=np.int64)
    for ia in range(na):
        for idd in range(nd):
            j = ia * nd + idd
            m1 = x1[j]
            m2 = x2[j]
            if m1 + m2 == 0.0:
                continue
            if m1 + m2 < prune:
                pruned += m1 + m2
                continue
            code = _outcome(a_flags[ia], d_flags[idd], a_dist[ia], d_dist[idd],
                            air_needs_destroyer, defender_holds)
            if code != ONGOING:
                final[j] = m1 + m2
                outcome[j] = code
                continue
            a_dd = a_flags[ia, 2] == 1
            d_dd = d_flags[idd, 2] == 1
            a_first = attacker_subs_first and not d_dd
            d_first = defender_subs_first and not a_dd
            # phase 1: first-strike submarines of either side (kept aside: phase 2 reuses the
            # buffers); skipped when no sub strikes first
            a_first = a_first and a_dist[ia, G_SUB, 0] < 1.0
            d_first = d_first and d_dist[idd, G_SUB, 0] < 1.0
            n1_a = 0
            n1_d = 0
            stay1 = 1.0
            if a_first or d_first:
                na_t = _target_distribution(ia, d_dist[idd], d_lo[idd], d_hi[idd], d_first,
                                            False, False, a_stride, a_class_len, a_class_slots,
                                            a_prob, a_touched, counts)
                nd_t = _target_distribution(idd, a_dist[ia], a_lo[ia], a_hi[ia], a_first,
                                            False, False, d_stride, d_class_len, d_class_slots,
                                            d_prob, d_touched, counts)
                stay1 = a_prob[ia] * d_prob[idd]
                n1_a = _compact(a_prob, a_touched, na_t, a1_idx, a1_p)
                n1_d = _compact(d_prob, d_touched, nd_t, d1_idx, d1_p)
            # phase 2: everything that has not fired yet
            # aircraft fire apart from the rest only while they cannot hit subs that are there
            na_t = _target_distribution(ia, d_dist[idd], d_lo[idd], d_hi[idd], not d_first,
                                        air_needs_destroyer and not d_dd and a_flags[ia, 7] == 1,
                                        True, a_stride,
                                        a_class_len, a_class_slots, a_prob, a_touched, counts)
            nd_t = _target_distribution(idd, a_dist[ia], a_lo[ia], a_hi[ia], not a_first,
                                        air_needs_destroyer and not a_dd and d_flags[idd, 7] == 1,
                                        True, d_stride,
                                        d_class_len, d_class_slots, d_prob, d_touched, counts)
            stay2 = a_prob[ia] * d_prob[idd]
            x_round = (m1 + stay2 * m2) / (1.0 - stay1 * stay2)
            x_after_first = m2 + stay1 * x_round
            rounds += x_round
            # spread phase-2 moves into x1 and phase-1 moves into x2. The "no change" share also
            # lands on this state's own slot, which is never read again, so it needs no branch.
            n2_a = _compact(a_prob, a_touched, na_t, a2_idx, a2_p)
            pruned += _spread(x1, nd, x_after_first, a2_idx, a2_p, n2_a, d_touched, d_prob, nd_t,
                              prune)
            for t in range(nd_t):
                d_prob[d_touched[t]] = 0.0
            for t in range(n1_d):
                d_prob[d1_idx[t]] = d1_p[t]
            pruned += _spread(x2, nd, x_round, a1_idx, a1_p, n1_a, d1_idx, d_prob, n1_d, prune)
            for t in range(n1_d):
                d_prob[d1_idx[t]] = 0.0
    return final, outcome, rounds, pruned


@jit
def _compact(dense, touched, n, idx, p):
    """Copy the touched entries of a dense distribution into (idx, p) and clear them."""
    for t in range(n):
        idx[t] = touched[t]
        p[t] = dense[touched[t]]
        dense[touched[t]] = 0.0
    return n


@jit
def _spread(dest, nd, mass, a_idx, a_p, n_a, d_idx, d_dense, n_d, eps):
    """dest[a, d] += mass * P(a) * P(d): an outer product, over a dense run of defender states
    where the touched ones are close together (so the inner loop vectorises). Moves that would
    carry less than ``eps`` are dropped; returns the mass dropped."""
    d_min = nd
    d_max = -1
    d_dropped = 0.0
    for t in range(n_d):
        td = d_idx[t]
        if mass * d_dense[td] < eps:
            d_dropped += d_dense[td]
            continue
        d_min = min(d_min, td)
        d_max = max(d_max, td)
    width = d_max - d_min + 1
    dense = width <= 4 * n_d
    # slices indexed from 0 let Numba drop its negative-index checks and vectorise the loop
    source = d_dense[max(d_min, 0): max(d_min, 0) + max(width, 0)]
    dropped = 0.0
    for s in range(n_a):
        c = mass * a_p[s]
        if c < eps:
            dropped += c
            continue
        dropped += c * d_dropped
        base = a_idx[s] * nd
        if dense:
            row = dest[base + d_min: base + d_min + width]
            for k in range(width):
                row[k] += c * source[k]
        else:
            for t in range(n_d):
                td = d_idx[t]
                if mass * d_dense[td] >= eps:
                    dest[base + td] += c * d_dense[td]
    return dropped


@jit
def _can_hit(fire_dist, fire_flags, target_flags, air_needs_destroyer):
    """Whether one side can still hurt the other: some group with a chance to hit and a target."""
    if target_flags[0] == 0:
        return False
    subs = fire_dist[G_SUB, 0] < 1.0
    air = fire_dist[G_AIR, 0] < 1.0
    other = fire_dist[G_OTHER, 0] < 1.0
    if other:
        return True
    if subs and target_flags[3] == 1:
        return True
    if air:
        if not air_needs_destroyer or fire_flags[2] == 1:
            return True
        if target_flags[4] == 1:
            return True
    return False


@jit
def _outcome(a_flags, d_flags, a_dist, d_dist, air_needs_destroyer, defender_holds):
    a_left = a_flags[0] > 0
    d_left = d_flags[0] > 0
    if not a_left and not d_left:
        return DEFENDER_WINS if defender_holds else DRAW
    if not d_left:
        return ATTACKER_WINS
    if not a_left:
        return DEFENDER_WINS
    # a side with only defenceless units left loses them to an enemy that can fight
    a_weak = a_flags[1] == 1
    d_weak = d_flags[1] == 1
    if a_weak and d_weak:
        return STALEMATE
    if d_weak:
        return ATTACKER_WINS  # defenceless units left alone are destroyed
    if a_weak:
        return DEFENDER_WINS
    if not _can_hit(a_dist, a_flags, d_flags, air_needs_destroyer) and not _can_hit(
            d_dist, d_flags, a_flags, air_needs_destroyer):
        return STALEMATE
    return ONGOING


@jit
def pre_battle_aa(a_stride, a_class_len, a_class_slots, n_a, aa_dist, aa_lo, aa_hi, out_mass,
                  nd):
    """Spread the start state over the attacker's states after AA fire (air-only hits)."""
    counts = np.zeros(N_CLASSES, dtype=np.int64)
    for h in range(aa_lo, aa_hi + 1):
        # AA hits may only take aircraft: they act as "sub hits" mirrored - use the air class only
        nxt = _apply_air_only(0, a_stride, a_class_len, a_class_slots, h, counts)
        out_mass[nxt * nd] += aa_dist[h]


@jit
def _apply_air_only(state, stride, class_len, class_slots, hits, counts):
    decode(state, stride, class_len, counts)
    counts[AIR] = min(class_len[AIR], counts[AIR] + hits)
    result = 0
    for c in range(N_CLASSES):
        result += counts[c] * stride[c]
    return result
