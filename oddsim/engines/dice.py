"""Exact hit distributions of a group of dice: the binomial building block of the exact engine."""

from __future__ import annotations

import math

import numpy as np

from oddsim._runtime.jit import jit

DIE_FACES = 6
"""A die's faces unless the ruleset says otherwise (``combat.dice_sides``)."""
_SMALLEST_LOG = -700.0  # exp(-700) is about 1e-304, still a normal double


@jit
def binomial_pmf(dice: int, p: float, out: np.ndarray) -> None:
    """Write P(k hits) for ``dice`` dice that each hit with chance ``p`` into ``out[:dice + 1]``."""
    out[: dice + 1] = 0.0
    if dice == 0 or p <= 0.0:
        out[0] = 1.0
        return
    if p >= 1.0:
        out[dice] = 1.0
        return
    q = 1.0 - p
    ratio = p / q
    # from 0 hits up while q**dice is a normal number; else from the most likely count both ways
    # (hundreds of dice: q**dice underflows and every term would read 0)
    mode = 0 if dice * math.log(q) > _SMALLEST_LOG else min(dice, int((dice + 1) * p))
    out[mode] = math.exp(math.lgamma(dice + 1.0) - math.lgamma(mode + 1.0)
                         - math.lgamma(dice - mode + 1.0) + mode * math.log(p)
                         + (dice - mode) * math.log(q)) if mode else q**dice
    for k in range(mode, dice):
        out[k + 1] = out[k] * (dice - k) / (k + 1) * ratio
    for k in range(mode, 0, -1):
        out[k - 1] = out[k] * k / (dice - k + 1) / ratio
    if mode:  # lgamma is good to about 1e-13: make the terms sum to one
        total = 0.0
        for k in range(dice + 1):
            total += out[k]
        for k in range(dice + 1):  # loops, not array expressions: those cost seconds to compile
            out[k] /= total


@jit
def hit_chance(value: int, dice: int, best_of: bool, sides: int) -> float:
    """Chance that one unit scores a hit: one ``sides``-sided die at ``value`` (a roll at or
    under it hits), or the best of ``dice`` such dice."""
    p = value / sides
    return 1.0 - (1.0 - p) ** dice if best_of else p


@jit
def low_luck_strength(value: int, dice: int, best_of: bool, sides: int) -> int:
    """What one unit's ``dice`` dice at ``value`` add to its group's Low Luck strength: value x
    dice, or for the best of several TripleA's form (its ``PowerCalculator``: "choose best roll
    doesn't really make sense in Low Luck"): value + (dice - 1) x max(1, sides // 6), at most
    the sides."""
    if best_of and dice > 1:
        return min(value + (dice - 1) * max(1, sides // 6), sides)
    return value * dice


@jit
def low_luck_pmf(total: int, sides: int, out: np.ndarray) -> int:
    """Low Luck hits of a group with ``total`` strength and ``sides``-sided dice: ``total //
    sides`` sure hits, plus one more with chance ``(total % sides) / sides``. Writes
    ``out[:size]`` and returns size."""
    sure = total // sides
    extra = total % sides
    out[: sure + 2] = 0.0
    out[sure] = 1.0 - extra / sides
    out[sure + 1] = extra / sides
    return sure + 2


@jit
def add_dice(dist: np.ndarray, size: int, dice: int, p: float, scratch: np.ndarray) -> int:
    """Convolve ``dist[:size]`` (a hit distribution) with ``dice`` dice that each hit with chance
    ``p``, in place; returns the new size. ``scratch`` needs room for ``size + dice`` entries."""
    if dice == 0:
        return size
    return add_dice_with(dist, size, dice, p, scratch, np.empty(dice + 1))


@jit
def add_dice_with(dist: np.ndarray, size: int, dice: int, p: float, scratch: np.ndarray,
                  pmf: np.ndarray) -> int:
    """``add_dice``, with room for the dice's own distribution given (``pmf``: ``dice + 1``
    entries or more): a kernel that adds dice for every state of a side makes it once (an
    allocation a call was a third of a small battle's side tables)."""
    if dice == 0:
        return size
    binomial_pmf(dice, p, pmf)
    new_size = size + dice
    scratch[:new_size] = 0.0
    for i in range(size):
        di = dist[i]
        if di == 0.0:
            continue
        for k in range(dice + 1):
            scratch[i + k] += di * pmf[k]
    for k in range(new_size):
        dist[k] = scratch[k]
    return new_size
