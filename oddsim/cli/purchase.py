"""``oddsim purchase``: the purchase sweep from the command line (parse, one API call, print the
report of ``oddsim.purchase.report``)."""

from __future__ import annotations

import json
import signal
import threading
from contextlib import contextmanager
from typing import TYPE_CHECKING

import click

from oddsim.cli.chart import plot_option, refuse_a_typed_seed_for_exact, write_purchase_chart
from oddsim.cli.common import (
    EXIT_INTERRUPTED,
    declared,
    print_result,
    rule_option,
    unit_values_option,
    with_rule_changes,
)
from oddsim.limits import METHODS
from oddsim.model.options import OPTION
from oddsim.purchase.enumeration import MAX_PURCHASES
from oddsim.purchase.goals import Goal
from oddsim.purchase.output import CHUNK_ROWS
from oddsim.purchase.report import answer, report
from oddsim.purchase.spec import SweepSpec

if TYPE_CHECKING:
    from oddsim.purchase.runner import SweepInterrupted


@click.command()
@click.option("--rules", default="1942-2e", show_default=True,
              help="Edition name (see 'oddsim rules list'), "
                   "a ruleset .toml file or a TripleA game file (.xml).")
@click.option("--budget", type=int, required=True, metavar="0..",
              help=f"IPCs to spend (a sweep tries at most {MAX_PURCHASES:,} purchases).")
@click.option("--units", required=True, help="Unit types to buy, e.g. inf,art,arm,ftr,bmb.")
@click.option("--max", "caps", multiple=True, metavar="UNIT=N",
              help="Buy at most N of UNIT (repeatable, or comma-separated: arm=4,ftr=2).")
@click.option("--existing", default="none", show_default=True,
              help='The buyer\'s units already there, e.g. "4 inf, 2 arm".')
@click.option("--against", required=True,
              help='The other side, e.g. "6 inf, 2 art, 1 ftr" ("none": undefended, take/clear/tuv).')
@click.option("--goal", type=click.Choice([g.value for g in Goal], case_sensitive=False),
              default="take", show_default=True,
              help="take: chance to take the territory; clear: chance to destroy every defender "
                   "and have a unit left; "
                   "hold: you defend, chance to keep it; tuv: expected TUV swing; value: TUV swing "
                   "plus --territory-value if taken, retreating at best; hold-after: chance to "
                   "take it and hold it against --counter-attack.")
@click.option("--territory-value", type=click.FloatRange(min=0), default=None,
              help="IPCs the territory is worth, for --goal value (default 0).")
@click.option("--counter-attack", default=None,
              help='The army that counter-attacks, for --goal hold-after, e.g. "4 inf, 2 arm".')
@declared(OPTION["sea"].but(help="A sea battle (goals take, value and hold-after are refused: "
                                "use clear or tuv)."),
          OPTION["ool_attacker"].but(help="Order of loss of the battle's attacker; 'best': it chooses "
                                          "each loss, every battle solved as a game for --casualty-goal."),
          OPTION["ool_defender"].but(help="Order of loss of the battle's defender (as --ool-attacker)."),
          OPTION["casualty_goal"].but(help="What a side with order of loss 'best' plays for in each battle "
                                           "(default: the sweep's goal: take for take, hold and hold-after "
                                           "on land, win for clear, tuv, value)."),
          OPTION["keep_land"].but(minimum=None, metavar="0..1000", help="Keep the attacker's last N land "
                                  "units until everything else is lost."))
@click.option("--method", type=click.Choice(METHODS), default="auto",
              show_default=True, help="Engine per battle; auto is exact when cheap.")
@click.option("--runs", type=int, default=None, metavar="2..10^10",
              help="Monte Carlo runs per battle (default 100,000).")
@click.option("--seed", type=int, default=0, show_default=True, metavar="0..2^64-1",
              help="Sweep seed; each Monte Carlo battle's seed derives from it and the battle.")
@click.option("--top", type=click.IntRange(min=0), default=10, show_default=True,
              help="Rows of the ranking to print (0: all).")
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="Write rows as they finish to a .csv or .json (JSON Lines) file.")
@click.option("--resume", is_flag=True, help="Keep the rows already in --out; solve the rest.")
@click.option("--workers", type=int, default=None, metavar="1..",
              help="Run on a local Dask cluster of N workers.")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
              help="Run on an existing Dask cluster.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the answer as one JSON object (the report, the ranked rows, the frontier).")
@click.option("--chunk-rows", type=click.IntRange(min=1), default=CHUNK_ROWS, hidden=True,
              help="Rows per write to --out.")
@rule_option
@unit_values_option
@plot_option(help="Also draw the cost-vs-goal scatter to this .png, .svg or .pdf file.")
def purchase(rules, budget, units, caps, existing, against, goal, territory_value, counter_attack,
             method, runs, seed, top, out, resume, workers, scheduler, quiet, as_json, chunk_rows,
             rule_changes, unit_values, plot, options) -> int:
    """Rank every purchase within a budget by the chance to take or hold, or the TUV swing."""
    from oddsim.purchase.runner import SweepInterrupted, run_sweep  # the engines: not for --help

    refuse_a_typed_seed_for_exact(method)
    prices = with_rule_changes(rules, rule_changes)  # what a purchase costs, whatever the values
    rules = with_rule_changes(rules, rule_changes, unit_values)
    spec = SweepSpec.build(rules, budget, units, against, goal=goal, existing=existing,
                           max_counts=",".join(caps) or None, method=method, runs=runs, seed=seed,
                           territory_value=territory_value, counter_attack=counter_attack,
                           prices=prices if unit_values else None, **options)
    try:
        with _stop_on_signals() as stop_requested:
            table = run_sweep(spec, out=out, resume=resume, workers=workers, scheduler=scheduler,
                              progress=not quiet and not as_json, chunk_rows=chunk_rows,
                              stop_requested=stop_requested)
    except SweepInterrupted as stop:
        _print_interrupted(stop, spec, top, out)
        return EXIT_INTERRUPTED
    text = json.dumps(answer(table, spec, top), indent=2) if as_json else report(table, spec, top)
    return print_result(table, text, plot, lambda rows, path: write_purchase_chart(
        rows, path, top=min(top, 5) or 5, title=spec.describe()), as_json=as_json)


def _print_interrupted(stop: SweepInterrupted, spec: SweepSpec, top: int, out: str | None) -> None:
    """Ctrl-C stopped the sweep: the ranking of the rows done, marked interrupted (on stdout,
    like the partial figures of other interrupted commands), and one line on stderr saying how
    far it got and, without ``--out``, how to keep the rows of a long sweep."""
    table = stop.table
    if table is not None and len(table):
        click.echo(f"interrupted: ranking of the {len(table):,} of {stop.purchases:,} purchases done")
        click.echo(report(table, spec, top))
    keep = "" if out else "; a long sweep keeps its rows with --out rows.csv (then --resume finishes it)"
    click.echo(f"oddsim: interrupted: {stop}{keep}", err=True)


@contextmanager
def _stop_on_signals():
    """While a sweep runs, Ctrl-C and SIGTERM ask it to stop after the row in hand (the finished
    rows are written); a second one stops at once. Yields the question the sweep asks."""
    if threading.current_thread() is not threading.main_thread():
        yield None
        return
    asked: list[int] = []

    def ask(signum, frame):
        if asked:
            raise KeyboardInterrupt
        asked.append(signum)

    previous = {signum: signal.signal(signum, ask) for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield lambda: bool(asked)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
