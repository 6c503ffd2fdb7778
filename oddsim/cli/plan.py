"""``oddsim plan``: the best split of a pool over several attacks, or (``--defend``) of a defence
over threatened territories; parse, one API call (``oddsim.plan``), print."""

from __future__ import annotations

import click

from oddsim.cli.chart import write_plan_chart
from oddsim.cli.common import (
    RETREAT_FLAGS,
    UNITS_HELP,
    declared,
    output_options,
    print_result,
    rule_option,
    unit_values_option,
    with_rule_changes,
)
from oddsim.cli.game import GAME_HELP, board_options_alone, game_plan
from oddsim.errors import OddsimError
from oddsim.model.options import OPTION


@click.command(epilog=UNITS_HELP)
@click.option("--rules", "rules", default=None,
              help="Edition name (see 'oddsim rules list'), a ruleset .toml file or a TripleA game "
                   "file (.xml) [default: 1942-2e].")
@click.option("--pool", default=None, help='The units to split, e.g. "12 inf, 4 art, 4 arm, 3 ftr".')
@click.option("--target", "targets", multiple=True, metavar="NAME=DEFENDERS",
              help='A territory to attack and its defenders, e.g. "Ukraine=6 inf, 2 arm, 1 aa" '
                   '(repeatable); with --game, a territory\'s name: its defenders from the board.')
@click.option("--game", "game_file", type=click.Path(dir_okay=False), default=None,
              help=GAME_HELP + " With --from: the pool and the targets' defenders from the board.")
@click.option("--from", "sources", default=None, metavar="T1,T2",
              help="With --game: the territories whose units make the pool.")
@click.option("--attacker-player", default=None, metavar="PLAYER",
              help="With --game: whose units make the pool (default: the one player with units there).")
@click.option("--defend", is_flag=True, help="Plan a defence: place the pool on the --threat territories.")
@click.option("--threat", "threats", multiple=True, metavar="NAME=ATTACKERS",
              help='With --defend: a territory and the army that attacks it, e.g. "Karelia=6 inf, 3 arm" '
                   '(repeatable).')
@click.option("--stands", multiple=True, metavar="NAME=UNITS",
              help='With --defend: units already in a territory, e.g. "Karelia=2 inf" (repeatable).')
@click.option("--value", "values", multiple=True, metavar="NAME=IPCS",
              help="A target's worth in IPCs (default 0; repeatable).")
@click.option("--reach", multiple=True, metavar="UNIT=T1,T2",
              help="The targets a unit type may go to (default: any; repeatable), e.g. ftr=Ukraine,Belarus.")
@click.option("--goal", default=None,
              help="Attack: value (default: TUV swing + value x chance to take), tuv, take-all, "
                   "take-at-least:K, hold-after. Defence: hold-all (default), hold-at-least:K, value.")
@click.option("--counter-attack", "counters", multiple=True, metavar="NAME=ARMY",
              help='The army that counter-attacks what takes a target, for --goal hold-after, e.g. '
                   '"Ukraine=5 inf, 3 arm" (repeatable).')
@click.option("--keep-home", default=None, help='Units of the pool that stay home, e.g. "2 inf".')
@click.option("--alternatives", type=click.IntRange(0, 20), default=3, show_default=True,
              help="How many runners-up to list.")
@declared(OPTION["sea"].but(help="Sea battles (goals value and tuv)."))
@click.option("--runs", type=int, default=None, metavar="2..10^10",
              help="Monte Carlo runs per sub-army of a target too large to solve exactly (default 20,000).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, metavar="0..2^64-1",
              help="Seed of those Monte Carlo battles; each target's derives from it.")
@declared("ool_attacker", "ool_defender",
          OPTION["casualty_goal"].but(help="What a side with order of loss 'best' plays for in each "
                                           "target's battle (default: the plan's goal: value with the "
                                           "target's value, tuv, or take for goals that count targets)."),
          "keep_land", "attacker_tech", "defender_tech", "dice")
@click.option("--workers", type=int, default=None, metavar="1..",
              help="Solve the targets' battles on a local Dask cluster of N workers.")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
              help="Solve the targets' battles on an existing Dask cluster.")
@declared(*RETREAT_FLAGS)
@rule_option
@unit_values_option
@output_options
def plan(rules, pool, targets, game_file, sources, attacker_player, defend, threats, stands, values, reach,
         goal, counters, keep_home, alternatives, runs, seed, workers, scheduler, rule_changes, unit_values,
         quiet, as_json, plot, options) -> int:
    """The best split of a pool over several attacks (or, with --defend, over threatened
    territories), exact, with the runners-up and each unit type's value at the margin (a target too
    large to solve exactly for every sub-army is simulated: --runs, --seed).

    Example: oddsim plan --pool "6 inf, 2 arm" --target "A=2 inf" --target "B=1 inf" --value A=3
    """
    import json

    from oddsim import plan as planner
    from oddsim.model.options import retreat_fields, without_retreat
    from oddsim.plan.spec import plan_entries
    from oddsim.results.readings import text_with_readings, with_readings

    plan_entries(defend, targets, threats)  # (before the edition: the line names the flags)
    if game_file is not None:
        edition, pool, targets, options = game_plan(game_file, sources, attacker_player, defend, pool,
                                                    targets, rules, rule_changes, unit_values, options)
    else:
        board_options_alone({"--from": sources, "--attacker-player": attacker_player})
        if pool is None:
            raise OddsimError("Missing option '--pool': give the units to split, or --game FILE --from T1,T2")
        edition = with_rule_changes(rules or "1942-2e", rule_changes, unit_values)
    if workers is not None or scheduler is not None:
        from oddsim._runtime.dask_cluster import check_options
        from oddsim.plan.goals import PlanError

        check_options(workers, scheduler, PlanError)  # before any battle
    retreat = retreat_fields(options)
    common = dict(workers=workers, scheduler=scheduler, runs=runs, seed=seed, **without_retreat(options))
    if defend:
        result = planner.defend(edition, pool, list(threats), goal=goal or "hold-all", values=list(values),
                                reach=list(reach), keep_home=keep_home, stands=list(stands),
                                alternatives=alternatives, retreat=retreat, **common)
    else:
        aims = targets if isinstance(targets, dict) else list(targets)  # (--game: defenders by name)
        result = planner.attack(edition, pool, aims, goal=goal or "value", values=list(values),
                                reach=list(reach), keep_home=keep_home, counter_attack=list(counters),
                                alternatives=alternatives, retreat=retreat, **common)
    text = json.dumps(with_readings(result.to_dict(), edition), indent=2) if as_json \
        else text_with_readings(result.to_table(), edition)
    return print_result(result, text, plot, write_plan_chart, as_json)
