"""``oddsim raid``: a strategic bombing raid."""

from __future__ import annotations

import click

from oddsim.cli.common import declared, output_options, print_result, rule_option, with_rule_changes
from oddsim.limits import EXACT_OR_MC
from oddsim.model.options import OPTION


@click.command()
@click.option("--rules", "rules", default="1942-2e", show_default=True,
              help="Edition name (see 'oddsim rules list'), "
                   "a ruleset .toml file or a TripleA game file (.xml).")
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
@declared(OPTION["attacker_tech"].but(help="Attacker's technologies, e.g. heavy-bombers."), "defender_tech")
@click.option("--method", type=click.Choice(EXACT_OR_MC), default="exact", show_default=True,
              help="Exact enumeration or Monte Carlo.")
@click.option("--runs", type=int, default=None, metavar="2..10^10",
              help="Monte Carlo raids (default 1,000,000 with --method mc).")
@click.option("--seed", type=click.IntRange(min=0), default=None, metavar="0..2^64-1",
              help="Monte Carlo seed (default: random).")
@click.option("--aa-gun/--no-aa-gun", default=None,
              help="Whether an AA gun stands in the territory, where the edition's facilities have "
                   "no built-in AA (default: it does).")
@declared(OPTION["dice"].but(help="Low Luck: AA and air-battle dice score total // 6 hits, plus one by "
                                 "chance."))
@rule_option
@output_options
def raid(rules, bombers, tac_bombers, escorts, interceptors, territory_value, facility, method, runs, seed,
         aa_gun, rule_changes, quiet, as_json, plot, options) -> int:
    """Strategic bombing raid: AA fire, air battle, damage distribution."""
    import json

    from oddsim.raid import Raid, run_raid
    from oddsim.results.readings import text_with_readings, with_readings

    rules = with_rule_changes(rules, rule_changes)
    spec = Raid(rules=rules, bombers=bombers, tactical_bombers=tac_bombers, escorts=escorts,
                interceptors=interceptors, territory_value=territory_value, facility=facility,
                aa_gun=aa_gun, **options)
    result = run_raid(spec, method=method, runs=runs, seed=seed)
    from oddsim.cli.chart import write_raid_chart

    text = json.dumps(with_readings(result.to_dict(), rules), indent=2) if as_json \
        else text_with_readings(result.to_table(), rules)
    return print_result(result, text, plot, write_raid_chart, as_json)

