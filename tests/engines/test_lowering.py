"""Lowering on its own: the arrays both engines read, built by hand for small battles. Both
engines share this spec, so the cross-check between them cannot see its faults; these tests can."""

import numpy as np

import oddsim
from oddsim.engines.lowering import lower

# 1942-2e's unit table in its file's order
NAMES = ["infantry", "artillery", "armor", "aa_gun", "fighter", "bomber", "transport", "submarine",
         "destroyer", "cruiser", "carrier", "battleship"]
COST = [3, 4, 6, 5, 10, 12, 7, 6, 8, 12, 14, 20]
ATTACK = [1, 2, 3, 0, 3, 4, 0, 2, 2, 3, 1, 4]
DEFENSE = [2, 2, 3, 0, 4, 1, 0, 1, 2, 3, 2, 4]


def counts(**units: int) -> list[int]:
    return [units.get(name, 0) for name in NAMES]


def test_a_land_battle_with_an_aa_gun_and_artillery():
    low = lower(oddsim.Battle("1942-2e", "2 inf, 1 art, 1 ftr", "1 arm, 1 aa"))
    assert low.cost.tolist() == COST
    assert low.is_air.tolist() == [name in ("fighter", "bomber") for name in NAMES]
    assert low.defenceless.tolist() == [name in ("aa_gun", "transport") for name in NAMES]
    # one support rule: each artillery raises one infantry to 2, on attack
    assert low.support_supporter.tolist() == [[name == "artillery" for name in NAMES]]
    assert low.support_supported.tolist() == [[name == "infantry" for name in NAMES]]
    assert low.support_per.tolist() == [1] and low.support_value.tolist() == [2]
    assert low.support_side.tolist() == [0]
    # one gun, up to 3 dice, one per aircraft: 1 die, hitting on 1
    assert (low.aa_per_gun, low.aa_dice_per_gun, low.aa_dice, low.aa_hit) == (True, 3, 1, 1)
    a, d = low.attacker, low.defender
    assert a.count.tolist() == counts(infantry=2, artillery=1, fighter=1)
    assert d.count.tolist() == counts(armor=1, aa_gun=1)
    assert a.value.tolist() == ATTACK and d.value.tolist() == DEFENSE
    # the attacker's default order: infantry, artillery, fighter; the defender's: the gun first
    assert a.step_unit.tolist() == [0, 1, 4] and a.step_count.tolist() == [2, 1, 1]
    assert a.step_kill.tolist() == [1, 1, 1]
    assert (d.step_unit.tolist(), d.step_count.tolist()) == ([3, 2], [1, 1])
    assert (a.support_side, d.support_side) == (0, 1)
    assert not low.low_luck and low.bombard_dice.tolist() == [0] * 7


def test_landed_units_bombardment_and_low_luck():
    low = lower(oddsim.Battle("1942-2e", attacker=oddsim.Side("2 inf, 1 arm", landed="2 inf", bombard="1 bb"),
                              defender="2 inf", dice="lowluck"))
    # the battleship bombards at 4: one die hitting on 4 or less
    assert low.bombard_dice.tolist() == [0, 0, 0, 0, 1, 0, 0]
    assert low.low_luck and low.aa_dice == 0
    a = low.attacker
    # the landed infantry are a step of their own, lost first (they cannot retreat)
    assert (a.step_unit.tolist(), a.step_count.tolist(), a.step_landed.tolist()) == ([0, 2], [2, 1], [1, 0])


def test_a_europe_sea_battle_with_a_damaged_battleship():
    names = [u.name for u in oddsim.load_ruleset("europe-1999").units]
    low = lower(oddsim.Battle("europe-1999", "1 sub, 1 damaged bb", "1 dd, 1 trn", sea=True))
    a, d = low.attacker, low.defender
    bb, sub, dd, trn = (names.index(n) for n in ("battleship", "submarine", "destroyer", "transport"))
    assert a.damaged[bb] == 1 and a.count[bb] == 1
    # a damaged battleship takes no free hit: the sub (cost 8 + 2.5 x 2) goes before it
    assert (a.step_unit.tolist(), a.step_kill.tolist()) == ([sub, bb], [1, 1])
    # the transport defends at 1 (europe-1999's unit chart and rulebook, issue 34): 8 + 2.5 x 1
    # = 10.5 against the destroyer's 12 + 2.5 x 3 = 19.5, so it goes first
    assert d.value[trn] == 1 and d.step_unit.tolist() == [trn, dd]
    # the defender's destroyer at the attack takes the attacker's first strike away for good
    assert not low.attacker_subs_first and not low.defender_subs_first
    assert np.array_equal(low.is_sub, np.array([n == "submarine" for n in names]))
