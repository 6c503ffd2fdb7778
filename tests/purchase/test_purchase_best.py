"""A purchase sweep with best casualties (issue 33): every candidate battle solved as a game, each
row equal to the brute-force game solver of tests/engines/exact/test_best_casualties.py on that
candidate alone; the casualty goal follows the sweep's goal; sized and refused in one line before
any battle where it would be too large."""

import pytest

from oddsim.errors import TooLargeError
from oddsim.model.rules import load_ruleset
from oddsim.purchase.goals import PurchaseError
from oddsim.purchase.runner import run_sweep, sweep
from oddsim.purchase.spec import SweepSpec
from tests.cli_lines import refused
from tests.engines.exact.test_best_casualties import brute_force

RULES = load_ruleset("1942-2e")
UNITS = ("inf", "arm", "ftr")


def _take_alone(counts, chooses=True):
    """The chance to take 2 inf, 1 arm with (inf, arm, ftr) bought, by the brute force alone:
    the attacker choosing each loss (or cheapest first), the defender cheapest first."""
    if not any(counts):
        return 0.0
    return brute_force(tuple(counts), (2, 1), lambda c: [(c[0], 1 / 6), (c[1], 3 / 6), (c[2], 3 / 6)],
                       lambda d: [(d[0], 2 / 6), (d[1], 3 / 6)], att_land=(0, 1),
                       att_order=None if chooses else (0, 1, 2), def_order=(0, 1))


def test_each_row_is_its_battle_solved_alone_by_brute_force():
    table = sweep(RULES, 13, ",".join(UNITS), "2 inf, 1 arm", ool_attacker="best", method="exact")
    rows = table.rows
    assert len(rows) == 11  # every purchase of inf (3), arm (6), ftr (10) within 13 IPCs
    better = 0
    for row in rows:
        assert row.value == pytest.approx(_take_alone(row.counts), abs=1e-12), row.purchase
        fixed = _take_alone(row.counts, chooses=False)
        assert row.value >= fixed - 1e-12
        better += row.value > fixed + 0.01
    assert better >= 1  # (1 inf, 1 ftr: 5.8% choosing, 2.0% cheapest first)
    ranked = sorted(rows, key=lambda r: (-_take_alone(r.counts), r.index))
    assert [r.index for r in ranked[:3]] == [r.index for r in rows[:3]]


def test_the_battles_play_for_the_sweeps_goal():
    spec = SweepSpec.build(RULES, 12, "inf,arm", "2 inf", goal="tuv", ool_attacker="best")
    assert spec.casualty_goal == "tuv" and spec.ool_attacker == "best"
    assert spec.battle((1, 1)).attacker.best_losses and spec.battle((1, 1)).casualty_goal == "tuv"
    assert "the attacker chooses each loss for goal tuv" in spec.describe()
    clear = SweepSpec.build(RULES, 12, "inf,arm", "2 inf", goal="clear", ool_defender="best")
    assert clear.battle((1, 1)).defender.best_losses and clear.casualty_goal == "win"
    value = SweepSpec.build(RULES, 12, "inf,arm", "2 inf", goal="value", territory_value=5,
                            ool_attacker="best")
    battle = value.battle((1, 1))
    assert (battle.casualty_goal, battle.casualty_value, battle.retreat.best) == ("value", 5.0, "value")
    hold = SweepSpec.build(RULES, 12, "inf,arm", "3 inf", goal="hold", ool_defender="best")
    assert hold.battle((1, 1)).defender.best_losses and hold.casualty_goal == "take"
    asked = SweepSpec.build(RULES, 12, "inf,arm", "2 inf", goal="tuv", ool_attacker="best",
                            casualty_goal="take")
    assert asked.battle((1, 1)).casualty_goal == "take"
    plain = SweepSpec.build(RULES, 12, "inf,arm", "2 inf", goal="tuv")
    assert plain.casualty_goal is None and plain.fingerprint != spec.fingerprint


