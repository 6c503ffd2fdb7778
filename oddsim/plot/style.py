"""The look every oddsim chart shares: a colour-blind-safe palette, font sizes readable at 800 px,
and figures made without pyplot, so drawing never needs a display and never opens a window.

Colours are the Okabe-Ito palette (distinguishable with the common colour-vision deficiencies);
a meaning keeps its colour across charts: the attacker is blue, the defender vermillion.
"""

from __future__ import annotations

import functools
import textwrap
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

import matplotlib
from cycler import cycler
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, MaxNLocator

from oddsim.plot.errors import PlotError

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.typing import RcKeyType


OKABE_ITO = ("#0072B2", "#D55E00", "#009E73", "#E69F00", "#56B4E9", "#CC79A7", "#F0E442",
             "#000000")
"""Blue, vermillion, bluish green, orange, sky blue, reddish purple, yellow, black."""
BLUE, VERMILLION, GREEN, ORANGE, SKY_BLUE, PURPLE, YELLOW, BLACK = OKABE_ITO
GREY = "#8C8C8C"

SIDE_COLOURS = {"attacker": BLUE, "defender": VERMILLION}
OUTCOME_COLOURS = {"attacker_win": BLUE, "draw": GREY, "stalemate": ORANGE, "retreat": SKY_BLUE,
                   "defender_win": VERMILLION, "takes_territory": GREEN}
SEQUENTIAL_COLOURMAP = "cividis"
"""For heatmaps: perceptually uniform and readable with colour-vision deficiencies."""

WIDTH_INCHES = 8.0
DPI = 100
"""Figures are 8 in x 100 dpi = 800 px wide: the size a shared picture is usually seen at."""
TITLE_WIDTH = 88
"""Characters per title line that fit 800 px at the title font size."""

_RC: dict[RcKeyType, Any] = {
    "font.size": 10.5,
    "axes.titlesize": 11.5,
    "axes.labelsize": 10.5,
    "xtick.labelsize": 9.5,
    "ytick.labelsize": 9.5,
    "legend.fontsize": 9,
    "legend.title_fontsize": 9.5,
    "figure.titlesize": 12.5,
    "axes.prop_cycle": cycler(color=OKABE_ITO),
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "grid.linewidth": 0.6,
    "axes.axisbelow": True,
    "savefig.facecolor": "white",
    "figure.facecolor": "white",
}

P = ParamSpec("P")
R = TypeVar("R")


def styled(draw: Callable[P, R]) -> Callable[P, R]:
    """Run a chart function with oddsim's style, leaving the caller's matplotlib settings alone."""

    @functools.wraps(draw)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with matplotlib.rc_context(_RC):
            return draw(*args, **kwargs)

    return wrapper


def new_figure(height: float, width: float = WIDTH_INCHES) -> Figure:
    """A pyplot-free figure (no global state, no window, safe on a headless machine)."""
    return Figure(figsize=(width, height), dpi=DPI, layout="constrained")


def figure_of(ax: Axes) -> Figure:
    """The figure ``ax`` is drawn on (the top one, where ``ax`` sits in a subfigure)."""
    if not hasattr(ax, "get_figure"):
        raise PlotError(f"ax must be matplotlib Axes, not {type(ax).__name__}")
    fig = ax.get_figure(root=True)
    if fig is None:
        raise PlotError("the axes belong to no figure")
    return fig


def wrap_title(text: str, width: int = TITLE_WIDTH) -> str:
    """``text`` broken into lines that fit the figure's width (its own line breaks kept)."""
    if not isinstance(text, str):
        raise PlotError(f"title must be text, not {type(text).__name__}")
    lines = [wrapped for line in text.splitlines()
             for wrapped in (textwrap.wrap(line, width, break_on_hyphens=False) or [""])]
    return "\n".join(lines)


def percent_axis(axis) -> None:
    """Label an axis's ticks as percentages of values already in percent (0-100), at round steps."""
    axis.set_major_locator(MaxNLocator(nbins=6, steps=[1, 2, 5, 10]))
    axis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:.4g}%"))


def percent_label(probability: float) -> str:
    """``"73.9%"``; ``"<0.1%"`` for a chance that is not zero but would print as 0.0%."""
    if 0 < probability < 0.0005:
        return "<0.1%"
    return f"{100 * probability:.1f}%"


def method_note(result) -> str:
    """``exact`` or ``Monte Carlo, 20,000 runs``: how a result was obtained, for its title."""
    if getattr(result, "method", "exact") == "mc":
        runs = getattr(result, "runs", None)
        return f"Monte Carlo, {runs:,} runs" if runs else "Monte Carlo"
    return "exact"
