"""The ``oddsim`` command line: parse arguments, make one API call, print. Nothing else lives here."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import click

from oddsim._entry import EXIT_INTERRUPTED, INTERRUPTED
from oddsim._rule_option import rule_option, with_rule_changes
from oddsim.errors import OddsimError, one_line
from oddsim.plot.cli import plot_option, write_battle_chart

EXIT_BAD_INPUT = 2
# click >= 8.2 raises this for a bare group; older versions print the help themselves
_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())


class _Stopped(Exception):
    """Ctrl-C that stopped a command, carried past click (which would print a blank line for a
    ``KeyboardInterrupt`` before the one line ``_interrupted`` prints)."""


class _Cli(click.Group):
    """A click group whose errors, ours and click's, end in one line on stderr and exit 2."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise _Stopped() from None

    def main(self, *args, **kwargs):  # noqa: D401 - click entry point
        kwargs["standalone_mode"] = False
        try:
            result = super().main(*args, **kwargs)
        except OddsimError as exc:
            _fail(str(exc))
        except (click.exceptions.Abort, KeyboardInterrupt, _Stopped):
            _interrupted()
        except SystemError as exc:  # Ctrl-C that landed as a Numba call returned
            if not isinstance(exc.__cause__ or exc.__context__, KeyboardInterrupt):
                raise
            _interrupted()
        except _NO_ARGS_IS_HELP as exc:
            click.echo(exc.ctx.get_help() if exc.ctx else str(exc))
            sys.exit(0)
        except click.ClickException as exc:
            _fail(exc.format_message())
        except OSError as exc:
            if not _printing(exc):
                raise
            _fail(_cannot_write_output(exc))
        if isinstance(result, int) and result:
            sys.exit(result)
        sys.exit(0)


def _printing(exc: OSError) -> bool:
    """Whether ``exc`` was raised while printing (a ``click.echo``: every command prints with it),
    as on a full disk or a closed terminal; a broken pipe click handles itself."""
    trace = exc.__traceback__
    while trace is not None:
        if trace.tb_frame.f_code is click.echo.__code__:
            return True
        trace = trace.tb_next
    return False


def _cannot_write_output(exc: OSError) -> str:
    """The error line of output that could not be written (``exc``: why, as the system says)."""
    return f"cannot write the output: {exc.strerror or exc}"


def _interrupted() -> None:
    click.echo(INTERRUPTED, err=True)
    sys.exit(EXIT_INTERRUPTED)


def finish(result, chart_asked: bool = False) -> int:
    """The exit status of a command that printed ``result``: 130 when Ctrl-C cut it short (the
    printed figures say "interrupted"; a chart ``--plot`` asked for was not written), else 0."""
    if getattr(result, "interrupted", False):
        skipped = "; no chart was written" if chart_asked else ""
        click.echo(f"oddsim: interrupted: the figures above are from the runs done so far{skipped}", err=True)
        return EXIT_INTERRUPTED
    return 0


def _fail(message: str) -> None:
    """Say the error in one line on stderr (when stderr still takes it) and exit 2."""
    _say_on_stderr(f"oddsim: error: {one_line(message)}")
    sys.exit(EXIT_BAD_INPUT)


@click.group(cls=_Cli, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="oddsim")
def cli() -> None:
    """Combat odds for Axis & Allies-style battles: exact and Monte Carlo."""


def _retreat_options(command):
    """The attacker's retreat options, handed to the command as one ``retreat`` argument (a
    ``RetreatPolicy``, or None when no option is given)."""
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
        from oddsim.battle import RetreatPolicy

        policy = RetreatPolicy(
            after_round=kwargs.pop("retreat_after_round"), units_left=kwargs.pop("retreat_units"),
            below_win=kwargs.pop("retreat_below_win"),
            aircraft_risk=kwargs.pop("retreat_aircraft_risk"), strafe=kwargs.pop("retreat_strafe"),
            best=kwargs.pop("retreat_best"), territory_value=kwargs.pop("territory_value"))
        return command(*args, retreat=policy if policy.active else None, **kwargs)

    for option in reversed(options):
        wrapper = option(wrapper)
    return wrapper


