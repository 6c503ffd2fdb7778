"""The battles of a TripleA game in progress: every territory or sea zone of the board where
units of players at war stand, fought under the map's own rules with each side's technologies.

``load_game(path_or_bytes)`` reads a game file (``oddsim.triplea``: its board and its ruleset);
``game_battles(game, attacker=...)`` answers every battle (``GameBattles``: ``.to_list()`` is
``oddsim game battles --json``, ``.to_table()`` its text); ``board_battle(game, territory)`` is
one battle as a ``Battle`` value, for ``oddsim battle --game``; ``board_plan_armies`` the pool
and targets of ``oddsim plan --game``.
"""

from __future__ import annotations

from oddsim.game.answers import BoardAnswer, GameBattles, game_battles
from oddsim.game.loading import Game, board_battle, load_game
from oddsim.game.pools import board_plan_armies

__all__ = ["BoardAnswer", "Game", "GameBattles", "board_battle", "board_plan_armies", "game_battles",
           "load_game"]
