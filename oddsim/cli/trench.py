"""``oddsim trench``: parse arguments, make one call to ``oddsim.trench``, print.

``trench`` is a click group that computes one battle when called without a subcommand, and
``trench advise`` ranks the attacker's commitments. Errors are raised as ``OddsimError`` (or
click's own), which the ``oddsim`` command turns into one line and exit status 2.
"""

from __future__ import annotations

import click
from click.core import ParameterSource

from oddsim.cli.chart import plot_option, write_trench_chart
from oddsim.cli.common import print_result
from oddsim.limits import EXACT_OR_MC
from oddsim.trench.model import (
    FIRST_YEAR,
    LAST_YEAR,
    MAX_POINTS,
    DiceFronts,
    Information,
    Policy,
    RollOrder,
    SupportFleet,
    TiedFront,
    TrenchError,
)

POLICIES = click.Choice([p.value for p in Policy])
ROLL_ORDERS = click.Choice([r.value for r in RollOrder])
INFORMATION = click.Choice([i.value for i in Information])
DICE_FRONTS = click.Choice([d.value for d in DiceFronts])
TIED_FRONTS = click.Choice([t.value for t in TiedFront])
SUPPORT_FLEETS = click.Choice([s.value for s in SupportFleet])
BATTLE_OPTIONS = ("attacker", "attacker_support", "defender", "defender_support", "year",
                  "points", "sea", "policy", "defender_policy", "roll_order", "method", "runs",
                  "seed", "as_json", "plot", "information", "dice_fronts", "destroy_margin",
                  "hidden_support_values", "tied_front", "support_fleet")