UNITS_HELP = ("Units by name or abbreviation (inf, art, arm, ftr, bmb, bb, dd, sub, trn, ...): "
              "'oddsim rules show EDITION' lists each edition's units and abbreviations.")


class _Survivors(click.ParamType):
    """``all`` or a positive number of rows (0 in the API means all)."""

    name = "all|N"

    def convert(self, value, param, ctx):
        from oddsim.result_text import survivor_rows

        try:
            rows = survivor_rows(value)
        except OddsimError as error:
            self.fail(str(error), param, ctx)
        if rows == 0 and str(value).strip().lower() != "all":  # (0 means all in the API only)
            self.fail(f"survivors {value}: give a positive number of rows, or 'all'", param, ctx)
        return rows


def _output_options(command):
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


@cli.command(epilog=UNITS_HELP)
@click.option("--rules", "rules", default="1942-2e", show_default=True,
              help="Edition name (see 'oddsim rules list') or path to a ruleset .toml file.")
@click.option("-a", "--attacker", required=True,
              help='Attacking army, e.g. "3 inf, 1 art, 2 arm" (at most 1000 units).')
@click.option("-d", "--defender", required=True,
              help='Defending army, e.g. "4 inf, 1 arm"; "none" for an undefended territory.')
@click.option("--sea", is_flag=True, help="A sea battle (default: land).")
@click.option("--ool-attacker", default=None,
              help="Attacker's order of loss, first lost first, e.g. inf,art,arm,ftr "
                   "(default: a unit that cannot fire first, then cheapest, counting its fighting "
                   "value: `oddsim rules show` lists it).")
@click.option("--ool-defender", default=None, help="Defender's order of loss (as --ool-attacker).")
@click.option("--keep-land", type=click.IntRange(min=0), default=0, show_default=True,
              help="Keep the attacker's last N land units (0..1000) until everything else is lost.")
@click.option("--method", type=click.Choice(["auto", "exact", "mc"]), default="auto",
              show_default=True, help="Exact solver, Monte Carlo, or auto (exact when cheap).")
@click.option("--runs", type=int, default=None, metavar="2..10^10",
              help="Monte Carlo runs (default 1,000,000 with --method mc).")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              metavar="0..2^64-1", help="Monte Carlo seed (default: random).")
@click.option("--attacker-tech", default="", help="Attacker's technologies, e.g. jets,heavy-bombers.")
@click.option("--defender-tech", default="", help="Defender's technologies, e.g. radar.")
@click.option("--dice", type=click.Choice(["standard", "lowluck"]), default="standard",
              show_default=True, help="Dice mode: standard, or Low Luck.")
@click.option("--in-progress", is_flag=True,
              help="A battle in progress, resumed at a round boundary: no AA fire, no bombardment.")
@click.option("--crash-fighters", is_flag=True,
              help="Sea battles: the defender's aircraft its surviving carriers cannot hold are lost.")
@click.option("--attacker-destroyer-last", is_flag=True,
              help="Sea battles: the attacker keeps its last destroyer as its last casualty while "
                   "the defender has subs.")
@click.option("--defender-destroyer-last", is_flag=True,
              help="Sea battles: the defender keeps its last destroyer as its last casualty while "
                   "the attacker has subs.")
@_retreat_options
@click.option("--landed", default=None,
              help='Attacking land units that came by sea (amphibious assault): they cannot retreat.')
@click.option("--bombard", default=None,
              help='Ships bombarding the shore before round 1, e.g. "1 bb, 1 cruiser" (needs --landed).')
@click.option("--attacker-submerge", type=click.Choice(["never", "always", "alone"]), default="never",
              show_default=True, help="When attacking subs submerge (no enemy destroyer).")
@click.option("--defender-submerge", type=click.Choice(["never", "always", "alone"]), default="never",
              show_default=True, help="When defending subs submerge (no enemy destroyer).")
@click.option("--wave", "waves", multiple=True,
              help="A later wave's attacker, fighting what the defender has left (repeatable).")
@click.option("--wave-plan", type=click.Path(dir_okay=False), default=None,
              help="A TOML or JSON file of later waves, each with its own options (see README).")
