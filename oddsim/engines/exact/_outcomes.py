"""What a solved battle's result reads from its end states, in one pass over them: the chance of
each outcome, the mass by outcome and each side's end state (for the survivor rows), the IPC
each side loses, the chance the attacker takes the territory. In NumPy this was some thirty
small calls, a sixth of the time of a small solve."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from oddsim._runtime.jit import inline_jit, jit
from oddsim.engines.exact._kernel import ATTACKER_WINS, DEFENDER_WINS, DRAW, RETREAT, RETREAT_LEFT, STALEMATE
from oddsim.engines.exact._tables import F_LAND

N_CODES = RETREAT_LEFT + 1
"""Rows of the mass tables: one per outcome code."""


class EndSums(NamedTuple):
    """What ``end_state_sums`` gives a result."""

    by_code: np.ndarray  # the mass per outcome code
    a_mass: np.ndarray  # the attacker's mass per code and state
    d_mass: np.ndarray  # the defender's likewise
    retreat_w: float  # the rounds-weighted mass of the battles that ended in a retreat
    take: float  # the mass of the attacker's wins with a land unit left
    a_lost: float  # the attacker's expected IPC lost
    d_lost: float  # the defender's
    swings: np.ndarray  # the TUV swings reached, smallest first (floats)
    swing_mass: np.ndarray  # the mass of each


@jit
def end_state_sums(ends, terminal, nd, a_flags, a_counts, a_total, d_counts, d_total, cost):
    """Sums over the end states ``ends`` (joint states, attacker state x ``nd`` + defender state;
    those without mass are passed over) of their mass ``terminal.final``, by ``terminal.outcome``
    code (``_kernel.Terminal``), as ``EndSums``.

    IPC lost: a side destroyed loses ``*_total`` (what it fought with), but the units that left
    the battle early (``*_counts.departed``, ``SideCounts`` per state); a side left in the battle
    loses its state's ``ipc_lost``. The swing of an end state is its defender's loss less its
    attacker's, both of the same joint state: the one figure the two sides' separate masses
    cannot give."""
    final, final_w, outcome = terminal
    a_ipc, a_departed = a_counts.ipc_lost, a_counts.departed
    d_ipc, d_departed = d_counts.ipc_lost, d_counts.departed
    by_code = np.zeros(N_CODES)
    a_mass = np.zeros((N_CODES, a_ipc.shape[0]))
    d_mass = np.zeros((N_CODES, nd))
    swing = np.zeros(a_total + d_total + 1)
    retreat_w = take = a_lost = d_lost = 0.0
    for j in ends:
        p = final[j]
        if p == 0.0:
            continue
        code = outcome[j]
        ia = j // nd
        idd = j - ia * nd
        by_code[code] += p
        a_mass[code, ia] += p
        d_mass[code, idd] += p
        if code == RETREAT or code == RETREAT_LEFT:
            retreat_w += final_w[j]
        if code == ATTACKER_WINS and a_flags[ia, F_LAND] == 1:
            take += p
        lost_a = 0
        if code == DEFENDER_WINS or code == DRAW:  # the attacker is destroyed
            lost_a = a_total
        elif code == RETREAT_LEFT:  # destroyed but for the units that left before
            lost_a = a_total - _value(a_departed[ia], cost)
        elif code == ATTACKER_WINS or code == STALEMATE or code == RETREAT:
            lost_a = a_ipc[ia]
        lost_d = 0
        if code == ATTACKER_WINS or code == DRAW:  # the defender is destroyed
            lost_d = d_total - _value(d_departed[idd], cost)
        elif code == DEFENDER_WINS or code == STALEMATE or code == RETREAT or code == RETREAT_LEFT:
            lost_d = d_ipc[idd]
        a_lost += p * lost_a
        d_lost += p * lost_d
        swing[a_total + lost_d - lost_a] += p  # (entry a_total + s: swing s)
    reached = np.flatnonzero(swing)
    # (a sum of the many ways to one swing may round past 1: a chance is never above it)
    return EndSums(by_code, a_mass, d_mass, retreat_w, take, a_lost, d_lost,
                   (reached - a_total).astype(np.float64), np.minimum(swing[reached], 1.0))


@inline_jit
def _value(units, cost):
    """IPC value of ``units`` (a count per type)."""
    total = 0
    for u in range(units.shape[0]):
        total += units[u] * cost[u]
    return total
