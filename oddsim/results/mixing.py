"""Standard errors of answers mixed from several Monte Carlo estimates: the one place that says how
they combine, for the AA-outcome split (``stages.aa_split``), crashed fighters
(``stages.crash``), later waves (``stages.waves``), the counter-attack (``stages.counter``) and the
amphibious assault (``stages.amphibious``).

Three rules, each for one kind of mixture:

- ``part_variance``: a part estimated on runs of its own, weighed by a chance known exactly (an AA
  outcome, a landing after an exact sea battle, a composition's counter-attack): variance
  (weight x its standard error)^2; the parts' runs are independent, so these variances add.
- ``spread_variance`` / ``spread_error`` / ``chance_error``: a figure averaged over the end states of
  a battle fought N times (the first battle's compositions, a Monte Carlo sea battle's end states,
  the fighters each end state loses, the paths through the waves): the end states' frequencies are
  estimated, so the figure spreads as its values over them do, (E[h^2] - E[h]^2) / N; a chance p
  is the case h in {0, 1}, p (1 - p) / N.
- ``error_bound``: standard errors of parts whose runs are correlated in a way the runs do not
  record (a sea battle's losses and its landings', the waves' losses) add: a bound, never an
  underestimate.

Each is written to give, to the last bit, the figures the five places computed by hand before.
"""

from __future__ import annotations

import math


def part_variance(weight: float, std_error: float) -> float:
    """The variance ``weight`` x an estimate with ``std_error`` adds to a mixture of independent parts."""
    return (weight * std_error) ** 2


def spread_variance(second_moment: float, mean_squared: float, runs: float) -> float:
    """The variance of a figure averaged over the end states of ``runs`` battles: its second moment
    over them less its mean squared, over ``runs`` (0 without runs)."""
    return max(second_moment - mean_squared, 0.0) / runs if runs > 0 else 0.0


def spread_error(mean: float, second_moment: float, runs: float) -> float:
    """The standard error of such a figure with ``mean`` (``spread_variance``, its square root)."""
    return math.sqrt(spread_variance(second_moment, mean * mean, runs))


def chance_error(p: float, runs: float) -> float:
    """The standard error of a chance ``p`` estimated from ``runs`` runs: sqrt(p (1 - p) / runs)."""
    return math.sqrt(max(p * (1 - p), 0.0) / runs) if runs > 0 else 0.0


def error_bound(*errors: float) -> float:
    """The standard error of a sum of correlated estimates, bounded: the sum of theirs."""
    return sum(errors)
