"""Order of loss: default, explicit lists, keep-land, transports last, free hits first."""

import oddsim
from oddsim.order_of_loss import LossKind, LossStep


def steps(battle, side="attacker"):
    return [(s.unit, s.kind.value, s.count) for s in getattr(battle, f"{side}_steps")]


def test_default_is_cheapest_first_with_free_hits_first():
    b = oddsim.Battle(rules="1942-2e", attacker="2 bb, 1 dd, 1 sub, 1 cv, 1 ftr", defender="1 dd",
                      sea=True)
    assert steps(b) == [("battleship", "damage", 2), ("submarine", "kill", 1),
                        ("destroyer", "kill", 1), ("fighter", "kill", 1), ("carrier", "kill", 1),
                        ("battleship", "kill", 2)]


def test_explicit_list_then_default_order():
    b = oddsim.Battle(rules="1942-2e", attacker="3 inf, 1 art, 2 arm, 1 ftr", defender="1 inf",
                      ool_attacker="arm,inf")
    assert steps(b) == [("armor", "kill", 2), ("infantry", "kill", 3), ("artillery", "kill", 1),
                        ("fighter", "kill", 1)]


def test_keep_land_moves_the_last_land_units_after_everything():
    b = oddsim.Battle(rules="1942-2e", attacker="3 inf, 1 art, 2 arm, 1 ftr", defender="1 inf",
                      keep_land=2)
    assert steps(b) == [("infantry", "kill", 3), ("artillery", "kill", 1), ("fighter", "kill", 1),
                        ("armor", "kill", 2)]


def test_defenceless_transports_always_last_and_damaged_units_need_no_free_hit():
    b = oddsim.Battle(rules="anniversary", attacker="1 dd", defender="2 trn, 1 dd, 1 damaged bb",
                      sea=True, ool_defender="trn,bb,dd")
    assert steps(b, "defender") == [("battleship", "kill", 1), ("destroyer", "kill", 1),
                                    ("transport", "kill", 2)]
    fighting = oddsim.Battle(rules="revised", attacker="1 dd", defender="2 trn, 1 dd", sea=True,
                             ool_defender="trn")
    assert fighting.defender_steps[0] == LossStep("transport", LossKind.KILL, 2)


def test_order_of_loss_changes_the_odds():
    # the golden values of tests/exact/test_golden.py: losing the bomber first vs the tank first
    bomber_first = oddsim.solve(oddsim.Battle(rules="1942-2e", attacker="1 arm, 1 bmb",
                                              defender="1 arm, 1 ftr", ool_attacker="bmb,arm",
                                              ool_defender="arm,ftr"))
    tank_first = oddsim.solve(oddsim.Battle(rules="1942-2e", attacker="1 arm, 1 bmb",
                                            defender="1 arm, 1 ftr", ool_attacker="arm",
                                            ool_defender="arm,ftr"))
    assert abs(bomber_first.attacker_win - 2351 / 6545) < 1e-12
    assert abs(tank_first.attacker_win - 127 / 340) < 1e-12
