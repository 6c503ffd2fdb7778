"""The counter-attack: the chance to take a territory and hold it, over the attacker's survivors."""

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from oddsim import Battle, Side
from oddsim.api import run_battle, run_counter_attack
from oddsim.cli import cli
from oddsim.errors import BattleError

# 1942-2e: 1 armor (defense 3) holds against 1 infantry (attack 1). A round: the infantry hits with
# 1/6, the armor with 1/2. The infantry takes the territory when it hits and survives:
# (1/6 * 1/2) / (1 - 5/6 * 1/2) = 1/7; when both die nobody is left to take it, so the armor holds 6/7.
ARMOR_HOLDS = Fraction(6, 7)


def test_an_undefended_territory_taken_by_armor_holds_six_sevenths():
    result = run_counter_attack(Battle(rules="1942-2e", attacker="1 arm", defender="none"), "1 inf")
    assert result.takes_territory == pytest.approx(1.0)
    assert result.holds == pytest.approx(float(ARMOR_HOLDS), abs=1e-12)


def test_aircraft_do_not_stay_in_the_territory():
    result = run_counter_attack(Battle(rules="1942-2e", attacker="1 arm, 2 ftr", defender="none"), "1 inf")
    assert [row["units"] for row in result.compositions] == ["1 armor"]
    assert result.holds == pytest.approx(float(ARMOR_HOLDS), abs=1e-12)


def test_holding_is_weighted_over_every_composition_the_attacker_takes_it_with():
    battle = Battle(rules="1942-2e", attacker="3 inf, 1 art, 1 arm", defender="2 inf")
    counter = "2 inf, 1 arm"
    result = run_counter_attack(battle, counter, method="exact")
    first = run_battle(battle, method="exact")
    assert result.takes_territory == pytest.approx(first.takes_territory, abs=1e-12)
    # independently: fight each survivor row with land units again, by hand
    expected = 0.0
    for row in first.attacker_survivors:
        if row.units == "none":
            continue
        again = run_battle(Battle(rules="1942-2e", attacker=counter, defender=row.units), method="exact")
        expected += row.probability * (1.0 - again.takes_territory)
    assert result.holds == pytest.approx(expected, abs=1e-12)
    assert 0.0 < result.holds < result.takes_territory


def test_landed_units_that_fought_on_alone_hold_without_the_retreated_ones():
    battle = Battle(rules="1942-2e", attacker=Side("1 inf, 2 arm", landed="1 inf"), defender="1 inf",
                    retreat={"after_round": 1})
    result = run_counter_attack(battle, "1 inf", method="exact")
    stays = {row["units"] for row in result.compositions}
    assert stays <= {"1 infantry", "1 infantry, 2 armor", "2 armor"}
    assert "1 infantry" in stays  # the landed infantry won alone after the armor left


def test_monte_carlo_counter_attack_agrees_with_exact():
    battle = Battle(rules="1942-2e", attacker="3 inf, 1 art, 1 arm", defender="2 inf")
    exact = run_counter_attack(battle, "2 inf, 1 arm", method="exact")
    mc = run_counter_attack(battle, "2 inf, 1 arm", method="mc", runs=200_000, seed=3)
    # the hold chance mixes the first battle's composition frequencies (variance at most
    # 1/(4N)) with each composition's counter-attack estimate on its share of the N runs (variance
    # sum of p h (1 - h) / N, at most 1/(4N)): its standard error is below sqrt(1/(2N))
    assert abs(mc.holds - exact.holds) < 4.5 * (1 / (2 * 200_000)) ** 0.5


@pytest.mark.parametrize(("battle", "counter", "message"), [
    (Battle(rules="1942-2e", attacker="1 bb", defender="1 dd", sea=True), "1 dd", "land battle"),
    (Battle(rules="1942-2e", attacker="1 arm", defender="1 inf"), "1 aa", "cannot attack"),
    (Battle(rules="1942-2e", attacker="1 arm", defender="1 inf"), "1 bb", "cannot attack"),
])
def test_bad_counter_attacks(battle, counter, message):
    with pytest.raises(BattleError, match=message):
        run_counter_attack(battle, counter)


def test_counter_attack_cli():
    out = CliRunner().invoke(cli, ["battle", "-a", "1 arm", "-d", "none", "--counter-attack", "1 inf",
                                   "--json"])
    assert out.exit_code == 0
    data = json.loads(out.output)
    assert data["holds"] == pytest.approx(float(ARMOR_HOLDS), abs=1e-12)
    assert data["battle"]["attacker_win"] == pytest.approx(1.0)
    table = CliRunner().invoke(cli, ["battle", "-a", "1 arm", "-d", "none", "--counter-attack", "1 inf"])
    assert "takes and holds it" in table.output and "85.71%" in table.output
    bad = CliRunner().invoke(cli, ["battle", "-a", "1 arm", "-d", "1 inf", "--counter-attack", "1 inf",
                                   "--wave", "1 arm"])
    assert bad.exit_code == 2 and bad.output.count("\n") == 1


def test_monte_carlo_hold_chance_has_its_standard_error():
    # the territory is always taken by the armor; the hold chance is a binomial estimate of
    # 6/7 over the runs: its standard error is sqrt(h (1 - h) / N)
    runs = 200_000
    mc = run_counter_attack(Battle(rules="1942-2e", attacker="1 arm", defender="none"), "1 inf",
                            method="mc", runs=runs, seed=5)
    h = float(ARMOR_HOLDS)
    assert mc.std_error["holds"] == pytest.approx((h * (1 - h) / runs) ** 0.5, rel=0.02)
    assert abs(mc.holds - h) < 4.5 * mc.std_error["holds"]
    # a mixed battle: the first battle's composition frequencies add their own variance
    battle = Battle(rules="1942-2e", attacker="3 inf, 1 art, 1 arm", defender="2 inf")
    exact = run_counter_attack(battle, "2 inf, 1 arm", method="exact")
    assert exact.std_error == {}
    mixed = run_counter_attack(battle, "2 inf, 1 arm", method="mc", runs=runs, seed=3)
    for name in ("takes_territory", "holds"):
        assert 0 < mixed.std_error[name] < (1 / (2 * runs)) ** 0.5
        assert abs(getattr(mixed, name) - getattr(exact, name)) < 4.5 * mixed.std_error[name], name
    table = CliRunner().invoke(cli, ["battle", "-a", "1 arm", "-d", "none", "--counter-attack", "1 inf",
                                     "--method", "mc", "--runs", "20000", "--seed", "1", "--json"])
    assert json.loads(table.output)["std_error"]["holds"] > 0
