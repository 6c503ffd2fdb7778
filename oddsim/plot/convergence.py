"""Monte Carlo convergence: an estimate and its 95% band against the number of runs, with the
exact value as a line; it shows how many runs a wanted precision takes.

``convergence_chart`` takes the points themselves (``(runs, estimate, std_error)`` triples,
``ConvergencePoint``s or Monte Carlo ``BattleResult``s); ``oddsim.sweeps.convergence_points``
makes them by simulating a battle once per run count. The chart only draws them.
"""

from __future__ import annotations

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from oddsim.plot.errors import PlotError, require_many
from oddsim.plot.style import (
    BLACK,
    BLUE,
    figure_of,
    method_note,
    new_figure,
    percent_axis,
    styled,
    wrap_title,
)
from oddsim.results.estimates import Z_95
from oddsim.sweeps.results import MEANS, PROBABILITIES, ConvergencePoint, check_convergence_metric


def as_point(item, metric: str = "attacker_win") -> ConvergencePoint:
    """A ``ConvergencePoint`` from a point, a ``(runs, estimate, std_error)`` triple or a Monte
    Carlo result."""
    if isinstance(item, ConvergencePoint):
        return item
    if hasattr(item, "std_error") and hasattr(item, metric):
        if not getattr(item, "runs", None):
            raise PlotError("a convergence point needs a Monte Carlo result (it has no runs)")
        if getattr(item, metric) is None:
            raise PlotError(f"the result has no {metric} (a sea battle has no territory)")
        return ConvergencePoint.of(item, metric)
    try:
        runs, estimate, error = item
        return ConvergencePoint(int(runs), float(estimate), float(error))
    except (TypeError, ValueError):
        raise PlotError(f"a convergence point must be (runs, estimate, std_error), not "
                        f"{item!r}") from None


@styled
def convergence_chart(points, exact=None, metric: str = "attacker_win", ax: Axes | None = None,
                      title: str | None = None) -> Figure:
    """Estimates of ``metric`` against the number of runs (log scale) with their 95% band
    (``estimates.Z_95``, 1.96 standard errors); ``exact`` (a number or an exact
    ``BattleResult``) as a dashed line.
    Returns the figure; never shows it."""
    require_many(points, "convergence_chart")
    _check_metric(metric)
    points = list(points)
    if title is None:  # name the battle when the points or the exact value are results
        title = next((r.battle for r in (*points, exact) if isinstance(getattr(r, "battle", None), str)
                      and r.battle), None)
    series = sorted((as_point(p, metric) for p in points), key=lambda p: p.runs)
    if not series:
        raise PlotError("no convergence point to draw")
    if any(p.runs < 1 for p in series):
        raise PlotError("runs must be 1 or more on a log scale")
    scale = 100.0 if metric in PROBABILITIES else 1.0
    owned = ax is None
    if ax is None:
        fig = new_figure(height=4.6)
        ax = fig.add_subplot()
    fig = figure_of(ax)
    runs = [p.runs for p in series]
    estimates = [scale * p.estimate for p in series]
    band = [scale * Z_95 * p.std_error for p in series]
    ax.fill_between(runs, [e - b for e, b in zip(estimates, band, strict=True)],
                    [e + b for e, b in zip(estimates, band, strict=True)], color=BLUE, alpha=0.2,
                    linewidth=0, label="95% confidence band")
    ax.plot(runs, estimates, marker="o", color=BLUE, linewidth=1.8, label="Monte Carlo estimate")
    exact_value = _exact_value(exact, metric)
    if exact_value is not None:
        shown = f"{scale * exact_value:.2f}" + ("%" if scale == 100 else "")
        ax.axhline(scale * exact_value, color=BLACK, linestyle="--", linewidth=1.3,
                   label=f"exact value ({shown})")
    ax.set_xscale("log")
    ax.set_xticks(runs, [f"{n:,}" for n in runs])
    ax.minorticks_off()
    if scale == 100:
        percent_axis(ax.yaxis)
    name = PROBABILITIES.get(metric) or MEANS[metric]
    ax.set_xlabel("Monte Carlo runs (log scale)")
    ax.set_ylabel(f"{name} (%)" if scale == 100 else name)
    ax.set_title(f"Monte Carlo convergence: {name.split(' (')[0]}")
    ax.legend(loc="best", framealpha=0.9)
    if owned and title:
        fig.suptitle(wrap_title(title))
    return fig


def _exact_value(exact, metric: str) -> float | None:
    if exact is None:
        return None
    if hasattr(exact, metric):
        if method_note(exact) != "exact":
            raise PlotError("exact= needs an exact result, not a Monte Carlo one")
        value = getattr(exact, metric)
        return None if value is None else float(value)
    try:
        return float(exact)
    except (TypeError, ValueError):
        raise PlotError(f"exact must be a number or an exact result, not {exact!r}") from None


def _check_metric(metric: str) -> None:
    check_convergence_metric(metric, PlotError)
