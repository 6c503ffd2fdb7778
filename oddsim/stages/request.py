"""What a battle request means, decided in one place for the CLI, the web and the Python API.

A ``BattleRequest`` is what to fight (a ``Battle``, or an ``Amphibious`` assault), what follows
that battle (later ``waves``, or a ``counter_attack`` on whatever the attacker takes the
territory with) and how (``method``, ``runs``, ``seed``). Building one refuses a request that
means nothing (waves and a counter-attack at once, either after an assault, an unknown method,
runs or a seed for the exact engine); ``run_request`` fights it through the stages, and
``exact_seconds`` predicts what solving it exactly would take (the server refuses more than it
gives a request).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from oddsim._runtime.interrupt import stop_on_interrupt
from oddsim.errors import BattleError
from oddsim.limits import METHODS, MethodChoice, check_runs, check_seed, refuse_for_exact
from oddsim.model.battle import ArmySpec, Battle
from oddsim.results.battle_result import BattleResult
from oddsim.stages.amphibious import Amphibious, AmphibiousResult, fight_amphibious
from oddsim.stages.counter import CounterAttackResult, counter_battle, fight_counter_attack, land_units_bound
from oddsim.stages.pipeline import ExactSize, estimate_seconds, exact_size, simulate, solve
from oddsim.stages.runner import DEFAULT_RUNS, exact_is_cheap, stage_runner
from oddsim.stages.waves import Wave, WaveResult, fight_waves, replace_attacker


class RequestKind(StrEnum):
    """What a battle request asks for: its answer's shape."""

    BATTLE = "battle"  # one battle: a BattleResult
    WAVES = "waves"  # the battle, then later waves against what the defender has left: a WaveResult
    COUNTER_ATTACK = "counter-attack"  # the battle, then a counter-attack: a CounterAttackResult
    AMPHIBIOUS = "amphibious"  # a sea battle, then the landing: an AmphibiousResult


Answer = BattleResult | WaveResult | CounterAttackResult | AmphibiousResult
"""What ``run_request`` returns, by ``RequestKind``."""


@dataclass(frozen=True)
class BattleRequest:
    """One battle request, checked when built.

    ``fight``: a ``Battle`` or an ``Amphibious`` assault. ``waves``: later waves (``Wave``
    values, or their attackers) that fight what the defender has left; ``None`` for none (an
    empty list still asks for the waves' answer: the first battle's alone). ``counter_attack``:
    an army that counter-attacks what the attacker takes the territory with, taking its losses
    in ``ool_counter``'s order. ``method``: ``MethodChoice`` (``"auto"`` picks per battle);
    ``runs`` and ``seed``: Monte Carlo's, checked against ``oddsim.limits``."""

    fight: Battle | Amphibious
    waves: Sequence[Wave] | None = None  # (kept as a tuple of Wave)
    counter_attack: ArmySpec = None
    ool_counter: str | tuple[str, ...] | None = None
    method: str = MethodChoice.AUTO  # (kept as a MethodChoice)
    runs: int | None = None
    seed: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.fight, (Battle, Amphibious)):
            raise BattleError(f"a battle request fights a Battle or an Amphibious assault, not "
                              f"{type(self.fight).__name__}")
        object.__setattr__(self, "method", check_engine_options(self.method, self.runs, self.seed))
        if self.waves is not None:
            object.__setattr__(self, "waves", _waves(self.waves))
        if isinstance(self.fight, Amphibious) and (self.waves is not None or self.counter_attack is not None):
            raise BattleError("an amphibious assault is answered on its own: drop the later waves "
                              "and the counter-attack, or fight them as separate battles")
        if self.waves is not None and self.counter_attack is not None:
            raise BattleError("a counter-attack follows one battle: drop the later waves, or fight "
                              "the waves first and counter-attack their result as a separate battle")

    @property
    def kind(self) -> RequestKind:
        """What the request asks for, which says what ``run_request`` returns."""
        if isinstance(self.fight, Amphibious):
            return RequestKind.AMPHIBIOUS
        if self.counter_attack is not None:
            return RequestKind.COUNTER_ATTACK
        return RequestKind.BATTLE if self.waves is None else RequestKind.WAVES


