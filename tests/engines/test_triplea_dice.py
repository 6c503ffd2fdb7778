"""TripleA's dice in both engines (issue 32): N-sided dice, with standard dice and Low Luck.
Every expected value is worked out by hand in its test's docstring; the Monte Carlo engine is
checked against the same fractions."""

from __future__ import annotations

import pytest

from oddsim import Battle
from tests.triplea_engine import check, house


def test_a_twelve_sided_die_hits_at_or_under_the_value():
    """d12: the attacker hits on 3 (1/4 a round), the defender on 2 (1/6). A round decides when
    someone hits (1 - 3/4 * 5/6 = 9/24): the attacker alone 1/4 * 5/6 = 5/24, the defender alone
    3/4 * 1/6 = 3/24, both 1/24; so 5/9, 3/9, 1/9."""
    rules = house(12, {"a": {"attack": 3}, "d": {"defense": 2}})
    check(Battle(rules=rules, attacker="1 a", defender="1 d"), 5 / 9, 3 / 9, 1 / 9)


def test_low_luck_with_twelve_sided_dice():
    """d12 Low Luck, 2 a at 9 against 2 d at 3. Round 1: the attacker's 18 score 1 sure hit and a
    second with 6/12; the defender's 6 one hit with 6/12. Two hits (1/2) win at once. One hit
    (1/2) leaves one d: against 2 a (18: a sure hit) the attacker wins; against 1 a (the
    defender hit, 1/2) it is 9/12 against 3/12 a round: attacker alone 9/16, defender alone
    1/16, both 3/16, so 9/13, 1/13, 3/13. Attacker 1/2 + 1/4 + 1/4 * 9/13 = 48/52, defender
    1/52, draw 3/52."""
    rules = house(12, {"a": {"attack": 9}, "d": {"defense": 3}})
    check(Battle(rules=rules, attacker="2 a", defender="2 d", dice="lowluck"), 48 / 52, 1 / 52, 3 / 52)


def test_a_value_over_the_sides_is_refused_and_six_sides_answer_as_before():
    with pytest.raises(Exception, match=r"'units.a.attack' must be between 0 and 6, not 9"):
        house(6, {"a": {"attack": 9}})
    # d2: a value of 1 hits half the time: 1 a against 1 d at 1 is 1/3, 1/3, 1/3
    check(Battle(rules=house(2), attacker="1 a", defender="1 d"), 1 / 3, 1 / 3, 1 / 3)


def test_aa_fire_with_twelve_sided_dice():
    """d12, AA hitting on 3: the fighter is shot down with 3/12 = 1/4 (the defender wins); else it
    destroys the lone AA gun (the attacker wins, 3/4), as the design's 1/6 and 5/6 with d6."""
    rules = house(12, {"aa": {"attack": 0, "defense": 0, "aa": True, "can_attack": False,
                              "defenceless": True},
                       "fighter": {"attack": 3, "defense": 4, "domain": "air"}},
                  **{"combat.aa_hit": 3})
    check(Battle(rules=rules, attacker="1 fighter", defender="1 aa"), 3 / 4, 1 / 4, 0.0)