def test_hold_after_counts_the_counter_attack_with_best_casualties():
    """Goal hold-after: the bought units that stay choose each loss in the counter-attack too."""
    from oddsim.api import run_counter_attack

    table = sweep(RULES, 9, "inf,arm", "1 inf", goal="hold-after", counter_attack="2 inf",
                  ool_attacker="best", method="exact")
    spec = SweepSpec.build(RULES, 9, "inf,arm", "1 inf", goal="hold-after", counter_attack="2 inf",
                           ool_attacker="best")
    for row in table.rows:
        if not any(row.counts):
            continue
        alone = run_counter_attack(spec.battle(row.counts), "2 inf", method="exact")
        assert row.value == pytest.approx(alone.holds, abs=1e-12)


@pytest.mark.parametrize("options, message", [
    (dict(goal="tuv", casualty_goal="take"),
     "the casualty goal is what a side that chooses each loss plays for"),
    (dict(goal="value", ool_attacker="best", casualty_goal="tuv"),
     "goal value retreats at best for the value"),
    (dict(goal="take", ool_attacker="best", casualty_goal="value"),
     "--casualty-goal value counts the territory"),
])
def test_casualty_goals_that_mean_nothing_are_refused(options, message):
    with pytest.raises(PurchaseError, match=message):
        SweepSpec.build(RULES, 12, "inf,arm", "2 inf", **options)


def test_a_sweep_too_large_is_refused_before_any_battle():
    # one battle past the solver's guard
    too_large = r"^purchase 1 bomber: its battle is too large for best casualties"
    with pytest.raises(TooLargeError, match=too_large):
        SweepSpec.build(RULES, 12, "bmb", "20 inf, 3 arm, 2 ftr", existing="20 inf, 5 art, 5 arm, 3 ftr",
                        ool_attacker="best")
    # many battles past the sweep's cap, each small: 59 purchases within 30 IPCs (36 without a
    # fighter, 16 with one, 6 with two, 1 with three), buying nothing no battle
    spec = SweepSpec.build(RULES, 30, "inf,arm,ftr", "6 inf, 2 arm", ool_attacker="best")
    seconds = spec.check_best_size()
    assert 0 < seconds < 60
    with pytest.raises(TooLargeError, match=r"^the sweep solves 58 battles with best casualties, about "):
        spec.check_best_size(limit=seconds / 2)


def test_the_cli_refuses_a_large_best_sweep_in_one_line():
    refused(["purchase", "--budget", "80", "--units", "inf,art,arm,ftr,bmb", "--against",
             "12 inf, 2 art, 2 arm, 2 ftr", "--ool-attacker", "best"],
            "the sweep solves 8,493 battles with best casualties, about 11 min, more than the 10 min it "
            "may take: lower the budget, cap units with --max or buy fewer unit types, or give the sides "
            "a fixed order of loss instead of best")


def test_the_cli_takes_the_casualty_goal():
    from click.testing import CliRunner

    from oddsim.cli import cli

    out = CliRunner().invoke(cli, ["purchase", "--budget", "13", "--units", "inf,arm,ftr", "--against",
                                   "2 inf, 1 arm", "--ool-attacker", "best", "--casualty-goal", "take",
                                   "--top", "0", "--quiet"])
    assert out.exit_code == 0, out.output
    assert "the attacker chooses each loss for goal take" in out.stdout
    line = next(x for x in out.stdout.splitlines() if x.endswith("1 infantry, 1 fighter"))
    assert f"{100 * _take_alone((1, 0, 1)):.2f}%" in line


def test_run_sweep_of_a_spec_with_best_is_exact_by_auto():
    spec = SweepSpec.build(RULES, 6, "inf,arm", "1 inf", ool_attacker="best")
    rows = run_sweep(spec).rows
    assert all(row.method == "exact" for row in rows)
