"""The Longest Trench: how many fronts each side wins, and the chance each side's card on each
front is destroyed (its front lost by 4 or more). Reads a ``TrenchResult``, exact or Monte
Carlo (Monte Carlo bars carry 95% error bars)."""

from __future__ import annotations

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from oddsim.plot.errors import require
from oddsim.plot.style import (
    SIDE_COLOURS,
    method_note,
    new_figure,
    percent_axis,
    percent_label,
    styled,
    wrap_title,
)
from oddsim.results.estimates import Z_95
from oddsim.trench.result import TrenchResult

SIDES = ("attacker", "defender")
BAR_WIDTH = 0.38


@styled
def trench_chart(result) -> Figure:
    """Two panels: the fronts-won distribution (0-3) of both sides, and each side's per-front
    card-loss chance ("no card" where a side has none). Returns the figure; never shows it."""
    require(result, TrenchResult, "trench_chart")
    fig = new_figure(height=4.6)
    fronts_ax, cards_ax = fig.subplots(1, 2, width_ratios=[4, 3])
    errors = getattr(result, "std_error", None) or {}
    _grouped_bars(fronts_ax, [0, 1, 2, 3],
                  {side: getattr(result.fronts_won, side) for side in SIDES},
                  {side: (errors.get("fronts_won") or {}).get(side) for side in SIDES})
    fronts_ax.set_xticks([0, 1, 2, 3], ["0", "1", "2", "3"])
    fronts_ax.set_xlabel("fronts won (number of fronts)")
    fronts_ax.set_ylabel("probability (%)")
    fronts_ax.set_title("Fronts won")
    fronts_ax.legend(loc="upper left", framealpha=0.9)
    _grouped_bars(cards_ax, [1, 2, 3],
                  {side: getattr(result.cards_destroyed, side) for side in SIDES},
                  {side: (errors.get("cards_destroyed") or {}).get(side) for side in SIDES})
    cards_ax.set_xticks([1, 2, 3], ["front 1", "front 2", "front 3"])
    cards_ax.set_xlabel("front")
    cards_ax.set_ylabel("chance the card is destroyed (%)")
    cards_ax.set_title("Card destroyed (front lost by 4+)")
    summary = (f"attacker wins {percent_label(result.attacker_win)}, defender "
               f"{percent_label(result.defender_win)}, draw {percent_label(result.draw)} "
               f"({method_note(result)})")
    fig.suptitle(wrap_title(f"{result.battle}\n{summary}"))
    return fig


def _grouped_bars(ax: Axes, positions: list[int], values: dict, errors: dict) -> None:
    """Attacker and defender bars side by side at each position; ``None`` values get a
    "no card" note instead of a bar."""
    tallest = 0.0
    for k, side in enumerate(SIDES):
        shift = (k - 0.5) * BAR_WIDTH
        side_errors = errors.get(side) or [0.0] * len(positions)
        labelled = False
        for x, value, error in zip(positions, values[side], side_errors, strict=True):
            if value is None:
                ax.text(x + shift, 1, "no\ncard", ha="center", va="bottom", fontsize=8,
                        color=SIDE_COLOURS[side])
                continue
            height, bar_error = 100 * value, 100 * Z_95 * (error or 0.0)
            ax.bar(x + shift, height, width=BAR_WIDTH, color=SIDE_COLOURS[side],
                   edgecolor="white", label=None if labelled else side, yerr=bar_error or None,
                   capsize=3, ecolor="black")
            labelled = True
            ax.annotate(percent_label(value), (x + shift, height + bar_error), xytext=(0, 2),
                        textcoords="offset points", ha="center", va="bottom", fontsize=8)
            tallest = max(tallest, height + bar_error)
    ax.set_ylim(0, max(tallest * 1.18, 10))
    percent_axis(ax.yaxis)
    ax.grid(axis="x", visible=False)
