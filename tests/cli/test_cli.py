"""The command line: real battles, JSON, and one clear line with exit status 2 on bad input."""

import json

import pytest
from click.testing import CliRunner

import oddsim
from oddsim.cli import cli


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_battle_prints_a_readable_summary():
    result = run("battle", "--rules", "1942-2e", "-a", "1 bmb", "-d", "1 bb", "--sea")
    assert result.exit_code == 0
    lines = [" ".join(line.split()) for line in result.output.splitlines()]
    assert "attacker wins 6.25%" in lines  # 1/16, the golden value in tests/exact/test_golden.py
    assert "defender wins 81.25%" in lines
    assert "method: exact" in result.output


def test_battle_json_has_every_key():
    result = run("battle", "-a", "1 arm, 1 bmb", "-d", "1 arm, 1 ftr", "--ool-attacker", "arm",
                 "--ool-defender", "arm,ftr", "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    for key in ("attacker_win", "defender_win", "draw", "stalemate", "takes_territory",
                "attacker_ipc_lost", "defender_ipc_lost", "tuv_swing", "expected_rounds",
                "attacker_survivors", "defender_survivors"):
        assert key in data
    assert data["attacker_win"] == pytest.approx(127 / 340, abs=1e-12)
    total = data["attacker_win"] + data["defender_win"] + data["draw"] + data["stalemate"]
    assert total == pytest.approx(1.0, abs=1e-9)


def test_battle_shows_the_tuv_swing_range_and_json_carries_its_distribution():
    # 1 bomber (12 IPC) vs 1 battleship (20, repaired when damaged): the defender wins 13/16
    # (swing -12), both die 2/16 (+8), the attacker wins 1/16 (+20)
    args = ("battle", "--rules", "1942-2e", "-a", "1 bmb", "-d", "1 bb", "--sea")
    text = run(*args).output
    assert "  TUV swing range: 5% -12, median -12, 95% +20" in text.splitlines()
    data = json.loads(run(*args, "--json").output)
    assert data["tuv_swing_distribution"] == [
        {"swing": -12.0, "probability": 13 / 16, "std_error": 0.0},
        {"swing": 8.0, "probability": 2 / 16, "std_error": 0.0},
        {"swing": 20.0, "probability": 1 / 16, "std_error": 0.0}]
    assert data["tuv_swing_percentiles"] == {"5": -12.0, "50": -12.0, "95": 20.0}
    mc = json.loads(run(*args, "--method", "mc", "--runs", "4000", "--seed", "1", "--json").output)
    assert sum(r["probability"] for r in mc["tuv_swing_distribution"]) == pytest.approx(1.0, abs=1e-12)
    assert all(r["std_error"] > 0 for r in mc["tuv_swing_distribution"])


def test_rules_list_and_show():
    listing = run("rules", "list")
    assert listing.exit_code == 0
    for name in ("europe-1999", "revised", "anniversary", "1942-2e", "global-1940-2e"):
        assert name in listing.output
    table = run("rules", "show", "global-1940-2e")
    assert table.exit_code == 0
    assert "tactical_bomber" in table.output and "mech_infantry" in table.output


@pytest.mark.parametrize("args, message", [
    (["battle", "-a", "3 knights", "-d", "1 inf"], "unknown unit 'knights'"),
    (["battle", "-a", "-3 inf", "-d", "1 inf"], "negative"),
    (["battle", "-a", "2.5 inf", "-d", "1 inf"], "whole number"),
    (["battle", "-a", "100000 inf", "-d", "1 inf"], "too many"),
    (["battle", "-a", "3 inf", "-d", ""], "the army is empty"),
    (["battle", "-a", "2 sub", "-d", "1 inf"], "cannot fight in a land battle"),
    (["battle", "-a", "2 inf", "-d", "1 dd", "--sea"], "cannot fight in a sea battle"),
    (["battle", "--rules", "chess", "-a", "1 inf", "-d", "1 inf"], "unknown edition"),
    (["battle", "-a", "1 inf", "-d", "1 inf", "--ool-attacker", "inf,dragon"], "unknown unit 'dragon'"),
    (["battle", "-a", "1 inf", "-d", "1 inf", "--keep-land", "-2"], "--keep-land"),
    (["battle", "--sea", "-a", "100 sub, 100 dd, 100 ftr", "-d", "100 bb, 100 cv, 100 sub",
      "--method", "exact"], "too large for the exact engine"),
    (["battle", "-a", "1 inf"], "Missing option"),
    (["rules", "show", "nope"], "unknown edition"),
    (["battle", "-a", "1 inf", "-d", "1 inf", "--survivors", "many"], "neither 'all' nor a number"),
    (["battle", "-a", "1 inf", "-d", "1 inf", "--survivors", "0"], "give a positive number of rows"),
    (["battle", "-a", "2 sub", "-d", "2 sub", "--sea", "--retreat-best", "value", "--territory-value", "3"],
     "a sea zone has none: use --retreat-best tuv"),
    (["battle", "-a", "1 inf", "-d", "1 inf", "--wave", "1 inf", "--survivors", "all"],
     "--survivors shows one battle's survivors"),
])
def test_bad_input_is_one_line_and_exit_2(args, message):
    result = run(*args)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("oddsim: error: ")
    assert message in lines[0]


