"""A sweep's rows from one lattice sweep of the exact engine (``oddsim.engines.exact.lattice``):
every purchase plus the existing army is a sub-army of the largest one, so where the goal needs
only a battle's own figures (``take``, ``clear``, ``tuv``, ``hold``), the exact engine, or
``auto`` where it picks the exact engine for the largest army (so for every smaller one), one
sweep answers them all, with the same figures as one solve each (to 1e-12). The rows it leaves
(a battle the AA outcome splits, or a sweep the lattice does not take) are solved one by one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Sequence

import numpy as np

from oddsim.model.forces import Force
from oddsim.purchase.enumeration import most_units
from oddsim.purchase.evaluate import PROCESS_CACHE, BattleCache, Evaluated, evaluate_purchase, purchase_row
from oddsim.purchase.goals import Goal
from oddsim.purchase.rows import Outcome
from oddsim.purchase.spec import SweepSpec
from oddsim.stages.pipeline import exact_size
from oddsim.stages.runner import exact_is_cheap
from oddsim.stages.sub_armies import FIGURES, battle_with, solve_armies

_COLUMN = {name: i for i, name in enumerate(FIGURES)}


def evaluate_rows(spec: SweepSpec, todo: Sequence[tuple[int, tuple[int, ...]]],
                  cache: BattleCache) -> Iterator[Evaluated]:
    """The rows of ``todo`` (``(index, counts)`` pairs) in order: those one lattice sweep answers
    (``swept_rows``), the others solved one by one with ``cache``."""
    swept = swept_rows(spec, todo, cache)
    for index, counts in todo:  # (rows made one at a time: Ctrl-C keeps those made)
        found = swept.get(index)
        if found is None:
            yield evaluate_purchase(spec, index, counts, cache)
        else:
            yield Evaluated(purchase_row(spec, index, counts, found[0]), found[1])


def evaluate_batch(spec: SweepSpec, batch: Iterable[tuple[int, tuple[int, ...]]]) -> list[Evaluated]:
    """``evaluate_rows`` of ``(index, counts)`` pairs with this process's cache (a Dask task): the
    same rows as in one process, whichever purchases share a batch."""
    return list(evaluate_rows(spec, list(batch), PROCESS_CACHE))


def swept_rows(spec: SweepSpec, todo: Sequence[tuple[int, tuple[int, ...]]],
               cache: BattleCache) -> dict[int, tuple[Outcome, bool]]:
    """The outcomes of the rows of ``todo`` (``(index, counts)`` pairs) that one lattice sweep
    answers, by index, each with whether it came from ``cache``;
    empty where the sweep's goal or engine needs more than a battle's figures. ``cache`` keeps
    each row's outcome under its army (``_battle_key`` and the units per type, no ``Battle``
    built: that would cost more than the sweep), so a battle met again is not solved again.
    Buying nothing with no army is no battle (``evaluate.no_attack``): the sweep leaves it out."""
    todo = [(index, counts) for index, counts in todo if spec.buys_an_army(counts)]
    if (not todo or spec.method == "mc" or spec.counter_attack is not None or spec.goal is Goal.VALUE
            or spec.best_casualties):  # (a side choosing each loss: a game per battle, no lattice)
        return {}
    names = tuple(u.name for u in spec.rules.units)
    column = {name: i for i, name in enumerate(names)}
    existing = np.zeros(len(names), dtype=np.int64)
    damaged = np.zeros(len(names), dtype=np.int64)
    for name, n in spec.existing.counts:
        existing[column[name]] = n
    for name, n in spec.existing.damaged:
        damaged[column[name]] = n
    bought = np.array([counts for _, counts in todo], dtype=np.int64).reshape(len(todo), len(spec.units))
    armies = np.repeat(existing[None, :], len(todo), axis=0)
    armies[:, [column[name] for name in spec.units]] += bought
    side = "defender" if spec.goal.buyer_defends else "attacker"
    template = spec.battle(todo[0][1])
    if spec.method == "auto":
        largest = existing + [_most_of(spec, name) for name in names]
        buyer = Force(tuple((n, int(c)) for n, c in zip(names, largest.tolist(), strict=True) if c),
                      spec.existing.damaged)
        if not exact_is_cheap(exact_size(battle_with(template, side, buyer))):
            return {}  # (some battles might go to Monte Carlo: each is solved as auto picks)
    base = _battle_key(spec, side)
    keys = [(base, army) for army in map(tuple, armies.tolist())]
    known = [cache.get(key) for key in keys]
    missing = [i for i, outcome in enumerate(known) if outcome is None]
    solved: dict[int, Outcome | None] = {}
    if missing:
        hurt = np.repeat(damaged[None, :], len(missing), axis=0)
        swept = solve_armies(template, side, armies[missing], hurt)
        if swept is None:
            return {}
        for i, values, alone in zip(missing, swept[0].tolist(), swept[1].tolist(), strict=True):
            solved[i] = None if alone else _outcome(values, spec.sea)
    rows: dict[int, tuple[Outcome, bool]] = {}
    for i, (index, _) in enumerate(todo):
        outcome = known[i] or solved[i]
        if outcome is None:
            continue  # (split by the AA outcome: solved one by one)
        if i in solved:
            cache.put(keys[i], outcome)
        rows[index] = (outcome, i not in solved)
    return rows


def _outcome(values: list[float], sea: bool) -> Outcome:
    """The ``Outcome`` of one row of ``solve_armies``' figures."""
    return Outcome(method="exact", runs=None, attacker_win=values[_COLUMN["attacker_win"]],
                   defender_win=values[_COLUMN["defender_win"]], draw=values[_COLUMN["draw"]],
                   stalemate=values[_COLUMN["stalemate"]],
                   takes_territory=None if sea else values[_COLUMN["takes_territory"]],
                   attacker_ipc_lost=values[_COLUMN["attacker_ipc_lost"]],
                   defender_ipc_lost=values[_COLUMN["defender_ipc_lost"]])


def _battle_key(spec: SweepSpec, side: str) -> str:
    """What sets a swept row's battle but the buyer's units: a short hash, as the sweep's
    fingerprint is made (without the budget, units bought and caps, which only choose armies)."""
    rules = (spec.rules.name, spec.rules.units, spec.rules.combat, spec.rules.bombard, spec.rules.support)
    parts = ("lattice", rules, side, spec.existing.damaged, spec.against, spec.sea, spec.ool_attacker,
             spec.ool_defender, spec.keep_land, spec.method, spec.runs, spec.seed)
    return hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest()


def _most_of(spec: SweepSpec, name: str) -> int:
    """The most units of type ``name`` any purchase of the sweep buys (0: not bought): whether
    ``auto`` picks the exact engine is asked of the sweep's largest army, so that a batch of it
    (on Dask) decides as the whole sweep in one process does."""
    if name not in spec.units:
        return 0
    i = spec.units.index(name)
    return most_units((spec.costs[i],), (spec.caps[i],), spec.budget)
