"""One battle's answer, whichever engine fights it: the stages around the engines' plain battle.

An engine (``oddsim.engines.exact``, ``oddsim.engines.montecarlo``) fights one plain battle and
nothing else. A battle's answer may take more, and this module adds it once, for either engine,
in this order:

1. AA fire that picks its casualties per aircraft splits the battle into one plain battle per
   AA outcome (``aa_split``), each fought by the engine, then mixed by their probabilities;
2. after each plain battle, the defender's aircraft that its carriers cannot hold crash
   (``crash``), and its units that hold the territory without fighting stand in its rows
   (``holding_units``; the mix keeps them);
3. with the best retreat, its objective and plan: a plain exact solve has the DP's own; a split
   battle, or a Monte Carlo one, the objective of its result and the plan of the exact solve.

What sizing a battle for the exact engine works out (its split, each part's arrays) is a value,
``ExactSize``, that the solve takes, so ``auto`` choosing the engine and then solving does the
work once. ``solve`` and ``simulate`` are ``oddsim.solve`` and ``oddsim.simulate``. Each engine
is imported where it is first needed: ``oddsim.simulate`` does not load the exact engine unless
the best retreat asks for its plan.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from oddsim._runtime.interrupt import stop_on_interrupt
from oddsim.errors import BattleError
from oddsim.limits import check_runs, seed_or_random, share_of_runs, sub_seed
from oddsim.model.battle import Battle
from oddsim.results.battle_result import BattleResult
from oddsim.stages.aa_split import Split, fight_split, splits
from oddsim.stages.crash import crash_fighters
from oddsim.stages.holding_units import with_holding_units

if TYPE_CHECKING:
    from oddsim.engines import exact

PART_SECONDS = 0.001
"""The fixed cost of each part of a split battle (lowering it, its per-side tables and its
result), measured at 0.8-1.6 ms for 49-961 parts of a few states each."""

PART_WORK = 1_000_000
"""The work of each part of a split battle besides its states: lowering it, its per-side tables
and its result, about a millisecond a part (measured: 0.8-1.6 ms for 49-961 parts of a few
states each), which the state counts do not see: 4,096 tiny parts took 4 s estimated at 0.1 s."""


@dataclass(frozen=True)
class ExactSize:
    """``battle``'s size for the exact engine, and what sizing it worked out: its AA outcomes
    (``parts``, None: fought whole) and each plain battle lowered (``sized``: the whole battle's
    one, or one per part, None where every attacker was shot down). ``exact_size`` makes it;
    ``solve`` takes it instead of working it out again."""

    battle: Battle
    parts: list[Split] | None
    sized: tuple[exact.Sized | None, ...]
    joint: int  # joint casualty states: of the largest part where split (solved one after another)
    work: float  # estimated work, a split battle's parts each ``PART_WORK`` more
    seconds: float  # predicted seconds (``cost``), a split battle's parts each ``PART_SECONDS`` more


def exact_size(battle: Battle) -> ExactSize:
    """How large ``battle`` is for the exact engine (raises TooLargeError for more AA outcomes
    than ``aa_split.MAX_SPLITS``). A split battle: its largest part's states, the sum of the
    parts' work, and the cost model's seconds of that work together plus ``PART_SECONDS`` a part
    (the fit grows slower than the work, so the fixed cost of 2,000 tiny parts, some 2 s, would
    vanish in it)."""
    from oddsim.engines import exact
    from oddsim.engines.exact import cost

    parts = splits(battle)
    if parts is None:
        whole = exact.size(battle)
        return ExactSize(battle, None, (whole,), whole.joint, whole.work, whole.seconds)
    sized = tuple(None if spec is None else exact.size(spec) for _, spec, _ in parts)
    joint, work, states_work, solved = 0, 0.0, 0.0, 0
    for part in sized:
        if part is not None:
            joint = max(joint, part.joint)
            work = work + part.work + PART_WORK
            states_work, solved = states_work + part.work, solved + 1
    return ExactSize(battle, parts, sized, joint, work, cost.seconds(states_work) + solved * PART_SECONDS)


def estimate_work(battle: Battle) -> tuple[int, float]:
    """(joint casualty states, estimated work) of solving ``battle`` exactly (``exact_size``):
    1e9 units are some 0.2 s, 1.45e10 about a second."""
    size = exact_size(battle)
    return size.joint, size.work


def estimate_seconds(battle: Battle) -> float:
    """The seconds an exact solve of ``battle`` takes on this kind of machine (``exact_size``; a
    battle whose side chooses each loss: its game's, ``best_size.game_size``)."""
    if battle.best_losses:
        from oddsim.stages.best_size import game_size

        return game_size(battle).seconds
    return exact_size(battle).seconds


def solve(battle: Battle, size: ExactSize | None = None) -> BattleResult:
    """Exact outcome distribution of the battle (fought to the end, or to the attacker's
    retreat): split by its AA outcomes where AA picks its casualties per aircraft, with crashed
    fighters and the units that hold the territory without fighting (the exact engine solves
    each plain battle); ``size``: its ``exact_size``, where it was sized first.
    Ctrl-C raises ``KeyboardInterrupt`` (never inside a Numba call: see
    ``oddsim._runtime.interrupt``)."""
    if not isinstance(battle, Battle):
        raise BattleError(f"solve needs a Battle, not {type(battle).__name__}")
    from oddsim.engines import exact
    from oddsim.engines.exact.best import mix_plans

    if battle.best_losses:  # a side chooses each loss: the game's own solver, AA fire in it
        from oddsim.engines.exact import best_casualties

        return _after_battle(battle, best_casualties.solve(battle))
    if size is None or size.battle is not battle:
        size = exact_size(battle)
    if size.parts is None:
        return _after_battle(battle, exact.solve(battle, size.sized[0]))
    exact.check_size(size.joint, 0.0, len(size.parts), size.seconds)  # (before any part is solved)
    solved: list[tuple[float, BattleResult]] = []

    def part(spec: Battle, p: float, index: int) -> BattleResult:
        solved.append((p, _after_battle(spec, exact.solve(spec, size.sized[index]))))
        return solved[-1][1]

    mixed = fight_split(battle, size.parts, part)
    if battle.retreat is None or battle.retreat.best is None:
        return mixed
    # each part follows the same state-based policy: the outcomes are the policy's
    return replace(mixed, objective=_objective(battle, mixed), retreat_plan=mix_plans(solved))


def simulate(battle: Battle, runs: int = 100_000, seed: int | None = None,
             progress: bool = False, on_chunk: Callable[[int], bool] | None = None) -> BattleResult:
    """Monte Carlo estimate of the battle's outcome from ``runs`` simulated battles: split,
    crashed fighters and holding units as in ``solve`` (``oddsim.engines.montecarlo.simulate``
    fights each plain battle: technology, Low Luck, retreats, bombardment, submerging subs and
    landed units; the same ``seed`` gives the same result on any number of threads, ``None`` a
    random one; ``std_error`` holds the standard error of every probability and mean; with
    ``progress`` a bar on stderr for a long run; Ctrl-C, or ``on_chunk`` returning True, stops
    early with the battles fought so far, ``interrupted=True``). A battle split by its AA outcomes gives each
    part its share of the runs and a seed derived from ``seed`` and its place; one Ctrl-C, or
    ``on_chunk`` returning True, stops every part (``_SplitParts``). With the best retreat, its
    objective is estimated from the battles fought and its plan is the exact engine's (it
    computed the policy this engine plays; its chances are exact)."""
    if not isinstance(battle, Battle):
        raise BattleError(f"simulate needs a Battle, not {type(battle).__name__}")
    runs = check_runs(runs, BattleError)
    seed = seed_or_random(seed, BattleError)
    if battle.best_losses:  # each loss chosen by the exact policy, the dice rolled
        from oddsim.engines.montecarlo.best_casualties import simulate as simulate_best

        return _after_battle(battle, simulate_best(battle, runs, seed))
    parts = splits(battle)
    if parts is None:
        result = _after_battle(battle, _simulate_plain(battle, runs, seed, progress, on_chunk))
    else:  # one battle per AA outcome, its share of the runs
        with stop_on_interrupt() as stop:  # one Ctrl-C stops every part
            likely_first = sorted(parts, key=lambda part: -part[0])  # (a stop leaves the rarest)
            fight = _SplitParts(runs, seed, progress, on_chunk, stop).fight
            result = fight_split(battle, likely_first, fight)
    if battle.retreat is None or battle.retreat.best is None or battle.aa_fired:
        return result
    return replace(result, objective=_objective(battle, result), retreat_plan=solve(battle).retreat_plan)


def _after_battle(battle: Battle, result: BattleResult) -> BattleResult:
    """What follows one plain battle, by either engine: crashed fighters, then the defender's
    units that hold the territory without fighting."""
    if battle.crash_fighters:
        result = crash_fighters(result, battle)
    return with_holding_units(result, battle)


def _objective(battle: Battle, result: BattleResult) -> float:
    """The best retreat's objective of a result: its TUV swing, and the policy's territory
    bonus for each chance of taking the territory."""
    assert battle.retreat is not None  # (only the best retreat has an objective)
    return result.tuv_swing + battle.retreat.territory_bonus * (result.takes_territory or 0.0)


def _simulate_plain(battle: Battle, runs: int, seed: int, progress: bool,
                    on_chunk: Callable[[int], bool] | None) -> BattleResult:
    from oddsim.engines.montecarlo import simulate as simulate_plain  # (NumPy's kernels load on first use)

    return simulate_plain(battle, runs=runs, seed=seed, progress=progress, on_chunk=on_chunk)


STOPPED_PART_RUNS = 256
"""Runs of each part of a split battle left after a stop (Ctrl-C, ``on_chunk``): an AA outcome
still gets an estimate, in a few milliseconds a part, and the result is interrupted ..."""
STOPPED_SECONDS = 0.5
"""... for this long after the stop; the parts left then (the rarest: parts are fought most
likely first) are not fought, their probability the result's ``truncated_mass`` (a part costs
3-4 ms whatever its runs: 4,096 of them would take 15 s)."""


@dataclass
class _SplitParts:
    """The parts of a battle split by its AA outcomes, fought one after another with one stop:
    ``on_chunk`` sees the battles of every part so far (progress of the whole), and once a stop
    is asked (``on_chunk`` True, or Ctrl-C) each later part runs ``STOPPED_PART_RUNS`` at most."""

    runs: int
    seed: int
    progress: bool
    on_chunk: Callable[[int], bool] | None
    interrupt: threading.Event
    fought: int = 0
    stopped: bool = False
    stopped_at: float | None = None

    def fight(self, spec: Battle, share: float, index: int) -> BattleResult | None:
        runs = share_of_runs(share, self.runs)
        if self.stopped or self.interrupt.is_set():
            self.stopped = True
            if self.stopped_at is None:
                self.stopped_at = time.monotonic()
            if time.monotonic() - self.stopped_at > STOPPED_SECONDS:
                return None
            runs = min(runs, STOPPED_PART_RUNS)
        result = _after_battle(spec, _simulate_plain(
            spec, runs, sub_seed(self.seed, index + 1), self.progress,
            None if self.stopped else self._on_chunk))
        self.fought += result.runs or 0
        if self.stopped:  # (a stopped part is interrupted; the parts after it run few battles)
            return replace(result, interrupted=True)
        return result

    def _on_chunk(self, battles: int) -> bool:
        if self.on_chunk is not None and self.on_chunk(self.fought + battles):
            self.stopped = True
            self.stopped_at = time.monotonic()
        return self.stopped
