"""Monte Carlo rows carry their standard errors (exact rows: none), in the table, the records, the
text report and the --out file; files written before rows had them are upgraded on --resume
(exact rows) or refused in one line (Monte Carlo rows, whose errors are lost)."""

import csv
import json
import math

import pytest
from click.testing import CliRunner

from oddsim.cli import cli
from oddsim.purchase import BattleCache, PurchaseError, sweep
from oddsim.purchase.output import RowWriter
from oddsim.purchase.rows import FIGURES, columns, columns_before_std_errors

RUNS = 20_000
MC = dict(rules="1942-2e", budget=9, units="inf,arm", against="2 inf", method="mc", runs=RUNS, seed=11)
EXACT = dict(rules="1942-2e", budget=9, units="inf,arm", against="2 inf", method="exact")
CHANCES = ("attacker_win", "defender_win", "draw", "stalemate", "takes_territory")
ARGS = ["purchase", "--budget", "9", "--units", "inf,arm", "--against", "2 inf", "--quiet"]


def binomial(p: float, n: int = RUNS) -> float:
    return math.sqrt(p * (1 - p) / n)


def test_monte_carlo_chances_carry_sqrt_p_q_over_n():
    table = sweep(**MC, cache=BattleCache())
    # buying nothing fights no battle: exact, no error (its figures are certain)
    nothing = [row for row in table if row.purchase == "nothing"]
    assert len(nothing) == 1 and nothing[0].method == "exact" and nothing[0].value_std_error is None
    battles = [row for row in table if row.purchase != "nothing"]
    assert len(battles) == 5 and all(row.method == "mc" and row.runs == RUNS for row in battles)
    for row in battles:
        for name in CHANCES:
            assert getattr(row, f"{name}_std_error") == pytest.approx(binomial(getattr(row, name)),
                                                                      rel=1e-12), (row.purchase, name)
        assert row.value == row.takes_territory  # goal take
        assert row.value_std_error == pytest.approx(binomial(row.value), rel=1e-12)
        # the swing's error is the sum of the two sides' (a bound: the kernel sums each apart)
        assert row.tuv_swing_std_error == pytest.approx(
            row.attacker_ipc_lost_std_error + row.defender_ipc_lost_std_error, rel=1e-12)
        assert row.attacker_ipc_lost_std_error > 0 and row.defender_ipc_lost_std_error > 0


def test_the_errors_measure_the_distance_to_the_exact_figures():
    mc = {row.index: row for row in sweep(**MC, cache=BattleCache())}
    exact = {row.index: row for row in sweep(**EXACT, cache=BattleCache())}
    for index, row in exact.items():
        if mc[index].method == "exact":  # buying nothing: no battle, the same certain figures
            assert (mc[index].purchase, mc[index].value, mc[index].defender_win) == ("nothing", 0.0, 1.0)
            continue
        for name in FIGURES:
            error = getattr(mc[index], f"{name}_std_error")
            assert abs(getattr(mc[index], name) - getattr(row, name)) <= 4.5 * error + 1e-12, name


def test_exact_rows_carry_no_error():
    for row in sweep(**EXACT, cache=BattleCache()):
        assert row.value_std_error is None
        assert all(getattr(row, f"{name}_std_error") is None for name in FIGURES)


@pytest.mark.parametrize(("goal", "sea", "units", "against", "value"), [
    ("hold", True, "dd", "2 sub", lambda r: r.defender_win + r.stalemate),  # one chance: units left
    ("hold", False, "inf,arm", "2 inf, 1 arm", lambda r: 1 - r.takes_territory),
    ("clear", True, "dd", "2 sub", lambda r: r.attacker_win),
])
def test_each_chance_goal_has_the_error_of_its_chance(goal, sea, units, against, value):
    table = sweep("1942-2e", budget=16, units=units, against=against, goal=goal, sea=sea, method="mc",
                  runs=RUNS, seed=5, cache=BattleCache())
    assert len(table) >= 2
    for row in table:
        assert row.value == pytest.approx(value(row), abs=1e-12)
        if row.method == "exact":  # buying nothing to attack with: no battle, certain
            assert row.purchase == "nothing" and row.value_std_error is None
            continue
        assert row.value_std_error == pytest.approx(binomial(row.value), rel=1e-9)


