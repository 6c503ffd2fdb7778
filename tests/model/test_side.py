"""A Side: an army and the options that are its own, checked by the Battle that holds it."""

from dataclasses import replace

import pytest

import oddsim
from oddsim.model.battle import Submerge


def test_an_army_alone_is_a_side_with_no_options():
    plain = oddsim.Battle("1942-2e", attacker="3 inf, 1 arm", defender="2 inf")
    sided = oddsim.Battle("1942-2e", attacker=oddsim.Side("3 inf, 1 arm"), defender=oddsim.Side("2 inf"))
    assert plain == sided
    side = plain.attacker
    assert side.order_of_loss is None and side.tech == () and side.keep_land == 0


def test_a_battle_holds_its_sides_parsed():
    battle = oddsim.Battle("anniversary", attacker=oddsim.Side("2 inf, 1 ftr", order_of_loss="ftr, inf",
                                                                tech="jets,jets"),
                           defender=oddsim.Side({"inf": 2}, tech=["radar"]))
    assert battle.attacker.order_of_loss == ("fighter", "infantry")
    assert battle.attacker.tech == ("jets",)  # canonical, once
    assert battle.defender.tech == ("radar",)
    assert battle.defender.army == oddsim.parse_force("2 inf", battle.rules)
    assert battle.attacker.submerge is Submerge.NEVER


def test_the_order_of_loss_of_a_side_makes_its_loss_steps():
    # the fighter first, as asked; then the infantry
    battle = oddsim.Battle("1942-2e", attacker=oddsim.Side("2 inf, 1 ftr", order_of_loss="ftr,inf"),
                           defender="2 inf")
    assert [(s.unit, s.count) for s in battle.attacker.steps] == [("fighter", 1), ("infantry", 2)]


@pytest.mark.parametrize("side, message", [
    (oddsim.Side("1 inf", keep_land=1), "keep_land is the attacker's"),
    (oddsim.Side("1 inf", landed="1 inf"), "landed is the attacker's"),
])
def test_the_attackers_own_options_are_refused_on_the_defender(side, message):
    with pytest.raises(oddsim.BattleError, match=message):
        oddsim.Battle("1942-2e", attacker="2 inf", defender=side)


def test_with_armies_keeps_each_sides_options_and_drops_a_submerge_without_subs():
    battle = oddsim.Battle("1942-2e", attacker=oddsim.Side("2 sub, 1 dd", order_of_loss="sub,dd",
                                                            submerge="alone"),
                           defender=oddsim.Side("1 dd, 1 cru", order_of_loss="dd"), sea=True)
    fewer = battle.with_armies(attacker="1 sub, 1 dd")
    assert fewer.attacker.order_of_loss == ("submarine", "destroyer")
    assert fewer.attacker.submerge is Submerge.ALONE
    assert fewer.defender == battle.defender
    no_subs = battle.with_armies(attacker="2 dd")
    assert no_subs.attacker.submerge is Submerge.NEVER


def test_replacing_a_sides_army_checks_it_again():
    battle = oddsim.Battle("1942-2e", attacker="2 inf", defender="2 inf")
    with pytest.raises(oddsim.BattleError, match="cannot fight in a land battle"):
        replace(battle, defender=replace(battle.defender, army="1 dd"))
