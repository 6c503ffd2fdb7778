"""The TUV swing's distribution: the chance of each value of (defender IPC lost - attacker IPC
lost) over a battle's end states, and its percentiles.

A side's IPC-loss distribution follows from its survivor rows, but the swing needs both sides'
losses together: once both sides can keep units (retreats, round limits, stalemates, subs that
cannot hit aircraft) the rows of the two sides do not say how they go together. So each engine
tallies the swing itself over its joint end states (the exact engine over its final states, the
Monte Carlo engine per run) and hands a ``SwingDistribution`` to the result.

``percentiles`` is the one reading of its 5/50/95% marks that the CLI text, the JSON, the charts
and the page all show (the page reads them from the JSON, never works them out again).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from oddsim.errors import BattleError
from oddsim.results.mixing import chance_error, part_variance

PERCENTILES = (5, 50, 95)
"""The marks every front end shows on the swing: its 5%, median and 95%."""

CDF_SLACK = 1e-12
"""How far below a percentile's level a cumulative sum of chances may fall and still reach it
(sums of many small chances round a few ulps short)."""

DECIMALS = 6
"""Swing values are rounded to this many decimals before equal ones are merged (IPC values are
whole numbers; the rounding only joins sums that float arithmetic split)."""


@dataclass(frozen=True)
class SwingDistribution:
    """The chance of each TUV swing value, smallest value first (``swings``, ``probabilities``),
    and each chance's standard error (``std_errors``; all 0 for an exact result). The chances sum
    to 1 less the result's truncated mass; their mean is the result's ``tuv_swing``."""

    swings: tuple[float, ...]
    probabilities: tuple[float, ...]
    std_errors: tuple[float, ...]

    @classmethod
    def from_chances(cls, swings: Iterable[float], chances: Iterable[float],
                     variances: Iterable[float] | None = None) -> SwingDistribution:
        """Equal swing values (after rounding to ``DECIMALS``) merged, their chances added (and
        ``variances``, those of the chances, where given); zero chances dropped."""
        merged: dict[float, list[float]] = {}
        variance_list = None if variances is None else list(variances)
        for i, (s, p) in enumerate(zip(swings, chances, strict=True)):
            entry = merged.setdefault(round(float(s), DECIMALS) + 0.0, [0.0, 0.0])
            entry[0] += float(p)
            if variance_list is not None:
                entry[1] += float(variance_list[i])
        kept = sorted((s, p, v) for s, (p, v) in merged.items() if p > 0.0)
        return cls(tuple(s for s, _, _ in kept), tuple(min(p, 1.0) for _, p, _ in kept),
                   tuple(math.sqrt(v) for _, _, v in kept))

    @classmethod
    def exact(cls, swings: np.ndarray, mass: np.ndarray) -> SwingDistribution:
        """From the swings an exact solve reached (ascending, each once) and their mass (at most
        1), as they are, with no standard errors."""
        return cls(tuple(swings.tolist()), tuple(mass.tolist()), (0.0,) * len(mass))

    @classmethod
    def from_histogram(cls, counts: np.ndarray, lowest: int, runs: int) -> SwingDistribution:
        """From a Monte Carlo histogram: ``counts[i]`` of the ``runs`` had the swing ``lowest + i``;
        each chance with its binomial standard error."""
        # (a Python loop over the list: a histogram's thousands of entries are nothing beside its runs)
        swings: list[float] = []
        chances: list[float] = []
        for i, count in enumerate(counts.tolist()):
            if count:
                swings.append(float(i + lowest))
                chances.append(min(count / runs, 1.0))
        return cls(tuple(swings), tuple(chances), tuple(chance_error(p, runs) for p in chances))

    @property
    def total(self) -> float:
        """The chances summed: 1 but for the truncated mass (and rounding)."""
        return math.fsum(self.probabilities)

    @property
    def mean(self) -> float:
        """The expected swing: the sum of each value times its chance (the result's ``tuv_swing``)."""
        return math.fsum(s * p for s, p in zip(self.swings, self.probabilities, strict=True))

    def chances(self) -> dict[float, float]:
        """{swing: chance}, smallest swing first."""
        return dict(zip(self.swings, self.probabilities, strict=True))

    def percentiles(self, levels: Sequence[float] = PERCENTILES) -> dict[float, float]:
        """``percentiles`` of this distribution."""
        return percentiles(self.swings, self.probabilities, levels)

    def shifted(self, by: float) -> SwingDistribution:
        """Every swing moved by ``by`` (an attacker's loss outside the battle: ``-cost``)."""
        return SwingDistribution.from_chances((s + by for s in self.swings), self.probabilities,
                                              (e * e for e in self.std_errors))

    def to_dict(self) -> list[dict[str, float]]:
        """The JSON form: one ``{"swing", "probability", "std_error"}`` per value, smallest first."""
        return [{"swing": float(s), "probability": float(p), "std_error": float(e)}
                for s, p, e in zip(self.swings, self.probabilities, self.std_errors, strict=True)]

    @classmethod
    def from_dict(cls, rows: Sequence[Mapping[str, float]]) -> SwingDistribution:
        """The distribution ``to_dict`` wrote."""
        try:
            return cls.from_chances((r["swing"] for r in rows), (r["probability"] for r in rows),
                                    (r.get("std_error", 0.0) ** 2 for r in rows))
        except (KeyError, TypeError) as error:
            raise BattleError(f"a TUV swing distribution is a list of {{swing, probability, std_error}}, "
                              f"and this one is not ({error})") from None


def percentiles(swings: Sequence[float], probabilities: Sequence[float],
                levels: Sequence[float] = PERCENTILES) -> dict[float, float]:
    """Each ``levels`` percentile (0-100) of the swing: the smallest value whose cumulative chance
    reaches that share of the whole (the chances normalised by their sum, so truncated mass moves
    no mark). ``swings`` ascending. Empty when there are no chances."""
    total = math.fsum(probabilities)
    if not swings or total <= 0.0:
        return {}
    out: dict[float, float] = {}
    cumulative = np.cumsum(np.asarray(probabilities, dtype=np.float64)) / total
    for level in levels:
        if not 0 <= level <= 100:
            raise BattleError(f"a percentile is a number from 0 to 100, not {level!r}")
        at = int(np.searchsorted(cumulative, level / 100 - CDF_SLACK, side="left"))
        out[level] = float(swings[min(at, len(swings) - 1)])
    return out


def signed(value: float) -> str:
    """A swing value as players read it, with its sign: ``"+6"``, ``"-3.5"``, ``"0"``."""
    return "0" if value == 0 else f"{value:+.6g}"


def percentile_dict(distribution: SwingDistribution | None) -> dict[str, float] | None:
    """The 5/50/95% marks as the JSON writes them, ``{"5": .., "50": .., "95": ..}`` (None: no
    distribution)."""
    if distribution is None:
        return None
    return {f"{level:g}": value for level, value in distribution.percentiles().items()}


def mix_swings(parts: Iterable[tuple[float, SwingDistribution | None]]) -> SwingDistribution | None:
    """The distribution of a mixture: each part's chances times its weight (a chance known
    exactly: an AA outcome), their variances ``part_variance``; None if any part has none."""
    swings: list[float] = []
    chances: list[float] = []
    variances: list[float] = []
    for weight, part in parts:
        if part is None:
            return None
        swings.extend(part.swings)
        chances.extend(weight * p for p in part.probabilities)
        variances.extend(part_variance(weight, e) for e in part.std_errors)
    return SwingDistribution.from_chances(swings, chances, variances)
