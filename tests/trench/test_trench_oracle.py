"""The exact engine against a brute-force oracle written straight from the rules.

The oracle enumerates the 216 ordered rolls per side (grouped by valid faces), every assignment
of each valid die to a front with the side's card, and resolves the fronts itself. It plays the
documented minimax on the tuple (battle won, VP swing, -attacker cards lost, defender cards
lost, front margin, attacker fronts won), or the documented greedy rule, with no code shared
with oddsim.trench. Under ``both-first`` the minimax value of every roll pair is unique, so the
joint distribution of fronts won is fixed whatever the tie-breaking, and so are the expected
numbers of cards lost; under ``attacker-first`` the expected tuple is.
"""

import random
from collections import Counter
from fractions import Fraction as F
from functools import partial

import pytest
from trench_rolls import roll_weights, spreads

from oddsim.trench import TrenchBattle
from oddsim.trench import solve_trench as _solve_trench

# These tests check the reading before issue 14: both sides see every support value and dice go
# only on fronts with the side's card (test_trench_hidden.py covers the seed's reading).
FULL_OWN = {"information": "full", "dice_fronts": "own"}
solve_trench = partial(_solve_trench, **FULL_OWN)


ROLL_PAIRS = 216 * 216


def placements(faces, cards):
    """Every way to place ``faces`` on the fronts where the side has a card."""
    return spreads(faces, [f for f in range(3) if cards[f] is not None])


def fight(battle, a_dice, d_dice):
    """(attacker fronts, defender fronts, attacker cards lost, defender cards lost, lost fronts)"""
    won = lost = a_lost = d_lost = 0
    lost_fronts = [[0, 0, 0], [0, 0, 0]]
    for f in range(3):
        a = (battle.attacker[f] or 0) + battle.attacker_support[f] + a_dice[f]
        d = (battle.defender[f] or 0) + battle.defender_support[f] + d_dice[f]
        if a > d:
            won += 1
            if a - d >= 4 and battle.defender[f] is not None:
                d_lost += 1
                lost_fronts[1][f] = 1
        elif d > a:
            lost += 1
            if d - a >= 4 and battle.attacker[f] is not None:
                a_lost += 1
                lost_fronts[0][f] = 1
    return won, lost, a_lost, d_lost, lost_fronts


def swing(won, lost, points):
    if won > lost:
        return points + (1 if won == 3 else 0)
    if won == lost:
        return -1
    return -(points + (1 if lost == 3 else 0))


def preference(battle, a_dice, d_dice):
    won, lost, a_lost, d_lost, _ = fight(battle, a_dice, d_dice)
    return (int(won > lost), swing(won, lost, battle.points), -a_lost, d_lost, won - lost, won)


def oracle_optimal(battle, order):
    rolls = roll_weights(battle.year)
    answers = {}

    def answer(a_dice, d_faces):
        if (a_dice, d_faces) not in answers:
            answers[a_dice, d_faces] = min(preference(battle, a_dice, d)
                                           for d in placements(d_faces, battle.defender))
        return answers[a_dice, d_faces]

    totals = [0] * 6
    joint = Counter()
    for a_faces, wa in rolls.items():
        if order == "both-first":
            for d_faces, wd in rolls.items():
                value = max(answer(a, d_faces) for a in placements(a_faces, battle.attacker))
                for i, v in enumerate(value):
                    totals[i] += v * wa * wd
                joint[value[5], value[5] - value[4]] += wa * wd
        else:
            expected = max(
                [sum(answer(a, d_faces)[i] * wd for d_faces, wd in rolls.items())
                 for i in range(6)] for a in placements(a_faces, battle.attacker))
            for i, v in enumerate(expected):
                totals[i] += v * wa
    return [F(t, ROLL_PAIRS) for t in totals], joint


def standing(margin, enemy_card):
    if margin <= -4:
        return 0
    if margin < 0:
        return 1
    if margin == 0:
        return 2
    return 4 if margin >= 4 and enemy_card else 3


def greedy(faces, margins, own, enemy):
    margins, added = list(margins), [0, 0, 0]
    for face in faces:  # largest first
        options = [f for f in range(3) if own[f] is not None]
        if not options:
            break
        best = max(options, key=lambda f: (
            standing(margins[f] + face, enemy[f] is not None)
            - standing(margins[f], enemy[f] is not None), -abs(margins[f]), -f))
        margins[best] += face
        added[best] += face
    return tuple(added)


