"""The operations of ``oddsim.trench``: solve a battle exactly, simulate it, or either."""

from __future__ import annotations

from oddsim.trench.exact import exact_counts
from oddsim.trench.model import Policy, RollOrder, TrenchBattle, TrenchError
from oddsim.trench.montecarlo import DEFAULT_RUNS, check_runs, check_seed, mc_counts
from oddsim.trench.prepared import PlayRules, prepare
from oddsim.trench.result import PerSide, TrenchCounts, TrenchResult

METHODS = ("exact", "mc")


def _check_battle(battle) -> TrenchBattle:
    if not isinstance(battle, TrenchBattle):
        raise TrenchError(f"expected a TrenchBattle, got {type(battle).__name__}")
    return battle


def _result(battle: TrenchBattle, play: PlayRules, counts: TrenchCounts, method: str,
            runs: int | None = None, seed: int | None = None,
            interrupted: bool = False) -> TrenchResult:
    play_text = play.describe() + ("" if seed is None else f", seed {seed}")
    return TrenchResult.from_counts(
        counts, battle=battle.describe(), method=method, play=play_text, points=battle.points,
        has_card=PerSide(battle.has_card("attacker"), battle.has_card("defender")), runs=runs,
        interrupted=interrupted)


def solve_trench(battle: TrenchBattle, policy: Policy | str = Policy.OPTIMAL,
                 defender_policy: Policy | str | None = None,
                 roll_order: RollOrder | str = RollOrder.BOTH_FIRST) -> TrenchResult:
    """Exact odds of ``battle``; ``policy`` places both sides' dice unless ``defender_policy``."""
    battle = _check_battle(battle)
    play = PlayRules.of(policy, defender_policy, roll_order)
    return _result(battle, play, exact_counts(prepare(battle, play)), "exact")


def simulate_trench(battle: TrenchBattle, policy: Policy | str = Policy.OPTIMAL,
                    defender_policy: Policy | str | None = None,
                    roll_order: RollOrder | str = RollOrder.BOTH_FIRST,
                    runs: int = DEFAULT_RUNS, seed: int | None = None) -> TrenchResult:
    """Monte Carlo odds of ``battle`` with standard errors; same ``seed``, same figures."""
    battle = _check_battle(battle)
    play = PlayRules.of(policy, defender_policy, roll_order)
    runs, seed = check_runs(runs), check_seed(seed)
    counts, interrupted = mc_counts(prepare(battle, play), runs, seed)
    return _result(battle, play, counts, "mc", runs=counts.total, seed=seed,
                   interrupted=interrupted)


def run_trench(battle: TrenchBattle, method: str = "exact", policy: Policy | str = Policy.OPTIMAL,
               defender_policy: Policy | str | None = None,
               roll_order: RollOrder | str = RollOrder.BOTH_FIRST, runs: int | None = None,
               seed: int | None = None) -> TrenchResult:
    """``solve_trench`` or ``simulate_trench`` by ``method`` (``"exact"`` or ``"mc"``)."""
    if method == "exact":
        if runs is not None:
            check_runs(runs)
        check_seed(seed)
        if runs is not None or seed is not None:
            raise TrenchError("runs and seed apply only to the Monte Carlo method (--method mc)")
        return solve_trench(battle, policy, defender_policy, roll_order)
    if method == "mc":
        return simulate_trench(battle, policy, defender_policy, roll_order,
                               DEFAULT_RUNS if runs is None else runs, seed)
    raise TrenchError(f"unknown method {method!r}: use one of {', '.join(METHODS)}")
