"""The ``oddsim trench`` command, wired into the ``oddsim`` group as the project does it."""

import json
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

import oddsim.cli
from oddsim.cli.trench import trench

BATTLE = ["--attacker", "5,4,3", "--attacker-support", "2,0,1", "--defender", "4,4,4",
          "--defender-support", "0,0,3", "--year", "1917", "--points", "2"]


@pytest.fixture(scope="module")
def oddsim_cli() -> click.Group:
    """A fresh ``oddsim`` group (same class, so the same error handling) holding ``trench``."""
    group = type(oddsim.cli.cli)(name="oddsim")
    group.add_command(trench)
    return group


def run(group, *args):
    return CliRunner().invoke(group, ["trench", *args])


def test_battle_json_has_the_promised_keys(oddsim_cli):
    result = run(oddsim_cli, *BATTLE, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    for key in ("attacker_win", "defender_win", "draw", "crushing_victory", "fronts_won",
                "cards_destroyed", "expected_points"):
        assert key in data
    assert abs(data["attacker_win"] + data["defender_win"] + data["draw"] - 1) < 1e-12
    assert len(data["fronts_won"]["attacker"]) == 4
    assert data["method"] == "exact"


def test_battle_table_and_monte_carlo(oddsim_cli):
    exact = run(oddsim_cli, *BATTLE)
    assert exact.exit_code == 0 and "attacker wins" in exact.stdout
    mc = run(oddsim_cli, *BATTLE, "--method", "mc", "--runs", "20000", "--seed", "4", "--json")
    assert mc.exit_code == 0
    assert json.loads(mc.stdout)["runs"] == 20000


def test_missing_card_written_as_dash(oddsim_cli):
    result = run(oddsim_cli, "--attacker", "5,-,3", "--defender", "4,4,4", "--year", "1916",
                 "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["cards_destroyed"]["attacker"][1] is None


@pytest.mark.parametrize("args, message", [
    (["--attacker", "5,4,3,2", "--defender", "4,4,4", "--year", "1917"], "exactly three"),
    (["--attacker", "5,-1,3", "--defender", "4,4,4", "--year", "1917"], "negative"),
    (["--attacker", "5,4,3", "--defender", "4,4,4", "--year", "1913"], "outside 1914-1918"),
    (["--attacker", "5,4,3", "--defender", "4,4,4", "--year", "1919"], "outside 1914-1918"),
    (["--attacker", "5,4,3", "--defender", "4,4,4"], "missing --year"),
    (["--attacker", "5,-,3", "--attacker-support", "0,1,0", "--defender", "4,4,4", "--year",
      "1917"], "no army card"),
    (["--attacker", "5,4,3", "--defender", "4,4,4", "--year", "1917", "--policy", "lucky"],
     "lucky"),
    (["--attacker", "5,4,3", "--defender", "4,4,4", "--year", "1917", "--runs", "10"],
     "--runs applies to Monte Carlo: drop it or use --method mc"),
    (["--year", "1917", "advise", "--attacker-hand", "5"], "give options after 'advise'"),
    (["advise", "--attacker-hand", "5", "--year", "1917"], "--defender"),
    (["advise", "--attacker-hand", "5,4", "--attacker-hand-support", "1", "--defender-hand",
      "4", "--year", "1917", "--sea"], "at sea only fleet cards"),
])
def test_bad_input_exits_2_with_one_line(oddsim_cli, args, message):
    result = run(oddsim_cli, *args)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("oddsim: error: ")
    assert message in lines[0]


def test_bare_trench_prints_help(oddsim_cli):
    result = run(oddsim_cli)
    assert result.exit_code == 0 and "advise" in result.stdout


def test_advise_against_committed_and_hand(oddsim_cli):
    committed = run(oddsim_cli, "advise", "--attacker-hand", "6,5,4", "--attacker-hand-support",
                    "2,1", "--defender", "4,4,-", "--year", "1916", "--top", "2", "--json")
    assert committed.exit_code == 0, committed.output
    data = json.loads(committed.stdout)
    assert len(data["options"]) == 2
    assert data["options"][0]["attacker_win"] >= data["options"][1]["attacker_win"]
    hand = run(oddsim_cli, "advise", "--attacker-hand", "6,5,4", "--defender-hand", "5,4,4",
               "--year", "1918", "--objective", "points")
    assert hand.exit_code == 0 and "defender answers" in hand.stdout


def test_module_runs_on_its_own():
    bad = subprocess.run([sys.executable, "-m", "oddsim.cli", "trench", "--attacker", "1,2",
                          "--defender", "1,2,3", "--year", "1915"], capture_output=True,
                         text=True, timeout=120)
    assert bad.returncode == 2
    assert bad.stderr.startswith("oddsim: error: attacker: 2 fronts given")
