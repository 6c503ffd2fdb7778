"""The Python API raises an OddsimError subclass, with a one-line message, for every bad input
the fuzzers found raising AttributeError, TypeError, ValueError or OverflowError (issue 11)."""

import functools

import pytest

import oddsim
import oddsim.plot
from oddsim.api import run_amphibious, run_battle, run_waves
from oddsim.purchase import BattleCache, sweep
from oddsim.raid import Raid, simulate_raid, solve_raid
from oddsim.trench import TrenchBattle, TrenchError

BATTLE = oddsim.Battle(rules="1942-2e", attacker="2 inf", defender="1 inf")
RAID = Raid(rules="1942-2e", bombers=1, territory_value=3)
SWEEP = dict(rules="1942-2e", budget=6, units="inf", against="1 inf")

CALLS = {
    "solve(None)": lambda: oddsim.solve(None),
    "solve('x')": lambda: oddsim.solve("x"),
    "simulate('x')": lambda: oddsim.simulate("x"),
    "run_battle('x')": lambda: run_battle("x"),
    "run_waves('x')": lambda: run_waves("x", ["1 inf"]),
    "run_waves(waves='1 inf')": lambda: run_waves(BATTLE, "1 inf"),
    "run_amphibious('x')": lambda: run_amphibious("x"),
    "solve_raid('x')": lambda: solve_raid("x"),
    "simulate_raid('x')": lambda: simulate_raid("x"),
    "simulate_raid(seed=-1)": lambda: simulate_raid(RAID, seed=-1),
    "simulate_raid(seed=1.5)": lambda: simulate_raid(RAID, seed=1.5),
    "run_battle(method=3)": lambda: run_battle(BATTLE, method=3),
    "ool_attacker=123": lambda: oddsim.Battle(rules="1942-2e",
                                              attacker=oddsim.Side("1 inf", order_of_loss=123)),
    "ool_attacker=',,,'": lambda: oddsim.Battle(rules="1942-2e",
                                                attacker=oddsim.Side("1 inf", order_of_loss=",,,")),
    "attacker_tech=123": lambda: oddsim.Battle(rules="1942-2e", attacker=oddsim.Side("1 inf", tech=123)),
    "Raid(attacker_tech=123)": lambda: Raid(rules="1942-2e", bombers=1, territory_value=3,
                                            attacker_tech=123),
    "rules=None": lambda: oddsim.Battle(rules=None, attacker="1 inf"),
    "rules=3": lambda: oddsim.load_ruleset(3),
    "rules with NUL": lambda: oddsim.load_ruleset("a\0b.toml"),
    "NaN count": lambda: oddsim.Battle(rules="1942-2e", attacker={"inf": float("nan")}),
    "infinite count": lambda: oddsim.Battle(rules="1942-2e", attacker={"inf": float("-inf")}),
    "sweep(units=None)": lambda: sweep(**{**SWEEP, "units": None}),
    "sweep(out=123)": lambda: sweep(**SWEEP, out=123),
    "sweep(cache='x')": lambda: sweep(**SWEEP, cache="x"),
    "sweep(seed=None)": lambda: sweep(**SWEEP, seed=None),
    "sweep(max_counts='inf=1,inf=2')": lambda: sweep(**SWEEP, max_counts="inf=1,infantry=2"),
    "TrenchBattle(sea='no')": lambda: TrenchBattle(attacker="5,4,3", defender="4,4,4", year=1917,
                                                   sea="no"),
    "TrenchBattle(attacker='1,,3')": lambda: TrenchBattle(attacker="1,,3", defender="4,4,4",
                                                          year=1917),
}
CALLS.update({
    "convergence_points(runs=5)": lambda: oddsim.sweeps.convergence_points(BATTLE, runs=5),
    "convergence_points(seed='x')": lambda: oddsim.sweeps.convergence_points(BATTLE, runs=[10], seed="x"),
    "curve_sweep(metric=[1])": lambda: oddsim.sweeps.curve_sweep("1942-2e", "1 arm", "1 inf", "inf=0..1",
                                                              metric=[1]),
    "curve_sweep(attackers=3)": lambda: oddsim.sweeps.curve_sweep("1942-2e", 3, "1 inf", "inf=0..1"),
    "Raid(facility=[1])": lambda: Raid(rules="global-1940-2e", bombers=1, facility=[1]),
    "parse_force(rules=None)": lambda: oddsim.parse_force("1 inf", None),
    "curve_sweep(foo=1)": lambda: oddsim.sweeps.curve_sweep("1942-2e", "1 arm", "1 inf", "inf=0..1", foo=1),
    # before: a 300-digit objective (raids already capped the value at 1000)
    "territory_value=1e308": lambda: oddsim.RetreatPolicy(best="value", territory_value=1e308),
    "sweep(territory_value=1001)": lambda: sweep(**SWEEP, goal="value", territory_value=1001),
})
for _name in ("battle_chart", "outcome_chart", "survivor_chart", "convergence_chart",
              "pareto_chart", "pareto_points", "heatmap_chart", "odds_curve_chart", "trench_chart"):
    CALLS[f"plot.{_name}(None)"] = (lambda name: lambda: getattr(oddsim.plot, name)(None))(_name)
