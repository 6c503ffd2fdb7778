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
from dataclasses import replace

from oddsim.battle import Battle
from oddsim.errors import TooLargeError
from oddsim.forces import Force, parse_force
from oddsim.result import BattleResult, Survivors, survivor_force, survivor_table


def crashed(force: Force, battle: Battle) -> dict[str, int]:
    """The aircraft of ``force`` its carriers cannot hold, by type (cheapest lost first)."""
    rules = battle.rules
    room = 0
    for name, n in force.counts:
        unit = rules.unit(name)
        hurt = force.damaged_count(name)
        room += (n - hurt) * unit.carries_aircraft + hurt * unit.carries_aircraft_damaged
    aircraft = sorted(((rules.unit(name).cost, name, n) for name, n in force.counts
                       if rules.unit(name).lands_on_carrier), reverse=True)
    lost: dict[str, int] = {}
    for _, name, n in aircraft:  # the dearest land first
        kept = min(n, room)
        room -= kept
        if n > kept:
            lost[name] = n - kept
    return lost


def crash_fighters(result: BattleResult, battle: Battle) -> BattleResult:
    """``result`` with the defender's aircraft that no carrier can hold lost after the battle.
    A Monte Carlo result's standard error of the defender's IPC lost becomes a bound: the old one
    plus that of the crash losses (the two are not independent)."""
    rows: dict[str, list] = {}
    extra = extra_sq = 0.0
    for row in result.defender_survivors:
        try:
            force = survivor_force(row.units, battle.rules)
        except TooLargeError:
            raise TooLargeError("crash fighters need each defender survivor row's units, and this "
                                "battle is too large for them: drop --crash-fighters") from None
        lost = crashed(force, battle)
        units, count, ipc = row.units, row.count, row.ipc
        if lost:
            cost = sum(n * battle.rules.unit(name).cost for name, n in lost.items())
            kept = {name: n - lost.get(name, 0) for name, n in force.counts}
            left = parse_force(Force(tuple((name, n) for name, n in kept.items() if n > 0),
                                     force.damaged), battle.rules, "survivors")
            marker = row.units.partition(" (")[2]
            units = left.describe() + (f" ({marker}" if marker else "")
            count -= sum(lost.values())
            ipc -= cost
            extra += row.probability * cost
            extra_sq += row.probability * cost * cost
        entry = rows.setdefault(units, [count, ipc, 0.0])
        entry[2] += row.probability
    if extra == 0.0:
        return result
    std_error = dict(result.std_error)
    if result.runs:
        spread = math.sqrt(max(extra_sq - extra * extra, 0.0) / result.runs)
        std_error["defender_ipc_lost"] = std_error.get("defender_ipc_lost", 0.0) + spread
    table: tuple[Survivors, ...] = survivor_table({k: tuple(v) for k, v in rows.items()})
    return replace(result, defender_survivors=table, defender_ipc_lost=result.defender_ipc_lost + extra,
                   std_error=std_error)
