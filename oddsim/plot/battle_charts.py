"""Charts of one battle: its outcome odds, how many units (or IPCs) each side has left, and the
TUV swing's distribution with its 5%, median and 95% marks.

They read a ``BattleResult`` (exact or Monte Carlo); the outcome chart also reads anything with
``attacker_win``/``defender_win``/``takes_territory`` (a second-wave ``WaveResult``), skipping
the figures it lacks. Monte Carlo bars carry 95% error bars (``estimates.Z_95``, 1.96 standard
errors).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from oddsim.plot.errors import PlotError
from oddsim.plot.style import (
    BLACK,
    GREY,
    OUTCOME_COLOURS,
    SIDE_COLOURS,
    figure_of,
    method_note,
    new_figure,
    percent_axis,
    percent_label,
    styled,
    wrap_title,
)
from oddsim.results.battle_result import Survivors
from oddsim.results.estimates import Z_95
from oddsim.results.swing import signed

SURVIVOR_MEASURES = ("count", "ipc")
MAX_LABEL_CHARS = 80
LISTING_OFFSET_PT = 34
"""How far below the axes the listing of the most likely survivor sets starts (clears the tick
labels and the axis label)."""
PANEL_HEIGHT = 3.0
LISTING_LINE_HEIGHT = 0.19


@dataclass(frozen=True)
class OutcomeBar:
    """One bar of the outcome chart: the result field it shows, its label, chance and error."""

    key: str
    label: str
    probability: float
    std_error: float


def outcome_bars(result) -> list[OutcomeBar]:
    """The bars the outcome chart draws, in order: attacker wins, draw, stalemate and retreat
    (only when they can happen: most battles can end in neither), defender wins, then the chance
    to take the territory (land battles)."""
    errors = getattr(result, "std_error", None) or {}
    wanted = [("attacker_win", "attacker\nwins"), ("draw", "draw\n(both die)"),
              ("stalemate", "stalemate"), ("retreat", "attacker\nretreats"),
              ("defender_win", "defender\nwins"), ("takes_territory", "takes\nterritory")]
    bars = []
    for key, label in wanted:
        value = getattr(result, key, None)
        if value is None or (key in ("stalemate", "retreat") and not value):
            continue
        bars.append(OutcomeBar(key, label, float(value), float(errors.get(key) or 0.0)))
    return bars


@styled
def outcome_chart(result, ax: Axes | None = None, title: str | None = None) -> Figure:
    """Bars of the outcome probabilities of one battle (in %), the take chance set apart.

    Draws into ``ax`` when given, else into a new 800 x 380 px figure titled with the battle.
    Returns the figure; never shows it.
    """
    owned = ax is None
    fig, ax = _figure_and_axes(ax, height=3.8)
    bars = outcome_bars(result)
    if not bars:
        raise PlotError("outcome_chart needs a result with attacker_win and defender_win")
    positions = [i + (0.5 if bar.key == "takes_territory" else 0.0) for i, bar in enumerate(bars)]
    heights = [100 * bar.probability for bar in bars]
    errors = [100 * Z_95 * bar.std_error for bar in bars]
    drawn = ax.bar(positions, heights, width=0.7,
                   color=[OUTCOME_COLOURS[bar.key] for bar in bars],
                   hatch=["//" if bar.key == "takes_territory" else "" for bar in bars],
                   edgecolor="white", yerr=errors if any(errors) else None, capsize=4,
                   ecolor="black")
    for rect, bar, height, error in zip(drawn, bars, heights, errors, strict=True):
        ax.annotate(percent_label(bar.probability), (rect.get_x() + rect.get_width() / 2, height + error),
                    xytext=(0, 3), textcoords="offset points", ha="center", va="bottom")
    ax.set_xticks(positions, [bar.label for bar in bars])
    ax.set_ylim(0, 112)
    percent_axis(ax.yaxis)
    ax.grid(axis="x", visible=False)
    ax.set_ylabel("probability (%)")
    ax.set_xlabel("outcome")
    ax.set_title(f"Battle outcome ({method_note(result)})")
    if owned:
        _figure_title(fig, title if title is not None else getattr(result, "battle", None))
    return fig


@styled
def survivor_chart(result, by: str = "count", top: int = 3,
                   sides: Sequence[str] = ("attacker", "defender")) -> Figure:
    """Each side's survivor distribution: bars of the chance to be left with each number of units
    (``by="count"``) or IPC value (``by="ipc"``); the ``top`` most likely survivor sets are
    numbered on their bars and listed. One panel per side, stacked; returns the figure."""
    _check_survivor_args(by, top, sides)
    fig = new_figure(height=_survivor_panel_height(top) * len(sides) + 0.4)
    axes = fig.subplots(len(sides), 1, squeeze=False)[:, 0]
    for ax, side in zip(axes, sides, strict=True):
        draw_survivors(ax, result, side, by, top)
    _figure_title(fig, getattr(result, "battle", None))
    return fig


@styled
def battle_chart(result, by: str = "count", top: int = 3, title: str | None = None) -> Figure:
    """The picture of one battle to share: outcome bars above both sides' survivor distributions,
    and below them the TUV swing's distribution where the result has one (a result without
    survivor tables, such as a ``WaveResult``, gets the outcome bars only)."""
    has_survivors = bool(getattr(result, "attacker_survivors", None)
                         or getattr(result, "defender_survivors", None))
    if not has_survivors:
        return outcome_chart(result, title=title)
    _check_survivor_args(by, top, ("attacker", "defender"))
    panel = _survivor_panel_height(top)
    heights = [3.6, panel, panel]
    has_swing = getattr(result, "swing_distribution", None) is not None
    if has_swing:
        heights.append(SWING_PANEL_HEIGHT)
    fig = new_figure(height=sum(heights) + 0.4)
    axes = fig.subplots(len(heights), 1, height_ratios=heights)
    outcome_chart(result, ax=axes[0])
    draw_survivors(axes[1], result, "attacker", by, top)
    draw_survivors(axes[2], result, "defender", by, top)
    if has_swing:
        draw_swing(axes[3], result)
    _figure_title(fig, title if title is not None else getattr(result, "battle", None))
    return fig


SWING_PANEL_HEIGHT = 3.4
MARK_NAMES = {5: "5%", 50: "median", 95: "95%"}
"""How a swing mark is labelled on the charts (and on the page)."""


@styled
def swing_chart(result, ax: Axes | None = None, title: str | None = None) -> Figure:
    """Bars of the chance of each TUV swing value (defender IPC lost - attacker IPC lost), with
    the 5%, median and 95% marks (``BattleResult.tuv_swing_percentiles``) as labelled lines;
    Monte Carlo bars carry 95% error bars. Draws into ``ax`` when given, else into a new 800 x
    340 px figure titled with the battle. A result without a swing distribution (crashed
    fighters) is refused with a ``PlotError``."""
    owned = ax is None
    fig, ax = _figure_and_axes(ax, height=SWING_PANEL_HEIGHT)
    draw_swing(ax, result)
    if owned:
        _figure_title(fig, title if title is not None else getattr(result, "battle", None))
    return fig


def draw_swing(ax: Axes, result) -> Axes:
    """The TUV swing's distribution and its marks into ``ax`` (see ``swing_chart``): bars in the
    attacker's colour where it gains, the defender's where it loses, grey at 0."""
    dist = getattr(result, "swing_distribution", None)
    if dist is None or not dist.swings:
        raise PlotError("the result has no TUV swing distribution to draw (crashed fighters change "
                        "the defender's losses after the battle: only the mean swing is known)")
    swings = list(dist.swings)
    gaps = [b - a for a, b in zip(swings, swings[1:], strict=False)]
    span = swings[-1] - swings[0]
    width = max(0.8 * min(gaps or [1.0]), span / 60)
    heights = [100 * p for p in dist.probabilities]
    errors = [100 * Z_95 * e for e in dist.std_errors]
    colours = [SIDE_COLOURS["attacker"] if s > 0 else SIDE_COLOURS["defender"] if s < 0 else GREY
               for s in swings]
    ax.bar(swings, heights, width=width, color=colours, edgecolor="white", linewidth=0.5,
           yerr=errors if any(errors) else None, capsize=3, ecolor="black")
    top = max(h + e for h, e in zip(heights, errors, strict=True))
    marks: dict[float, list[str]] = {}
    for level, value in result.tuv_swing_percentiles().items():
        marks.setdefault(value, []).append(MARK_NAMES.get(level, f"{level:g}%"))
    for row, (value, names) in enumerate(sorted(marks.items())):
        ax.axvline(value, color=BLACK, linestyle="--", linewidth=1.1)
        right_half = value > swings[0] + span / 2  # labelled on the side of the line facing the middle
        ax.annotate(f"{', '.join(names)}: {signed(value)}", (value, top * (1.08 + 0.1 * (row % 2))),
                    xytext=(-3 if right_half else 3, 0), textcoords="offset points",
                    ha="right" if right_half else "left", va="bottom", fontsize=9, fontweight="bold")
    ax.set_ylim(0, top * 1.35 + 1)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    percent_axis(ax.yaxis)
    ax.grid(axis="x", visible=False)
    ax.set_ylabel("probability (%)")
    ax.set_xlabel("TUV swing: defender IPC lost - attacker IPC lost (IPCs; above 0 the attacker gains)")
    ax.set_title(f"TUV swing; expected {signed(round(result.tuv_swing, 2))}")
    return ax


def survivor_bars(survivors: Sequence[Survivors], by: str) -> dict[float, float]:
    """Probability of each number of units (or IPC value) left, smallest first (the "other end
    states" row of a very large Monte Carlo battle has no number of units: left out)."""
    totals: dict[float, float] = {}  # units left (an int) or IPC value left
    for row in survivors:
        if row.other:
            continue
        key = row.count if by == "count" else row.ipc
        totals[key] = totals.get(key, 0.0) + row.probability
    return dict(sorted(totals.items()))


def draw_survivors(ax: Axes, result, side: str, by: str = "count", top: int = 3) -> Axes:
    """One side's survivor distribution into ``ax`` (see ``survivor_chart``)."""
    survivors = tuple(getattr(result, f"{side}_survivors", None) or ())
    if not survivors:
        raise PlotError(f"the result has no {side} survivor table to draw")
    totals = survivor_bars(survivors, by)
    keys = list(totals)
    gaps = [b - a for a, b in zip(keys, keys[1:], strict=False)]
    span = max(keys) - min(keys) if keys else 0
    # bars at least 1/60 of the axis wide, so a side with many close IPC values stays readable
    width = 0.8 * min([1, *gaps]) if by == "count" else max(0.8 * min(gaps or [1]), span / 60)
    heights = [100 * p for p in totals.values()]
    ax.bar(keys, heights, width=width, color=SIDE_COLOURS[side], edgecolor="white", linewidth=0.5)
    ranked = [row for row in sorted(survivors, key=lambda s: (-s.probability, s.units))
              if not row.other][:top]
    marks: dict[float, list[str]] = {}
    for rank, row in enumerate(ranked, start=1):
        marks.setdefault(row.count if by == "count" else row.ipc, []).append(f"#{rank}")
    near = max(span / 25, 1e-9)  # marks closer than this along the axis would overlap
    lifted: list[tuple[float, float, int]] = []  # (key, height, lift) of the marks placed
    for key in sorted(marks):
        height = 100 * totals[key]
        lift = 0
        for other, other_height, other_lift in lifted:
            if abs(key - other) < near and abs(height - other_height) < 4 + 3 * other_lift:
                lift = max(lift, other_lift + len(marks[other]))
        lifted.append((key, height, lift))
        ax.annotate("\n".join(sorted(marks[key], key=lambda m: int(m[1:]))), (key, height),
                    xytext=(0, 3 + 11 * lift), textcoords="offset points", ha="center",
                    va="bottom", fontsize=9, fontweight="bold", linespacing=1.0)
    if ranked:
        lines = [f"#{rank}  {100 * row.probability:5.1f}%   {_shorten(row.units)}"
                 for rank, row in enumerate(ranked, start=1)]
        # under the axis label, so it never hides a bar however the distribution falls
        ax.annotate("\n".join(["Most likely survivors:", *lines]), xy=(0, 0),
                    xycoords="axes fraction", xytext=(0, -LISTING_OFFSET_PT),
                    textcoords="offset points", ha="left", va="top", fontsize=9,
                    linespacing=1.35)
    most = max((len(m) + lift for (_, _, lift), m in zip(lifted, (marks[k] for k in sorted(marks)),
                                                          strict=True)), default=1)
    ax.set_ylim(0, max(heights, default=0.0) * (1.1 + 0.06 * most) + 1)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    percent_axis(ax.yaxis)
    ax.grid(axis="x", visible=False)
    ax.set_ylabel("probability (%)")
    if by == "count":
        ax.set_xlabel(f"{side}'s units left (number of units)")
    else:
        ax.set_xlabel(f"IPC value of the {side}'s units left (IPCs)")
    lost = getattr(result, f"{side}_ipc_lost", None)
    note = f"; expected IPC lost {lost:.1f}" if lost is not None else ""
    ax.set_title(f"{side.capitalize()} survivors{note}")
    return ax


def _survivor_panel_height(top: int) -> float:
    """Inches for one survivor panel and its listing of ``top`` survivor sets."""
    return PANEL_HEIGHT + (LISTING_LINE_HEIGHT * (top + 1) if top else 0.0)


def _check_survivor_args(by: str, top: int, sides: Sequence[str]) -> None:
    if by not in SURVIVOR_MEASURES:
        raise PlotError(f"survivors by '{by}': use count or ipc")
    if isinstance(top, bool) or not isinstance(top, int) or top < 0:
        raise PlotError(f"top must be a whole number >= 0, not {top!r}")
    if isinstance(sides, str) or not sides or any(side not in SIDE_COLOURS for side in sides):
        shown = repr(sides) if isinstance(sides, str) else repr(tuple(sides))
        raise PlotError(f"sides must be a list of attacker and/or defender (e.g. ['attacker']), not {shown}")


def _shorten(text: str) -> str:
    return text if len(text) <= MAX_LABEL_CHARS else text[:MAX_LABEL_CHARS - 1] + "…"


def _figure_and_axes(ax: Axes | None, height: float) -> tuple[Figure, Axes]:
    if ax is not None:
        return figure_of(ax), ax
    fig = new_figure(height=height)
    return fig, fig.add_subplot()


def _figure_title(fig: Figure, text: str | None) -> None:
    """The battle as the title of a figure the chart made itself."""
    if text:
        fig.suptitle(wrap_title(text))
