"""The Python API's battle functions: one battle, later waves, a counter-attack, an amphibious
assault, each a ``BattleRequest`` (``oddsim.stages.request``, which the CLI and the web server
run too) with the engine picked per battle: exact when its state space is small, Monte Carlo
otherwise."""

from __future__ import annotations

from collections.abc import Callable

from oddsim.errors import BattleError
from oddsim.limits import MethodChoice
from oddsim.model.battle import ArmySpec, Battle
from oddsim.model.forces import Force
from oddsim.results.battle_result import BattleResult
from oddsim.stages.amphibious import Amphibious, AmphibiousResult
from oddsim.stages.counter import CounterAttackResult
from oddsim.stages.request import BattleRequest, engine_of, run_request
from oddsim.stages.runner import AUTO_EXACT_SECONDS, DEFAULT_RUNS
from oddsim.stages.waves import WaveResult

__all__ = ["AUTO_EXACT_SECONDS", "DEFAULT_RUNS", "BattleRequest", "MethodChoice", "engine_for",
           "run_amphibious", "run_battle", "run_counter_attack", "run_request", "run_waves"]


def run_battle(battle: Battle, method: str = "auto", runs: int | None = None,
               seed: int | None = None, progress: bool = False,
               on_chunk: Callable[[int], bool] | None = None) -> BattleResult:
    """Odds of ``battle`` by ``method`` ("exact", "mc" or "auto"). ``runs`` and ``seed`` are
    checked against ``oddsim.limits`` whichever engine ``auto`` picks. ``on_chunk`` as in
    ``oddsim.simulate`` (Monte Carlo progress, and a way to stop early)."""
    _check_battle(battle, "run_battle")
    result = run_request(BattleRequest(battle, method=method, runs=runs, seed=seed),
                         progress, on_chunk)
    assert isinstance(result, BattleResult)
    return result


def engine_for(battle: Battle, method: str = "auto", runs: int | None = None,
               seed: int | None = None) -> str:
    """The engine ``run_battle`` uses for ``battle``: "exact" or "mc" ("auto": exact when cheap),
    after checking the battle and the engine options."""
    _check_battle(battle, "run_battle")
    return engine_of(BattleRequest(battle, method=method, runs=runs, seed=seed))


def run_waves(battle: Battle, waves: list, method: str = "auto", runs: int | None = None,
              seed: int | None = None, on_chunk: Callable[[int], bool] | None = None) -> WaveResult:
    """Odds of ``battle`` followed by later ``waves`` (``oddsim.stages.waves.Wave``) against what is left.

    Monte Carlo gives each later battle its share of ``runs``; every sub-battle gets its own seed
    derived from ``seed`` and its position, so a seed fixes the whole answer. ``on_chunk`` as in
    ``run_amphibious``, for each Monte Carlo battle."""
    _check_battle(battle, "run_waves")
    result = run_request(BattleRequest(battle, waves=waves, method=method, runs=runs,
                                       seed=seed), on_chunk=on_chunk)
    assert isinstance(result, WaveResult)
    return result


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
    result = run_request(BattleRequest(assault, method=method, runs=runs, seed=seed),
                         progress, on_chunk)
    assert isinstance(result, AmphibiousResult)
    return result


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
    army = Force(()) if counter is None else counter  # (None: no army, refused as an empty one)
    result = run_request(BattleRequest(battle, counter_attack=army, ool_counter=ool_counter,
                                       method=method, runs=runs, seed=seed),
                         on_chunk=on_chunk)
    assert isinstance(result, CounterAttackResult)
    return result


def _check_battle(battle: object, caller: str) -> None:
    if not isinstance(battle, Battle):
        raise BattleError(f"{caller} needs a Battle, not {type(battle).__name__}")
