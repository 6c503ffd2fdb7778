"""Golden values (1942-2e, standard dice): exact fractions derived by hand and checked against two other
exact calculators (aacalc2, AlliesCalc); the rules they use are in docs/rules.md §2-§8."""

from fractions import Fraction as F

import pytest

import oddsim

TOL = 1e-12

GOLDEN = [
    # (attacker, defender, sea, ool_attacker, ool_defender, attacker win, defender win, draw, stalemate)
    ("1 bmb", "1 bb", True, None, None, F(1, 16), F(13, 16), F(2, 16), 0),
    ("1 arm, 1 bmb", "1 arm, 1 ftr", False, "bmb,arm", "arm,ftr",
     F(2351, 6545), F(2726, 6545), F(1468, 6545), 0),
    ("1 arm, 1 bmb", "1 arm, 1 ftr", False, "arm,bmb", "arm,ftr",
     F(127, 340), F(127, 340), F(86, 340), 0),
    ("2 sub", "1 ftr, 1 dd", True, None, None, 0, F(834, 1679), 0, F(845, 1679)),
    ("1 ftr", "1 aa", False, None, None, F(5, 6), F(1, 6), 0, 0),
]


@pytest.mark.parametrize("attacker, defender, sea, ool_a, ool_d, win, loss, draw, stalemate", GOLDEN)
def test_golden_values_1942_second_edition(attacker, defender, sea, ool_a, ool_d, win, loss, draw,
                                            stalemate):
    battle = oddsim.Battle(rules="1942-2e", attacker=oddsim.Side(attacker, order_of_loss=ool_a),
                           defender=oddsim.Side(defender, order_of_loss=ool_d), sea=sea)
    result = oddsim.solve(battle)
    assert result.attacker_win == pytest.approx(float(win), abs=TOL)
    assert result.defender_win == pytest.approx(float(loss), abs=TOL)
    assert result.draw == pytest.approx(float(draw), abs=TOL)
    assert result.stalemate == pytest.approx(float(stalemate), abs=TOL)
    assert result.check() < 1e-9


def test_lone_aa_gun_is_destroyed_but_aircraft_cannot_take_the_territory():
    result = oddsim.solve(oddsim.Battle(rules="1942-2e", attacker="1 ftr", defender="1 aa"))
    assert result.takes_territory == 0
    assert result.expected_rounds == 0  # AA fire comes before the first round
    # the AA gun is lost whenever the fighter survives: 5/6 of its cost of 5
    assert result.defender_ipc_lost == pytest.approx(5 * 5 / 6, abs=TOL)
    assert result.attacker_ipc_lost == pytest.approx(10 / 6, abs=TOL)
