"""One range of runs and of seeds, checked by every command and API entry point (oddsim.limits)."""

import pytest
from click.testing import CliRunner

import oddsim
from oddsim.api import run_amphibious, run_battle, run_counter_attack, run_waves
from oddsim.cli import cli
from oddsim.limits import MAX_RUNS, MAX_SEED, MIN_RUNS, check_runs, check_seed, share_of_runs
from oddsim.model.rules import load_ruleset
from oddsim.purchase import SweepSpec
from oddsim.raid import Raid, run_raid, simulate_raid
from oddsim.sweeps import curve_sweep
from oddsim.trench import TrenchBattle, run_trench, simulate_trench

BATTLE = oddsim.Battle(rules="1942-2e", attacker="2 inf", defender="1 inf")
TRENCH = TrenchBattle(attacker="5,4,3", defender="4,4,4", year=1917)
RAID = Raid(rules="1942-2e", bombers=1, territory_value=3)


def test_the_ranges():
    assert MAX_RUNS == 10**10
    assert MAX_SEED == 2**64 - 1
    assert check_runs(2) == 2 and check_runs(MAX_RUNS) == MAX_RUNS
    assert check_seed(0) == 0 and check_seed(MAX_SEED) == MAX_SEED and check_seed(None) is None
    for bad in (0, 1, -1, MAX_RUNS + 1, 1.5, "10", True, None):
        with pytest.raises(oddsim.OddsimError, match="runs must be a whole number from 2 to"):
            check_runs(bad)
    for bad in (-1, MAX_SEED + 1, 1.5, "3", False):
        with pytest.raises(oddsim.OddsimError, match=r"seed must be a whole number from 0 to 2\*\*64 - 1"):
            check_seed(bad)


AMPHIBIOUS = oddsim.Amphibious(rules="1942-2e", fleet="1 transport", cargo="1 inf", defender="1 inf")
ENTRY_POINTS = {
    "run_battle": lambda **kw: run_battle(BATTLE, **kw),
    "run_waves": lambda **kw: run_waves(BATTLE, ["1 inf"], **kw),
    "run_amphibious": lambda **kw: run_amphibious(AMPHIBIOUS, **kw),
    "simulate": lambda **kw: oddsim.simulate(BATTLE, **kw),
    "simulate_raid": lambda **kw: simulate_raid(RAID, **kw),
    "simulate_trench": lambda **kw: simulate_trench(TRENCH, **kw),
    "curve_sweep": lambda **kw: curve_sweep("1942-2e", "1 arm", "1 inf", "inf=0..1", **kw),
    "purchase": lambda **kw: SweepSpec.build(load_ruleset("1942-2e"), 6, "inf", "1 inf", **kw),
}


@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
@pytest.mark.parametrize("kwargs, message", [
    (dict(runs=0), "runs must be a whole number from 2 to 10,000,000,000, not 0"),
    (dict(runs=1), r"from 2 to 10,000,000,000, not 1 \(one run has no standard error\)"),
    (dict(runs=MAX_RUNS + 1), "runs must be a whole number from 2 to 10,000,000,000"),
    (dict(seed=2**64), "seed must be a whole number from 0 to 2\\*\\*64 - 1, not 18446744073709551616"),
    (dict(seed=-1), "seed must be a whole number from 0 to 2\\*\\*64 - 1, not -1"),
    (dict(seed=1.5), "seed must be a whole number from 0 to 2\\*\\*64 - 1, not 1.5"),
])
def test_every_entry_point_refuses_the_same_runs_and_seeds(name, kwargs, message):
    """Before: simulate allowed 1e10 runs and raids 1e8, run_battle(runs=0) ran a million, the
    trench wrapped seeds mod 2**64 and auto checked nothing when it picked exact."""
    with pytest.raises(oddsim.OddsimError, match=message):
        ENTRY_POINTS[name](**kwargs)


def test_a_seed_at_the_top_of_the_range_works_everywhere():
    assert simulate_trench(TRENCH, runs=50, seed=MAX_SEED).runs == 50
    assert simulate_raid(RAID, runs=50, seed=MAX_SEED).runs == 50
    assert oddsim.simulate(BATTLE, runs=50, seed=MAX_SEED).runs == 50
    assert SweepSpec.build(load_ruleset("1942-2e"), 6, "inf", "1 inf", seed=MAX_SEED).seed == MAX_SEED


def test_exact_methods_refuse_runs_and_check_the_seed():
    with pytest.raises(oddsim.OddsimError, match="Monte Carlo"):
        run_raid(RAID, method="exact", runs=10)
    with pytest.raises(oddsim.OddsimError, match="Monte Carlo"):
        curve_sweep("1942-2e", "1 arm", "1 inf", "inf=0..1", method="exact", runs=10)
    with pytest.raises(oddsim.OddsimError, match="seed must be"):
        run_trench(TRENCH, method="exact", seed=2**64)


