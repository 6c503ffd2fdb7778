"""Units of more than two hit points in both engines (issue 32; TripleA ``hitPoints``): a unit
of h hit points takes h - 1 free hits, then a hit that destroys it. Each expected value is
worked out by hand in its docstring."""

from __future__ import annotations

import pytest

from oddsim import Battle
from tests.triplea_engine import check, house

# big: hits on 3 (1/2); d: hits on 6 every round
UNITS = {"big": {"attack": 3, "defense": 3, "cost": 20}, "d": {"defense": 6}}


@pytest.mark.parametrize("hits, attacker, defender, draw", [
    (2, 1 / 2, 1 / 4, 1 / 4), (3, 3 / 4, 1 / 8, 1 / 8), (4, 7 / 8, 1 / 16, 1 / 16)])
def test_a_unit_of_h_hit_points_lasts_h_rounds(hits, attacker, defender, draw):
    """1 big of h hit points against a d that hits every round: the big lasts h rounds, each
    hitting with 1/2. A hit in the first h - 1 rounds wins, 1 - (1/2)**(h-1); in round h the
    big falls, with the d (a draw, (1/2)**h) or alone ((1/2)**h)."""
    rules = house(units={**UNITS, "big": {**UNITS["big"], "hits": hits}})
    check(Battle(rules=rules, attacker="1 big", defender="1 d"), attacker, defender, draw)


def test_a_damaged_unit_has_one_free_hit_less():
    """A damaged big of 3 hit points (one hit taken) lasts 2 rounds: 1/2, 1/4, 1/4."""
    rules = house(units={**UNITS, "big": {**UNITS["big"], "hits": 3}})
    check(Battle(rules=rules, attacker="1 damaged big", defender="1 d"), 1 / 2, 1 / 4, 1 / 4)


def test_two_units_of_three_hit_points():
    """2 big of 3 hit points (4 free hits, then 2 kills) against a d that hits every round: with
    both bigs in (rounds 1 to 5; the fifth hit kills one as they fire) they miss with 1/4 a
    round, so the attacker wins with 1 - (1/4)**5 = 1023/1024; in round 6 the last big hits
    with 1/2, taken with the d (a draw, 1/2048), or falls alone (1/2048)."""
    rules = house(units={**UNITS, "big": {**UNITS["big"], "hits": 3}})
    check(Battle(rules=rules, attacker="2 big", defender="1 d"), 1023 / 1024, 1 / 2048, 1 / 2048)
