"""``oddsim game battles FILE``: every battle on the board of a TripleA game in progress, with
its odds; and the ``--game`` options that ``battle`` and ``plan`` share."""

from __future__ import annotations

from collections.abc import Mapping

import click

from oddsim.cli.common import finish
from oddsim.errors import OddsimError
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


def board_options_alone(given: Mapping[str, str | None]) -> None:
    """Refuse the board's options (``--territory``, ``--from``, ``--attacker-player``: ``given``
    by flag) given without ``--game``."""
    for flag, value in given.items():
        if value is not None:
            raise OddsimError(f"{flag} names what stands on a game's board: add --game FILE")


def _game_alone(rules: str | None, rule_changes, unit_values) -> None:
    if rules is not None:
        raise OddsimError("--game fights under the game's own rules: drop --rules")
    if rule_changes or unit_values:
        raise OddsimError("--rule and --unit-values change an edition's file: drop them with --game")


def game_battle(game_file: str, territory: str | None, attacker_player: str | None, rules: str | None,
                rule_changes, unit_values, attacker: str | None, defender: str | None, options: dict):
    """``oddsim battle --game FILE --territory NAME``: the board's battle there, under the map's
    rules, ``attacker``/``defender`` (given) instead of the board's armies."""
    from oddsim.game import board_battle, load_game

    _game_alone(rules, rule_changes, unit_values)
    if territory is None:
        raise OddsimError("--game needs --territory NAME: the territory or sea zone whose battle to "
                          "fight ('oddsim game battles FILE' lists them)")
    loaded = load_game(game_file)
    spec, _, _ = board_battle(loaded, territory, attacker_player, options, attacker, defender,
                              flag="--attacker-player")
    return spec


def game_plan(game_file: str, sources: str | None, attacker_player: str | None, defend: bool,
              pool: str | None, targets: tuple[str, ...], rules: str | None, rule_changes, unit_values,
              options: dict):
    """``oddsim plan --game FILE --from T1,T2 --target T3``: the game's ruleset, the pool of the
    units standing in T1 and T2, each target's defenders from the board, and the options with
    the board's kind of battle and technologies (those given on the command line kept)."""
    from oddsim.game import board_plan_armies, load_game

    _game_alone(rules, rule_changes, unit_values)
    if defend:
        raise OddsimError("--game plans attacks from the board: drop --defend")
    if pool is not None:
        raise OddsimError("--game takes the pool from the board: drop --pool, name where it stands with "
                          "--from")
    if not sources:
        raise OddsimError("--game needs --from T1,T2: the territories whose units make the pool")
    if any("=" in target for target in targets):
        raise OddsimError("with --game, --target names a territory (its defenders come from the board): "
                          "drop the '=...'")
    loaded = load_game(game_file)
    armies = board_plan_armies(loaded, [name.strip() for name in sources.split(",") if name.strip()],
                               list(targets), attacker_player)
    given = dict(options)
    given["sea"] = armies.sea
    given["attacker_tech"] = given.get("attacker_tech") or ",".join(armies.attacker_tech)
    given["defender_tech"] = given.get("defender_tech") or ",".join(armies.defender_tech)
    return loaded.rules, armies.pool, armies.targets, given