@pytest.mark.parametrize("call", [
    lambda: run_battle(BATTLE, method="exact", seed=5),
    lambda: run_waves(BATTLE, ["1 inf"], method="exact", seed=5),
    lambda: run_amphibious(AMPHIBIOUS, method="exact", seed=5),
    lambda: run_raid(RAID, method="exact", seed=5),
    lambda: run_trench(TRENCH, method="exact", seed=5),
])
def test_exact_methods_refuse_a_seed_they_would_ignore(call):
    """Before: battles took it without a word; raids and the trench refused it in two wordings."""
    message = "^--seed applies to Monte Carlo: drop it or use --method mc$"
    with pytest.raises(oddsim.OddsimError, match=message):
        call()


def test_auto_takes_runs_and_a_seed_for_the_engine_it_may_pick():
    assert run_battle(BATTLE, runs=1000, seed=5).method == "exact"  # a small battle: auto picks exact


@pytest.mark.parametrize("args", [
    ("purchase", "--budget", "10", "--units", "inf", "--against", "2 inf", "--method", "exact", "--seed",
     "5"),
    ("chart", "curve", "-a", "2 arm", "-d", "2 inf", "--vary", "inf=0..2", "--method", "exact", "--seed",
     "5", "--out", "never-written.png"),
])
def test_a_seed_typed_for_an_exact_sweep_is_refused_as_for_a_battle(args, tmp_path, monkeypatch):
    """Before: taken without a word (their seed has a default, which stays allowed)."""
    monkeypatch.chdir(tmp_path)
    assert bad(*args) == "oddsim: error: --seed applies to Monte Carlo: drop it or use --method auto or mc\n"
    assert not (tmp_path / "never-written.png").exists()


def test_both_runs_and_a_seed_are_named_when_exact_is_asked_for():
    with pytest.raises(oddsim.OddsimError, match="^--runs and --seed apply to Monte Carlo: drop them"):
        run_raid(RAID, method="exact", runs=10, seed=5)
    assert "--seed applies to Monte Carlo" in bad("battle", "-a", "1 inf", "-d", "1 inf", "--method", "exact",
                                                  "--seed", "10")


def test_a_rare_part_of_a_battle_gets_the_fewest_runs_not_a_refusal():
    """A battle split into parts (each AA outcome, a counter-attack after each end) gives each
    its share of the runs: before, a part reached less than once in the runs got 1 and was
    refused (one run has no standard error), even at a million runs."""
    assert share_of_runs(1e-9, 1_000_000) == MIN_RUNS and share_of_runs(0.25, 1000) == 250
    # 8 aircraft all shot down by one AA gun's 8 dice: (1/6)**8, less than once in 100 runs
    aircraft = oddsim.Battle(rules="revised", attacker="6 ftr, 2 bmb, 2 inf", defender="1 aa, 4 inf")
    assert oddsim.simulate(aircraft, runs=100, seed=1).runs >= 100
    counter = run_counter_attack(oddsim.Battle("1942-2e", "6 inf, 3 arm", "5 inf"), "2 inf, 1 arm",
                                 method="mc", runs=10, seed=1)
    assert 0.0 <= counter.holds <= 1.0


def bad(*args):
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 2, result.output
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert result.stdout == ""
    return result.stderr


@pytest.mark.parametrize("args", [
    ("battle", "-a", "1 inf", "-d", "1 inf", "--runs", str(MAX_RUNS + 1)),  # auto picks exact
    ("battle", "-a", "1 inf", "-d", "1 inf", "--seed", str(2**64)),
    ("amphibious", "--fleet", "1 transport", "--cargo", "1 inf", "-d", "1 inf", "--seed", str(2**64)),
    ("raid", "--bombers", "1", "--territory-value", "3", "--method", "exact", "--runs", "10"),
    ("chart", "curve", "-a", "1 arm", "-d", "1 inf", "--vary", "inf=0..1", "--method", "exact",
     "--runs", "10", "--out", "never-written.png"),
    ("trench", "--attacker", "5,4,3", "--defender", "4,4,4", "--year", "1917", "--method", "mc",
     "--seed", str(2**64)),
])
def test_cli_refuses_runs_and_seeds_out_of_range(args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    message = bad(*args)
    assert ("runs" in message or "seed" in message), message
    assert not (tmp_path / "never-written.png").exists()


def test_purchase_runs_beyond_the_limit_fail_before_any_file_is_written(tmp_path):
    """Before: no upper bound, so the first battle failed and left a header-only file."""
    out = tmp_path / "rows.csv"
    message = bad("purchase", "--budget", "6", "--units", "inf", "--against", "1 inf", "--method", "mc",
                  "--runs", str(MAX_RUNS + 1), "--out", str(out))
    assert "runs must be a whole number from 2 to 10,000,000,000" in message
    assert not out.exists()


def test_one_sub_seed_rule_for_split_parts_and_stages():
    from oddsim.limits import MAX_SEED, sub_seed

    assert sub_seed(5, 1) == 5 * 1_000_003 + 1
    assert 0 <= sub_seed(MAX_SEED, 3) < 1 << 63  # (the largest seed stays a seed)
    assert len({sub_seed(7, n) for n in range(1, 1000)}) == 999
