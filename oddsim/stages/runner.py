"""The stage runner: ``run(battle, share)`` for battles that are stages of a larger answer (waves,
counter-attack, amphibious), which never know which engine ran. Exact where asked or cheap, else
Monte Carlo with the stage's share of the runs and its own seed."""

from __future__ import annotations

from collections.abc import Callable

from oddsim.engines.exact.solve import MAX_JOINT_STATES
from oddsim.limits import share_of_runs, sub_seed
from oddsim.model.battle import Battle
from oddsim.results.battle_result import BattleResult
from oddsim.stages.pipeline import ExactSize, exact_size, simulate, solve

AUTO_EXACT_SECONDS = 1.0
"""``method="auto"`` solves exactly when the solve is predicted to take at most this long
(``oddsim.stages.pipeline.exact_size``, fitted to measured solves by benchmarks/auto_calibration.py)."""
DEFAULT_RUNS = 1_000_000


def stage_runner(method: str, runs: int | None, seed: int | None, progress: bool = False,
                 on_chunk: Callable[[int], bool] | None = None):
    """``run(battle, share)`` for battles that are stages of a larger one: exact where asked or
    cheap, else Monte Carlo with the stage's share of ``runs`` and a seed derived from ``seed``
    and the stage's position, so a seed fixes the whole answer."""
    counter = iter(range(1, 1 << 62))

    def run(spec: Battle, share: float) -> BattleResult:
        index = next(counter)
        if method == "exact" or method == "auto" and spec.best_losses:  # (see request._engine_and_size)
            return solve(spec)
        size = exact_size(spec) if method == "auto" else None
        if size is not None and exact_is_cheap(size):
            return solve(spec, size)
        total = DEFAULT_RUNS if runs is None else runs
        stage_seed = None if seed is None else sub_seed(seed, index)
        return simulate(spec, runs=share_of_runs(share, total), seed=stage_seed, progress=progress,
                        on_chunk=on_chunk)

    return run


def exact_is_cheap(size: ExactSize) -> bool:
    """Whether ``method="auto"`` solves the battle of ``size`` (its ``exact_size``) exactly: its
    states fit and its solve is predicted to take at most ``AUTO_EXACT_SECONDS``."""
    return size.joint <= MAX_JOINT_STATES and size.seconds <= AUTO_EXACT_SECONDS
