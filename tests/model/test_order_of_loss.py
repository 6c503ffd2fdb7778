"""Order of loss: default, explicit lists, keep-land, transports last, free hits first."""

import pytest

import oddsim
from oddsim.model.order_of_loss import LossKind, LossStep, default_order
from oddsim.model.rules import load_ruleset


def steps(battle, side="attacker"):
    return [(s.unit, s.kind.value, s.count) for s in getattr(battle, side).steps]


def test_default_loses_units_far_below_their_price_then_the_cheapest_with_free_hits_first():
    # the carrier attacks at 1 for 14 IPC (under a point per 10 IPC): first; then cost + 2.5 per
    # attack point: sub 11, dd 13, ftr 17.5, bb 30
    b = oddsim.Battle(rules="1942-2e", attacker="2 bb, 1 dd, 1 sub, 1 cv, 1 ftr", defender="1 dd",
                      sea=True)
    assert steps(b) == [("battleship", "damage", 2), ("carrier", "kill", 1), ("submarine", "kill", 1),
                        ("destroyer", "kill", 1), ("fighter", "kill", 1), ("battleship", "kill", 2)]


# aacalc2's default orders (frontend/src/data/oolPresets.ts, the first preset of each list; its
# unit names as ours): what oddsim's default must give, but for the defending bomber (below).
AACALC2_DEFAULTS = {
    (False, True): ["infantry", "artillery", "armor", "fighter", "bomber"],
    (False, False): ["aa_gun", "infantry", "artillery", "armor", "bomber", "fighter"],
    (True, True): ["carrier", "submarine", "destroyer", "fighter", "cruiser", "bomber", "battleship"],
    (True, False): ["submarine", "destroyer", "carrier", "cruiser", "fighter", "battleship"],
}


@pytest.mark.parametrize(("sea", "attacking"), [(False, True), (True, True), (True, False)])
def test_default_order_is_aacalc2s_for_the_attacker_and_at_sea(sea, attacking):
    expected = AACALC2_DEFAULTS[sea, attacking]
    order = default_order(load_ruleset("1942-2e"), attacking)
    assert [name for name in order if name in expected] == expected


def test_the_defender_on_land_loses_its_bomber_right_after_the_aa_gun_unlike_aacalc2():
    # defence 1 for 12 IPC: aacalc2 keeps it until after armor; losing it first keeps the
    # defender's dice, so the attacker wins less often
    expected = ["aa_gun", "bomber", "infantry", "artillery", "armor", "fighter"]
    order = default_order(load_ruleset("1942-2e"), False)
    assert [name for name in order if name in expected] == expected
    battle = {"rules": "1942-2e", "attacker": "6 inf, 2 art, 3 arm, 2 ftr, 1 bmb",
              "defender": "7 inf, 1 art, 1 arm, 1 ftr, 1 bmb, 1 aa"}
    ours = oddsim.solve(oddsim.Battle(**battle))
    aacalc2_order = ",".join(AACALC2_DEFAULTS[False, False])
    theirs = oddsim.solve(oddsim.Battle(**{**battle,
                                           "defender": oddsim.Side(battle["defender"], aacalc2_order)}))
    assert ours.attacker_win < theirs.attacker_win - 0.02


def test_default_loses_the_aa_gun_first_by_hand():
    # 1 armor (hits 1/2) against 1 infantry (hits 1/3) and an AA gun that has nothing to shoot.
    # A round with any hit: attacker only 1/2, defender only 1/4, both 1/4. The AA gun goes first,
    # so the attacker must hit twice: wins 1/2 * 1/2 = 1/4, draws 1/2 * 1/4 = 1/8.
    # (Losing the infantry first left the gun alone: the attacker won 1/2.)
    r = oddsim.solve(oddsim.Battle(rules="1942-2e", attacker="1 arm", defender="1 inf, 1 aa"))
    assert r.attacker_win == pytest.approx(1 / 4, abs=1e-12)
    assert r.draw == pytest.approx(1 / 8, abs=1e-12)


@pytest.mark.parametrize(("attacker", "defender", "wins", "takes"), [
    # aacalc2 with its default orders (from issue 22): attacker wins / takes the territory
    ("4 inf, 1 art, 2 arm, 1 ftr", "5 inf, 1 arm, 1 aa", 0.7466, 0.6892),
    ("3 inf, 2 arm, 2 ftr", "3 inf, 1 art, 1 aa", 0.9399, None),
])
def test_default_battles_give_aacalc2s_default_answers(attacker, defender, wins, takes):
    r = oddsim.solve(oddsim.Battle(rules="1942-2e", attacker=attacker, defender=defender))
    assert r.attacker_win == pytest.approx(wins, abs=5e-5)
    if takes is not None:
        assert r.takes_territory == pytest.approx(takes, abs=5e-5)


def test_explicit_list_then_default_order():
    b = oddsim.Battle(rules="1942-2e",
                      attacker=oddsim.Side("3 inf, 1 art, 2 arm, 1 ftr", order_of_loss="arm,inf"),
                      defender="1 inf")
    assert steps(b) == [("armor", "kill", 2), ("infantry", "kill", 3), ("artillery", "kill", 1),
                        ("fighter", "kill", 1)]


def test_keep_land_moves_the_last_land_units_after_everything():
    b = oddsim.Battle(rules="1942-2e", attacker=oddsim.Side("3 inf, 1 art, 2 arm, 1 ftr", keep_land=2),
                      defender="1 inf")
    assert steps(b) == [("infantry", "kill", 3), ("artillery", "kill", 1), ("fighter", "kill", 1),
                        ("armor", "kill", 2)]


def test_defenceless_transports_always_last_and_damaged_units_need_no_free_hit():
    b = oddsim.Battle(rules="anniversary", attacker="1 dd",
                      defender=oddsim.Side("2 trn, 1 dd, 1 damaged bb", order_of_loss="trn,bb,dd"), sea=True)
    assert steps(b, "defender") == [("battleship", "kill", 1), ("destroyer", "kill", 1),
                                    ("transport", "kill", 2)]
    fighting = oddsim.Battle(rules="revised", attacker="1 dd",
                             defender=oddsim.Side("2 trn, 1 dd", order_of_loss="trn"), sea=True)
    assert fighting.defender.steps[0] == LossStep("transport", LossKind.KILL, 2)


def test_order_of_loss_changes_the_odds():
    # the golden values of tests/exact/test_golden.py: losing the bomber first vs the tank first
    bomber_first = oddsim.solve(oddsim.Battle(rules="1942-2e",
                                              attacker=oddsim.Side("1 arm, 1 bmb", order_of_loss="bmb,arm"),
                                              defender=oddsim.Side("1 arm, 1 ftr", order_of_loss="arm,ftr")))
    tank_first = oddsim.solve(oddsim.Battle(rules="1942-2e",
                                            attacker=oddsim.Side("1 arm, 1 bmb", order_of_loss="arm"),
                                            defender=oddsim.Side("1 arm, 1 ftr", order_of_loss="arm,ftr")))
    assert abs(bomber_first.attacker_win - 2351 / 6545) < 1e-12
    assert abs(tank_first.attacker_win - 127 / 340) < 1e-12
