"""A sweep over Monte Carlo run counts: one battle simulated at each count, to show how the
estimate and its error settle (``oddsim.plot.convergence_chart`` draws it)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from oddsim.limits import MAX_SEED, check_runs, check_seed
from oddsim.model.battle import Battle
from oddsim.stages.pipeline import simulate
from oddsim.sweeps.errors import SweepError
from oddsim.sweeps.results import CONVERGENCE_RUNS, ConvergencePoint, check_convergence_metric


def convergence_points(battle: Battle, runs: Sequence[int] = CONVERGENCE_RUNS,
                       metric: str = "attacker_win", seed: int | None = 0) -> list[ConvergencePoint]:
    """Simulate ``battle`` once per count in ``runs`` (independent seeds ``seed``, ``seed + 1``,
    ...) and keep ``metric``'s estimate and standard error from each."""
    check_convergence_metric(metric, SweepError)
    if isinstance(runs, (str, bytes)) or not isinstance(runs, Iterable):
        raise SweepError(f"convergence_points (runs) needs a list of run counts, not "
                         f"{type(runs).__name__}")
    counts = [check_runs(n, SweepError) for n in runs]
    if not counts:
        raise SweepError("give at least one number of runs")
    first = check_seed(seed, SweepError)
    points = []
    for i, n in enumerate(counts):
        result = simulate(battle, runs=n, seed=None if first is None else (first + i) % (MAX_SEED + 1))
        if getattr(result, metric) is None:
            raise SweepError(f"the battle has no {metric} (a sea battle has no territory)")
        points.append(ConvergencePoint.of(result, metric))
    return points