@click.option("--counter-attack", "counter", default=None,
              help='An army that counter-attacks what the attacker takes the territory with, e.g. '
                   '"6 inf, 2 arm": adds the chance to take it and hold it.')
@click.option("--survivors", type=_Survivors(), default=None,
              help="Also print each side's survivor table (with the chance to keep at least as "
                   "many units) and IPC-loss distribution: all rows, or the N most likely.")
@rule_option
@_output_options
def battle(rules, attacker, defender, sea, ool_attacker, ool_defender, keep_land, method, runs,
           seed, attacker_tech, defender_tech, dice, in_progress, crash_fighters, attacker_destroyer_last,
           defender_destroyer_last, retreat, landed,
           bombard, attacker_submerge, defender_submerge, waves, wave_plan, counter, survivors,
           rule_changes, quiet, as_json, plot) -> int:
    """Odds of one battle (and of later waves with --wave).

    Example: oddsim battle -a "3 inf, 1 art, 2 arm" -d "4 inf, 1 arm"
    """
    import json

    from oddsim.battle import Battle

    spec = Battle(rules=with_rule_changes(rules, rule_changes), attacker=attacker, defender=defender, sea=sea,
                  ool_attacker=ool_attacker, ool_defender=ool_defender, keep_land=keep_land,
                  attacker_tech=attacker_tech, defender_tech=defender_tech, dice=dice,
                  in_progress=in_progress, crash_fighters=crash_fighters,
                  attacker_destroyer_last=attacker_destroyer_last,
                  defender_destroyer_last=defender_destroyer_last, retreat=retreat,
                  landed=landed, bombard=bombard, attacker_submerge=attacker_submerge,
                  defender_submerge=defender_submerge)
    # the engines: after the input is checked
    from oddsim.api import run_battle, run_counter_attack, run_waves
    from oddsim.waves import Wave

    later = [Wave(attacker=w, ool_attacker=ool_attacker, keep_land=keep_land) for w in waves]
    if wave_plan is not None:
        from oddsim.wave_plan import load_wave_plan

        later += load_wave_plan(wave_plan)
    if counter is not None:
        if later:
            raise OddsimError("--counter-attack follows one battle: drop --wave, or fight the waves "
                              "first and counter-attack their result as a separate battle")
        if plot or survivors is not None:
            raise OddsimError("--plot and --survivors show one battle: drop them with --counter-attack")
        outcome = run_counter_attack(spec, counter, method=method, runs=runs, seed=seed,
                                     ool_counter=ool_defender)
        click.echo(json.dumps(outcome.to_dict(), indent=2) if as_json else outcome.to_table())
        return finish(outcome.battle)
    if later:
        if survivors is not None:
            raise OddsimError("--survivors shows one battle's survivors: drop it with --wave")
        total = run_waves(spec, later, method=method, runs=runs, seed=seed)
        text = json.dumps(total.to_dict(), indent=2) if as_json else total.to_table()
        return print_result(total, text, plot, lambda waves, path: write_battle_chart(
            waves, path, title=spec.describe() + ", then later waves"), as_json)
    result = run_battle(spec, method=method, runs=runs, seed=seed,
                        progress=not quiet and not as_json)
    return print_result(result, result.to_json() if as_json else result.to_table(survivors), plot,
                        write_battle_chart, as_json)


@cli.command()
@click.option("--rules", "rules", default="1942-2e", show_default=True,
              help="Edition name (see 'oddsim rules list') or path to a ruleset .toml file.")
@click.option("--bombers", type=int, default=0, show_default=True, metavar="0..200",
              help="Strategic bombers.")
@click.option("--tac-bombers", type=int, default=0, show_default=True, metavar="0..200",
              help="Tactical bombers (global-1940-2e, bases).")
@click.option("--escorts", type=int, default=0, show_default=True, metavar="0..200",
              help="Escorting fighters (editions with air battles).")
@click.option("--interceptors", type=int, default=0, show_default=True, metavar="0..200",
              help="Intercepting fighters.")
@click.option("--territory-value", type=int, default=None, metavar="0..1000",
              help="IPC value of the territory, where the edition caps damage by it.")
@click.option("--facility", type=click.Choice(["major", "minor", "air_base", "naval_base"]), default=None,
              help="Target facility, where the edition caps damage by facility.")
