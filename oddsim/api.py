"""Pick an engine for a battle: exact when its state space is small, Monte Carlo otherwise."""

from __future__ import annotations

from oddsim.battle import Battle
from oddsim.errors import BattleError
from oddsim.exact import estimate_work, solve
from oddsim.exact.solve import MAX_JOINT_STATES
from oddsim.result import BattleResult

AUTO_EXACT_WORK = 500_000_000
"""``method="auto"`` solves exactly up to this much estimated work (about half a second)."""
DEFAULT_RUNS = 1_000_000


def run_battle(battle: Battle, method: str = "auto", runs: int | None = None,
               seed: int | None = None, progress: bool = False) -> BattleResult:
    """Odds of ``battle`` by ``method`` ("exact", "mc" or "auto")."""
    if method not in ("auto", "exact", "mc"):
        raise BattleError(f"unknown method '{method}': use exact, mc or auto")
    if runs is not None and method == "exact":
        raise BattleError("--runs applies to Monte Carlo: drop it or use --method mc")
    if method == "auto":
        joint, work = estimate_work(battle)
        method = "exact" if joint <= MAX_JOINT_STATES and work <= AUTO_EXACT_WORK else "mc"
    if method == "exact":
        return solve(battle)
    from oddsim.montecarlo import simulate

    return simulate(battle, runs=runs or DEFAULT_RUNS, seed=seed, progress=progress)
