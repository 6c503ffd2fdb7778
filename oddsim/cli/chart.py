"""``oddsim chart curve|heatmap``, and the ``--plot FILE`` option other commands share.

Nothing here imports matplotlib or the engines until a chart is drawn or a sweep is run (the
chart functions come through ``oddsim.plot``'s and the sweeps through ``oddsim.sweeps``'s names
that load on first use), so ``oddsim`` starts as fast with the plotting commands registered.
Errors are ``PlotError`` or ``SweepError`` (``OddsimError``s): the ``oddsim`` command prints them
as one line and exits with status 2. The sweeps are computed by ``oddsim.sweeps``; the charts
only draw them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import click

from oddsim import plot, sweeps
from oddsim.cli.declared_options import declared
from oddsim.errors import OddsimError
from oddsim.limits import METHODS, refuse_for_exact
from oddsim.model.options import OPTION
from oddsim.model.rules import load_ruleset
from oddsim.plot.saving import check_output_path, save_figure
from oddsim.sweeps.results import DEFAULT_CHART_RUNS

METRIC_HELP = ("win: the attacker wins; take: it takes the territory (land); hold: the defender "
               "keeps it.")


def _checked_path(ctx: click.Context, param: click.Parameter, value: str | None) -> Path | None:
    """Refuse a bad chart file name while parsing, before any battle is fought."""
    return None if value is None else check_output_path(value)


def refuse_a_typed_seed_for_exact(method: str) -> None:
    """``--seed`` typed with ``--method exact`` is refused, as the battle commands refuse it. A
    sweep's and a chart's seed has a default (their figures are reproducible), so only a seed
    typed on the command line is known to be one the exact engine would ignore."""
    ctx = click.get_current_context()
    if method == "exact" and ctx.get_parameter_source("seed") is click.core.ParameterSource.COMMANDLINE:
        refuse_for_exact(None, ctx.params["seed"], OddsimError, use="--method auto or mc")


def plot_option(help: str = "Also draw the result to this .png, .svg or .pdf file.") -> Callable:
    """The ``--plot FILE`` option (``plot`` parameter, a checked ``Path`` or ``None``)."""
    return click.option("--plot", "plot", type=click.Path(dir_okay=False), default=None,
                        callback=_checked_path, metavar="FILE", help=help)


def write_battle_chart(result, path: str | Path, title: str | None = None) -> Path:
    """Draw one battle's result (outcome and survivors; a ``WaveResult``: the outcome) to
    ``path``."""
    return save_figure(plot.battle_chart(result, title=title), path)


def write_purchase_chart(table, path: str | Path, top: int = 5, title: str | None = None) -> Path:
    """Draw a purchase sweep's cost-vs-goal scatter, frontier and best ``top`` to ``path``."""
    return save_figure(plot.pareto_chart(table, top=top, title=title), path)


def write_plan_chart(plan, path: str | Path) -> Path:
    """Draw a plan's split and the objective of its runners-up to ``path``."""
    return save_figure(plot.plan_chart(plan), path)


def write_raid_chart(result, path: str | Path) -> Path:
    """Draw a raid's damage distribution to ``path``."""
    return save_figure(plot.raid_chart(result), path)


def write_amphibious_chart(result, path: str | Path) -> Path:
    """Draw an amphibious assault's landings and the chance to take the territory to ``path``."""
    return save_figure(plot.amphibious_chart(result), path)


def write_trench_chart(result, path: str | Path) -> Path:
    """Draw a Longest Trench result (fronts won, cards lost) to ``path``."""
    return save_figure(plot.trench_chart(result), path)


SWEPT_OPTIONS = ("ool_attacker", "ool_defender", "keep_land")
"""The declared battle options (``oddsim.model.options``) a chart's every battle takes, besides
``sea``."""


