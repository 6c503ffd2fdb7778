"""Purchase Pareto scatter: each purchase's cost against its goal value, the cost-vs-value
frontier highlighted and the best purchases numbered and listed.

It reads plain records, so it does not depend on how a sweep stores its rows: a list of dicts
or objects with ``cost``, ``value``, a label (``label`` or ``purchase``) and optionally a
frontier flag (``pareto`` or ``frontier``); or anything with ``.records()`` returning such dicts
(an ``oddsim.purchase.PurchaseTable``, whose goal also names the value axis). Records without a
flag get the frontier computed here: no other purchase costs no more and scores better.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from oddsim.plot.errors import PlotError, require_many
from oddsim.plot.style import BLUE, GREY, VERMILLION, figure_of, new_figure, percent_axis, styled, wrap_title

VALUE_TOLERANCE = 1e-12
MAX_LABEL_CHARS = 48


@dataclass(frozen=True)
class ParetoPoint:
    """One purchase on the scatter."""

    cost: float
    value: float
    label: str
    pareto: bool
    tuv: float | None = None  # the purchase's expected TUV swing, where the record has it


def pareto_points(rows) -> list[ParetoPoint]:
    """``rows`` (see the module doc) as points; the frontier is computed when no row says."""
    require_many(rows, "pareto_points")
    records = list(rows.records()) if hasattr(rows, "records") else list(rows)
    raw = [(_field(r, "cost"), _field(r, "value"), _field(r, "label", "purchase", default=""),
            _field(r, "pareto", "frontier", default=None),
            _field(r, "tuv_swing", "tuv", default=None)) for r in records]
    points = []
    for cost, value, label, flag, tuv in raw:
        try:
            cost, value = float(cost), float(value)
        except (TypeError, ValueError):
            raise PlotError(f"a purchase record has cost {cost!r} and value {value!r}: both must "
                            f"be numbers") from None
        points.append(ParetoPoint(cost, value, str(label), bool(flag),
                                  None if tuv is None else float(tuv)))
    if all(flag is None for *_, flag, _ in raw):
        front = frontier_of(points)
        points = [replace(p, pareto=i in front) for i, p in enumerate(points)]
    return points


def best_points(points: list[ParetoPoint], top: int) -> list[ParetoPoint]:
    """The ``top`` best purchases: highest value; on equal values the cheaper, then the one with
    the better TUV swing."""
    def key(p: ParetoPoint):
        return (-round(p.value, 12), p.cost, -(p.tuv if p.tuv is not None else 0.0), p.label)

    return sorted(points, key=key)[:top]


def value_decimals(values: list[float], percent: bool) -> int:
    """Decimals that tell the listed values apart and never round a value short of 100% up to
    it: one for percentages (two for other values), more where needed, at most six."""
    scale = 100.0 if percent else 1.0
    first = 1 if percent else 2
    for places in range(first, 7):
        texts: dict[str, float] = {}
        clash = False
        for v in values:
            text = f"{scale * v:.{places}f}"
            if percent and v < 1.0 and float(text) >= 100.0:
                clash = True
            if text in texts and abs(texts[text] - v) > VALUE_TOLERANCE:
                clash = True
            texts.setdefault(text, v)
        if not clash:
            return places
    return 6


def frontier_of(points: list[ParetoPoint]) -> set[int]:
    """Positions of the points no other point dominates (costs no more and scores more, or
    scores the same and costs less)."""
    front = set()
    for i, p in enumerate(points):
        dominated = any(q.cost <= p.cost and (q.value > p.value + VALUE_TOLERANCE
                                              or (abs(q.value - p.value) <= VALUE_TOLERANCE
                                                  and q.cost < p.cost))
                        for q in points)
        if not dominated:
            front.add(i)
    return front


@styled
def pareto_chart(rows, top: int = 5, value_label: str | None = None, percent: bool | None = None,
                 ax: Axes | None = None, title: str | None = None) -> Figure:
    """Cost (IPCs) against goal value for every purchase; the frontier drawn as a step line, the
    ``top`` purchases by value (cheaper first on ties) numbered and listed beside the plot.

    ``percent``: show values as percentages (default: when the goal is a chance, or every value
    lies in 0..1). ``value_label`` names the value axis (default: the sweep's goal, or "value").
    ``title``: default, what a sweep's table says it asked (its battle, budget and goal).
    """
    if isinstance(top, bool) or not isinstance(top, int) or top < 0:
        raise PlotError(f"top must be a whole number >= 0, not {top!r}")
    points = pareto_points(rows)
    if not points:
        raise PlotError("no purchase to chart: the sweep has no rows")
    goal = getattr(rows, "goal", None)
    if percent is None:
        percent = (goal.is_probability if goal is not None
                   else all(0.0 <= p.value <= 1.0 for p in points))
    label = value_label or (goal.label if goal is not None else "value")
    scale = 100.0 if percent else 1.0
    best = best_points(points, top)
    places = value_decimals([p.value for p in best], percent)
    listing = [f"{rank}.  {_shorten(p.label)}  ({p.cost:g} IPCs, {_format(p.value, percent, places)}"
               + (f", TUV {p.tuv:+.1f}" if p.tuv is not None else "") + ")"
               for rank, p in enumerate(best, start=1)]
    owned = ax is None
    if ax is None:
        fig = new_figure(height=4.6 + 0.2 * len(best))
        if best:
            ax, list_ax = fig.subplots(2, 1, height_ratios=[4.2, 0.35 + 0.2 * len(best)])
            _draw_listing(list_ax, listing, f"Best {len(best)} by {label}")
        else:
            ax = fig.add_subplot()
    fig = figure_of(ax)
    others = [p for p in points if not p.pareto]
    front = sorted((p for p in points if p.pareto), key=lambda p: (p.cost, p.value))
    ax.scatter([p.cost for p in others], [scale * p.value for p in others], s=22, color=GREY,
               alpha=0.6, linewidths=0, label="other purchases")
    ax.scatter([p.cost for p in front], [scale * p.value for p in front], s=44, color=VERMILLION,
               edgecolors="black", linewidths=0.6, zorder=3, label="Pareto frontier")
    if front:
        ax.step([p.cost for p in front], [scale * p.value for p in front], where="post",
                color=VERMILLION, linewidth=1.4, zorder=2)
    if percent:
        ax.set_ylim(-4, 104)
        percent_axis(ax.yaxis)
    ax.set_xlabel("purchase cost (IPCs)")
    ax.set_ylabel(f"{label} (%)" if percent else label)
    ax.set_title(f"Purchases: cost against {label}")
    if title is None:
        title = getattr(rows, "battle", None)
    if owned and title:
        fig.suptitle(wrap_title(title))
    if owned or not best:
        ax.legend(loc="best", framealpha=0.92)
    else:
        handles, names = ax.get_legend_handles_labels()
        blanks = [Line2D([], [], linestyle="none") for _ in listing]
        ax.legend([*handles, *blanks], [*names, *listing], loc="best", framealpha=0.92)
    _number_points(fig, ax, [(p.cost, scale * p.value) for p in best],
                   [(p.cost, scale * p.value) for p in points])
    return fig


def _draw_listing(ax: Axes, lines: list[str], heading: str) -> None:
    """The numbered best purchases as text under the scatter."""
    ax.axis("off")
    ax.text(0.0, 1.0, heading, transform=ax.transAxes, va="top", ha="left", fontweight="bold")
    for i, line in enumerate(lines, start=1):
        ax.text(0.0, 1.0 - i / (len(lines) + 1), line, transform=ax.transAxes, va="top",
                ha="left")


LABEL_OFFSETS = ((0, 6), (-10, -5), (10, -5), (0, -17), (-14, 8), (14, 8), (0, 20), (-22, -5),
                 (22, -5), (-20, 20), (20, 20), (0, 34), (-34, -5), (34, -5), (-30, 32), (30, 32),
                 (-14, -20), (14, -20), (0, -31), (-28, -20), (28, -20), (-14, -34), (14, -34),
                 (0, -45), (-46, -5), (46, -5), (-40, -30), (40, -30))
"""Where a point's number may go, in points from the point (text bottom centre); the first free
one wins, near ones first. Far ones get a leader line."""
LEADER_FROM = 16


def _number_points(fig: Figure, ax: Axes, positions: list[tuple[float, float]],
                   drawn: list[tuple[float, float]] | None = None) -> None:
    """Write 1, 2, ... next to the given points, each where it overlaps no number already
    written and no point drawn (``drawn``: every point of the chart; close purchases would
    otherwise hide each other, or a number would sit on another purchase's point)."""
    if not positions:
        return
    fig.draw_without_rendering()  # settle the layout, so data-to-pixel positions are final
    scale = fig.dpi / 72
    markers = [tuple(ax.transData.transform(p)) for p in positions]
    obstacles = [tuple(ax.transData.transform(p)) for p in (drawn or positions)]
    taken: list[tuple[float, float]] = []
    half_w, half_h = 5 * scale, 6 * scale  # a one-digit number at 9 pt, with a little air

    box = ax.get_window_extent()

    def clashes(x: float, y: float) -> int:
        labels = sum(abs(x - a) < 2 * half_w and abs(y - b) < 2 * half_h for a, b in taken)
        points = sum(abs(x - a) < half_w + 4 * scale and abs(y - b) < half_h + 4 * scale
                     for a, b in obstacles)
        # a number outside the plot (e.g. above the 100% line) would pile up with the others
        outside = not (box.x0 + half_w <= x <= box.x1 - half_w
                       and box.y0 + half_h <= y <= box.y1 - half_h)
        return 2 * labels + points + 100 * outside

    for rank, (point, (px, py)) in enumerate(zip(positions, markers, strict=True), start=1):
        def centre(offset: tuple[int, int], px=px, py=py) -> tuple[float, float]:
            return px + offset[0] * scale, py + (offset[1] + half_h / scale) * scale

        dx, dy = min(LABEL_OFFSETS, key=lambda o: clashes(*centre(o)))
        taken.append(centre((dx, dy)))
        leader = ({"arrowstyle": "-", "color": BLUE, "linewidth": 0.7, "shrinkA": 0,
                   "shrinkB": 4} if abs(dx) + abs(dy) > LEADER_FROM else None)
        ax.annotate(str(rank), point, xytext=(dx, dy), textcoords="offset points", ha="center",
                    va="bottom", fontsize=9, fontweight="bold", color=BLUE, arrowprops=leader)


def _field(record, *names: str, default=KeyError):
    for name in names:
        if isinstance(record, Mapping):
            if name in record:
                return record[name]
        elif hasattr(record, name):
            return getattr(record, name)
    if default is KeyError:
        raise PlotError(f"a purchase record has no '{names[0]}' field")
    return default


def _format(value: float, percent: bool, places: int | None = None) -> str:
    if places is None:
        places = 1 if percent else 2
    return f"{100 * value:.{places}f}%" if percent else f"{value:+.{places}f}"


def _shorten(text: str) -> str:
    return text if len(text) <= MAX_LABEL_CHARS else text[:MAX_LABEL_CHARS - 1] + "…"
