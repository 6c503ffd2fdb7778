"""The exact DP's round moves (``_kernel._moves``) against the round played hit by hit.

The kernel builds each side's next states as compact lists, by shortcuts (a chain along the
order of loss for hits of one kind, arithmetic steps for a side of one class, a dense sum for
hits of several kinds). The oracle here applies every combination of hit counts one hit at a
time through ``next_hit`` and sums the chances, as the rules read: subs that strike first fire
in phase 1 (their hits cannot take aircraft), then subs that did not, aircraft that cannot hit
subs (no destroyer of their own, enemy subs there) and the rest, in that order.
"""

import itertools
import sys
from collections import defaultdict

import numba
import numpy as np
import pytest

import oddsim
from oddsim.engines.exact import _kernel as k
from oddsim.engines.exact import _tables as t

solve_module = sys.modules["oddsim.engines.exact.solve"]


def apply(tables, state, hits, kind):
    """The state after ``hits`` hits of ``kind``, one at a time (a hit nobody can take is lost)."""
    for _ in range(hits):
        state = int(tables.next_hit[state, kind])
    return state


def next_states(hit, target, fire, firing, groups, column):
    """{state: chance} of the target after the firing side's hits of ``groups``, in that order
    (pairs of hit group and hit kind), every combination of hit counts."""
    out: dict[int, float] = defaultdict(float)
    ranges = [range(int(fire.lo[firing, g]), int(fire.hi[firing, g]) + 1) for g, _ in groups]
    for counts in itertools.product(*ranges):
        p = 1.0
        state = target
        for (group, kind), h in zip(groups, counts, strict=True):
            p *= fire.dist[firing, group, h]
            state = apply(hit, state, h, kind + column)
        if p:
            out[state] += p
    return out


def oracle(A, D, rules, ia, idd):
    """Phase 1 and phase 2 next-state distributions of each side, from the rules."""
    a_first = (rules.attacker_subs_first and D.flags[idd, t.F_DESTROYER] == 0
               and A.dist[ia, t.G_SUB, 0] < 1.0)
    d_first = (rules.defender_subs_first and A.flags[ia, t.F_DESTROYER] == 0
               and D.dist[idd, t.G_SUB, 0] < 1.0)
    phases = {}
    for general in (False, True):
        if not general and not (a_first or d_first):
            continue
        lists = []
        for hit, target, fire, firing, subs_first in ((A, ia, D, idd, d_first), (D, idd, A, ia, a_first)):
            column = t.N_HIT_KINDS if fire.flags[firing, t.F_SUB] == 1 else 0
            groups = []
            if not general:
                if subs_first:
                    groups.append((t.G_SUB, t.H_SUB))
            else:
                if not subs_first:
                    groups.append((t.G_SUB, t.H_SUB))
                apart = (rules.air_needs_destroyer and fire.flags[firing, t.F_DESTROYER] == 0
                         and hit.flags[target, t.F_SUB] == 1 and hit.class_info[t.SUB] > 0)
                groups += [(t.G_AIR, t.H_AIR), (t.G_OTHER, t.H_ANY)] if apart else [(t.G_AIR_OTHER, t.H_ANY)]
            lists.append(next_states(hit, target, fire, firing, groups, column) if groups else {target: 1.0})
        phases[general] = lists
    return phases


BATTLES = [
    oddsim.Battle(rules="1942-2e", attacker="10 inf, 4 art, 3 arm, 2 ftr, 1 bmb",
                  defender="12 inf, 2 art, 2 arm, 2 ftr"),
    oddsim.Battle(rules="1942-2e", attacker="3 sub, 2 dd, 1 cru, 2 ftr, 1 bmb",
                  defender="1 bb, 1 cv, 2 ftr, 2 sub, 1 dd", sea=True),
    oddsim.Battle(rules="1942-2e", attacker=oddsim.Side("3 sub, 1 cru, 2 ftr", destroyer_last=True),
                  defender=oddsim.Side("2 sub, 1 cv, 1 ftr", destroyer_last=True), sea=True),
]


@numba.njit
def _ongoing(A, D, rules, defender_holds):
    """Whether the battle is still being fought in each joint state."""
    na = A.flags.shape[0]
    nd = D.flags.shape[0]
    result = np.zeros(na * nd, dtype=np.bool_)
    for ia in range(na):
        for idd in range(nd):
            result[ia * nd + idd] = k._joint_outcome(ia, idd, A, D, rules, defender_holds) == k.ONGOING
    return result


@pytest.mark.parametrize("battle", BATTLES, ids=["land", "sea", "sea, destroyers last"])
def test_round_moves_match_the_round_played_hit_by_hit(battle):
    p = solve_module.prepare(battle, every_state=True)  # (hit distributions of every state)
    A, D = p.A, p.D
    na, nd = A.flags.shape[0], D.flags.shape[0]
    buf = k._buffers(na, nd)
    compact_idx, compact_p = buf[4], buf[5]
    ongoing = _ongoing(A, D, p.rules, p.holds)
    rng = np.random.default_rng(13)
    states = np.flatnonzero(ongoing)
    checked = 0
    for j in rng.choice(states, size=min(150, len(states)), replace=False):
        ia, idd = divmod(int(j), nd)
        n1_a, n1_d, stay1, n2_a, n2_d, stay2 = k._moves(ia, idd, A, D, p.rules, buf, k.OWN_STRIKES)
        want = oracle(A, D, p.rules, ia, idd)
        got = {True: [(k.A_GENERAL, n2_a), (k.D_GENERAL, n2_d)]}
        if n1_a:
            got[False] = [(k.A_FIRST, n1_a), (k.D_FIRST, n1_d)]
        assert set(got) == set(want)
        for general, sides in got.items():
            for (row, n), expected in zip(sides, want[general], strict=True):
                idx = [int(i) for i in compact_idx[row, :n]]
                assert len(set(idx)) == n  # distinct states
                listed = dict(zip(idx, compact_p[row, :n], strict=True))
                assert listed.keys() == {s for s, q in expected.items() if q}
                for s, q in expected.items():
                    assert listed[s] == pytest.approx(q, rel=1e-12, abs=1e-300)
            # the chance that the phase changes nothing: both sides stay where they are
            (a_next, d_next) = want[general]
            stay = stay2 if general else stay1
            assert stay == pytest.approx(a_next.get(ia, 0.0) * d_next.get(idd, 0.0), rel=1e-12, abs=1e-300)
        checked += 1
    assert checked > 20
