"""Pick an engine for a battle: exact when its state space is small, Monte Carlo otherwise."""

from __future__ import annotations

from oddsim.battle import Battle
from oddsim.errors import BattleError
from oddsim.exact import estimate_states, solve
from oddsim.result import BattleResult

AUTO_EXACT_STATES = 1_000_000
"""``method="auto"`` solves exactly up to this many joint casualty states (well under a second)."""
DEFAULT_RUNS = 1_000_000


def run_battle(battle: Battle, method: str = "auto", runs: int | None = None,
               seed: int | None = None, progress: bool = False) -> BattleResult:
    """Odds of ``battle`` by ``method`` ("exact", "mc" or "auto")."""
    if method not in ("auto", "exact", "mc"):
        raise BattleError(f"unknown method '{method}': use exact, mc or auto")
    if runs is not None and method == "exact":
        raise BattleError("--runs applies to Monte Carlo: drop it or use --method mc")
    if method == "auto":
        method = "exact" if estimate_states(battle) <= AUTO_EXACT_STATES else "mc"
    if method == "exact":
        return solve(battle)
    from oddsim.montecarlo import simulate

    return simulate(battle, runs=runs or DEFAULT_RUNS, seed=seed, progress=progress)
