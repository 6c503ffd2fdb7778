"""Shore bombardment, submerging subs and landed units in the exact engine, against odds derived
by hand (each test says how)."""

from fractions import Fraction as F

import pytest
from oracle import duel
from readings import every_round_strike

import oddsim
from oddsim.model.options import battle_from

TOL = 1e-12


def solve(rules, attacker, defender, **options):
    return oddsim.solve(battle_from(rules, attacker, defender, options))


def survivors(rows):
    return {s.units: s.probability for s in rows}


def test_bombardment_before_the_battle_when_casualties_do_not_fire_back():
    # revised: the battleship hits on 4 (2/3) and the defender is gone before round 1; else
    # 1 inf (1/6) against 1 inf (1/3) fought out: (1/6)(2/3) / (1 - (5/6)(2/3)) = 1/4
    r = solve("revised", "1 inf", "1 inf", landed="1 inf", bombard="1 bb")
    assert r.attacker_win == pytest.approx(float(F(2, 3) + F(1, 3) * F(1, 4)), abs=TOL)
    assert r.takes_territory == pytest.approx(0.75, abs=TOL)
    assert r.expected_rounds == pytest.approx(float(F(1, 3) * F(9, 4)), abs=TOL)


def test_bombardment_casualties_fire_back_in_round_one():
    # 1942-2e: in round 1 the defender dies unless both the battleship and the infantry miss
    # (1 - (2/6)(5/6) = 26/36) and fires back regardless (1/3); then 1 inf against 1 inf, which
    # the attacker wins with 1/4 and draws with (1/18) / (16/36) = 1/8
    r = solve("1942-2e", "1 inf", "1 inf", landed="1 inf", bombard="1 bb")
    win = F(26, 36) * F(2, 3) + F(10, 36) * F(2, 3) * F(1, 4)
    assert r.attacker_win == pytest.approx(float(win), abs=TOL)
    assert r.draw == pytest.approx(float(F(26, 36) * F(1, 3) + F(10, 36) * F(2, 3) * F(1, 8)), abs=TOL)
    assert r.expected_rounds == pytest.approx(float(1 + F(10, 36) * F(2, 3) * F(9, 4)), abs=TOL)


def test_low_luck_bombardment_with_a_total_of_exactly_six():
    # europe-1999: battleship 4 + destroyer 2 = 6 scores exactly one hit; it joins round 1, so
    # the defender always dies in round 1 and fires back once (1/3)
    r = solve("europe-1999", "1 inf", "1 inf", landed="1 inf", bombard="1 bb, 1 dd", dice="lowluck")
    assert r.attacker_win == pytest.approx(2 / 3, abs=TOL)
    assert r.draw == pytest.approx(1 / 3, abs=TOL)


def test_bombarding_ships_take_the_edition_values_and_technology():
    # revised: a destroyer bombards only with combined bombardment, at 3: 1/2 then 1/4
    with pytest.raises(oddsim.BattleError, match="destroyer cannot bombard"):
        solve("revised", "1 inf", "1 inf", landed="1 inf", bombard="1 dd")
    r = solve("revised", "1 inf", "1 inf", landed="1 inf", bombard="1 dd",
              attacker_tech="combined-bombardment")
    assert r.attacker_win == pytest.approx(0.5 + 0.5 * 0.25, abs=TOL)


def test_subs_submerge_at_the_end_of_a_round_in_revised():
    # the sub strikes first (2/6) and the transport's casualty never fires; else the transport
    # fires (1/6); a sub still there submerges at the end of round 1
    r = solve("revised", "1 sub", "1 trn", sea=True, attacker_submerge="always")
    assert r.attacker_win == pytest.approx(1 / 3, abs=TOL)
    assert r.defender_win == pytest.approx(2 / 3 * 1 / 6, abs=TOL)
    assert r.retreat == pytest.approx(2 / 3 * 5 / 6, abs=TOL)
    assert survivors(r.attacker_survivors)["1 submarine (submerged)"] == pytest.approx(5 / 9, abs=TOL)
    assert r.attacker_ipc_lost == pytest.approx(8 / 9, abs=TOL)  # revised sub: 8 IPCs


def test_a_lone_attacking_sub_submerges_before_round_one_and_its_transport_is_lost():
    r = solve("anniversary", "1 sub, 1 trn", "1 cru", sea=True, attacker_submerge="alone")
    assert r.retreat == pytest.approx(1.0, abs=TOL)
    assert r.expected_rounds == pytest.approx(0.0, abs=TOL)
    assert r.attacker_ipc_lost == pytest.approx(7.0, abs=TOL)  # the transport, left alone
    assert survivors(r.attacker_survivors) == pytest.approx({"1 submarine (submerged)": 1.0})


def test_defending_subs_that_submerge_leave_the_defence_to_the_rest():
    # the sub dives before round 1; the transport left alone is destroyed
    r = solve("anniversary", "1 cru", "1 sub, 1 trn", sea=True, defender_submerge="always")
    assert r.attacker_win == pytest.approx(1.0, abs=TOL)
    assert r.defender_ipc_lost == pytest.approx(7.0, abs=TOL)
    assert survivors(r.defender_survivors) == pytest.approx({"1 submarine (submerged)": 1.0})