def test_tuv_goal_has_the_swings_error():
    for row in sweep(**{**MC, "goal": "tuv"}, cache=BattleCache()):
        assert row.value_std_error == row.tuv_swing_std_error


def test_the_value_goals_error_adds_the_territorys_share():
    """value = swing + V x takes; its error, like the swing's, is the sum of the errors."""
    table = sweep("1942-2e", budget=6, units="inf,arm", against="1 inf", goal="value", territory_value=4,
                  method="mc", runs=RUNS, seed=2, cache=BattleCache())
    for row in table:
        if row.purchase == "nothing":  # no battle: certain
            continue
        assert row.value_std_error == pytest.approx(
            row.tuv_swing_std_error + 4 * row.takes_territory_std_error, rel=1e-12)


@pytest.mark.parametrize("suffix", [".csv", ".json"])
def test_the_out_file_holds_the_errors_and_resumes_with_them(tmp_path, suffix):
    out = tmp_path / f"rows{suffix}"
    table = sweep(**MC, out=out, cache=BattleCache())
    if suffix == ".csv":
        with open(out, newline="") as f:
            records = [r for r in csv.DictReader(f) if r["method"] == "mc"]
        assert float(records[0]["value_std_error"]) == pytest.approx(binomial(float(records[0]["value"])))
    else:
        records = [r for r in map(json.loads, out.read_text().splitlines()) if r["method"] == "mc"]
        assert records[0]["value_std_error"] == pytest.approx(binomial(records[0]["value"]))
    resumed = sweep(**MC, out=out, resume=True, cache=BattleCache())
    assert resumed.stats.resumed == len(table) and resumed.rows == table.rows


def test_exact_rows_write_empty_errors(tmp_path):
    out = tmp_path / "rows.csv"
    sweep(**EXACT, out=out, cache=BattleCache())
    with open(out, newline="") as f:
        records = list(csv.DictReader(f))
    assert {records[0][f"{name}_std_error"] for name in FIGURES} == {""}
    assert records[0]["value_std_error"] == ""


def test_the_report_shows_the_error_of_monte_carlo_values_only():
    mc = CliRunner().invoke(cli, [*ARGS, "--method", "mc", "--runs", str(RUNS), "--seed", "11"])
    assert mc.exit_code == 0, mc.output
    best = sweep(**MC, cache=BattleCache()).best
    assert "std error" in mc.output
    assert f"{100 * best.value:.2f}%   ± {100 * binomial(best.value):.2f}%" in mc.output
    exact = CliRunner().invoke(cli, [*ARGS, "--method", "exact"])
    assert exact.exit_code == 0 and "std error" not in exact.output and "±" not in exact.output


def _write_old_file(path, spec: dict) -> None:
    """The rows of ``spec`` as a file from before standard errors (their columns left out)."""
    table = sweep(**spec, cache=BattleCache())
    old = columns_before_std_errors(table.units)
    assert len(old) == len(columns(table.units)) - 1 - len(FIGURES)
    with RowWriter(path, old) as writer:
        for record in table.records():
            writer.add({key: record[key] for key in old})


