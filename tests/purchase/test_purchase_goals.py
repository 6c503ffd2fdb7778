"""The decision goals of a sweep: the best-retreat value and taking and holding against a
counter-attack, against hand-derived values."""

from fractions import Fraction

import pytest
from click.testing import CliRunner

from oddsim import Battle
from oddsim.cli import cli
from oddsim.errors import OddsimError
from oddsim.purchase import BattleCache, sweep
from oddsim.stages.pipeline import solve


def by_purchase(table):
    return {row.purchase: row for row in table}


def test_goal_value_of_an_undefended_territory_is_its_value():
    # nothing to fight: the attacker takes the territory for sure and loses nothing
    table = sweep("1942-2e", budget=6, units="inf,arm", against="none", goal="value", territory_value=5,
                  cache=BattleCache())
    assert {row.purchase: row.value for row in table} == pytest.approx(
        {"1 infantry": 5.0, "2 infantry": 5.0, "1 armor": 5.0, "nothing": 0.0})  # (no attack)


def test_goal_value_ranks_by_the_best_retreat_objective():
    table = sweep("1942-2e", budget=9, units="inf,arm", against="2 inf", goal="value", territory_value=4,
                  cache=BattleCache())
    for row in table:
        if row.purchase == "nothing":  # no attack: nothing gained, nothing lost
            assert (row.value, row.tuv_swing, row.takes_territory) == (0.0, 0.0, 0.0)
            continue
        best = solve(Battle(rules="1942-2e", attacker=row.purchase, defender="2 inf",
                            retreat={"best": "value", "territory_value": 4}))
        assert row.value == pytest.approx(best.objective, abs=1e-12)
        # the objective is the policy's TUV swing plus the territory's value when taken
        assert row.value == pytest.approx(row.tuv_swing + 4 * row.takes_territory, abs=1e-9)
    assert [row.value for row in table.rows] == sorted((row.value for row in table), reverse=True)


def test_goal_hold_after_an_armor_against_a_counter_attacking_infantry():
    # 1942-2e: the armor (defense 3) holds against 1 infantry (attack 1) with 6/7 (see test_counter)
    table = sweep("1942-2e", budget=6, units="arm", against="none", goal="hold-after",
                  counter_attack="1 inf", cache=BattleCache())
    assert by_purchase(table)["1 armor"].value == pytest.approx(float(Fraction(6, 7)), abs=1e-12)


@pytest.mark.parametrize(("options", "message"), [
    ({"goal": "hold-after"}, "counter-attack"),
    ({"goal": "take", "counter_attack": "1 inf"}, "hold-after"),
    ({"goal": "take", "territory_value": 3}, "goal value"),
    ({"goal": "value", "territory_value": -1}, "territory value"),
    ({"goal": "hold-after", "counter_attack": "1 inf", "sea": True}, "sea battle"),
])
def test_bad_goal_options(options, message):
    with pytest.raises(OddsimError, match=message):
        sweep("1942-2e", budget=6, units="inf", against="1 inf", cache=BattleCache(), **options)


def test_goals_from_the_cli():
    out = CliRunner().invoke(cli, ["purchase", "--budget", "6", "--units", "arm", "--against", "none",
                                   "--goal", "hold-after", "--counter-attack", "1 inf", "--quiet"])
    assert out.exit_code == 0 and "85.71%" in out.output
    out = CliRunner().invoke(cli, ["purchase", "--budget", "6", "--units", "inf", "--against", "none",
                                   "--goal", "value", "--territory-value", "5", "--quiet"])
    assert out.exit_code == 0 and "+5.00" in out.output
    bad = CliRunner().invoke(cli, ["purchase", "--budget", "6", "--units", "inf", "--against", "1 inf",
                                   "--goal", "hold-after"])
    assert bad.exit_code == 2 and bad.output.count("\n") == 1
