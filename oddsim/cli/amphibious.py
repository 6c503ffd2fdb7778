"""``oddsim amphibious``: an amphibious assault (the sea battle, then the land battle)."""

from __future__ import annotations

import click

from oddsim.cli.common import (
    RETREAT_FLAGS,
    declared,
    output_options,
    print_result,
    rule_option,
    with_rule_changes,
)
from oddsim.limits import METHODS
from oddsim.model.options import DEFAULT_ORDER_HELP, OPTION


@click.command()
@click.option("--rules", "rules", default="1942-2e", show_default=True,
              help="Edition name, a ruleset .toml file or a TripleA game file (.xml).")
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
@declared(OPTION["ool_attacker"].but(help=f"Attacker's order of loss in the land battle, e.g. "
                                          f"inf,art,arm,ftr {DEFAULT_ORDER_HELP}."),
          OPTION["ool_defender"].but(help="Defender's order of loss in the land battle."), "keep_land")
@click.option("--ool-sea-attacker", default=None,
              help="Attacker's order of loss in the sea battle, e.g. dd,bb (default: cheapest first, "
                   "transports last where the edition says so); 'best': it chooses each loss.")
@click.option("--ool-sea-defender", default=None, help="Defender's order of loss in the sea battle.")
@declared(OPTION["casualty_goal"].but(help="What a side with order of loss 'best' plays for: in the "
                                           "landing take (default), win, tuv or value; the sea battle "
                                           "plays for tuv where this is tuv, else win."),
          "casualty_value")
@click.option("--method", type=click.Choice(METHODS), default="auto", show_default=True,
              help="Exact solver, Monte Carlo, or auto (exact when cheap), per battle.")
@click.option("--runs", type=int, default=None, metavar="2..10^10",
              help="Monte Carlo battles in all (default 1,000,000).")
@click.option("--seed", type=click.IntRange(min=0), default=None, metavar="0..2^64-1",
              help="Monte Carlo seed (default: random).")
@declared("attacker_tech", "defender_tech", "dice", *RETREAT_FLAGS)
@rule_option
@output_options
def amphibious(rules, fleet, cargo, defender, sea_defender, overland, air, sea_air, no_bombard,
               sea_battle, ool_sea_attacker, ool_sea_defender, method, runs, seed, rule_changes, quiet,
               as_json, plot, options) -> int:
    """Odds of an amphibious assault: sea battle, bombardment, land battle (the retreat options
    and orders of loss apply to the land battle, where the landed units stay)."""
    import json

    from oddsim.api import run_amphibious
    from oddsim.model.battle import RetreatPolicy
    from oddsim.model.options import retreat_fields, without_retreat
    from oddsim.results.readings import text_with_readings, with_readings
    from oddsim.stages.amphibious import Amphibious

    rules = with_rule_changes(rules, rule_changes)
    retreat = retreat_fields(options)
    assault = Amphibious(rules=rules, fleet=fleet, cargo=cargo, defender=defender,
                         sea_defender=sea_defender, overland=overland, air=air, sea_air=sea_air,
                         bombard=not no_bombard, sea_battle=sea_battle, ool_sea_attacker=ool_sea_attacker,
                         ool_sea_defender=ool_sea_defender,
                         retreat=None if retreat is None else RetreatPolicy(**retreat),  # type: ignore[arg-type]
                         **without_retreat(options))
    result = run_amphibious(assault, method=method, runs=runs, seed=seed,
                            progress=not quiet and not as_json)
    from oddsim.cli.chart import write_amphibious_chart

    text = json.dumps(with_readings(result.to_dict(), rules), indent=2) if as_json \
        else text_with_readings(result.to_table(), rules)
    return print_result(result, text, plot, write_amphibious_chart, as_json)

