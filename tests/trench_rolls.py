"""The Longest Trench's artillery rolls, counted independently of oddsim for the trench oracles:
three dice, the valid ones (faces up to 3, or 4 from 1917) sorted high to low, with how many of
the 216 throws give each."""

from __future__ import annotations

import itertools
from collections import Counter


def roll_weights(year: int) -> Counter:
    top = 4 if year >= 1917 else 3
    counts: Counter = Counter()
    for dice in itertools.product(range(1, 7), repeat=3):
        counts[tuple(sorted((d for d in dice if d <= top), reverse=True))] += 1
    return counts
