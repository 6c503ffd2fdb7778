"""Solve the battle of each purchase, once: a cache keyed by the normalised battle.

``Battle`` values are equal (and hash equal) for equal normalised battles, so a battle met twice
(in one sweep, in sweeps over growing budgets, or in thousands of scenarios sharing armies) is
solved once per process. Monte Carlo battles get a seed derived from the battle itself and the
sweep's seed, so a row's figures never depend on which worker, or in which order, solved it.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from oddsim.api import run_battle, run_counter_attack
from oddsim.model.battle import Battle
from oddsim.model.side import BEST_ORDER
from oddsim.purchase.rows import FIGURES, Outcome, PurchaseRow
from oddsim.purchase.spec import SweepSpec

DEFAULT_CACHE_SIZE = 100_000
"""Battles a cache keeps, least recently used dropped first: the largest sweep (about 150 MB)."""


class BattleCache:
    """A thread-safe LRU map from (battle, engine settings) to the battle's ``Outcome``."""

    def __init__(self, maxsize: int = DEFAULT_CACHE_SIZE) -> None:
        self.maxsize = maxsize
        self.hits = 0
        self.misses = 0
        self._entries: OrderedDict[Hashable, Outcome] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Outcome | None:
        with self._lock:
            outcome = self._entries.get(key)
            if outcome is None:
                self.misses += 1
            else:
                self.hits += 1
                self._entries.move_to_end(key)
            return outcome

    def put(self, key: Hashable, outcome: Outcome) -> None:
        with self._lock:
            self._entries[key] = outcome
            self._entries.move_to_end(key)
            while len(self._entries) > self.maxsize:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._entries)


PROCESS_CACHE = BattleCache()
"""The cache sweeps use unless given one; on a Dask worker, the worker process's own."""


@dataclass(frozen=True, slots=True)
class Evaluated:
    """A finished row, and whether its battle came from the cache rather than an engine."""

    row: PurchaseRow
    cached: bool


def battle_seed(battle: Battle, sweep_seed: int) -> int:
    """The Monte Carlo seed of one battle: a hash of the sweep's seed and the normalised battle."""
    text = repr((sweep_seed, battle.rules.name, battle.sea, battle.attacker.army, battle.defender.army,
                 battle.attacker.order_of_loss, battle.defender.order_of_loss, battle.attacker.keep_land))
    if battle.best_losses:  # (who chooses each loss, and for what; fixed-order seeds as they were)
        text += repr((battle.attacker.best_losses, battle.defender.best_losses, battle.casualty_goal))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def solve_battle(battle: Battle, spec: SweepSpec, cache: BattleCache) -> tuple[Outcome, bool]:
    """The outcome of ``battle`` under the sweep's engine settings, and whether it was cached.

    Raises ``KeyboardInterrupt`` when Monte Carlo was stopped early: a partial estimate is never
    kept as a row.
    """
    key = (battle, spec.method, spec.runs, spec.seed, spec.counter_attack)
    outcome = cache.get(key)
    if outcome is not None:
        return outcome, True
    exact = spec.method == "exact"  # (the exact engine takes neither runs nor a seed)
    runs = None if exact else spec.runs
    seed = None if exact else battle_seed(battle, spec.seed)
    holds = holds_error = None
    if spec.counter_attack is not None:
        counter_best = BEST_ORDER if battle.defender.best_losses else None  # (the defender's player)
        both = run_counter_attack(battle, spec.counter_attack, method=spec.method, runs=runs, seed=seed,
                                  ool_counter=counter_best)
        result, holds, holds_error = both.battle, both.holds, both.std_error.get("holds")
    else:
        result = run_battle(battle, method=spec.method, runs=runs, seed=seed)
    if result.interrupted:
        raise KeyboardInterrupt
    bonus = battle.retreat.territory_bonus if battle.retreat is not None else 0.0
    outcome = Outcome.from_result(result, holds, holds_error, bonus)
    cache.put(key, outcome)
    return outcome, False


def evaluate_purchase(spec: SweepSpec, index: int, counts: Sequence[int],
                      cache: BattleCache = PROCESS_CACHE) -> Evaluated:
    """Solve the battle after buying ``counts`` and score it by the sweep's goal (buying nothing
    with no army there is no battle: ``no_attack``)."""
    if not spec.buys_an_army(counts):
        return Evaluated(purchase_row(spec, index, counts, no_attack(spec)), False)
    outcome, cached = solve_battle(spec.battle(counts), spec, cache)
    return Evaluated(purchase_row(spec, index, counts, outcome), cached)


def no_attack(spec: SweepSpec) -> Outcome:
    """The outcome of buying nothing with no army to attack with: no battle, so the defender
    keeps all it has (``defender_win`` 1), nobody loses anything, and every goal scores 0 (take,
    clear, TUV swing, value, take and hold), exactly."""
    return Outcome(method="exact", runs=None, attacker_win=0.0, defender_win=1.0, draw=0.0,
                   stalemate=0.0, takes_territory=None if spec.sea else 0.0, attacker_ipc_lost=0.0,
                   defender_ipc_lost=0.0, objective=0.0, holds=0.0)


def purchase_row(spec: SweepSpec, index: int, counts: Sequence[int], outcome: Outcome) -> PurchaseRow:
    """The row of the purchase ``counts`` (number ``index``) whose battle went as ``outcome``."""
    cost = spec.cost(counts)
    errors = outcome.std_error or {}
    return PurchaseRow(
        index=index, counts=tuple(counts), purchase=spec.describe_purchase(counts), cost=cost,
        leftover=spec.budget - cost, goal=spec.goal.value, value=spec.goal.value_of(outcome, spec.sea),
        method=outcome.method, runs=outcome.runs, attacker_win=outcome.attacker_win,
        defender_win=outcome.defender_win, draw=outcome.draw, stalemate=outcome.stalemate,
        takes_territory=outcome.takes_territory, attacker_ipc_lost=outcome.attacker_ipc_lost,
        defender_ipc_lost=outcome.defender_ipc_lost, tuv_swing=outcome.tuv_swing,
        sweep=spec.fingerprint, value_std_error=spec.goal.std_error_of(outcome, spec.sea),
        **{f"{name}_std_error": errors.get(name) for name in FIGURES})

