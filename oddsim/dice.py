"""Exact hit distributions of a group of dice: the binomial building block of the exact engine."""

from __future__ import annotations

import numpy as np

from oddsim._jit import jit

DIE_FACES = 6


@jit
def binomial_pmf(dice: int, value: int, out: np.ndarray) -> None:
    """Write P(k hits) for ``dice`` dice that hit on ``value`` or less into ``out[:dice + 1]``."""
    p = value / DIE_FACES
    out[: dice + 1] = 0.0
    if dice == 0 or p <= 0.0:
        out[0] = 1.0
        return
    if p >= 1.0:
        out[dice] = 1.0
        return
    q = 1.0 - p
    ratio = p / q
    out[0] = q**dice
    for k in range(dice):
        out[k + 1] = out[k] * (dice - k) / (k + 1) * ratio


@jit
def add_dice(dist: np.ndarray, size: int, dice: int, value: int, scratch: np.ndarray) -> int:
    """Convolve ``dist[:size]`` (a hit distribution) with ``dice`` dice at ``value``, in place;
    returns the new size. ``scratch`` needs room for ``size + dice`` entries."""
    if dice == 0:
        return size
    pmf = np.empty(dice + 1)
    binomial_pmf(dice, value, pmf)
    new_size = size + dice
    scratch[:new_size] = 0.0
    for i in range(size):
        di = dist[i]
        if di == 0.0:
            continue
        for k in range(dice + 1):
            scratch[i + k] += di * pmf[k]
    dist[:new_size] = scratch[:new_size]
    return new_size
