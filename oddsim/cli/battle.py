"""``oddsim battle``: one battle, later waves (``--wave``, ``--wave-plan``) or a counter-attack."""

from __future__ import annotations

import click

from oddsim.cli.chart import write_battle_chart
from oddsim.cli.common import (
    UNITS_HELP,
    declared,
    finish,
    output_options,
    print_result,
    rule_option,
    unit_values_option,
    with_rule_changes,
)
from oddsim.cli.game import ATTACKER_PLAYER_HELP, GAME_HELP, board_options_alone, game_battle
from oddsim.errors import OddsimError
from oddsim.limits import METHODS
from oddsim.model.options import OPTIONS

_FIRST = ("sea", "ool_attacker", "ool_defender", "keep_land")
_REST = tuple(option.name for option in OPTIONS if option.on_command_line and option.name not in _FIRST)
"""``oddsim battle`` offers every declared battle option, in the declaration's order (the
engine options come after the first four)."""


class _Survivors(click.ParamType):
    """``all`` or a positive number of rows (0 in the API means all)."""

    name = "all|N"

    def convert(self, value, param, ctx):
        from oddsim.results.text import survivor_rows

        try:
            rows = survivor_rows(value)
        except OddsimError as error:
            self.fail(str(error), param, ctx)
        if rows == 0 and str(value).strip().lower() != "all":  # (0 means all in the API only)
            self.fail(f"survivors {value}: give a positive number of rows, or 'all'", param, ctx)
        return rows


@click.command(epilog=UNITS_HELP)
@click.option("--rules", "rules", default=None,
              help="Edition name (see 'oddsim rules list'), a ruleset .toml file or a TripleA game "
                   "file (.xml) [default: 1942-2e].")
@click.option("-a", "--attacker", default=None,
              help='Attacking army, e.g. "3 inf, 1 art, 2 arm" (at most 1000 units); with --game, '
                   'instead of the board\'s.')
@click.option("-d", "--defender", default=None,
              help='Defending army, e.g. "4 inf, 1 arm"; "none" for an undefended territory; with '
                   '--game, instead of the board\'s.')
@click.option("--game", "game_file", type=click.Path(dir_okay=False), default=None, help=GAME_HELP
              + " With --territory: the battle there, armies, technologies and rules from the board.")
@click.option("--territory", default=None, metavar="NAME", help="With --game: the territory or sea zone.")
@click.option("--attacker-player", default=None, metavar="PLAYER",
              help="With --game: " + ATTACKER_PLAYER_HELP)
@declared(*_FIRST)
@click.option("--method", type=click.Choice(METHODS), default="auto",
              show_default=True, help="Exact solver, Monte Carlo, or auto (exact when cheap).")
@click.option("--runs", type=int, default=None, metavar="2..10^10",
              help="Monte Carlo runs (default 1,000,000 with --method mc).")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              metavar="0..2^64-1", help="Monte Carlo seed (default: random).")
@declared(*_REST)
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
@unit_values_option
@output_options
def battle(rules, attacker, defender, game_file, territory, attacker_player, method, runs, seed, waves,
           wave_plan, counter, survivors, rule_changes, unit_values, quiet, as_json, plot, options) -> int:
    """Odds of one battle (and of later waves with --wave).

    Example: oddsim battle -a "3 inf, 1 art, 2 arm" -d "4 inf, 1 arm"
    """
    # (imports here, not at the top: every oddsim command imports this module, and the help,
    # the listings and bad input answer without NumPy or Numba: tests/cli/test_cli_imports.py)
    import json

    from oddsim.model.options import battle_from
    from oddsim.results.readings import text_with_readings, with_readings

    if game_file is None:
        board_options_alone({"--territory": territory, "--attacker-player": attacker_player})
        if attacker is None or defender is None:
            missing = "'-a' / '--attacker'" if attacker is None else "'-d' / '--defender'"
            raise OddsimError(f"Missing option {missing}: give both armies, or --game FILE --territory NAME")
        edition = with_rule_changes(rules or "1942-2e", rule_changes, unit_values)
        spec = battle_from(edition, attacker, defender, options)
    else:
        spec = game_battle(game_file, territory, attacker_player, rules, rule_changes, unit_values,
                           attacker, defender, options)
    # the engines: after the input is checked
    from oddsim.model.side import Side, given_order
    from oddsim.results.battle_result import BattleResult
    from oddsim.stages.counter import CounterAttackResult, counter_order
    from oddsim.stages.request import BattleRequest, RequestKind, run_request
    from oddsim.stages.wave_plan import load_wave_plan
    from oddsim.stages.waves import Wave, WaveResult

    later = [Wave(attacker=Side(w, given_order(spec.attacker), keep_land=spec.attacker.keep_land))
             for w in waves]
    if wave_plan is not None:
        later += load_wave_plan(wave_plan)
    request = BattleRequest(spec, waves=later or None, counter_attack=counter,
                            ool_counter=counter_order(spec),
                            method=method, runs=runs, seed=seed)
    if request.kind is RequestKind.COUNTER_ATTACK and (plot or survivors is not None):
        raise OddsimError("--plot and --survivors show one battle: drop them with --counter-attack")
    if request.kind is RequestKind.WAVES and survivors is not None:
        raise OddsimError("--survivors shows one battle's survivors: drop it with --wave")
    answer = run_request(request, progress=not quiet and not as_json)
    if isinstance(answer, CounterAttackResult):
        click.echo(json.dumps(with_readings(answer.to_dict(), spec.rules), indent=2) if as_json
                   else text_with_readings(answer.to_table(), spec.rules))
        return finish(answer.battle)
    if isinstance(answer, WaveResult):
        text = json.dumps(with_readings(answer.to_dict(), spec.rules), indent=2) if as_json \
            else text_with_readings(answer.to_table(), spec.rules)
        return print_result(answer, text, plot, lambda waves, path: write_battle_chart(
            waves, path, title=spec.describe() + ", then later waves"), as_json)
    assert isinstance(answer, BattleResult)
    text = json.dumps(with_readings(answer.to_dict(), spec.rules), indent=2) if as_json \
        else text_with_readings(answer.to_table(survivors), spec.rules)
    return print_result(answer, text, plot, write_battle_chart, as_json)
