"""A game file loaded once: its board and the map's ruleset it is fought under."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from oddsim.model.battle import Battle
from oddsim.model.rules import Ruleset
from oddsim.model.side import ArmySpec
from oddsim.triplea.armies import Armies, battle_of
from oddsim.triplea.battlefields import Battlefield, battlefield
from oddsim.triplea.board import Board, board_from_root
from oddsim.triplea.document import game_file_label, read_game_root
from oddsim.triplea.ruleset import game_rules


@dataclass(frozen=True)
class Game:
    """A game in progress: its ``board``, the ``rules`` of its map, ``label``, how answers and
    errors name the file, and ``unit_names``, the map's unit type names as the rules name them
    (a name not there is read as players type it: ``Ruleset.resolve_name``)."""

    board: Board
    rules: Ruleset
    label: str
    unit_names: Mapping[str, str] = field(default_factory=dict)


def load_game(source: str | Path | bytes, name: str | None = None, rules: Ruleset | None = None) -> Game:
    """The game in the file at ``source`` (a path, or the file's bytes as sent to the server;
    ``name`` says how errors name it), fought under its map's own rules (``oddsim.triplea.ruleset``)
    or ``rules`` (an edition standing in for them). Raises ``GameFileError`` (``BoardError``,
    ``RulesetError``) in one line."""
    label = game_file_label(source, name)
    root = read_game_root(source, label)
    board = board_from_root(root)
    if rules is not None:
        return Game(board, rules, label)
    found = game_rules(root, label)
    return Game(board, found.ruleset, label, found.unit_names)


def board_battle(game: Game, territory: str, attacker: str | None = None,
                 options: Mapping[str, object] | None = None, attacker_army: ArmySpec = None,
                 defender_army: ArmySpec = None,
                 flag: str = "--attacker") -> tuple[Battle, Armies, Battlefield]:
    """The battle in ``territory`` as the board has it (``attacker``: the player attacking, at
    sea, as ``flag`` names it), with ``options`` as ``battle_from`` takes them and
    ``attacker_army``/``defender_army`` (given) instead of the board's; BoardError naming the
    fix where the board holds no battle there, BattleError where oddsim cannot fight it."""
    place = battlefield(game.board, territory, attacker, flag)
    battle, armies = battle_of(place, game.board, game.rules, options, attacker_army, defender_army,
                               game.unit_names)
    return battle, armies, place
