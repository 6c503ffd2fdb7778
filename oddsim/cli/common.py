"""What every command shares: printing a result and its exit status (``print_result``,
``finish``), the ``--quiet``/``--json``/``--plot`` options, ``--rule KEY=VALUE``, the
command-line side of ``oddsim.model.rules.with_changes`` (battle, amphibious, raid, purchase), and
the battle options declared in ``oddsim.model.options``, as click options (``declared``).
A command imports this module, never the group (``oddsim.cli``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from oddsim._runtime.exits import EXIT_BAD_INPUT, EXIT_INTERRUPTED, INTERRUPTED
from oddsim.cli.chart import plot_option
from oddsim.cli.declared_options import RETREAT_FLAGS, declared

__all__ = ["EXIT_BAD_INPUT", "EXIT_INTERRUPTED", "INTERRUPTED", "RETREAT_FLAGS", "UNITS_HELP", "declared",
           "finish", "output_options", "print_result", "rule_option", "unit_values_option",
           "with_rule_changes"]

F = TypeVar("F", bound=Callable)


def rule_option(command: F) -> F:
    """The repeatable ``--rule`` option (a tuple of ``KEY=VALUE`` texts, ``rule_changes``)."""
    return click.option(
        "--rule", "rule_changes", multiple=True, metavar="KEY=VALUE",
        help="Set one key of the edition's ruleset file for this command, e.g. "
             "combat.repair=end_of_turn or units.transport.defense=1: the readings the rules "
             "leave open (docs/rules.md; repeatable).")(command)


def with_rule_changes(rules: str | Path, changes: Sequence[str], unit_values: str | None = None):
    """The edition ``rules`` (a name or path, as ``--rules`` gives it) loaded, with ``changes``
    set and the units ``unit_values`` names valued so (``--unit-values ftr=14``): the command
    line resolves the edition here, once, and hands the ``Ruleset`` inward."""
    from oddsim.model.rules import load_ruleset, rule_changes, with_changes

    base = load_ruleset(rules)
    if not changes and not unit_values:
        return base
    return with_changes(rules, rule_changes(changes, unit_values, base))


def unit_values_option(command: F) -> F:
    """The ``--unit-values UNIT=IPCS,...`` option (``unit_values``, text or None)."""
    return click.option(
        "--unit-values", "unit_values", default=None, metavar="UNIT=IPCS,...",
        help="Value units beyond their cost, e.g. ftr=14,bmb=15: every IPC figure and objective "
             "counts them so, and so does the default order of loss (cheapest first).")(command)


UNITS_HELP = ("Units by name or abbreviation (inf, art, arm, ftr, bmb, bb, dd, sub, trn, ...): "
              "'oddsim rules show EDITION' lists each edition's units and abbreviations.")


def output_options(command):
    """--quiet, --json and --plot, the same on every command that fights a battle."""
    options = [
        click.option("--quiet", is_flag=True, help="No progress bar."),
        click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object."),
        plot_option(),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def print_result(result, text: str, plot: Path | None, draw: Callable[[Any, Path], Path],
                 as_json: bool) -> int:
    """Print ``text``, the result, and draw it with ``draw(result, plot)`` when ``--plot`` asks;
    returns the exit status (``finish``).

    The chart is written first, so one that cannot be written fails in one line with nothing
    printed; a run that Ctrl-C cut short writes no chart (its figures are from part of the runs).
    Where the chart went is said after the result (on stderr under --json, which keeps stdout
    JSON)."""
    written = draw(result, plot) if plot and not getattr(result, "interrupted", False) else None
    click.echo(text)
    if written is not None:
        click.echo(f"wrote {written}", err=as_json)
    return finish(result, chart_asked=plot is not None)


def finish(result, chart_asked: bool = False) -> int:
    """The exit status of a command that printed ``result``: 130 when Ctrl-C cut it short (the
    printed figures say "interrupted"; a chart ``--plot`` asked for was not written), else 0."""
    if getattr(result, "interrupted", False):
        skipped = "; no chart was written" if chart_asked else ""
        click.echo(f"oddsim: interrupted: the figures above are from the runs done so far{skipped}", err=True)
        return EXIT_INTERRUPTED
    return 0
