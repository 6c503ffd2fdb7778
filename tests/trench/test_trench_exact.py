"""Exact odds of tiny battles, derived by hand.

Before 1917 a die adds 0 with probability 1/2 (faces 4-6 are discarded) and 1, 2, 3 with 1/6
each; from 1917 it adds 0 with 1/3 and 1-4 with 1/6 each. The sum S of three such dice before
1917 has generating function ((3 + x + x^2 + x^3) / 6)^3; with u = x + x^2 + x^3,
(3 + u)^3 = 27 + 27u + 9u^2 + u^3, whose coefficients (out of 216) are written out below.
"""

from fractions import Fraction as F
from functools import partial

import pytest

from oddsim.trench import TrenchBattle
from oddsim.trench import simulate_trench as _simulate_trench
from oddsim.trench import solve_trench as _solve_trench

# These tests check the reading before issue 14: both sides see every support value and dice go
# only on fronts with the side's card (test_trench_hidden.py covers the seed's reading).
FULL_OWN = {"information": "full", "dice_fronts": "own"}
simulate_trench = partial(_simulate_trench, **FULL_OWN)
solve_trench = partial(_solve_trench, **FULL_OWN)


# P(S = s) * 216 for s = 0..9, three dice before 1917 (see the module docstring)
SUM_1914 = [27, 27, 36, 46, 30, 24, 16, 6, 3, 1]
assert sum(SUM_1914) == 216


def prob(result, name):
    """An exact figure of a result as a fraction over its 46,656 roll pairs."""
    c = result.counts
    joint = c.joint
    if name == "attacker_win":
        count = sum(joint[i][j] for i in range(4) for j in range(4) if i > j)
    elif name == "draw":
        count = sum(joint[i][i] for i in range(4))
    elif name == "defender_win":
        count = sum(joint[i][j] for i in range(4) for j in range(4) if i < j)
    else:
        raise KeyError(name)
    return F(count, c.total)


def fronts_won(result, side):
    c = result.counts
    rows = [sum(c.joint[i]) for i in range(4)] if side == "attacker" else \
        [sum(c.joint[i][j] for i in range(4)) for j in range(4)]
    return [F(n, c.total) for n in rows]


def test_lone_card_wins_with_any_valid_die():
    # attacker card 0 on front 1, nothing else anywhere: the front (and battle) is won iff at
    # least one die is valid; otherwise every front is 0-0, a draw
    r = solve_trench(TrenchBattle((0, None, None), (None, None, None), 1914, points=2))
    assert prob(r, "attacker_win") == 1 - F(1, 2) ** 3 == F(7, 8)
    assert prob(r, "draw") == F(1, 8)
    assert r.crushing_victory.attacker == 0
    assert r.expected_points.attacker == pytest.approx(float(F(7, 8) * 2))
    assert r.expected_points.defender == pytest.approx(float(F(1, 8) * 1))  # a draw is 1 VP
    r17 = solve_trench(TrenchBattle((0, None, None), (None, None, None), 1917))
    assert prob(r17, "attacker_win") == 1 - F(1, 3) ** 3 == F(26, 27)


@pytest.mark.parametrize("year, valid", [(1914, F(1, 2)), (1918, F(2, 3))])
def test_valid_dice_are_spread_one_per_front(year, valid):
    # three empty-handed defender fronts: each valid die wins one front, so fronts won is
    # binomial(3, valid); all three is a crushing victory worth points + 1
    for policy in ("optimal", "greedy"):
        r = solve_trench(TrenchBattle((0, 0, 0), (None, None, None), year, points=2),
                         policy=policy)
        binomial = [F(1 if k in (0, 3) else 3) * valid**k * (1 - valid) ** (3 - k)
                    for k in range(4)]
        assert fronts_won(r, "attacker") == binomial
        assert r.crushing_victory.attacker == pytest.approx(float(valid**3))
        assert r.expected_points.attacker == pytest.approx(
            float((1 - (1 - valid) ** 3) * 2 + valid**3))


def test_two_cards_spread_their_dice():
    # cards on fronts 1 and 2 against nothing: one valid die wins one front, two or more win
    # both (the attacker prefers the larger front margin); 1914
    r = solve_trench(TrenchBattle((0, 0, None), (None, None, None), 1914))
    assert fronts_won(r, "attacker") == [F(1, 8), F(3, 8), F(4, 8), 0]


