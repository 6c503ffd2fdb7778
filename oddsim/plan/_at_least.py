"""Kernels of the ``at least K of the targets`` optimiser (``optimise._at_least``): flat arrays in
and out, so that a pool of thousands of sub-armies over three targets takes a second, not hours.

A partial split is an *entry*: the lattice point its targets use (flat index), the tails
P(>= 1), ..., P(>= K) of the number of its targets taken, the entry it grew from and the point
its last target was sent. ``grow`` extends every entry by every option of one more target that
fits the pool; ``undominated`` keeps, at each point, the entries that fewer than ``keep`` kept
entries dominate; ``best_last`` tries every option of the last target on every entry and keeps
the ``keep`` best final chances (the last step needs no entries of its own).
"""

from __future__ import annotations

import numpy as np

from oddsim._runtime.jit import jit


@jit
def _add_chance(tails, p, out):
    """``out`` = the tails after one more independent chance ``p``:
    P'(>= j) = P(>= j) + p (P(>= j-1) - P(>= j)), with P(>= 0) = 1."""
    below = 1.0
    for j in range(tails.shape[0]):
        t = tails[j]
        out[j] = t + p * (below - t)
        below = t


@jit
def _fits(entry_coords, option_coords, sizes) -> bool:
    for axis in range(sizes.shape[0]):
        if entry_coords[axis] + option_coords[axis] >= sizes[axis]:
            return False
    return True


@jit
def grow(points, tails, coords, options, option_coords, chances, sizes):
    """Every entry (``points``, ``tails``, ``coords``: its point's coordinates) extended by every
    option (flat point ``options``, coordinates, chance) that fits: the new entries' points,
    tails, parents (index of the entry grown) and options (index into ``options``)."""
    count = 0
    for e in range(points.shape[0]):
        for o in range(options.shape[0]):
            if _fits(coords[e], option_coords[o], sizes):
                count += 1
    new_points = np.empty(count, np.int64)
    new_tails = np.empty((count, tails.shape[1]), np.float64)
    parents = np.empty(count, np.int64)
    chosen = np.empty(count, np.int64)
    i = 0
    for e in range(points.shape[0]):
        for o in range(options.shape[0]):
            if _fits(coords[e], option_coords[o], sizes):
                new_points[i] = points[e] + options[o]
                _add_chance(tails[e], chances[o], new_tails[i])
                parents[i] = e
                chosen[i] = o
                i += 1
    return new_points, new_tails, parents, chosen


@jit
def undominated(points, tails, keep):
    """Which entries to keep, the entries sorted by point and, within a point, best last tail
    first (then the tails before it, best first): those that fewer than ``keep`` kept entries at
    the same point dominate (at least as good in every tail)."""
    n, k = tails.shape
    kept = np.zeros(n, np.bool_)
    group = np.empty(n, np.int64)  # the kept entries of the current point
    start = 0
    while start < n:
        end = start
        while end < n and points[end] == points[start]:
            end += 1
        size = 0
        for e in range(start, end):
            beaten = 0
            for g in range(size):
                other = group[g]
                dominates = True
                for j in range(k):
                    if tails[other, j] < tails[e, j]:
                        dominates = False
                        break
                if dominates:
                    beaten += 1
                    if beaten >= keep:
                        break
            if beaten < keep:
                kept[e] = True
                group[size] = e
                size += 1
        start = end
    return kept


@jit
def best_last(tails, coords, option_coords, chances, sizes, keep):
    """The ``keep`` best final chances P(>= K) over every entry and every option of the last
    target that fits it, best first (ties in the order met): values, entries, options (-1 where
    fewer splits exist)."""
    values = np.full(keep, -np.inf)
    entries = np.full(keep, -1, np.int64)
    chosen = np.full(keep, -1, np.int64)
    last = tails.shape[1] - 1
    for e in range(tails.shape[0]):
        at_least = tails[e, last]
        one_short = tails[e, last - 1] if last > 0 else 1.0
        for o in range(chances.shape[0]):
            value = at_least + chances[o] * (one_short - at_least)
            if value <= values[keep - 1] or not _fits(coords[e], option_coords[o], sizes):
                continue
            slot = keep - 1
            while slot > 0 and values[slot - 1] < value:
                values[slot] = values[slot - 1]
                entries[slot] = entries[slot - 1]
                chosen[slot] = chosen[slot - 1]
                slot -= 1
            values[slot] = value
            entries[slot] = e
            chosen[slot] = o
    return values, entries, chosen