def _sweep_options(command: Callable) -> Callable:
    """Options shared by curve and heatmap: edition, battle kind, engine, output file."""
    options = [
        click.option("--rules", default="1942-2e", show_default=True,
                     help="Edition name (see 'oddsim rules list'), "
                          "a ruleset .toml file or a TripleA game file (.xml)."),
        declared(OPTION["sea"].but(help="Sea battles (default: land).")),
        click.option("--metric", type=click.Choice(["win", "take", "hold"]), default="win",
                     show_default=True, help=METRIC_HELP),
        declared(*SWEPT_OPTIONS),
        click.option("--method", type=click.Choice(METHODS), default="auto",
                     show_default=True, help="Engine per battle; auto is exact when cheap."),
        click.option("--runs", type=int, default=None, metavar="2..10^10",
                     help=f"Monte Carlo runs per battle (default {DEFAULT_CHART_RUNS:,})."),
        click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
                     help="Monte Carlo seed (battle k of the chart uses seed + k)."),
        click.option("--out", "out", required=True, type=click.Path(dir_okay=False),
                     callback=_checked_path, metavar="FILE",
                     help="The chart file: .png, .svg or .pdf."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


@click.group("chart", context_settings={"help_option_names": ["-h", "--help"]})
def chart() -> None:
    """Charts over many battles: odds curves and heatmaps, saved as PNG, SVG or PDF."""


@chart.command("curve")
@click.option("-a", "--attacker", "attackers", multiple=True, required=True,
              help='Attacking army, e.g. "2 arm" (repeat for one curve per army).')
@click.option("-d", "--defender", "defenders", multiple=True, required=True,
              help='Defending army, e.g. "4 inf, 1 arm" (repeatable too).')
@click.option("--vary", required=True, metavar="UNIT=LOW..HIGH",
              help="Units to add to each army, e.g. inf=0..20 (or inf=0..40:2 for every second); "
                   "units of that type the army has stay, the varied count is added to them.")
@click.option("--side", type=click.Choice(["attacker", "defender"]), default="attacker",
              show_default=True, help="Whose unit count varies.")
@_sweep_options
def curve_command(attackers, defenders, vary, side, rules, metric, method, runs, seed, out,
                  options) -> None:
    """A chance (win, take, hold) as one unit count varies, one curve per army.

    Example: oddsim chart curve -a "2 arm" -a "1 art, 1 arm" -d "4 inf, 1 arm" --vary inf=0..20
    --out odds.png
    """
    refuse_a_typed_seed_for_exact(method)
    sweep = sweeps.curve_sweep(load_ruleset(rules), attackers, defenders, vary, side=side,
                               metric=metric, method=method, runs=runs, seed=seed, **options)
    path = save_figure(plot.odds_curve_chart(sweep), out)
    points = [p for c in sweep.curves for p in c.points]
    click.echo(f"wrote {path}: {len(sweep.curves)} curve(s) of {len(sweep.curves[0].counts)} "
               f"points ({_engines(points)})")


@chart.command("heatmap")
@click.option("-a", "--attacker", default="none", show_default=True,
              help='Attacking army besides the varied units, e.g. "1 ftr".')
@click.option("-d", "--defender", required=True, help='Defending army, e.g. "6 inf, 1 arm".')
@click.option("--x", "x", required=True, metavar="UNIT=LOW..HIGH",
              help="Units added along the x axis, e.g. inf=0..15 (added to any the army has).")
@click.option("--y", "y", required=True, metavar="UNIT=LOW..HIGH",
              help="Units added along the y axis, e.g. arm=0..10 (added to any the army has).")
@click.option("--x-side", type=click.Choice(["attacker", "defender"]), default="attacker",
              show_default=True, help="Whose unit --x counts.")
@click.option("--y-side", type=click.Choice(["attacker", "defender"]), default="attacker",
              show_default=True, help="Whose unit --y counts.")
@_sweep_options
def heatmap_command(attacker, defender, x, y, x_side, y_side, rules, metric, method, runs, seed, out,
                    options) -> None:
    """A chance (win, take, hold) over two unit counts.

    Example: oddsim chart heatmap -a "1 ftr" -d "6 inf, 1 arm" --x inf=0..15 --y arm=0..10
    --out heatmap.png
    """
    refuse_a_typed_seed_for_exact(method)
    sweep = sweeps.heatmap_sweep(load_ruleset(rules), attacker, defender, x, y, x_side=x_side,
                                 y_side=y_side, metric=metric, method=method, runs=runs, seed=seed,
                                 **options)
    path = save_figure(plot.heatmap_chart(sweep), out)
    points = [p for row in sweep.points for p in row]
    click.echo(f"wrote {path}: {len(sweep.x_counts)} x {len(sweep.y_counts)} cells "
               f"({_engines(points)})")


def _engines(points) -> str:
    exact = sum(p.method == "exact" for p in points)
    mc = sum(p.method == "mc" for p in points)
    empty = len(points) - exact - mc
    text = f"{exact} exact, {mc} Monte Carlo"
    return text + (f", {empty} without an attacker" if empty else "")
