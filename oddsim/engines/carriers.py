"""The crash-fighters rule on arrays of units: after a sea battle, the defender's aircraft that its
surviving carriers cannot hold are lost (``Battle(crash_fighters=True)``). One rule for every
state of the exact engine (the best retreat's objective counts the crashes while it decides) and
for each survivor row of a result (``oddsim.stages.crash``, which applies it after either engine)."""

from __future__ import annotations

import numpy as np

from oddsim.model.rules import Ruleset


def crashed_per_state(alive: np.ndarray, damaged: np.ndarray, rules: Ruleset) -> np.ndarray:
    """Per row of ``alive`` (units by type in the edition's order, ``damaged`` of them damaged),
    the aircraft of each type its carriers cannot hold: the room of every carrier left (less
    for a damaged two-hit one) goes to the dearest aircraft first."""
    units = rules.units
    hurt = np.minimum(damaged, alive)
    room = ((alive - hurt) @ np.array([u.carries_aircraft for u in units], dtype=np.int64)
            + hurt @ np.array([u.carries_aircraft_damaged for u in units], dtype=np.int64))
    lost = np.zeros_like(alive)
    dearest = sorted((i for i, u in enumerate(units) if u.lands_on_carrier),
                     key=lambda i: (units[i].cost, units[i].name), reverse=True)
    for i in dearest:
        kept = np.minimum(alive[:, i], room)
        room = room - kept
        lost[:, i] = alive[:, i] - kept
    return lost


def crash_cost_per_state(alive: np.ndarray, damaged: np.ndarray, rules: Ruleset) -> np.ndarray:
    """The IPCs of the aircraft that crash after the battle, per row (``crashed_per_state``)."""
    return crashed_per_state(alive, damaged, rules) @ np.array([u.cost for u in rules.units],
                                                                dtype=np.int64)
