"""What every command shares: printing a result and its exit status (``print_result``,
``finish``), the ``--quiet``/``--json``/``--plot`` options, and ``--rule KEY=VALUE``, the
command-line side of ``oddsim.model.rules.with_changes`` (battle, amphibious, raid, purchase).
A command imports this module, never the group (``oddsim.cli``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from oddsim._runtime.exits import EXIT_BAD_INPUT, EXIT_INTERRUPTED, INTERRUPTED
from oddsim.cli.chart import plot_option

__all__ = ["EXIT_BAD_INPUT", "EXIT_INTERRUPTED", "INTERRUPTED", "UNITS_HELP", "finish", "output_options",
           "print_result", "retreat_options", "rule_option", "unit_values_option", "with_rule_changes"]

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


DEFAULT_ORDER_HELP = ("(default: a unit that cannot fire first, then cheapest, counting its fighting "
                      "value: `oddsim rules show` lists it)")
"""What the order-of-loss options say of the default (``oddsim.model.order_of_loss``)."""

UNITS_HELP = ("Units by name or abbreviation (inf, art, arm, ftr, bmb, bb, dd, sub, trn, ...): "
              "'oddsim rules show EDITION' lists each edition's units and abbreviations.")


def order_of_loss_options(command: F) -> F:
    """--ool-attacker, --ool-defender and --keep-land, as every command that fights one kind of
    battle per target has them (``oddsim battle``, ``oddsim plan``)."""
    options = [
        click.option("--ool-attacker", default=None,
                     help=f"Attacker's order of loss, first lost first, e.g. inf,art,arm,ftr "
                          f"{DEFAULT_ORDER_HELP}."),
        click.option("--ool-defender", default=None, help="Defender's order of loss (as --ool-attacker)."),
        click.option("--keep-land", type=click.IntRange(min=0), default=0, show_default=True,
                     help="Keep the attacker's last N land units (0..1000) until everything else is lost."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def tech_and_dice_options(command: F) -> F:
    """--attacker-tech, --defender-tech and --dice, the same on battle, amphibious and plan."""
    options = [
        click.option("--attacker-tech", default="", help="Attacker's technologies, e.g. jets,heavy-bombers."),
        click.option("--defender-tech", default="", help="Defender's technologies, e.g. radar."),
        click.option("--dice", type=click.Choice(["standard", "lowluck"]), default="standard",
                     show_default=True, help="Dice mode: standard, or Low Luck."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


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


def retreat_options(command=None, *, as_fields: bool = False):
    """The attacker's retreat options, handed to the command as one ``retreat`` argument (a
    ``RetreatPolicy``, or None when no option is given). ``as_fields``: the options given, as a
    mapping of ``RetreatPolicy``'s fields (None when none is), for a command that builds the
    policy itself (``oddsim plan``: one per target, each with its own value)."""
    if command is None:
        return lambda command: retreat_options(command, as_fields=as_fields)
    import functools

    options = [
        click.option("--retreat-after-round", type=int, default=None, metavar="1..100",
                     help="Attacker retreats after this round if the battle is not over."),
        click.option("--retreat-units", type=int, default=None, metavar="0..1000",
                     help="Attacker retreats when it has this many units or fewer."),
        click.option("--retreat-below-win", type=float, default=None, metavar="0..1",
                     help="Attacker retreats when its exact chance to win falls below this."),
        click.option("--retreat-aircraft-risk", type=float, default=None, metavar="0..1",
                     help="Attacker retreats when the next round would kill an aircraft with more "
                          "than this chance."),
        click.option("--retreat-strafe", type=int, default=None, metavar="0..1000",
                     help="Attacker retreats once the defender is down to this many units or fewer "
                          "(a strafe)."),
        click.option("--retreat-best", type=click.Choice(["tuv", "value"]), default=None,
                     help="The best retreat, computed exactly: maximise the expected TUV swing "
                          "(tuv), or that plus --territory-value when the territory is taken (value)."),
        click.option("--territory-value", type=click.FloatRange(min=0), default=None,
                     help="IPCs the territory is worth to the attacker, for --retreat-best value."),
    ]

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        from oddsim.model.battle import RetreatPolicy

        fields = dict(
            after_round=kwargs.pop("retreat_after_round"), units_left=kwargs.pop("retreat_units"),
            below_win=kwargs.pop("retreat_below_win"),
            aircraft_risk=kwargs.pop("retreat_aircraft_risk"), strafe=kwargs.pop("retreat_strafe"),
            best=kwargs.pop("retreat_best"), territory_value=kwargs.pop("territory_value"))
        if as_fields:
            given = {name: value for name, value in fields.items() if value is not None}
            return command(*args, retreat=given or None, **kwargs)
        policy = RetreatPolicy(**fields)  # type: ignore[arg-type]
        return command(*args, retreat=policy if policy.active else None, **kwargs)

    for option in reversed(options):
        wrapper = option(wrapper)
    return wrapper