def test_a_defending_sub_submerges_once_it_is_alone():
    # anniversary, cruiser (3) against a sub and a cruiser lost first. Each round: the sub's
    # surprise strike (1/6) wins; else both cruisers fire (1/2 each). Attacker hit only: the sub
    # is alone and dives; defender hit (1/2): the attacker is gone; both miss: again. (The sub
    # strikes first every round: anniversary read so, its default being round 1 only.)
    r = solve(every_round_strike("anniversary"), "1 cru", "1 sub, 1 cru", sea=True, defender_submerge="alone",
              ool_defender="cruiser")
    assert r.attacker_win == pytest.approx(5 / 19, abs=TOL)
    assert r.defender_win == pytest.approx(14 / 19, abs=TOL)
    assert survivors(r.defender_survivors)["1 submarine (submerged)"] == pytest.approx(5 / 19, abs=TOL)


def test_no_submerging_while_the_enemy_has_a_destroyer():
    plain = solve("anniversary", "1 sub, 1 dd", "2 sub, 1 cru", sea=True)
    dives = solve("anniversary", "1 sub, 1 dd", "2 sub, 1 cru", sea=True, defender_submerge="always")
    assert dives.attacker_win == pytest.approx(plain.attacker_win, abs=TOL)
    assert dives.defender_survivors == plain.defender_survivors


def test_landed_units_fight_on_when_the_others_retreat():
    # 1942-2e, landed inf + armor against 1 inf, retreat after round 1. Round 1: the defender
    # dies with 1 - (5/6)(1/2) = 7/12; the landed inf (lost first) dies with 1/3. With the
    # defender alive: no landed inf left -> plain retreat (5/36); else the armor leaves and the
    # inf fights on alone: wins 1/4, else the battle ends as a retreat.
    r = solve("1942-2e", "1 inf, 1 arm", "1 inf", landed="1 inf", retreat={"after_round": 1})
    fights_on = F(5, 12) * F(2, 3)
    assert r.attacker_win == pytest.approx(float(F(7, 12) + fights_on * F(1, 4)), abs=TOL)
    assert r.retreat == pytest.approx(float(F(5, 12) * F(1, 3) + fights_on * F(3, 4)), abs=TOL)
    assert r.takes_territory == pytest.approx(r.attacker_win, abs=TOL)
    rows = survivors(r.attacker_survivors)
    assert rows["1 armor (retreated)"] == pytest.approx(float(F(5, 12) * F(1, 3)), abs=TOL)
    assert rows["1 armor (retreated; the landed units fought on and were destroyed)"] == \
        pytest.approx(float(fights_on * F(3, 4)), abs=TOL)
    # what became of the landed inf fighting on alone: duel(1, 2), one die each
    _, d, draw = duel(1, 2)
    landed = r.landed_after_retreat
    assert landed["won"] == pytest.approx(float(fights_on * F(1, 4)), abs=TOL)
    assert landed["destroyed"] == pytest.approx(float(fights_on * d), abs=TOL)
    assert landed["both_destroyed"] == pytest.approx(float(fights_on * draw), abs=TOL)
    # every retreat leaves after round 1, also where the landed inf fights on (and then dies)
    assert r.retreat_round == pytest.approx(1.0, abs=TOL)
    assert rows["1 infantry, 1 armor (1 armor retreated)"] == pytest.approx(
        float(fights_on * F(1, 4)), abs=TOL)
    assert r.attacker_ipc_lost == pytest.approx(3 * (F(7, 36) + F(5, 36) + fights_on * F(3, 4)),
                                                abs=TOL)


def test_a_state_based_retreat_with_landed_units():
    # retreat at 1 unit or fewer: the landed inf is lost first, so that unit is the armor, which
    # leaves. Each round: the defender dies (7/12) -> win; else the inf dies (1/3) -> retreat;
    # else again: win 21/26, retreat 5/26
    r = solve("1942-2e", "1 inf, 1 arm", "1 inf", landed="1 inf", retreat={"units_left": 1})
    assert r.attacker_win == pytest.approx(21 / 26, abs=TOL)
    assert r.retreat == pytest.approx(5 / 26, abs=TOL)
    assert survivors(r.attacker_survivors)["1 armor (retreated)"] == pytest.approx(5 / 26, abs=TOL)


def test_hundreds_of_dice_do_not_underflow():
    # (1/3)^1000 is below the smallest double; the distribution must still sum to one
    r = solve("revised", "2 inf", "1 inf", landed="1 inf", bombard="1000 bb")
    assert r.attacker_win == pytest.approx(1.0, abs=1e-12)
    big = oddsim.solve(oddsim.Battle("revised", "700 bb", "1 dd", sea=True))
    assert big.attacker_win == pytest.approx(1.0, abs=1e-12)
