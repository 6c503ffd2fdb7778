"""Monte Carlo estimates as players read them: a value with its standard error to significant
digits ("4.27% ± 0.004%", never "± 0.00"), and 95% intervals where a ± says little."""

from __future__ import annotations

import math

INTERVAL_BELOW = 10
"""Below this many runs on either side of a probability (e.g. no run saw a draw), the normal
approximation behind ``±`` is poor: the text gives the 95% interval instead."""


Z_95 = 1.959963984540054
"""The standard normal distribution's 97.5% quantile: a two-sided 95% interval is +- this many
standard errors."""


NOISE = 1e-12
"""A Monte Carlo chance within this of 0 or 1 is 0 or 1: what is left is floating-point noise
from adding up parts (an AA split's, a waves total's), far below one run in 10^10."""

MAX_DECIMALS = 11
"""Most decimals an estimate prints: a standard error from at most 10^10 runs is no smaller than
about 10^-10, so further digits would be floating-point noise; a smaller error is none."""


def snapped(p: float) -> float:
    """A Monte Carlo chance, 0 or 1 where it is within ``NOISE`` of them."""
    if abs(p) < NOISE:
        return 0.0
    return 1.0 if abs(1.0 - p) < NOISE else p


def standard_error_of_mean(total: int, squares: int, n: int) -> float:
    """Sample standard error of a mean from the exact integer sum and sum of squares of its ``n``
    runs (0 for fewer than two: ``oddsim.limits`` asks for two, an interrupted run may have one)."""
    if n < 2:
        return 0.0
    variance = (n * squares - total * total) / (n * n * (n - 1))  # exact integers until here
    return math.sqrt(max(variance, 0.0))


def binomial_interval(successes: int, runs: int) -> tuple[float, float]:
    """95% Wilson score interval (no continuity correction) of a probability seen ``successes``
    times in ``runs`` runs. Written out rather than taken from ``scipy.stats``, whose import
    alone cost a Monte Carlo command a third of a second."""
    n = int(runs)
    p = int(successes) / n
    z2 = Z_95 * Z_95
    scale = 1.0 + z2 / n
    center = (p + z2 / (2 * n)) / scale
    half = Z_95 / scale * math.sqrt(p * (1.0 - p) / n + z2 / (4 * n * n))
    low = 0.0 if successes == 0 else max(0.0, center - half)  # (the ends exact, not 1e-17 off)
    high = 1.0 if successes == n else min(1.0, center + half)
    return low, high


def error_decimals(error: float) -> int:
    """Decimals that show ``error`` to one significant digit (two when it starts with 1 or 2),
    at most ``MAX_DECIMALS``."""
    if error <= 0 or not math.isfinite(error):
        return 2
    exponent = math.floor(math.log10(error))
    lead = error / 10**exponent
    return min(MAX_DECIMALS, max(0, -exponent + (1 if round(lead) < 3 else 0)))


def _real(error: float | None) -> float | None:
    """``error``, or None where it is too small to be a Monte Carlo error (noise, or none)."""
    return error if error and error >= 10.0**-MAX_DECIMALS else None


def number(value: float, error: float | None = None, decimals: int = 2) -> str:
    """``12.34`` or ``12.34 ± 0.05`` (the value to the error's last digit, at least ``decimals``)."""
    error = _real(error)
    if not error:
        return f"{value:.{decimals}f}"
    places = max(decimals, error_decimals(error))
    return f"{value:.{places}f} ± {error:.{error_decimals(error)}f}"


def percent(p: float | None, error: float | None = None, interval: tuple[float, float] | None = None
            ) -> str:
    """A probability as a percentage: ``"4.27%"``, ``"4.27% ± 0.004%"``, or with a 95%
    interval where it says more than the ± (``"0% (95%: 0 to 0.00038%)"``); probabilities near
    0 or 1 keep two significant digits of their distance to it (``"0.0012%"``, ``"99.9988%"``)."""
    if p is None:
        return "—"
    if error is not None or interval is not None:  # Monte Carlo: noise next to 0 is 0 too
        p = snapped(p)
        # a chance of 0 or 1 has no spread: an error there was computed from the noise
        error = error if error and _real(100 * error) and p not in (0.0, 1.0) else None
    if abs(1.0 - p) < NOISE:  # a sum of probabilities that is 1 but for rounding
        p = 1.0
    value = 100 * p
    if interval is not None:
        places = _interval_places(interval)
        return f"{_fixed(value, places)}% ({interval_text(interval)})"
    if error:
        e = 100 * error
        return f"{value:.{max(2, error_decimals(e))}f}% ± {e:.{error_decimals(e)}f}%"
    distance = min(value, 100 - value)
    if distance <= 0:
        return f"{value:.0f}%"
    return f"{value:.{max(2, 1 - math.floor(math.log10(distance)))}f}%"


def interval_text(interval: tuple[float, float]) -> str:
    """A probability's 95% interval as a percentage: ``"95%: 0 to 0.19%"``."""
    places = _interval_places(interval)
    lo, hi = (100 * x for x in interval)
    return f"95%: {_fixed(lo, places)} to {_fixed(hi, places)}%"


def _interval_places(interval: tuple[float, float]) -> int:
    """Decimals of an interval's percentages: a significant digit of a quarter of its width."""
    return max(2, error_decimals(100 * (interval[1] - interval[0]) / 4))


def _fixed(value: float, places: int) -> str:
    """``value`` to ``places`` decimals, 0 and 100 bare."""
    text = f"{value:.{places}f}"
    return f"{value:.0f}" if float(text) in (0.0, 100.0) else text


def needs_interval(p: float, runs: int) -> bool:
    """Whether a Monte Carlo probability is so near 0 or 1 that its ± says little."""
    seen = round(p * runs)
    return min(seen, runs - seen) < INTERVAL_BELOW


def swing_error_bound(errors: dict[str, float]) -> float:
    """The error of a TUV swing from its two sides' IPC-loss errors: their sum, which bounds it
    (Cauchy-Schwarz: the runs tally each side's losses apart, not how they go together)."""
    return errors["attacker_ipc_lost"] + errors["defender_ipc_lost"]


def swing(value: float, bound: float | None = None) -> str:
    """A TUV swing with its sign, and where given the bound on its error (the sum of the two
    sides' loss errors, since the runs tally each side's losses apart): ``"+6.14, ± at most 0.03"``."""
    text = ("+" if value >= 0 else "") + number(value, bound)
    return text.replace(" ± ", ", ± at most ") if bound else text