@click.option("--attacker-tech", default="", help="Attacker's technologies, e.g. heavy-bombers.")
@click.option("--defender-tech", default="", help="Defender's technologies, e.g. radar.")
@click.option("--method", type=click.Choice(["exact", "mc"]), default="exact", show_default=True,
              help="Exact enumeration or Monte Carlo.")
@click.option("--runs", type=int, default=None, metavar="2..10^10",
              help="Monte Carlo raids (default 1,000,000 with --method mc).")
@click.option("--seed", type=click.IntRange(min=0), default=None, metavar="0..2^64-1",
              help="Monte Carlo seed (default: random).")
@click.option("--aa-gun/--no-aa-gun", default=None,
              help="Whether an AA gun stands in the territory, where the edition's facilities have "
                   "no built-in AA (default: it does).")
@click.option("--dice", type=click.Choice(["standard", "lowluck"]), default="standard", show_default=True,
              help="Low Luck: AA and air-battle dice score total // 6 hits, plus one by chance.")
@rule_option
@_output_options
def raid(rules, bombers, tac_bombers, escorts, interceptors, territory_value, facility, attacker_tech,
         defender_tech, method, runs, seed, aa_gun, dice, rule_changes, quiet, as_json, plot) -> int:
    """Strategic bombing raid: AA fire, air battle, damage distribution."""
    from oddsim.raid import Raid, run_raid

    rules = with_rule_changes(rules, rule_changes)
    spec = Raid(rules=rules, bombers=bombers, tactical_bombers=tac_bombers, escorts=escorts,
                interceptors=interceptors, territory_value=territory_value, facility=facility,
                attacker_tech=attacker_tech, defender_tech=defender_tech, aa_gun=aa_gun, dice=dice)
    result = run_raid(spec, method=method, runs=runs, seed=seed)
    from oddsim.plot.cli import write_raid_chart

    return print_result(result, result.to_json() if as_json else result.to_table(), plot,
                        write_raid_chart, as_json)


@cli.group()
def rules() -> None:
    """List the editions and show their units."""


@rules.command("list")
def rules_list() -> None:
    """The editions shipped with oddsim."""
    from oddsim.rules import builtin_names, load_ruleset

    for name in builtin_names():
        click.echo(f"{name:16s} {load_ruleset(name).title}")


@rules.command("show")
@click.argument("name")
def rules_show(name: str) -> None:
    """Unit table and special rules of an edition (name or .toml path)."""
    from oddsim.rules import load_ruleset

    click.echo(describe_ruleset(load_ruleset(name)))


