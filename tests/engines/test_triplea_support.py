"""Support as TripleA writes it, in both engines (issue 32): additive bonuses (``bonus``), bonus
types that do not stack, several rules reaching one unit, the units given support strongest
first. Each expected value is worked out by hand in its docstring."""

from __future__ import annotations

import pytest

from oddsim import Battle, simulate, solve
from tests.engines.test_triplea_rolls import _rounds
from tests.triplea_engine import check, house

# supporters that never fire (attack 0), cheap (lost first), and a target that never hits
UNITS = {"inf": {"attack": 1, "cost": 3}, "mech": {"attack": 2, "cost": 4},
         "art": {"attack": 0, "cost": 1}, "tank": {"attack": 0, "cost": 1},
         "d": {"defense": 0, "cost": 3}}


def _rule(supporters, supported, bonus, bonus_type="", **more):
    return {"supporters": supporters, "supported": supported, "bonus": bonus,
            "bonus_type": bonus_type, **more}


@pytest.mark.parametrize("types, rounds", [(("a", "b"), 2.0), (("a", "a"), 3.0)])
def test_bonus_types_stack_and_one_type_does_not(types, rounds):
    """inf at 1 with an art (+1, bonus type ``types[0]``) and a tank (+1, ``types[1]``) against a
    d that never hits: two types add up, 3 (1/2 a round: 2 rounds on average); one type gives
    one support, 2 (1/3: 3 rounds)."""
    rules = house(units=UNITS, support=[_rule(["art"], ["inf"], 1, types[0]),
                                        _rule(["tank"], ["inf"], 1, types[1])])
    battle = Battle(rules=rules, attacker="1 inf, 1 art, 1 tank", defender="1 d")
    check(battle, 1.0, 0.0, 0.0)
    _rounds(battle, rounds)


def test_one_supporter_for_two_unit_types_goes_to_the_stronger():
    """An art supports inf and mech (+1, one rule); TripleA gives support to the strongest unit
    first: mech 2 -> 3, inf stays at 1. The d falls when either hits: 1 - (3/6)(5/6) = 7/12 a
    round, 12/7 rounds (to the inf instead it would be 1 - (4/6)**2 = 5/9, 9/5 rounds)."""
    rules = house(units=UNITS, support=[_rule(["art"], ["inf", "mech"], 1)])
    battle = Battle(rules=rules, attacker="1 inf, 1 mech, 1 art", defender="1 d")
    _rounds(battle, 12 / 7)


def test_the_sum_stays_within_the_die():
    """inf at 4 with +5 hits on 6 (the sum 9 kept at the die's 6 sides): the d falls in round 1."""
    rules = house(units={**UNITS, "inf": {"attack": 4}}, support=[_rule(["art"], ["inf"], 5)])
    battle = Battle(rules=rules, attacker="1 inf, 1 art", defender="1 d")
    check(battle, 1.0, 0.0, 0.0)
    _rounds(battle, 1.0)


def test_support_ends_with_its_supporter():
    """inf at 1 with an art's +2 (at 3) against a d hitting on 6 that takes the art (cheapest)
    in round 1: the inf hits at 3 (1/2) and wins; else in round 2, at 1, both fall with 1/6 (a
    draw) or the inf alone: attacker 1/2, defender 5/12, draw 1/12."""
    rules = house(units={**UNITS, "d": {"defense": 6}}, support=[_rule(["art"], ["inf"], 2)])
    check(Battle(rules=rules, attacker="1 inf, 1 art", defender="1 d"), 1 / 2, 5 / 12, 1 / 12)


def test_defense_support_and_low_luck():
    """A defending inf at 1 raised by an art's +1 on defense (``side = "defense"``) fights as the
    same battle written with the editions' absolute value 2 (whose answers the golden tests pin),
    with standard dice and with Low Luck, in both engines."""
    units = {**UNITS, "d": {"attack": 1, "defense": 0, "cost": 3},
             "inf": {"attack": 1, "defense": 1, "cost": 3}, "art": {"attack": 0, "defense": 0, "cost": 1}}
    added = house(units=units, support=[_rule(["art"], ["inf"], 1, side="defense")])
    valued = house(units=units, support=[{"supporters": ["art"], "supported": ["inf"], "value": 2,
                                          "side": "defense"}])
    for dice in ("standard", "lowluck"):
        want = solve(Battle(rules=valued, attacker="1 d", defender="1 inf, 1 art", dice=dice))
        check(Battle(rules=added, attacker="1 d", defender="1 inf, 1 art", dice=dice),
              want.attacker_win, want.defender_win, want.draw)


def test_low_luck_adds_the_bonus_to_the_strength():
    """Low Luck: inf at 1 + art's +1 = 2: one hit with 2/6 a round against the d, 3 rounds."""
    rules = house(units=UNITS, support=[_rule(["art"], ["inf"], 1)])
    _rounds(Battle(rules=rules, attacker="1 inf, 1 art", defender="1 d", dice="lowluck"), 3.0)


@pytest.mark.parametrize("more, message", [
    ({"faction": "enemy"}, "faction' = enemy"),
    ({"bonus_type": "x", "bonus_type_count": 2}, "bonus_type_count' = 2"),
    ({"bonus_to": "rolls"}, "bonus_to' = rolls"),
])
def test_what_is_not_computed_is_refused(more, message):
    with pytest.raises(Exception, match=f"{message}.*do not compute it yet"):
        house(units=UNITS, support=[_rule(["art"], ["inf"], 1, **more)])


def test_a_negative_bonus_may_take_a_unit_to_nothing():
    """A drag gives one inf -1 (at 0: it cannot hit). 2 inf and a drag against a d that never
    hits: the other inf hits with 1/6 a round, 6 rounds; 1 inf and a drag: nobody can hit, a
    stalemate."""
    rules = house(units={**UNITS, "drag": {"attack": 0, "cost": 1}},
                  support=[_rule(["drag"], ["inf"], -1)])
    _rounds(Battle(rules=rules, attacker="2 inf, 1 drag", defender="1 d"), 6.0)
    battle = Battle(rules=rules, attacker="1 inf, 1 drag", defender="1 d")
    exact, mc = solve(battle), simulate(battle, runs=1000, seed=1)
    assert exact.stalemate == pytest.approx(1.0, abs=1e-12) and mc.stalemate == 1.0
