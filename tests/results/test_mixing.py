"""The standard errors of mixed answers (``oddsim.results.mixing``) against the spread they claim:
the same answer by Monte Carlo under many seeds spreads as its reported standard error says (the
bounds: no less)."""

import statistics

import pytest

import oddsim
from oddsim.api import run_amphibious, run_counter_attack, run_waves
from oddsim.results.mixing import chance_error, error_bound, part_variance, spread_error, spread_variance
from oddsim.stages import aa_split
from oddsim.stages.amphibious import Amphibious
from oddsim.stages.waves import Wave

SEEDS = range(40)
RUNS = 2_000


def test_the_rules():
    assert part_variance(0.5, 0.02) == pytest.approx(1e-4)
    assert spread_variance(0.25, 0.25, 100) == 0.0
    assert spread_variance(1.0, 0.25, 100) == pytest.approx(0.0075)
    assert chance_error(0.5, 100) == pytest.approx(0.05) == spread_error(0.5, 0.5, 100)  # h in {0, 1}
    assert chance_error(0.3, 0) == 0.0 == spread_variance(1.0, 0.0, 0)
    assert error_bound(0.1, 0.2) == pytest.approx(0.3)


def _spread(answers, figure):
    """(the spread of ``figure`` over the answers, the mean of the standard errors they report)."""
    values = [figure(a)[0] for a in answers]
    return statistics.stdev(values), statistics.fmean(figure(a)[1] for a in answers)


SPLIT = oddsim.Battle("revised", "1 ftr, 1 bmb, 1 arm", "2 inf, 1 aa")
CRASH = oddsim.Battle("1942-2e", "2 sub, 1 dd", "1 cv, 2 ftr", sea=True, crash_fighters=True)
FIRST = oddsim.Battle("1942-2e", "3 inf, 2 arm", "2 inf")
FLEET = Amphibious(rules="1942-2e", fleet="1 dd, 1 trn", cargo="1 inf, 1 arm", defender="1 inf",
                   sea_defender="1 sub")

CASES = {
    "AA split": (lambda s: oddsim.simulate(SPLIT, runs=RUNS, seed=s),
                 lambda r: (r.attacker_win, r.std_error["attacker_win"]), 1.0),
    "crash fighters": (lambda s: oddsim.simulate(CRASH, runs=RUNS, seed=s),
                       lambda r: (r.defender_ipc_lost, r.std_error["defender_ipc_lost"]), 2.0),
    "waves": (lambda s: run_waves(FIRST, [Wave(attacker="1 inf, 1 arm", defender_reinforcements="2 inf")],
                                  method="mc", runs=RUNS, seed=s),
              lambda r: (r.attacker_win, r.std_error["attacker_win"]), 2.0),
    "counter-attack": (lambda s: run_counter_attack(FIRST, "2 inf, 2 arm", method="mc", runs=RUNS, seed=s),
                       lambda r: (r.holds, r.std_error["holds"]), 1.0),
    "amphibious": (lambda s: run_amphibious(FLEET, method="mc", runs=RUNS, seed=s),
                   lambda r: (r.takes_territory, r.std_error["takes_territory"]), 1.0),
}
"""Each mixture: its answer under a seed, the figure checked (value, standard error), and how far
above the spread its error may be (1: an estimate; 2: a bound or, for waves, the errors of runs
drawn at random, which the engine's shares beat)."""


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_mixtures_error_is_the_spread_of_its_estimates(name):
    answer, figure, above = CASES[name]
    if name == "AA split":
        assert aa_split.splits(SPLIT) is not None  # (the battle is split by its AA outcome)
    spread, error = _spread([answer(seed) for seed in SEEDS], figure)
    # 40 seeds: the spread itself is known to about 11 %, so 0.7 .. 1.35 x; bounds may be larger
    assert 0.7 * spread <= error <= 1.35 * above * spread, (spread, error)
