"""Crash fighters: after a sea battle, the defender's aircraft its surviving carriers cannot hold
are lost (``Battle(crash_fighters=True)``, ``--crash-fighters``).

The battle itself is unchanged (its outcome is decided in the battle); what changes is what the
defender keeps: each survivor row loses the aircraft beyond the capacity of its carriers (the
edition's ``carries_aircraft``, ``carries_aircraft_damaged`` for a damaged two-hit carrier; the
aircraft with ``lands_on_carrier``), the cheapest first, and their cost joins the defender's IPC
lost. One function serves both engines: it reads the result's survivor rows.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace

from oddsim.battle import Battle
from oddsim.errors import TooLargeError
from oddsim.result import BattleResult, merge_rows


def crashed(counts: Mapping[str, int], damaged: Mapping[str, int], battle: Battle) -> dict[str, int]:
    """The aircraft among ``counts`` (units left by type, ``damaged`` of them damaged) that the
    carriers among them cannot hold, by type; the dearest keep the places."""
    rules = battle.rules
    room = 0
    for name, n in counts.items():
        unit = rules.unit(name)
        hurt = min(damaged.get(name, 0), n)
        room += (n - hurt) * unit.carries_aircraft + hurt * unit.carries_aircraft_damaged
    aircraft = sorted(((rules.unit(name).cost, name, n) for name, n in counts.items()
                       if rules.unit(name).lands_on_carrier), reverse=True)
    lost: dict[str, int] = {}
    for _, name, n in aircraft:
        kept = min(n, room)
        room -= kept
        if n > kept:
            lost[name] = n - kept
    return lost


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
        spread = math.sqrt(max(extra_sq - extra * extra, 0.0) / result.runs)
        std_error["defender_ipc_lost"] = std_error.get("defender_ipc_lost", 0.0) + spread
        if "tuv_swing" in std_error:
            std_error["tuv_swing"] += spread
    return replace(result, defender_survivors=merge_rows(rows, result.runs),
                   defender_ipc_lost=result.defender_ipc_lost + extra, std_error=std_error)