def oracle_greedy(battle):
    rolls = roll_weights(battle.year)
    base_a = [(c or 0) + s for c, s in zip(battle.attacker, battle.attacker_support, strict=True)]
    base_d = [(c or 0) + s for c, s in zip(battle.defender, battle.defender_support, strict=True)]
    joint, lost = Counter(), [[0, 0, 0], [0, 0, 0]]
    for a_faces, wa in rolls.items():
        a_dice = greedy(a_faces, [a - d for a, d in zip(base_a, base_d, strict=True)],
                        battle.attacker, battle.defender)
        for d_faces, wd in rolls.items():
            margins = [d - a - x for a, d, x in zip(base_a, base_d, a_dice, strict=True)]
            d_dice = greedy(d_faces, margins, battle.defender, battle.attacker)
            won, lost_fronts, _, _, fronts = fight(battle, a_dice, d_dice)
            joint[won, lost_fronts] += wa * wd
            for side in range(2):
                for f in range(3):
                    lost[side][f] += fronts[side][f] * wa * wd
    return joint, lost


def random_battle(rng, full=False):
    def side():
        cards = [rng.choice([None, *range(0, 8)]) if not full else rng.randint(0, 7)
                 for _ in range(3)]
        support = [0 if c is None else rng.choice([0, 0, 1, 2, 3]) for c in cards]
        return cards, support

    (a, sa), (d, sd) = side(), side()
    return TrenchBattle(a, d, rng.choice([1914, 1915, 1916, 1917, 1918]), sa, sd,
                        points=rng.randint(0, 3), sea=rng.random() < 0.2)


def expected_tuple(result, battle):
    """The oracle's six expected components from a TrenchResult (exact fractions)."""
    c = result.counts
    n = c.total
    joint = {(i, j): c.joint[i][j] for i in range(4) for j in range(4)}
    win = sum(v for (i, j), v in joint.items() if i > j)
    sw = sum(v * swing(i, j, battle.points) for (i, j), v in joint.items())
    a_lost = sum(c.destroyed.attacker)
    d_lost = sum(c.destroyed.defender)
    margin = sum(v * (i - j) for (i, j), v in joint.items())
    won = sum(v * i for (i, j), v in joint.items())
    return [F(win, n), F(sw, n), -F(a_lost, n), F(d_lost, n), F(margin, n), F(won, n)]


BATTLES = [random_battle(random.Random(seed)) for seed in range(16)] + [
    TrenchBattle((5, 4, 3), (4, 4, 4), 1917, (2, 0, 1), (0, 0, 3), points=2),
    TrenchBattle((3, None, 6), (5, 2, None), 1915, (1, 0, 0), (0, 2, 0), points=1),
]


@pytest.mark.parametrize("battle", BATTLES, ids=lambda b: b.describe())
def test_optimal_both_first_matches_oracle(battle):
    totals, joint = oracle_optimal(battle, "both-first")
    result = solve_trench(battle)
    assert expected_tuple(result, battle) == totals
    got = {(i, j): result.counts.joint[i][j] for i in range(4) for j in range(4)
           if result.counts.joint[i][j]}
    assert got == dict(joint)


@pytest.mark.parametrize("battle", BATTLES[:8] + BATTLES[-2:], ids=lambda b: b.describe())
def test_optimal_attacker_first_matches_oracle(battle):
    totals, _ = oracle_optimal(battle, "attacker-first")
    assert expected_tuple(solve_trench(battle, roll_order="attacker-first"), battle) == totals


@pytest.mark.parametrize("battle", BATTLES, ids=lambda b: b.describe())
def test_greedy_matches_oracle(battle):
    joint, lost = oracle_greedy(battle)
    result = solve_trench(battle, policy="greedy")
    got = {(i, j): result.counts.joint[i][j] for i in range(4) for j in range(4)
           if result.counts.joint[i][j]}
    assert got == dict(joint)
    assert list(result.counts.destroyed.attacker) == lost[0]
    assert list(result.counts.destroyed.defender) == lost[1]
