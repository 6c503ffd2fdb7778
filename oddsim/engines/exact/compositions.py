"""A side of a best-casualties game as compositions (units left by type, damaged two-hit units apart):
the composition types, the side's order of loss as loss steps and what it keeps, how its types fire,
and which compositions hits can leave. Read by ``casualties`` and ``sub_game`` alike."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from oddsim._runtime.jit import jit
from oddsim.engines.exact import _casualties as kc
from oddsim.engines.lowering import LoweredBattle, SideArrays

WHOLE, DAMAGED = 1, 2
"""A composition type's role for a two-hit unit (0: a unit one hit removes)."""


@dataclass(frozen=True)
class CompositionTypes:
    """A side's composition types: the edition's unit of each, its role (0, ``WHOLE``,
    ``DAMAGED``), the other type of a two-hit unit (-1: none), most units and units at the start.
    Damaged types come first (smaller strides: a hit on a whole unit lowers the index)."""

    unit: np.ndarray
    role: np.ndarray
    pair: np.ndarray
    n: np.ndarray
    start: np.ndarray


KILL_ONE_HIT, DAMAGE, KILL_TWO_HIT = 0, 1, 2
"""What a loss step does (``fixed_losses``): removes one-hit units, damages whole two-hit units,
removes two-hit units (damaged ones first)."""


def loss_steps(side: SideArrays, types: CompositionTypes) -> tuple[np.ndarray, np.ndarray]:
    """The side's loss steps as composition types (a two-hit unit's: its whole type) and kinds."""
    ks, kinds = [], []
    for unit, kill in zip(side.step_unit.tolist(), side.step_kill.tolist(), strict=True):
        k = int(np.flatnonzero((types.unit == unit) & (types.role != DAMAGED))[0])
        ks.append(k)
        kinds.append(KILL_ONE_HIT if types.role[k] == 0 else KILL_TWO_HIT if kill else DAMAGE)
    return np.array(ks, dtype=np.int64), np.array(kinds, dtype=np.int64)


def later_keeps(side: SideArrays, step_k: np.ndarray, step_kind: np.ndarray) -> np.ndarray:
    """Per loss step that removes one-hit units, how many units of its type later steps keep (what
    ``fixed_losses`` leaves standing for them); 0 for the other steps."""
    return np.array([int(side.step_count[i + 1:][(step_k[i + 1:] == k) & (step_kind[i + 1:] == 0)].sum())
                     if step_kind[i] == 0 else 0 for i, k in enumerate(step_k.tolist())], dtype=np.int64)


def fire_rules(low: LoweredBattle, side: SideArrays, types: np.ndarray) -> kc.FireRules:
    """How the side's types fire, with the support rules that act for it."""
    support = low.support_side == side.support_side
    return kc.FireRules(side.value[types], side.dice[types], side.best_of[types], low.defenceless[types],
                        np.ascontiguousarray(low.support_supporter[support][:, types]),
                        np.ascontiguousarray(low.support_supported[support][:, types]),
                        low.support_per[support], low.support_value[support], low.dice_sides)


@jit
def fixed_losses(counts, stride, move, pair, step_k, step_kind, later, hittable, most):
    """Per composition and number of hits h (0..``most``), the composition left when the side
    takes h hits by its loss steps (type ``step_k``, kind ``step_kind``: ``KILL_ONE_HIT``,
    ``DAMAGE``, ``KILL_TWO_HIT``; ``later``: one-hit units of the same type that later steps
    keep), on units of ``hittable`` types only."""
    n_states = counts.shape[0]
    out = np.zeros((n_states, most + 1), dtype=np.int64)
    left = np.zeros(counts.shape[1], dtype=np.int64)
    for s in range(n_states):
        state = s
        left[:] = counts[s]
        out[s, 0] = s
        h = 1
        for i in range(step_k.shape[0]):
            k = step_k[i]
            if not hittable[k]:
                continue
            kind = step_kind[i]
            while h <= most:
                if kind == 0 and left[k] > later[i]:
                    left[k] -= 1
                    state -= stride[k]
                elif kind == 2 and left[pair[k]] > 0:  # a damaged one dies
                    left[pair[k]] -= 1
                    state -= stride[pair[k]]
                elif kind != 0 and left[k] > 0:  # a whole one is damaged
                    left[k] -= 1
                    left[pair[k]] += 1
                    state -= move[k]
                else:
                    break
                out[s, h] = state
                h += 1
        while h <= most:
            out[s, h] = state
            h += 1
    return out


@jit
def _reachable(cd, cs, role, pair, last):
    """Whether hits take composition ``cd`` to ``cs``: no type grows, but damaged units from whole
    ones, and a type taken last is hit only once nothing else is left."""
    last_hit = False
    for k in range(cd.shape[0]):
        if role[k] == 0:
            if cs[k] > cd[k]:
                return False
            if last[k] and cs[k] < cd[k]:
                last_hit = True
        elif role[k] == 1:
            if cs[k] > cd[k] or cs[k] + cs[pair[k]] > cd[k] + cd[pair[k]]:
                return False
    if last_hit:
        for k in range(cd.shape[0]):
            if not last[k] and cs[k] > 0:
                return False
    return True


@jit
def subset_lists(counts, capacity, role, pair, last):
    """``SubSets`` of every composition (``counts[s, k]``): those hits can take it to."""
    n_states = counts.shape[0]
    start = np.zeros(n_states + 1, dtype=np.int64)
    for d in range(n_states):
        m = 0
        for s in range(d + 1):
            if _reachable(counts[d], counts[s], role, pair, last):
                m += 1
        start[d + 1] = start[d] + m
    items = np.zeros(start[n_states], dtype=np.int64)
    removed = np.zeros(start[n_states], dtype=np.int64)
    for d in range(n_states):
        j = start[d]
        for s in range(d + 1):
            if _reachable(counts[d], counts[s], role, pair, last):
                items[j] = s
                removed[j] = capacity[d] - capacity[s]
                j += 1
    return start, items, removed
