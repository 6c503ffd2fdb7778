"""Pick an engine for a battle: exact when its state space is small, Monte Carlo otherwise."""

from __future__ import annotations

from collections.abc import Callable

from oddsim._runtime.interrupt import stop_on_interrupt
from oddsim.errors import BattleError
from oddsim.limits import check_runs, check_seed, refuse_for_exact
from oddsim.model.battle import ArmySpec, Battle
from oddsim.results.battle_result import BattleResult
from oddsim.stages.amphibious import Amphibious, AmphibiousResult, fight_amphibious
from oddsim.stages.counter import CounterAttackResult, fight_counter_attack
from oddsim.stages.pipeline import ExactSize, exact_size, simulate, solve
from oddsim.stages.runner import AUTO_EXACT_SECONDS, DEFAULT_RUNS, exact_is_cheap, stage_runner
from oddsim.stages.waves import Wave, WaveResult, fight_waves

__all__ = ["AUTO_EXACT_SECONDS", "DEFAULT_RUNS", "engine_for", "run_amphibious", "run_battle",
           "run_counter_attack", "run_waves"]


def run_battle(battle: Battle, method: str = "auto", runs: int | None = None,
               seed: int | None = None, progress: bool = False,
               on_chunk: Callable[[int], bool] | None = None) -> BattleResult:
    """Odds of ``battle`` by ``method`` ("exact", "mc" or "auto"). ``runs`` and ``seed`` are
    checked against ``oddsim.limits`` whichever engine ``auto`` picks. ``on_chunk`` as in
    ``oddsim.simulate`` (Monte Carlo progress, and a way to stop early)."""
    method, size = _engine_and_size(battle, method, runs, seed)
    if method == "exact":
        return solve(battle, size)
    return simulate(battle, runs=DEFAULT_RUNS if runs is None else runs, seed=seed, progress=progress,
                    on_chunk=on_chunk)


def engine_for(battle: Battle, method: str = "auto", runs: int | None = None,
               seed: int | None = None) -> str:
    """The engine ``run_battle`` uses for ``battle``: "exact" or "mc" ("auto": exact when cheap),
    after checking the battle and the engine options."""
    return _engine_and_size(battle, method, runs, seed)[0]


def _engine_and_size(battle: Battle, method: str, runs: int | None,
                     seed: int | None) -> tuple[str, ExactSize | None]:
    """``engine_for``'s engine, and the battle's ``exact_size`` where ``auto`` worked it out to
    choose (the solve then takes it: the battle is split and lowered once)."""
    _check_battle(battle, "run_battle")
    _check_method(method, runs, seed)
    if method != "auto":
        return method, None
    size = exact_size(battle)
    return ("exact", size) if exact_is_cheap(size) else ("mc", None)


def run_waves(battle: Battle, waves: list, method: str = "auto", runs: int | None = None,
              seed: int | None = None, on_chunk: Callable[[int], bool] | None = None) -> WaveResult:
    """Odds of ``battle`` followed by later ``waves`` (``oddsim.stages.waves.Wave``) against what is left.

    Monte Carlo gives each later battle its share of ``runs``; every sub-battle gets its own seed
    derived from ``seed`` and its position, so a seed fixes the whole answer. ``on_chunk`` as in
    ``run_amphibious``, for each Monte Carlo battle."""
    _check_battle(battle, "run_waves")
    _check_method(method, runs, seed)
    if isinstance(waves, (str, bytes)) or not isinstance(waves, (list, tuple)):
        raise BattleError(f"waves must be a list of later attackers, not {type(waves).__name__}")
    with stop_on_interrupt():
        return fight_waves(battle, [w if isinstance(w, Wave) else Wave(attacker=w) for w in waves],
                           stage_runner(method, runs, seed, on_chunk=on_chunk))


def run_amphibious(assault: Amphibious, method: str = "auto", runs: int | None = None,
                   seed: int | None = None, progress: bool = False,
                   on_chunk: Callable[[int], bool] | None = None) -> AmphibiousResult:
    """Odds of an amphibious assault (``oddsim.stages.amphibious.Amphibious``): the sea battle, then one
    land battle per number of transports that unload. Monte Carlo gives each land battle its
    share of ``runs`` and its own seed derived from ``seed``; ``progress`` draws a bar for each
    long one. ``on_chunk`` as in ``simulate``, for each Monte Carlo stage (its runs so far):
    True stops that stage, and every later one after its first chunk."""
    if not isinstance(assault, Amphibious):
        raise BattleError(f"run_amphibious needs an Amphibious, not {type(assault).__name__}")
    _check_method(method, runs, seed)
    with stop_on_interrupt():
        return fight_amphibious(assault, stage_runner(method, runs, seed, progress, on_chunk))


def run_counter_attack(battle: Battle, counter: ArmySpec, method: str = "auto", runs: int | None = None,
                       seed: int | None = None,
                       ool_counter: str | tuple[str, ...] | None = None,
                       on_chunk: Callable[[int], bool] | None = None) -> CounterAttackResult:
    """Odds of taking the territory in ``battle`` and holding it against ``counter``, an army
    that counter-attacks whatever the attacker takes it with (``oddsim.stages.counter``). Each
    composition's counter-attack is exact where cheap or asked, else Monte Carlo with its share
    of ``runs`` and a seed derived from ``seed``. ``on_chunk`` as in ``run_amphibious``, for
    each Monte Carlo battle."""
    _check_battle(battle, "run_counter_attack")
    _check_method(method, runs, seed)
    with stop_on_interrupt():
        return fight_counter_attack(battle, counter, stage_runner(method, runs, seed, on_chunk=on_chunk),
                                    ool_counter)


def _check_battle(battle: object, caller: str) -> None:
    if not isinstance(battle, Battle):
        raise BattleError(f"{caller} needs a Battle, not {type(battle).__name__}")


def _check_method(method: str, runs: int | None, seed: int | None) -> None:
    """The engine options, checked before any engine is picked (``auto`` may pick exact)."""
    if not isinstance(method, str) or method not in ("auto", "exact", "mc"):
        raise BattleError(f"unknown method {method!r}: use exact, mc or auto")
    if runs is not None:
        check_runs(runs, BattleError)
    check_seed(seed, BattleError)
    if method == "exact":
        refuse_for_exact(runs, seed, BattleError)
