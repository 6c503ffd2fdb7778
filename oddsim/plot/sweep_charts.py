"""Charts of sweeps: odds curves (a chance as one unit count varies, several armies at once) and
heatmaps (a chance over two unit counts). They read ``CurveSweep``/``HeatmapSweep`` values from
``oddsim.sweeps``; build those yourself to chart figures from elsewhere."""

from __future__ import annotations

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from oddsim.model.names import unit_label
from oddsim.plot.errors import PlotError, require
from oddsim.plot.style import (
    OKABE_ITO,
    SEQUENTIAL_COLOURMAP,
    figure_of,
    new_figure,
    percent_axis,
    styled,
    wrap_title,
)
from oddsim.results.estimates import Z_95
from oddsim.sweeps.results import METRICS, CurveSweep, HeatmapSweep

MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
"""One marker per curve as well as one colour, so curves stay apart in greyscale too."""
MAX_ANNOTATED_COLUMNS = 21
"""Heatmap cells are labelled with their percentage when at most this many columns fit 800 px."""


@styled
def odds_curve_chart(sweep: CurveSweep, ax: Axes | None = None) -> Figure:
    """One line per army of ``sweep``: the metric (in %) at each count of the varied unit, with a
    95% band where points are Monte Carlo estimates. Returns the figure; never shows it."""
    require(sweep, CurveSweep, "odds_curve_chart")
    if not sweep.curves:
        raise PlotError("the sweep has no curve to draw")
    owned = ax is None
    if ax is None:
        fig = new_figure(height=4.8)
        ax = fig.add_subplot()
    fig = figure_of(ax)
    colours = [OKABE_ITO[i] for i in (0, 1, 2, 3, 5, 4, 7, 6)]  # yellow last: weakest on white
    band_label: str | None = "95% band (Monte Carlo points)"
    for i, curve in enumerate(sweep.curves):
        values = [100 * v for v in curve.values]
        colour = colours[i % len(colours)]
        ax.plot(curve.counts, values, marker=MARKERS[i % len(MARKERS)], markersize=4.5,
                linewidth=1.8, color=colour, label=curve.label)
        if any(curve.std_errors):
            band = [100 * Z_95 * e for e in curve.std_errors]
            ax.fill_between(curve.counts, [v - b for v, b in zip(values, band, strict=True)],
                            [v + b for v, b in zip(values, band, strict=True)], color=colour,
                            alpha=0.2, linewidth=0, label=band_label)
            band_label = None
    ax.set_ylim(-2, 102)
    percent_axis(ax.yaxis)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(f"N: {_unit_phrase(sweep.side, sweep.unit)} added to the army (number of units)")
    ax.set_ylabel(f"{METRICS[sweep.metric]} (%)")
    points = [p for curve in sweep.curves for p in curve.points]
    sampled = sum(p.method == "mc" for p in points)
    note = "" if not sampled else (" (Monte Carlo)" if sampled == len(points) else
                                   f" ({sampled} of {len(points)} points by Monte Carlo)")
    ax.set_title(f"{METRICS[sweep.metric].capitalize()} as {_unit_phrase(sweep.side, sweep.unit)} "
                 f"vary{note}")
    title = "N: " + _unit_phrase(sweep.side, sweep.unit) + " added" if len(sweep.curves) > 1 else None
    ax.legend(title=title, loc="best", framealpha=0.9)
    if owned:
        kind = "sea" if sweep.sea else "land"
        against = (f": against {sweep.against}" if sweep.side == "attacker" else
                   f": {sweep.against} attacking") if sweep.against else ""
        fig.suptitle(wrap_title(f"{sweep.rules} {kind} battle{against}"))
    return fig


@styled
def heatmap_chart(sweep: HeatmapSweep, ax: Axes | None = None) -> Figure:
    """The metric (in %) for each pair of unit counts as coloured cells, labelled with their
    percentage when they fit; darker is lower. Returns the figure; never shows it."""
    require(sweep, HeatmapSweep, "heatmap_chart")
    values = [[100 * v for v in row] for row in sweep.values]
    if not values or not values[0]:
        raise PlotError("the heatmap has no cell to draw")
    owned = ax is None
    if ax is None:
        fig = new_figure(height=6.0)
        ax = fig.add_subplot()
    fig = figure_of(ax)
    xs, ys = sweep.x_counts, sweep.y_counts
    image = ax.pcolormesh(_edges(xs), _edges(ys), values, cmap=SEQUENTIAL_COLOURMAP, vmin=0,
                          vmax=100, shading="flat")
    bar = fig.colorbar(image, ax=ax, pad=0.02)
    bar.set_label(f"{METRICS[sweep.metric]} (%)")
    percent_axis(bar.ax.yaxis)
    if len(xs) <= MAX_ANNOTATED_COLUMNS:
        for y, row in zip(ys, values, strict=True):
            for x, value in zip(xs, row, strict=True):
                ax.text(x, y, f"{value:.0f}", ha="center", va="center", fontsize=7.5,
                        color="black" if value > 55 else "white")
    ax.grid(False)
    ax.set_xticks(_ticks(xs))
    ax.set_yticks(_ticks(ys))
    ax.set_xlabel(f"X: {_unit_phrase(sweep.x_side, sweep.x_unit)} added (number of units)")
    ax.set_ylabel(f"Y: {_unit_phrase(sweep.y_side, sweep.y_unit)} added (number of units)")
    cells = [p for row in sweep.points for p in row]
    sampled = sum(p.method == "mc" for p in cells)
    note = f"; {sampled} of {len(cells)} cells by Monte Carlo" if sampled else ""
    ax.set_title(f"{METRICS[sweep.metric].capitalize()} (%){note}")
    if owned:
        kind = "sea" if sweep.sea else "land"
        fig.suptitle(wrap_title(f"{sweep.rules} {kind} battle: {sweep.battle}"))
    return fig


def _unit_phrase(side: str, unit: str) -> str:
    """``attacking infantry`` / ``defending AA guns``."""
    return f"{'attacking' if side == 'attacker' else 'defending'} {unit_label(unit, 2)}"


def _edges(counts: tuple[int, ...]) -> list[float]:
    """Cell edges halfway between the counts, so each cell is centred on its count."""
    if len(counts) == 1:
        return [counts[0] - 0.5, counts[0] + 0.5]
    mids = [(a + b) / 2 for a, b in zip(counts, counts[1:], strict=False)]
    return [2 * counts[0] - mids[0], *mids, 2 * counts[-1] - mids[-1]]


def _ticks(counts: tuple[int, ...]) -> list[int]:
    """Every count when they fit, else about a dozen of them."""
    every = max(1, -(-len(counts) // 12))
    return list(counts[::every])
