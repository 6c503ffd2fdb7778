"""Crash fighters: after a sea battle, the defender's aircraft its surviving carriers cannot hold
are lost (``Battle(crash_fighters=True)``, ``--crash-fighters``).

The battle itself is unchanged (its outcome is decided in the battle); what changes is what the
defender keeps: each survivor row loses the aircraft beyond the capacity of its carriers (the
edition's ``carries_aircraft``, ``carries_aircraft_damaged`` for a damaged two-hit carrier; the
aircraft with ``lands_on_carrier``), the cheapest first, and their cost joins the defender's IPC
lost. One function serves both engines: it reads the result's survivor rows, after either
engine fought the battle (``oddsim.stages.pipeline``); the rule itself, on arrays of units, is
``oddsim.engines.carriers`` (the exact engine's best retreat reads it per state).

A battle where fighters crash has no TUV swing distribution (``swing_distribution`` None): the
crash losses belong to the defender's end state, and the rows it is read from are the defender's
alone, not joined to the attacker's losses in the same end state, so the engine's swing
distribution no longer holds and none can be made from the rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import numpy as np

from oddsim.engines.carriers import crash_cost_per_state, crashed_per_state
from oddsim.errors import TooLargeError
from oddsim.model.battle import Battle
from oddsim.results.battle_result import BattleResult, merge_rows
from oddsim.results.mixing import error_bound, spread_error

__all__ = ["crash_cost_per_state", "crash_fighters", "crashed", "crashed_per_state"]  # (the rule: old paths)


def crashed(counts: Mapping[str, int], damaged: Mapping[str, int], battle: Battle) -> dict[str, int]:
    """The aircraft among ``counts`` (units left by type, ``damaged`` of them damaged) that the
    carriers among them cannot hold, by type; the dearest keep the places."""
    names = [u.name for u in battle.rules.units]
    alive = np.array([[counts.get(name, 0) for name in names]], dtype=np.int64)
    hurt = np.array([[damaged.get(name, 0) for name in names]], dtype=np.int64)
    lost = crashed_per_state(alive, hurt, battle.rules)[0].tolist()
    return {name: n for name, n in zip(names, lost, strict=True) if n}


def crash_fighters(result: BattleResult, battle: Battle) -> BattleResult:
    """``result`` with the defender's aircraft that no carrier can hold lost after the battle.
    A Monte Carlo result's standard error of the defender's IPC lost becomes a bound: the old one
    plus that of the crash losses (the two are not independent)."""
    rows = []
    extra = extra_sq = 0.0
    for row in result.defender_survivors:
        if row.other:
            raise TooLargeError("crash fighters need each defender survivor row's units, and this "
                                "battle is too large for them: drop --crash-fighters")
        lost = crashed(row.counts, row.damaged, battle)
        if lost:
            cost = sum(n * battle.rules.unit(name).cost for name, n in lost.items())
            counts = {name: n - lost.get(name, 0) for name, n in row.counts.items()
                      if n - lost.get(name, 0) > 0}
            row = replace(row, counts=counts, ipc=row.ipc - cost)
            extra += row.probability * cost
            extra_sq += row.probability * cost * cost
        rows.append(row)
    if extra == 0.0:
        return result
    std_error = dict(result.std_error)
    if result.runs:
        spread = spread_error(extra, extra_sq, result.runs)  # (the crashes' cost over the end states)
        std_error["defender_ipc_lost"] = error_bound(std_error.get("defender_ipc_lost", 0.0), spread)
        if "tuv_swing" in std_error:
            std_error["tuv_swing"] = error_bound(std_error["tuv_swing"], spread)
    return replace(result, defender_survivors=merge_rows(rows, result.runs),
                   defender_ipc_lost=result.defender_ipc_lost + extra, std_error=std_error,
                   swing_distribution=None)  # (see the module's docstring)