def _common(command):
    """Options shared by the battle and the advice: year, points, sea, placement, JSON."""
    options = [
        click.option("--year", type=int, default=None, metavar=f"{FIRST_YEAR}..{LAST_YEAR}",
                     help="Year of the battle, 1914-1918 (from 1917 a 4 is a valid die)."),
        click.option("--points", type=int, default=1, show_default=True, metavar=f"0..{MAX_POINTS}",
                     help="The battle's printed victory points."),
        click.option("--sea", is_flag=True,
                     help="A sea battle: fleet cards on the fronts and in the support slots."),
        click.option("--policy", type=POLICIES, default="optimal", show_default=True,
                     help="How both sides place their artillery dice."),
        click.option("--defender-policy", type=POLICIES, default=None,
                     help="The defender's placement, if not --policy."),
        click.option("--roll-order", type=ROLL_ORDERS, default="both-first", show_default=True,
                     help="both-first: both roll, then place (the rules); attacker-first: the "
                          "defender rolls after the attacker placed."),
        click.option("--information", type=INFORMATION, default="hidden", show_default=True,
                     help="hidden: a side places its dice seeing where the enemy's supports lie, "
                          "not their values (the seed); full: both see every support."),
        click.option("--hidden-support-values", default="1,2,3", show_default=True,
                     help="Belief about a face-down support card: values, optionally with "
                          "whole-number weights (1:2,2:1,3:1); also scores supports given as ?."),
        click.option("--dice-fronts", type=DICE_FRONTS, default="any", show_default=True,
                     help="any: valid dice go on any front (the seed); own: only where the side "
                          "has a card."),
        click.option("--destroy-margin", type=click.Choice(["4", "5"]), default="4",
                     show_default=True,
                     help="A front won by this much or more destroys the loser's card (the seed "
                          "says 'by 4 or more' and 'by more than 4')."),
        click.option("--tied-front", type=TIED_FRONTS, default="nobody", show_default=True,
                     help="Who takes a front with equal totals: nobody (our assumption: the "
                          "seed is silent) or the defender (as it takes a drawn battle)."),
        click.option("--support-fleet", type=SUPPORT_FLEETS, default="survives",
                     show_default=True,
                     help="At sea, a front's fleet destroyed takes the fleet in its support "
                          "slot with it (destroyed) or not (survives, our assumption)."),
        click.option("--json", "as_json", is_flag=True, help="Print one JSON object."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


@click.group("trench", invoke_without_command=True,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--attacker", default=None,
              help="Attacker's army strength on fronts 1-3, e.g. 5,-,3 (- for no card).")
@click.option("--attacker-support", default=None,
              help="Attacker's support per front, e.g. 2,0,1 (0 or -: none; ?: face down, value "
                   "unknown; at sea: the fleet card in the support slot).")
@click.option("--defender", default=None, help="Defender's army strength on fronts 1-3.")
@click.option("--defender-support", default=None,
              help="Defender's support per front, e.g. 0,?,3.")
@_common
@click.option("--method", type=click.Choice(EXACT_OR_MC), default="exact",
              show_default=True, help="Exact enumeration or Monte Carlo.")
@click.option("--runs", type=int, default=None, metavar="2..10^10",
              help="Monte Carlo runs (default 1,000,000).")
@click.option("--seed", type=int, default=None, metavar="0..2^64-1",
              help="Monte Carlo seed (default: random).")
@plot_option()
@click.pass_context
def trench(ctx: click.Context, attacker, attacker_support, defender, defender_support, year,
           points, sea, policy, defender_policy, roll_order, information, hidden_support_values,
           dice_fronts, destroy_margin, tied_front, support_fleet, as_json, method, runs, seed,
           plot) -> int | None:
    """The Longest Trench: odds of one battle (or 'advise': how to commit a hand).

    Example: oddsim trench --attacker 5,4,3 --attacker-support 2,0,1 --defender 4,4,4
    --defender-support 0,0,3 --year 1917 --points 2
    """
    given = [name for name in BATTLE_OPTIONS
             if ctx.get_parameter_source(name) is not ParameterSource.DEFAULT]
    if ctx.invoked_subcommand is not None:
        if given:
            flags = ", ".join("--" + n.replace("_", "-").replace("as-json", "json")
                              for n in given)
            raise TrenchError(f"{flags}: give options after '{ctx.invoked_subcommand}'")
        return None
    if not given:
        click.echo(ctx.get_help())
        return None
    missing = [flag for flag, value in (("--attacker", attacker), ("--defender", defender),
                                        ("--year", year)) if value is None]
    if missing:
        raise TrenchError(f"missing {', '.join(missing)}: a battle needs both sides' cards "
                          f"and its year")
    from oddsim.trench.api import run_trench
    from oddsim.trench.model import TrenchBattle

    battle = TrenchBattle(attacker=attacker, defender=defender, year=year,
                          attacker_support=attacker_support or (0, 0, 0),
                          defender_support=defender_support or (0, 0, 0), points=points,
                          sea=sea, hidden_support_values=hidden_support_values)
    result = run_trench(battle, method=method, policy=policy, defender_policy=defender_policy,
                        roll_order=roll_order, runs=runs, seed=seed, information=information,
                        dice_fronts=dice_fronts, destroy_margin=int(destroy_margin),
                        tied_front=tied_front, support_fleet=support_fleet)
    return print_result(result, result.to_json() if as_json else result.to_table(), plot,
                        write_trench_chart, as_json)


@trench.command("advise")
@click.option("--attacker-hand", required=True,
              help="Army strengths in the attacker's hand, e.g. 6,5,4,3 (at sea: every fleet "
                   "card, for the front and the support slots alike).")
@click.option("--attacker-hand-support", default=None,
              help="Support card values in the attacker's hand, e.g. 3,2,1 (not at sea).")
@click.option("--defender", default=None,
              help="Defender's committed army strength on fronts 1-3, e.g. 4,4,- .")
@click.option("--defender-support", default=None,
              help="Defender's committed support per front (? for a face-down card of unknown "
                   "value).")
@click.option("--defender-hand", default=None,
              help="Or the defender's hand: it answers the commitment with its strongest cards.")
@click.option("--defender-hand-support", default=None, help="Support cards in the defender's hand.")
@_common
@click.option("--objective", type=click.Choice(["win", "points"]), default="win",
              show_default=True, help="Maximise the win chance or the expected VP swing.")
@click.option("--top", type=int, default=5, show_default=True, metavar="1..",
              help="How many options to show.")
def advise_command(attacker_hand, attacker_hand_support, defender, defender_support,
                   defender_hand, defender_hand_support, year, points, sea, policy,
                   defender_policy, roll_order, information, hidden_support_values, dice_fronts,
                   destroy_margin, tied_front, support_fleet, as_json, objective, top) -> None:
    """The attacker's best commitments of its hand to the three fronts, with their odds."""
    from oddsim.trench.advice import advise
    from oddsim.trench.advice_input import advice_sides

    hand, against = advice_sides(attacker_hand, attacker_hand_support, defender=defender,
                                 defender_support=defender_support, defender_hand=defender_hand,
                                 defender_hand_support=defender_hand_support, year=year)
    advice = advise(hand, against, year=year, points=points, sea=sea, policy=policy,
                    defender_policy=defender_policy, roll_order=roll_order, objective=objective,
                    top=top, information=information, dice_fronts=dice_fronts,
                    destroy_margin=int(destroy_margin), hidden_support_values=hidden_support_values,
                    tied_front=tied_front, support_fleet=support_fleet)
    click.echo(advice.to_json() if as_json else advice.to_table())