def test_broken_ruleset_file_is_one_line(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text("name = 'x'\n[units.inf]\ncost = -1\nattack = 1\ndefense = 2\ndomain = 'land'\n")
    result = run("battle", "--rules", str(path), "-a", "1 inf", "-d", "1 inf")
    assert result.exit_code == 2
    assert "units.inf.cost" in result.output and len(result.output.strip().splitlines()) == 1


def test_monte_carlo_from_the_cli():
    result = run("battle", "-a", "1 bmb", "-d", "1 bb", "--sea", "--method", "mc", "--runs", "200000",
                 "--seed", "3", "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["method"] == "mc" and data["runs"] == 200_000
    se = data["std_error"]["attacker_win"]
    assert se == pytest.approx((1 / 16 * 15 / 16 / 200_000) ** 0.5, rel=0.05)
    assert abs(data["attacker_win"] - 1 / 16) < 4.5 * se


def test_auto_says_which_engine_it_used():
    small = run("battle", "-a", "3 inf", "-d", "2 inf")
    assert "method: exact" in small.output
    big = run("battle", "-a", "400 inf, 300 arm", "-d", "500 inf, 200 arm", "--runs", "2000", "--seed", "1",
              "--quiet")
    assert big.exit_code == 0 and "method: Monte Carlo, 2,000 runs" in big.output


def test_battle_json_has_units_left_and_every_survivor_row():
    # 1 armor against 1 infantry, 1942-2e: attacker wins 1/2, defender 1/4, draw 1/4
    result = run("battle", "-a", "1 arm", "-d", "1 inf", "--json")
    data = json.loads(result.output)
    assert data["attacker_units_left"] == pytest.approx({"armor": 0.5}, abs=1e-12)
    assert data["defender_units_left"] == pytest.approx({"infantry": 0.25}, abs=1e-12)
    rows = {json.dumps(r["counts"]): r["probability"] for r in data["defender_survivors"]}
    assert rows == pytest.approx({'{"infantry": 1}': 0.25, "{}": 0.75}, abs=1e-12)


def test_battle_survivors_table_is_cumulative():
    result = run("battle", "-a", "1 arm", "-d", "1 inf", "--survivors", "all")
    assert result.exit_code == 0
    lines = [" ".join(line.split()) for line in result.output.splitlines()]
    # attacker: 1 armor left with 1/2; at least 1 unit 50%, at least 0 units 100%
    assert "50.00% 50.00% 1 6 1 armor" in lines
    assert "50.00% 100% 0 0 none" in lines
    assert "defender IPC lost" in lines and "3 75.00% 75.00%" in lines
    top = run("battle", "-a", "3 inf, 2 arm", "-d", "4 inf", "--survivors", "2")
    assert "attacker survivors (2 of 6 end states; 4 not shown, --json has all)" in top.output
    bad = run("battle", "-a", "1 arm", "-d", "1 inf", "--survivors", "0")
    assert bad.exit_code == 2 and "'all'" in bad.output


def test_monte_carlo_text_has_an_error_on_every_figure():
    result = run("battle", "-a", "3 inf, 2 arm", "-d", "4 inf", "--method", "mc", "--runs",
                 "20000", "--seed", "3")
    lines = result.output.splitlines()
    for start in ("  attacker wins", "  defender wins", "  draw", "  takes territory",
                  "expected IPC lost", "expected rounds", "  attacker:", "  defender:"):
        line = next(x for x in lines if x.startswith(start))
        assert "±" in line or "95%" in line, line
    rows = lines[lines.index("most likely attacker survivors:") + 1:]
    assert "±" in rows[0]


def test_help_points_to_unit_abbreviations():
    result = run("battle", "--help")
    assert "oddsim rules show" in " ".join(result.output.split())
    table = run("rules", "show", "1942-2e")
    assert "abbreviations" in table.output and "inf" in table.output


@pytest.mark.parametrize("command", [
    ["battle", "-a", "1 arm", "-d", "1 inf"],
    ["raid", "--bombers", "2", "--territory-value", "4"],
    ["amphibious", "--fleet", "1 trn", "--cargo", "1 inf, 1 arm", "-d", "1 inf"],
])
def test_every_battle_command_takes_plot_quiet_and_json(tmp_path, command):
    path = tmp_path / "chart.png"
    result = run(*command, "--quiet", "--plot", str(path))
    assert result.exit_code == 0, result.output
    assert path.stat().st_size > 0
    assert f"wrote {path}" in result.output
    as_json = CliRunner().invoke(cli, [*command, "--json"])
    assert as_json.exit_code == 0
    json.loads(as_json.output)


def test_amphibious_orders_of_loss_reach_the_land_battle():
    # one transport lands 1 inf and 1 arm against 1 inf; losing the armor first is worse
    base = ["amphibious", "--fleet", "1 trn", "--cargo", "1 inf, 1 arm", "-d", "2 inf", "--json",
            "--no-bombard"]
    armor_first = json.loads(run(*base, "--ool-attacker", "arm,inf").output)
    land = oddsim.solve(oddsim.Battle("1942-2e",
                                      attacker=oddsim.Side("1 inf, 1 arm", order_of_loss="arm,inf",
                                                           landed="1 inf, 1 arm"), defender="2 inf"))
    assert armor_first["takes_territory"] == pytest.approx(land.takes_territory, abs=1e-12)
    kept = json.loads(run(*base, "--keep-land", "1", "--ool-defender", "inf").output)
    assert kept["takes_territory"] == pytest.approx(oddsim.solve(oddsim.Battle(
        "1942-2e", oddsim.Side("1 inf, 1 arm", keep_land=1, landed="1 inf, 1 arm"), "2 inf")).takes_territory,
        abs=1e-12)


def test_import_oddsim_reaches_submodules_without_matplotlib_or_dask():
    import subprocess
    import sys

    code = ("import sys, oddsim; assert 'matplotlib' not in sys.modules and 'dask' not in "
            "sys.modules; oddsim.plot.battle_chart; oddsim.purchase.SweepSpec; oddsim.raid.Raid; "
            "oddsim.api.run_battle; print('ok')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.stdout.strip() == "ok", done.stderr


# Faults the fuzzers found (issue 11): each is exit 2 and one line, or was a traceback before.

def refused(*args):
    result = run(*args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("oddsim: error: "), result.stderr
    assert "Traceback" not in result.output
    return lines[0]


@pytest.mark.parametrize("args", [
    ("battle", "-a", "1e400 inf", "-d", "1 inf"),
    ("battle", "-a", "1 inf", "-d", "1e309 inf"),
    ("battle", "-a", "1 inf", "-d", "1 inf", "--wave", "1e999 arm"),
    ("amphibious", "--fleet", "1 transport", "--cargo", "1 inf", "-d", "1 inf", "--overland",
     "1e400 inf"),
    ("purchase", "--budget", "6", "--units", "inf", "--against", "1e400 inf"),
])
def test_huge_counts_are_one_line(args):
    """Before: OverflowError tracebacks."""
    assert "whole number" in refused(*args)


@pytest.mark.parametrize("args, words", [
    (("battle", "-a", "1 inf", "-d", "1 inf", "--ool-attacker", ",,,"), "names no unit"),
    (("purchase", "--budget", "12", "--units", "inf,arm", "--against", "1 inf", "--max",
      "arm=1,arm=2"), "capped twice"),
    (("purchase", "--budget", "12", "--units", "inf,arm", "--against", "1 inf", "--max", "arm=1",
      "--max", "armor=2"), "capped twice"),
    (("trench", "--attacker", "1,,3", "--defender", "4,4,4", "--year", "1917"), "empty"),
    (("chart", "heatmap", "-d", "2 inf", "--x", "inf=0..5", "--y", "arm=0..8", "--x-side",
      "defender", "--y-side", "defender", "--out", "never.png"), "no units"),
    (("amphibious", "--fleet", "1 transport", "--cargo", "1 inf", "-d", "1 inf", "--air", "1 inf"),
     "not a air unit"),
])
def test_inputs_that_were_accepted_without_a_word(args, words, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    message = refused(*args)
    if words == "not a air unit":  # the message itself was the fault
        assert "is not an air unit" in message
    else:
        assert words in message
    assert not (tmp_path / "never.png").exists()


def test_a_system_error_from_ctrl_c_in_a_numba_call_is_an_interruption(monkeypatch):
    """The safety net under ``oddsim._runtime.interrupt``: Ctrl-C that surfaces as the SystemError of a
    Numba call is reported as an interruption, not a traceback."""
    from oddsim.stages import request

    def kernel_returned_with_ctrl_c(*args, **kwargs):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as exc:
            raise SystemError("CPUDispatcher(<function solve_kernel>) returned a result with an "
                              "exception set") from exc

    monkeypatch.setattr(request, "solve", kernel_returned_with_ctrl_c)
    result = run("battle", "-a", "1 inf", "-d", "1 inf")
    assert result.exit_code == 130
    assert result.stderr.strip() == "oddsim: interrupted"


def _numeric_options(command, path=()):
    """(command path, option) for every whole-number or decimal option of ``command`` and its
    subcommands."""
    import click

    for param in command.params:
        if isinstance(param, click.Option) and not param.is_flag and not param.hidden and isinstance(
                param.type, (click.types.IntParamType, click.types.FloatParamType)):
            yield " ".join(path + (command.name,)), param
    for sub in getattr(command, "commands", {}).values():
        yield from _numeric_options(sub, path + (command.name,))


def test_every_numeric_option_shows_its_range_in_help():
    """Before: purchase (--budget, --keep-land, --runs, --seed, --workers) and trench (--year,
    --points, --runs, --seed, advise --top) showed no range."""
    import re

    import click

    missing = []
    for where, option in _numeric_options(cli):
        with click.Context(cli) as ctx:
            name, text = option.get_help_record(ctx)
        if not re.search(r"\d\.\.|x>=|x<=|<=x|<x|x>", name + " " + text):
            missing.append(f"{where} {option.opts[0]}")
    assert missing == []


@pytest.mark.parametrize(("args", "name"), [
    (["battle", "--rules", "global-1940-2e", "-a", "1 aa", "-d", "1 inf"], "AA gun"),
    (["battle", "--rules", "global-1940-2e", "-a", "1 mech", "-d", "1 dd", "--sea"], "mech infantry"),
    (["battle", "--rules", "global-1940-2e", "-a", "2 mech", "-d", "1 inf", "--landed", "3 mech"],
     "3 mech infantry"),
    (["amphibious", "--fleet", "1 trn", "--cargo", "1 inf", "-d", "1 inf", "--air", "1 aa"], "AA gun"),
    (["purchase", "--budget", "10", "--units", "aa", "--against", "1 inf"], "AA gun"),
    (["purchase", "--budget", "10", "--units", "inf", "--against", "1 inf", "--existing", "1 aa"],
     "AA gun"),
    (["battle", "-a", "1 tank2", "-d", "1 inf"], "known: infantry, artillery, armor, AA gun"),
    (["battle", "-a", "1 inf", "-d", "1 inf", "--ool-attacker", "tank2"], "AA gun"),
    (["purchase", "--budget", "10", "--units", "tank2", "--against", "1 inf"], "AA gun"),
    (["chart", "curve", "-a", "1 inf", "-d", "1 inf", "--vary", "tank2=0..2", "--out", "x.png"],
     "AA gun"),
])
def test_errors_name_units_as_players_do(args, name):
    """Before: 'aa_gun cannot attack', 'mech_infantry cannot fight', '3 mech_infantry'."""
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    message = result.output.strip()
    assert name in message and "_" not in message.replace("--", "")


def test_battle_with_landed_units_says_when_the_others_retreated():
    """Before: '... a retreat comes after 3.53 rounds', the landed units' fight on counted in."""
    result = run("battle", "-a", "3 inf, 1 art, 2 arm", "-d", "4 inf", "--landed", "3 inf, 1 art",
                 "--retreat-after-round", "1")
    assert result.exit_code == 0, result.output
    assert ("a retreat comes after 1.00 rounds on average (when the others left; the landed units "
            "fought on)") in result.output
