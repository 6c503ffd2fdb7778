"""``oddsim game battles FILE``: every battle on the board of a TripleA game in progress, with
its odds; and the ``--game`` options that ``battle`` and ``plan`` share."""

from __future__ import annotations

import click

from oddsim.cli.common import finish
from oddsim.limits import METHODS

GAME_HELP = ("A TripleA game file (a map's games/*.xml, or a game in progress saved with File > "
             "Export game.xml).")
ATTACKER_PLAYER_HELP = ("The player attacking at sea (TripleA's exported file does not say whose turn "
                        "it is); on land the attacker is the side at war with the territory's owner.")


@click.group()
def game() -> None:
    """A TripleA game in progress: the battles on its board."""


@game.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--attacker", "attacker", default=None, metavar="PLAYER", help=ATTACKER_PLAYER_HELP)
@click.option("--method", type=click.Choice(METHODS), default="auto", show_default=True,
              help="Exact solver, Monte Carlo, or auto (exact when cheap), for every battle.")
@click.option("--runs", type=int, default=None, metavar="2..10^10",
              help="Monte Carlo runs of each battle simulated (default 1,000,000).")
@click.option("--seed", type=click.IntRange(min=0), default=None, metavar="0..2^64-1",
              help="Monte Carlo seed (default: random).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list, one object per territory.")
def battles(file, attacker, method, runs, seed, as_json) -> int:
    """Every territory or sea zone where units of players at war stand, with its odds.

    Example: oddsim game battles saved.xml --attacker Germans
    """
    import json

    from oddsim.game import game_battles, load_game
    from oddsim.results.readings import text_with_readings, with_readings

    loaded = load_game(file)
    answer = game_battles(loaded, attacker=attacker, method=method, runs=runs, seed=seed)
    click.echo(json.dumps([with_readings(entry, loaded.rules) for entry in answer.to_list()], indent=2)
               if as_json else text_with_readings(answer.to_table(), loaded.rules))
    return finish(answer)