def describe_ruleset(ruleset) -> str:
    """Readable unit table and rule flags."""
    from oddsim.rules import SubFirstStrike, SubStrikeDestroyer, SubStrikeRounds

    lines = [f"{ruleset.name}: {ruleset.title}", ""]
    lines.append(f"{'unit':16s} {'cost':>4s} {'att':>4s} {'def':>4s} {'move':>4s} {'hits':>4s}  "
                 f"{'domain':6s} {'abbreviations':24s} roles")
    for u in ruleset.units:
        roles = [flag for flag in ("submarine", "destroyer", "aa", "defenceless", "casualty_last",
                                   "transport", "heavy_cargo") if getattr(u, flag)]
        if not u.combatant:
            roles.append("not a casualty")
        if not u.can_attack:
            roles.append("cannot attack")
        lines.append(f"{u.name:16s} {u.cost:4d} {u.attack:4d} {u.defense:4d} {u.move:4d} "
                     f"{u.hits:4d}  {u.domain.value:6s} {', '.join(u.aliases):24s} {', '.join(roles)}")
    c = ruleset.combat
    lines += ["", f"subs strike first: {c.sub_first_strike.value}; aircraft hit subs: "
              f"{c.air_hits_subs.value}; AA dice: {c.aa_dice.value}"
              + (f" ({c.aa_dice_per_gun} per gun)" if c.aa_dice.value == "per_gun" else "")
              + f", hit on {c.aa_hit}; AA casualties: {c.aa_casualties.value}; two-hit units "
              f"repaired: {c.repair.value.replace('_', ' ')}"]
    if c.sub_first_strike is not SubFirstStrike.NONE:
        rounds = ("every round" if c.sub_strike_rounds is SubStrikeRounds.EVERY
                  else "in round 1 only, then with general fire")
        cancels = ("not in a round the enemy starts with a destroyer"
                   if c.sub_strike_destroyer is SubStrikeDestroyer.EACH_ROUND
                   else "not at all in a battle the enemy starts with a destroyer")
        lines.append(f"first strike: {rounds} (sub_strike_rounds = {c.sub_strike_rounds.value}); "
                     f"{cancels} (sub_strike_destroyer = {c.sub_strike_destroyer.value})")
    heavy = ", ".join(u.name for u in ruleset.units if u.heavy_cargo) or "none"
    lines.append(f"transport: {ruleset.transport.capacity} land units, at most "
                 f"{ruleset.transport.max_heavy} of {heavy}; may ignore lone subs/transports: "
                 f"{'yes' if ruleset.amphibious.ignore_subs_and_transports else 'no'}; raid "
                 f"built-in AA: {'yes' if ruleset.raid.builtin_aa else 'no'}")
    for rule in ruleset.support:
        lines.append(f"support: each {'/'.join(rule.supporters)} raises {rule.per_supporter} "
                     f"{'/'.join(rule.supported)} to {rule.value} on {rule.side}")
    if ruleset.bombard.units:
        ships = ", ".join(f"{name} @{value}" for name, value in ruleset.bombard.units)
        lines.append(f"bombard: {ships}")
    from oddsim.order_of_loss import DEFAULT_ORDER_PRINCIPLE, default_order

    lines += ["", f"default order of loss: {DEFAULT_ORDER_PRINCIPLE}"]
    for side, attacking in (("attacker", True), ("defender", False)):
        lines.append(f"  {side}: {', '.join(default_order(ruleset, attacking))}")
    return "\n".join(lines)


@cli.command()
@click.option("--rules", "rules", default="1942-2e", show_default=True,
              help="Edition name or a ruleset .toml file.")
@click.option("--fleet", required=True,
              help='Attacking ships, transports included, e.g. "1 bb, 2 transport".')
@click.option("--cargo", required=True, help='Land units on the transports, e.g. "2 inf, 1 art, 1 arm".')
@click.option("-d", "--defender", required=True, help='Defenders of the territory ("none": undefended).')
@click.option("--sea-defender", default=None, help="Defending ships in the sea zone (a sea battle first).")
@click.option("--overland", default=None, help="Land units attacking from adjacent territories.")
@click.option("--air", default=None, help="Aircraft sent to the land battle.")
@click.option("--sea-air", default=None, help="Aircraft sent to the sea battle.")
@click.option("--no-bombard", is_flag=True, help="The fleet does not bombard (it does by default "
              "when there is no sea battle).")
@click.option("--sea-battle", type=click.Choice(["fight", "ignore"]), default=None,
              help="Fight or ignore sea defenders that are only subs/transports, where the edition "
                   "allows ignoring them (default: ignore there, else fight).")
@click.option("--ool-attacker", default=None,
              help="Attacker's order of loss in the land battle, e.g. inf,art,arm,ftr "
                   "(default: a unit that cannot fire first, then cheapest, counting its fighting "
                   "value: `oddsim rules show` lists it).")
@click.option("--ool-defender", default=None, help="Defender's order of loss in the land battle.")
@click.option("--keep-land", type=click.IntRange(min=0), default=0, show_default=True,
              help="Keep the attacker's last N land units (0..1000) until everything else is lost.")
@click.option("--method", type=click.Choice(["auto", "exact", "mc"]), default="auto", show_default=True,
              help="Exact solver, Monte Carlo, or auto (exact when cheap), per battle.")
@click.option("--runs", type=int, default=None, metavar="2..10^10",
              help="Monte Carlo battles in all (default 1,000,000).")
@click.option("--seed", type=click.IntRange(min=0), default=None, metavar="0..2^64-1",
              help="Monte Carlo seed (default: random).")