def check_engine_options(method: object, runs: object, seed: object) -> MethodChoice:
    """``method`` as a ``MethodChoice``, with ``runs`` and ``seed`` checked against it (the
    exact engine takes neither), before any engine is picked (``auto`` may pick exact);
    BattleError naming the first problem."""
    if not isinstance(method, str) or method not in METHODS:
        raise BattleError(f"unknown method {method!r}: use exact, mc or auto")
    if runs is not None:
        check_runs(runs, BattleError)
    check_seed(seed, BattleError)
    if method == MethodChoice.EXACT:
        refuse_for_exact(runs, seed, BattleError)
    return MethodChoice(method)


def _waves(waves: object) -> tuple[Wave, ...]:
    if not isinstance(waves, (list, tuple)):
        raise BattleError(f"waves must be a list of later attackers, not {type(waves).__name__}")
    return tuple(w if isinstance(w, Wave) else Wave(attacker=w) for w in waves)


def run_request(request: BattleRequest, progress: bool = False,
                on_chunk: Callable[[int], bool] | None = None) -> Answer:
    """The answer to ``request`` (its ``kind`` says which result). ``progress``: a bar on stderr
    for a long Monte Carlo battle (one battle, an assault's stages); ``on_chunk`` as in
    ``oddsim.simulate``, for each Monte Carlo battle: True stops it (and, in a request of several
    battles, every later one after its first chunk)."""
    kind, method, runs, seed = request.kind, request.method, request.runs, request.seed
    if kind is RequestKind.BATTLE:
        assert isinstance(request.fight, Battle)
        engine, size = _engine_and_size(request.fight, method)
        if engine == MethodChoice.EXACT:
            return solve(request.fight, size)
        return simulate(request.fight, runs=DEFAULT_RUNS if runs is None else runs, seed=seed,
                        progress=progress, on_chunk=on_chunk)
    with stop_on_interrupt():
        if kind is RequestKind.AMPHIBIOUS:
            assert isinstance(request.fight, Amphibious)
            return fight_amphibious(request.fight, stage_runner(method, runs, seed, progress, on_chunk))
        assert isinstance(request.fight, Battle)
        run = stage_runner(method, runs, seed, on_chunk=on_chunk)
        if kind is RequestKind.WAVES:
            return fight_waves(request.fight, list(request.waves or ()), run)
        return fight_counter_attack(request.fight, request.counter_attack, run, request.ool_counter)


def engine_of(request: BattleRequest) -> MethodChoice:
    """The engine that answers a one-battle request: ``EXACT`` or ``MC`` (``auto``: exact when
    cheap); a request of several battles picks per battle, and says ``request.method``."""
    if request.kind is not RequestKind.BATTLE:
        return MethodChoice(request.method)
    assert isinstance(request.fight, Battle)
    return _engine_and_size(request.fight, request.method)[0]


def _engine_and_size(battle: Battle, method: str) -> tuple[MethodChoice, ExactSize | None]:
    """``engine_of``'s engine, and the battle's ``exact_size`` where ``auto`` worked it out to
    choose (the solve then takes it: the battle is split and lowered once)."""
    if method != MethodChoice.AUTO:
        return MethodChoice(method), None
    if battle.best_losses:  # (Monte Carlo plays the exact policy: it solves the game first anyway)
        return MethodChoice.EXACT, None
    size = exact_size(battle)
    return (MethodChoice.EXACT, size) if exact_is_cheap(size) else (MethodChoice.MC, None)


def exact_seconds(request: BattleRequest) -> float:
    """The seconds solving ``request`` exactly would take, as ``estimate_seconds`` predicts each
    battle: an assault's sea battle and its landings; later waves each against the whole first
    defending army once for every composition of it (reinforcements not counted); a
    counter-attack on all the attacker's land units once for every composition of them."""
    fight = request.fight
    if isinstance(fight, Amphibious):
        stages = [fight.sea_stage() if fight.has_sea_battle else None,
                  *(fight.land_battle(n) for n in range(len(fight.loads) + 1))]
        return sum(estimate_seconds(stage) for stage in stages if stage is not None)
    seconds = estimate_seconds(fight)
    if request.kind is RequestKind.WAVES:
        compositions = math.prod(count + 1 for _, count in fight.defender.army.counts)
        later = [replace_attacker(fight, wave) for wave in request.waves or ()]
        seconds += compositions * sum(estimate_seconds(battle) for battle in later)
    elif request.kind is RequestKind.COUNTER_ATTACK:
        land, compositions = land_units_bound(fight)
        if land is not None:
            seconds += compositions * estimate_seconds(counter_battle(fight, request.counter_attack, land))
    return seconds
