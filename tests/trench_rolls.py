"""The Longest Trench's artillery rolls and dice placements, worked out independently of oddsim
for the trench oracles."""

from __future__ import annotations

import itertools
from collections import Counter


def roll_weights(year: int) -> Counter:
    """Three dice, the valid ones (faces up to 3, or 4 from 1917) sorted high to low, with how
    many of the 216 throws give each."""
    top = 4 if year >= 1917 else 3
    counts: Counter = Counter()
    for dice in itertools.product(range(1, 7), repeat=3):
        counts[tuple(sorted((d for d in dice if d <= top), reverse=True))] += 1
    return counts


def spreads(faces: tuple[int, ...], fronts: list[int]) -> list[tuple[int, int, int]]:
    """Every distinct way to add the dice ``faces`` to the ``fronts`` (indices 0-2) a side may
    place on, as totals per front; with no front open, nothing is placed."""
    if not fronts:
        return [(0, 0, 0)]
    found = set()
    for targets in itertools.product(fronts, repeat=len(faces)):
        added = [0, 0, 0]
        for face, front in zip(faces, targets, strict=True):
            added[front] += face
        found.add((added[0], added[1], added[2]))
    return sorted(found)