@click.option("--attacker-tech", default="", help="Attacker's technologies, e.g. jets,heavy-bombers.")
@click.option("--defender-tech", default="", help="Defender's technologies, e.g. radar.")
@click.option("--dice", type=click.Choice(["standard", "lowluck"]), default="standard", show_default=True,
              help="Dice mode: standard, or Low Luck.")
@_retreat_options
@rule_option
@_output_options
def amphibious(rules, fleet, cargo, defender, sea_defender, overland, air, sea_air, no_bombard,
               sea_battle, ool_attacker, ool_defender, keep_land, method, runs, seed, attacker_tech,
               defender_tech, dice, retreat, rule_changes, quiet, as_json, plot) -> int:
    """Odds of an amphibious assault: sea battle, bombardment, land battle (the retreat options
    and orders of loss apply to the land battle, where the landed units stay)."""
    import json

    from oddsim.amphibious import Amphibious
    from oddsim.api import run_amphibious

    rules = with_rule_changes(rules, rule_changes)
    assault = Amphibious(rules=rules, fleet=fleet, cargo=cargo, defender=defender,
                         sea_defender=sea_defender, overland=overland, air=air, sea_air=sea_air,
                         bombard=not no_bombard, sea_battle=sea_battle, retreat=retreat,
                         attacker_tech=attacker_tech, defender_tech=defender_tech, dice=dice,
                         ool_attacker=ool_attacker, ool_defender=ool_defender, keep_land=keep_land)
    result = run_amphibious(assault, method=method, runs=runs, seed=seed,
                            progress=not quiet and not as_json)
    from oddsim.plot.cli import write_amphibious_chart

    text = json.dumps(result.to_dict(), indent=2) if as_json else result.to_table()
    return print_result(result, text, plot, write_amphibious_chart, as_json)


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (another than loopback only when you mean it).")
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True)
@click.option("--open", "open_browser", is_flag=True, help="Open the page in a browser.")
def serve(host, port, open_browser) -> None:
    """A local web app: the page and a JSON API, with the engines kept warm."""
    try:
        from oddsim.web import serve as run_server
    except ImportError as exc:
        raise OddsimError(f"oddsim serve needs {exc.name}: pip install oddsim (or pip install "
                          f"starlette uvicorn)") from None
    run_server(host=host, port=port, open_browser=open_browser, say=click.echo)


def _register_subcommands() -> None:
    """Commands that live with their own feature package."""
    from oddsim.cache_cli import cache
    from oddsim.plot.cli import chart
    from oddsim.purchase.cli import purchase
    from oddsim.trench.cli import trench

    cli.add_command(cache)
    cli.add_command(chart)
    cli.add_command(purchase)
    cli.add_command(trench)


_register_subcommands()


def main() -> None:
    """The ``oddsim`` command: says when an engine must be compiled, runs, exits at once."""
    from oddsim._first_run import announce_compiles

    announce_compiles()
    try:
        cli()
    except SystemExit as stop:
        if not stop.code:
            _warm_the_others()
        _exit_now(stop.code)


def _warm_the_others() -> None:
    """After a first run's answer (it compiled an engine): compile the other engines in the
    background, so that the next commands do not compile each its own (``oddsim.warm``)."""
    from oddsim import _first_run

    if _first_run.compiled_any():
        from oddsim import warm
        from oddsim._cache_key import current_kernel_dir

        warm.start(current_kernel_dir())


def _exit_now(code: object) -> NoReturn:
    """End the process without tearing the interpreter down: unloading NumPy, Numba and the
    compiled kernels took a quarter of a warm one-second battle. Whatever the command wrote is
    closed by now; the standard streams are flushed here."""
    if code is None or isinstance(code, int):
        status = code or 0
    else:
        click.echo(code, err=True)
        status = 1
    try:
        sys.stdout.flush()
    except OSError as exc:  # the output was lost: said once, unless a failure was said already
        if not status:
            status = EXIT_BAD_INPUT
            _say_on_stderr(f"oddsim: error: {_cannot_write_output(exc)}")
    _say_on_stderr("")
    os._exit(status)


def _say_on_stderr(line: str) -> None:
    """Write ``line`` (if any) to stderr and flush it; nothing more can be done if that fails."""
    try:
        if line:
            sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except OSError:
        pass


if __name__ == "__main__":
    main()
