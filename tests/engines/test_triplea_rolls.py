"""Several dice per unit in both engines (issue 32): ``attack_rolls`` / ``defense_rolls`` (0: no
die) and ``choose_best_roll`` (only the best die counts), on the heavy bombers' mechanism. Each
expected value is worked out by hand in its docstring."""

from __future__ import annotations

import pytest

from oddsim import Battle, simulate, solve
from tests.triplea_engine import RUNS, check, house


def _rounds(battle: Battle, expected: float) -> None:
    assert solve(battle).expected_rounds == pytest.approx(expected, abs=1e-12)
    assert simulate(battle, runs=RUNS, seed=3).expected_rounds == pytest.approx(expected, abs=0.02)


@pytest.mark.parametrize("best, rounds", [(False, 20 / 9), (True, 8 / 3)])
def test_two_dice_hit_twice_or_the_best_once(best, rounds):
    """1 h rolling two dice at 3 (1/2 each) against 2 d that never hit. Both dice count: 0, 1, 2
    hits with 1/4, 1/2, 1/4; one d left takes E1 = 1 + E1/4 = 4/3 rounds, two take E2 = 1 +
    E2/4 + E1/2 = 20/9. The best die only: one hit with 3/4 a round, 2 x 4/3 = 8/3 rounds."""
    rules = house(units={"h": {"attack": 3, "attack_rolls": 2, "choose_best_roll": best},
                         "d": {"defense": 0}})
    battle = Battle(rules=rules, attacker="1 h", defender="2 d")
    check(battle, 1.0, 0.0, 0.0)
    _rounds(battle, rounds)


@pytest.mark.parametrize("best", [False, True])
def test_two_dice_against_one_unit(best):
    """1 h with two dice at 3 against 1 d at 3: h hits (one hit is enough) with 3/4 a round
    either way, d with 1/2: h alone 3/8, d alone 1/8, both 3/8, so 3/7, 1/7, 3/7."""
    rules = house(units={"h": {"attack": 3, "attack_rolls": 2, "choose_best_roll": best},
                         "d": {"defense": 3}})
    check(Battle(rules=rules, attacker="1 h", defender="1 d"), 3 / 7, 1 / 7, 3 / 7)


def test_a_unit_rolling_no_die_never_hits():
    """d at 6 rolling no die on defense (defense_rolls = 0) against 1 a at 1: a wins, in 6 rounds
    on average (1/6 a round)."""
    rules = house(units={"d": {"defense": 6, "defense_rolls": 0}})
    battle = Battle(rules=rules, attacker="1 a", defender="1 d")
    check(battle, 1.0, 0.0, 0.0)
    _rounds(battle, 6.0)


def test_best_of_three_twelve_sided_dice():
    """d12: h rolls three dice at 4 and keeps the best: it hits with 1 - (8/12)**3 = 19/27; d at 6
    with 1/2. h alone 19/54, d alone 8/54, both 19/54: 19/46, 8/46, 19/46."""
    rules = house(12, {"h": {"attack": 4, "attack_rolls": 3, "choose_best_roll": True},
                       "d": {"defense": 6}})
    check(Battle(rules=rules, attacker="1 h", defender="1 d"), 19 / 46, 8 / 46, 19 / 46)


@pytest.mark.parametrize("sides, attack, rolls, rounds", [(6, 3, 2, 6 / 4), (12, 6, 3, 12 / 10)])
def test_best_roll_in_low_luck_is_triplea_s_strength(sides, attack, rolls, rounds):
    """Low Luck counts the best of n dice at v as TripleA does: v + (n - 1) x max(1, sides // 6),
    at most the sides. d6, two dice at 3: 4, a hit with 4/6 a round against a d that never hits,
    6/4 rounds; d12, three at 6: 6 + 2 x 2 = 10, 10/12, 12/10 rounds."""
    rules = house(sides, {"h": {"attack": attack, "attack_rolls": rolls, "choose_best_roll": True},
                          "d": {"defense": 0}})
    battle = Battle(rules=rules, attacker="1 h", defender="1 d", dice="lowluck")
    check(battle, 1.0, 0.0, 0.0)
    _rounds(battle, rounds)
