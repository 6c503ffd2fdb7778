"""An AA gun that is no casualty holds the territory with the defender: it is listed among the
defender's survivors wherever the attacker does not take the territory."""

import pytest

import oddsim
from oddsim.stages.holding_units import holding_units
from oddsim.stages.pipeline import simulate

TOL = 1e-12


def survivors(result):
    return {row.units: row.probability for row in result.defender_survivors}


def test_the_aa_gun_stands_in_every_row_where_the_defender_keeps_the_territory():
    # revised: 1 armor (hits 1/2) against 1 infantry (hits 1/3) and an AA gun with no aircraft to
    # shoot at. A round with a hit: attacker only 1/2, defender only 1/4, both 1/4. The gun holds
    # the territory whenever the armor is gone: with the infantry 1/4, alone 1/4; taken 1/2.
    result = oddsim.solve(oddsim.Battle("revised", "1 arm", "1 inf, 1 aa"))
    assert result.defender_win == pytest.approx(1 / 2, abs=TOL)
    rows = survivors(result)
    assert rows["1 infantry, 1 AA gun"] == pytest.approx(1 / 4, abs=TOL)
    assert rows["1 AA gun"] == pytest.approx(1 / 4, abs=TOL)
    assert rows["none"] == pytest.approx(1 / 2, abs=TOL)
    assert result.defender_ipc_lost == pytest.approx(3 * 3 / 4, abs=TOL)  # the gun is never lost
    assert result.defender_units_left["aa_gun"] == pytest.approx(1 / 2, abs=TOL)


def test_monte_carlo_lists_the_gun_alike():
    result = simulate(oddsim.Battle("revised", "1 arm", "1 inf, 1 aa"), runs=100_000, seed=3)
    rows = {row.units: row for row in result.defender_survivors}
    for units, chance in (("1 infantry, 1 AA gun", 1 / 4), ("1 AA gun", 1 / 4), ("none", 1 / 2)):
        assert abs(rows[units].probability - chance) < 4.5 * rows[units].std_error


def test_only_guns_that_are_no_casualty_hold_without_fighting():
    # 1942-2e's gun takes hits like any unit (the engines list it); a sea battle holds no land
    assert holding_units(oddsim.Battle("1942-2e", "1 arm", "1 inf, 1 aa")) == {}
    assert holding_units(oddsim.Battle("revised", "1 arm", "1 inf, 1 aa")) == {"aa_gun": 1}
