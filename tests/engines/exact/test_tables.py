"""The exact engine's per-side tables and sparse sweep, against values derived by hand."""

import math
import sys
from fractions import Fraction as F

import numpy as np
import pytest

import oddsim
from oddsim.engines.exact import _tables as t

solve_module = sys.modules["oddsim.engines.exact.solve"]


def test_next_hit_follows_the_order_of_loss_for_each_kind_of_hit():
    # attacker order of loss: sub, sub, destroyer, fighter. The defender's sub splits off the
    # fighter (subs cannot hit it) and its fighter, without a destroyer, splits off the subs.
    battle = oddsim.Battle(rules="1942-2e", attacker="2 sub, 1 dd, 1 ftr", defender="1 sub, 1 ftr",
                           sea=True)
    tables = solve_module.prepare(battle).A
    air, sub, other = (int(s) for s in tables.stride[:t.KEPT])  # a state: sum of losses x stride per class

    def after(state, kind):
        return int(tables.next_hit[state, kind])

    whole = 0
    assert after(whole, t.H_SUB) == sub  # a sub's hit: the first non-aircraft, a sub
    assert after(whole, t.H_AIR) == other  # a fighter that cannot hit subs: the destroyer
    assert after(whole, t.H_ANY) == sub  # any hit: the first in the order, a sub
    no_ships = 2 * sub + other
    assert after(no_ships, t.H_SUB) == no_ships  # only the fighter is left: subs cannot hit it
    assert after(no_ships, t.H_ANY) == no_ships + air
    subs_only = other + air
    assert after(subs_only, t.H_AIR) == subs_only  # only subs left: the fighter cannot hit them


def test_cut_tails_keep_the_mass_and_zero_the_counts_cut():
    dice, p = 60, 1 / 6
    dist = np.array([math.comb(dice, k) * p**k * (1 - p) ** (dice - k) for k in range(dice + 1)])
    cut = dist.copy()
    lo, hi = t._cut_tails(cut, dice + 1)
    assert cut.sum() == pytest.approx(dist.sum(), abs=1e-15)
    assert not cut[:lo].any() and not cut[hi + 1:].any()
    # what was cut is lighter than the threshold, and one more count would not be
    def exact(k):
        return math.comb(dice, k) * F(1, 6) ** k * F(5, 6) ** (dice - k)

    upper = sum(exact(k) for k in range(hi + 1, dice + 1))
    assert float(upper) < t.TAIL <= float(upper + exact(hi))
    assert lo == 0  # P(0 hits) = (5/6)^60, about 1.8e-5: nothing to cut below


def test_mass_moving_along_a_row_is_swept():
    # 1 bomber (4) against 1 battleship (4, two hits): the battleship's free hit moves the mass to
    # a later defender state of the same attacker row. Per round from the start: 2/9 the bomber
    # hits alone (damaged battleship), 1/9 nothing; anything else ends with the bomber dead. From
    # damaged: 2/9 win, 4/9 both die, 2/9 loss, 1/9 again. Win = 1/4 * 1/4, draw = 1/4 * 1/2.
    result = oddsim.solve(oddsim.Battle(rules="1942-2e", attacker="1 bmb", defender="1 bb", sea=True))
    assert result.attacker_win == pytest.approx(1 / 16, abs=1e-15)
    assert result.draw == pytest.approx(1 / 8, abs=1e-15)
    assert result.defender_win == pytest.approx(13 / 16, abs=1e-15)


def test_hit_distributions_per_group_of_dice():
    # 1942-2e: 1 infantry raised to 2 by 1 artillery (2), 1 fighter (3). The others: two dice
    # at 1/3; the fighter: one at 1/2; together the sum of the two. After the first loss (the
    # infantry, cheapest) the artillery rolls alone.
    battle = oddsim.Battle(rules="1942-2e", attacker="1 inf, 1 art, 1 ftr", defender="1 inf")
    tables = solve_module.prepare(battle).A
    third, half = F(1, 3), F(1, 2)
    expected = {
        0: {t.G_OTHER: [(1 - third) ** 2, 2 * third * (1 - third), third ** 2], t.G_AIR: [half, half]},
        1: {t.G_OTHER: [1 - third, third], t.G_AIR: [half, half]},
    }
    for state, groups in expected.items():
        both = [F(0)] * (len(groups[t.G_OTHER]) + 1)
        for i, p in enumerate(groups[t.G_AIR]):
            for j, q in enumerate(groups[t.G_OTHER]):
                both[i + j] += p * q
        groups[t.G_AIR_OTHER] = both
        for group, dist in groups.items():
            got = tables.dist[state, group]
            assert got[:len(dist)] == pytest.approx([float(x) for x in dist], abs=1e-15)
            assert not got[len(dist):].any()
    assert tables.dist[0, t.G_AIR_OTHER, :4] == pytest.approx(
        [2 / 9, 4 / 9, 5 / 18, 1 / 18], abs=1e-15)  # the sum, worked out by hand


def test_hit_distributions_only_for_states_the_battle_reaches():
    # attacker order of loss: sub, sub, destroyer, fighter (classes: air, sub, other). Every kind
    # of hit takes the destroyer before the fighter, so no state has lost the fighter alone: its
    # tables are never read, and its hit distributions read "no hits"; with every state (the
    # retreat table) they are those of 2 subs (2) and a destroyer (2).
    battle = oddsim.Battle(rules="1942-2e", attacker="2 sub, 1 dd, 1 ftr", defender="1 sub, 1 ftr",
                           sea=True)
    reached = solve_module.prepare(battle).A
    every = solve_module.prepare(battle, every_state=True).A
    fighter_lost = int(reached.stride[t.AIR])
    assert (reached.dist[fighter_lost, :, 0] == 1.0).all() and not reached.dist[fighter_lost, :, 1:].any()
    assert not reached.hi[fighter_lost].any()
    # and read as a side with nothing left that takes no hit; with every state: 3 slots left, and
    # the next hit takes the first sub
    assert reached.flags[fighter_lost, t.F_SLOTS_LEFT] == 0 and every.flags[fighter_lost, t.F_SLOTS_LEFT] == 3
    assert reached.next_hit[fighter_lost, t.H_ANY] == fighter_lost
    assert every.next_hit[fighter_lost, t.H_ANY] == fighter_lost + int(reached.stride[t.SUB])
    third = 1 / 3
    assert every.dist[fighter_lost, t.G_SUB, :3] == pytest.approx(
        [(1 - third) ** 2, 2 * third * (1 - third), third ** 2], abs=1e-15)
    assert every.dist[fighter_lost, t.G_OTHER, :2] == pytest.approx([1 - third, third], abs=1e-15)
    # a state the battle reaches (a sub lost, then the fighter to a fighter's hit that skips subs
    # once the destroyer is gone) has its own distributions either way
    for state in (0, int(reached.stride[t.SUB]), int(reached.stride[t.OTHER] + reached.stride[t.AIR])):
        assert np.array_equal(reached.dist[state], every.dist[state])
        assert np.array_equal(reached.hi[state], every.hi[state])
    assert every.dist[int(reached.stride[t.SUB]), t.G_SUB, 1] == pytest.approx(third, abs=1e-15)
