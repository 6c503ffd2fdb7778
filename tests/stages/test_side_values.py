"""Waves, amphibious assaults and purchase sweeps take each battle side's options as a ``Side``,
as ``Battle`` does; the flat keywords still work, and an option given both ways is refused."""

from __future__ import annotations

import pytest

from oddsim import Amphibious, BattleError, Side, load_ruleset
from oddsim.purchase.goals import PurchaseError
from oddsim.purchase.spec import SweepSpec
from oddsim.stages.waves import Wave

RULES = load_ruleset("1942-2e")


def test_a_wave_of_sides_is_the_wave_of_flat_keywords():
    by_side = Wave(attacker=Side("2 arm, 1 inf", order_of_loss="inf,arm", keep_land=1),
                   defender=Side(None, submerge="always", destroyer_last=True))
    flat = Wave(attacker="2 arm, 1 inf", ool_attacker="inf,arm", keep_land=1, defender_submerge="always",
                defender_destroyer_last=True)
    assert by_side == flat
    assert by_side.attacker == "2 arm, 1 inf" and by_side.defender is None


def test_a_wave_side_at_its_defaults_leaves_the_inherited_options_to_the_first_battle():
    wave = Wave(attacker=Side("2 arm"))
    assert wave.attacker_submerge is None and wave.attacker_destroyer_last is None


@pytest.mark.parametrize("make, words", [
    (lambda: Wave(attacker=Side("2 arm", keep_land=1), keep_land=2), "keep_land is given twice"),
    (lambda: Wave(attacker="2 arm", defender=Side("1 inf")), "has no army"),
    (lambda: Wave(attacker=Side("2 arm", tech="jets")), "tech is not taken here"),
    (lambda: Wave(attacker=Side("2 arm", landed="1 arm")), "landed is not taken here"),
])
def test_a_wave_refuses_a_side_option_it_cannot_take_or_one_given_twice(make, words):
    with pytest.raises(BattleError, match=words):
        make()


def test_an_assault_of_sides_is_the_assault_of_flat_keywords():
    by_side = Amphibious("anniversary", fleet="1 trn, 1 bb", cargo="1 inf, 1 arm",
                         defender=Side("2 inf", order_of_loss="inf", tech="jets"),
                         attacker=Side(None, order_of_loss="arm,inf", tech="super-subs", keep_land=1))
    flat = Amphibious("anniversary", fleet="1 trn, 1 bb", cargo="1 inf, 1 arm", defender="2 inf",
                      ool_defender="inf", defender_tech="jets", ool_attacker="arm,inf",
                      attacker_tech="super-subs", keep_land=1)
    assert by_side == flat


@pytest.mark.parametrize("keywords, words", [
    (dict(defender=Side("2 inf", order_of_loss="inf"), ool_defender="inf"), "ool_defender is given twice"),
    (dict(defender="2 inf", attacker=Side("1 arm")), "has no army"),
    (dict(defender=Side("2 inf", keep_land=1)), "keep land is not taken here"),
])
def test_an_assault_refuses_a_side_option_given_twice_or_out_of_place(keywords, words):
    with pytest.raises(BattleError, match=words):
        Amphibious(RULES, fleet="1 trn", cargo="2 inf", **keywords)


def test_a_sweep_of_sides_is_the_sweep_of_flat_keywords():
    by_side = SweepSpec.build(RULES, 10, "inf,art", "2 inf", attacker=Side(None, order_of_loss="inf,art",
                                                                           keep_land=1),
                              defender=Side(None, order_of_loss="inf"))
    flat = SweepSpec.build(RULES, 10, "inf,art", "2 inf", ool_attacker="inf,art", keep_land=1,
                           ool_defender="inf")
    assert by_side == flat
    assert by_side.ool_attacker == ("infantry", "artillery") and by_side.keep_land == 1


def test_a_sweep_refuses_a_side_with_an_army_or_an_option_given_twice():
    with pytest.raises(BattleError, match="keep_land is given twice"):
        SweepSpec.build(RULES, 10, "inf", "2 inf", attacker=Side(None, keep_land=1), keep_land=2)
    with pytest.raises(PurchaseError, match="has no army"):
        SweepSpec.build(RULES, 10, "inf", "2 inf", defender=Side("1 inf"))