@pytest.mark.parametrize("suffix", [".csv", ".json"])
def test_an_older_file_of_exact_rows_is_resumed_and_upgraded(tmp_path, suffix):
    out = tmp_path / f"rows{suffix}"
    _write_old_file(out, EXACT)
    resumed = sweep(**EXACT, out=out, resume=True, cache=BattleCache())
    fresh = sweep(**EXACT, cache=BattleCache())
    assert resumed.stats.resumed == len(fresh) and resumed.rows == fresh.rows
    again = sweep(**EXACT, out=out, resume=True, cache=BattleCache())  # now in today's columns
    assert again.stats.resumed == len(fresh) and again.rows == fresh.rows
    first = out.read_text().splitlines()[0]
    assert "value_std_error" in first
    assert [p.name for p in tmp_path.iterdir()] == [out.name]  # no temporary file left


def test_an_older_file_of_monte_carlo_rows_is_refused_in_one_line_untouched(tmp_path):
    out = tmp_path / "rows.csv"
    _write_old_file(out, MC)
    content = out.read_bytes()
    result = CliRunner().invoke(cli, [*ARGS, "--method", "mc", "--runs", str(RUNS), "--seed", "11",
                                      "--out", str(out), "--resume"])
    assert result.exit_code == 2, result.output
    assert len(result.stderr.strip().splitlines()) == 1
    assert "no standard errors" in result.stderr and "another --out" in result.stderr
    assert out.read_bytes() == content


def test_an_older_file_of_another_sweep_is_refused_untouched(tmp_path):
    out = tmp_path / "rows.csv"
    _write_old_file(out, EXACT)
    content = out.read_bytes()
    with pytest.raises(PurchaseError, match="another sweep"):
        sweep(**{**EXACT, "against": "3 inf"}, out=out, resume=True, cache=BattleCache())
    assert out.read_bytes() == content


def test_the_reports_standard_errors_keep_a_significant_digit():
    """A small error reads as itself, never "± 0.00%": sqrt(p(1-p)/n) of p = 1/1000 over 10^6 runs
    is 0.0032%; a TUV error of 0.004 stays 0.004. Larger ones keep the usual digits."""
    from oddsim.purchase.goals import Goal

    assert Goal.TAKE.format_error(math.sqrt(0.001 * 0.999 / 1e6)) == "0.003%"
    assert Goal.TUV.format_error(0.004) == "0.004"
    assert Goal.TAKE.format_error(0.0015) == "0.15%"
    assert Goal.TUV.format_error(0.08) == "0.08"


def test_a_chance_no_run_saw_reads_as_its_95_interval_not_a_zero_error():
    """0 takes in 2,000 runs has a standard error of 0, which says nothing: the row shows the
    Wilson interval, whose upper end for 0 of n is z^2 / (n + z^2) (3.8415 / 2003.84 = 0.19%);
    n of n mirrors it. Chances seen often enough keep their ±."""
    from oddsim.purchase.goals import Goal

    z2 = 1.959963984540054 ** 2
    assert f"{100 * z2 / (2000 + z2):.2f}" == "0.19"
    assert Goal.TAKE.error_text(0.0, 0.0, 2000) == "95%: 0 to 0.19%"
    assert Goal.HOLD.error_text(1.0, 0.0, 2000) == "95%: 99.81 to 100%"
    assert Goal.TAKE.error_text(0.5, 0.0112, 2000) == "± 1.12%"
    assert Goal.TUV.error_text(0.0, 0.08, 2000) == "± 0.08"  # a swing is no chance: always its ±
    assert Goal.TAKE.error_text(0.0, None, None) == ""  # exact


def test_the_report_shows_an_interval_for_a_purchase_that_never_takes():
    result = CliRunner().invoke(cli, ["purchase", "--budget", "3", "--units", "inf", "--against",
                                      "8 inf, 2 arm", "--method", "mc", "--runs", "2000", "--seed", "1"])
    assert result.exit_code == 0, result.output
    # rank 1: buying nothing (exact 0, the cheaper of the ties), then the infantry
    rows = [line for line in result.output.splitlines() if line.split()[:1] == ["2"] and " mc " in line]
    assert rows and "0.00% 95%: 0 to 0.19%" in rows[0] and "± 0.00%" not in result.output