CALLS["plot.save_figure(None)"] = lambda: oddsim.plot.save_figure(None, "x.png")

@functools.cache
def a_result() -> oddsim.BattleResult:
    """One small exact result, solved once (for the calls that read one)."""
    return oddsim.solve(BATTLE)


# before: TypeError, AttributeError or ValueError from inside, or (a side not spelled exactly
# "attacker") the defender's rows without a word
CALLS.update({
    "most_likely('Attacker')": lambda: a_result().most_likely("Attacker", 1),
    "most_likely(top=-1)": lambda: a_result().most_likely("attacker", -1),
    "most_likely(top='2')": lambda: a_result().most_likely("attacker", "2"),
    "ipc_lost_distribution('x')": lambda: a_result().ipc_lost_distribution("x"),
    "outcome_chart(title=5)": lambda: oddsim.plot.outcome_chart(a_result(), title=5),
    "outcome_chart(ax='x')": lambda: oddsim.plot.outcome_chart(a_result(), ax="x"),
    "survivor_chart(sides='attacker')": lambda: oddsim.plot.survivor_chart(a_result(), sides="attacker"),
    "save_figure(dpi='x')": lambda: oddsim.plot.save_figure(oddsim.plot.outcome_chart(a_result()), "x.png",
                                                          dpi="x"),
    "save_figure(dpi=-5)": lambda: oddsim.plot.save_figure(oddsim.plot.outcome_chart(a_result()), "x.png",
                                                         dpi=-5),
    "save_figure(path=5)": lambda: oddsim.plot.save_figure(oddsim.plot.outcome_chart(a_result()), 5),
})


@pytest.mark.parametrize("name", sorted(CALLS))
def test_bad_api_calls_raise_an_oddsim_error(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(oddsim.OddsimError) as caught:
        CALLS[name]()
    assert type(caught.value) is not oddsim.OddsimError  # a specific subclass
    message = str(caught.value)
    assert message and "\n" not in message


def test_runs_zero_is_refused_not_a_million():
    """Before: ``runs or DEFAULT_RUNS`` turned 0 into a million runs."""
    with pytest.raises(oddsim.BattleError, match="not 0"):
        run_battle(BATTLE, method="mc", runs=0)


def test_trench_sea_must_be_a_bool():
    """Before: TrenchBattle(sea="no") became a sea battle."""
    with pytest.raises(TrenchError, match="sea must be True or False"):
        TrenchBattle(attacker="5,4,3", defender="4,4,4", year=1917, sea="no")
    assert TrenchBattle(attacker="5,4,3", defender="4,4,4", year=1917, sea=True).sea is True


def test_a_cache_that_is_a_cache_is_accepted():
    table = sweep(**SWEEP, cache=BattleCache())
    assert len(table.rows) == 3  # nothing (no attack), 1 or 2 infantry


def test_auto_sends_a_battle_split_by_aa_outcome_to_monte_carlo_by_its_parts_seconds():
    """Revised AA picks its casualties by chance: 64 x 64 battles are solved, one per outcome.
    Each alone is under auto's threshold; all of them together are not."""
    from dataclasses import replace

    from oddsim.api import AUTO_EXACT_SECONDS, engine_for
    from oddsim.stages.pipeline import estimate_seconds

    battle = oddsim.Battle("revised", "63 ftr, 63 bmb", "150 inf, 40 arm, 1 aa")
    assert estimate_seconds(replace(battle, aa_fired=True)) < AUTO_EXACT_SECONDS  # one part
    assert engine_for(battle) == "mc"