def test_one_front_equal_cards():
    # one front, 0 against 0: the attacker wins iff S_a > S_d; equal sums are a draw
    r = solve_trench(TrenchBattle((0, None, None), (0, None, None), 1915))
    tie = sum(c * c for c in SUM_1914)
    assert tie == 6648
    assert prob(r, "draw") == F(6648, 46656)
    assert prob(r, "attacker_win") == prob(r, "defender_win") == F((46656 - 6648) // 2, 46656)
    by_four = sum(SUM_1914[i] * SUM_1914[j] for i in range(10) for j in range(10) if i - j >= 4)
    assert r.cards_destroyed.defender[0] == pytest.approx(by_four / 46656)
    assert r.cards_destroyed.attacker[0] == pytest.approx(by_four / 46656)
    assert r.cards_destroyed.attacker[1] is None
    assert r.cards_destroyed.defender[2] is None


def test_long_shot_needs_three_threes_against_nothing():
    # 0 against 8: the attacker wins only with 3+3+3 = 9 against a defender with no valid die
    r = solve_trench(TrenchBattle((0, None, None), (8, None, None), 1916))
    assert prob(r, "attacker_win") == F(1, 216) * F(1, 8) == F(1, 1728)
    # and its card survives only if it loses by at most 3: S_a - S_d >= 5
    survive = sum(SUM_1914[i] * SUM_1914[j] for i in range(10) for j in range(10) if i - j >= 5)
    assert r.cards_destroyed.attacker[0] == pytest.approx(1 - survive / 46656)


def test_a_four_counts_from_1917():
    # 0 against 12 on one front: only 4+4+4 against nothing can win, from 1917 only
    assert solve_trench(TrenchBattle((0, None, None), (12, None, None), 1916)).attacker_win == 0
    r = solve_trench(TrenchBattle((0, None, None), (11, None, None), 1917))
    assert prob(r, "attacker_win") == F(1, 216) * F(1, 27)


def test_defender_answers_on_the_threatened_front():
    # attacker 0 on fronts 1 and 2; defender 0 on front 1 only; 1914. The defender puts all its
    # dice on front 1. With both rolls seen, the attacker wins iff it has a valid die and either
    # its smallest die takes front 2 while the rest hold front 1 (a tie there is enough: 1-0),
    # or all its dice take front 1 outright (front 2 then stays 0-0: 1-0 again), or S_d = 0.
    # Counted over the per-die distribution.
    from itertools import product
    die = {0: 3, 1: 1, 2: 1, 3: 1}  # weights out of 6
    win = 0
    for a in product(die, repeat=3):
        for d in product(die, repeat=3):
            weight = 1
            for x in a + d:
                weight *= die[x]
            valid = sorted(x for x in a if x)
            if valid and (sum(d) == 0 or sum(valid) - valid[0] >= sum(d)
                          or sum(valid) > sum(d)):
                win += weight
    r = solve_trench(TrenchBattle((0, 0, None), (0, None, None), 1914))
    assert prob(r, "attacker_win") == F(win, 46656)


def test_draw_counts_for_the_defender_with_one_point():
    r = solve_trench(TrenchBattle((None, None, None), (None, None, None), 1914, points=3))
    assert r.draw == 1 and r.attacker_win == 0 and r.defender_win == 0
    assert r.expected_points.defender == 1 and r.expected_points.attacker == 0


def test_crushing_defence_scores_points_plus_one():
    # the defender's 9s cannot be beaten by 0s (max 9 against at least 9): 1914
    r = solve_trench(TrenchBattle((0, 0, 0), (9, 9, 9), 1914, points=2))
    assert r.attacker_win == 0
    crush = r.crushing_victory.defender
    assert r.expected_points.defender == pytest.approx(2 * (1 - r.draw) + crush + r.draw)


def test_probabilities_are_whole_and_consistent():
    r = solve_trench(TrenchBattle((5, 4, 3), (4, 4, 4), 1917, (2, 0, 1), (0, 0, 3), points=2))
    assert r.counts.total == 46656
    assert r.check() < 1e-12
    assert sum(r.fronts_won.attacker) == pytest.approx(1)
    assert sum(map(sum, r.joint_fronts)) == pytest.approx(1)
    assert all(v == 0 for v in r.std_error["fronts_won"]["attacker"])


def test_monte_carlo_agrees_on_a_hand_derived_case():
    mc = simulate_trench(TrenchBattle((0, None, None), (0, None, None), 1915), runs=200_000,
                         seed=7)
    exact = float(F(20004, 46656))
    assert abs(mc.attacker_win - exact) < 5 * mc.std_error["attacker_win"]
