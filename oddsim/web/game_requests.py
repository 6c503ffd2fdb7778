"""Game requests: a TripleA game file sent by the page (``POST /api/game``, its bytes base64 in
JSON, under the CLI's own size cap and safe reader), or the one ``oddsim serve --game FILE``
serves (``GET /api/game``), answered with the board's battles and their odds as ``oddsim game
battles --json`` lists them.

A game read is kept (a few, by the sha256 of its bytes: its ``game`` token) so that a battle
request may name it as its ruleset (``{"game": token, "attacker": ..., ...}``): the Battle tab
fights a battle of the board under the map's own rules without sending the file again.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import threading
from collections import OrderedDict
from typing import Any

from oddsim.game import Game, game_battles, load_game
from oddsim.game.answers import BOARD_KEYS
from oddsim.model.rules import Ruleset
from oddsim.triplea.document import MAX_GAME_FILE_BYTES
from oddsim.web.limits import WebError
from oddsim.web.request_fields import Body, refuse_unknown
from oddsim.web.work import Progress, engine_guard, stopper

GAME_FIELD = "game_base64"
"""The field of ``POST /api/game`` that carries a game file's bytes, base64."""
GAME_BODY_BYTES = (MAX_GAME_FILE_BYTES + 2) // 3 * 4 + 64 * 1024
"""The largest ``POST /api/game`` body: the largest game file, base64, and a few fields."""
KEPT_GAMES = 8
"""Games kept for the battle requests that name them (the oldest asked of goes first)."""
LIST_RUNS = 20_000
"""Monte Carlo runs of each battle of the listing too large to solve exactly (the Battle tab
runs a battle with more)."""
LIST_SEED = 0
"""The listing's seed: the same file lists the same figures."""
LISTED = ("method", "runs", "attacker_win", "defender_win", "draw", "stalemate", "takes_territory",
          "tuv_swing", "attacker_ipc_lost", "defender_ipc_lost", "expected_rounds", "std_error", "readings")
"""The figures of each listed battle (``oddsim battle --json`` has more: the Battle tab shows them)."""


class GameStore:
    """Games read, by token: the ``KEPT_GAMES`` asked of last, and those kept for good (the game
    ``oddsim serve --game`` serves)."""

    def __init__(self, limit: int = KEPT_GAMES) -> None:
        self._games: OrderedDict[str, Game] = OrderedDict()
        self._pinned: dict[str, Game] = {}
        self._lock = threading.Lock()
        self._limit = limit

    def keep(self, token: str, game: Game, pinned: bool = False) -> str:
        with self._lock:
            if pinned:
                self._pinned[token] = game
                return token
            self._games[token] = game
            self._games.move_to_end(token)
            while len(self._games) > self._limit:
                self._games.popitem(last=False)
        return token

    def get(self, token: object) -> Game:
        with self._lock:
            if isinstance(token, str) and token in self._pinned:
                return self._pinned[token]
            game = self._games.get(token) if isinstance(token, str) else None
            if game is None or not isinstance(token, str):
                raise WebError("unknown game: the server no longer keeps it (or never read it); pick the "
                               "game file again", status=404)
            self._games.move_to_end(token)
            return game


GAMES = GameStore()


def keep_game(game: Game, data: bytes, pinned: bool = False) -> str:
    """Keep ``game`` (read from ``data``; ``pinned``: for as long as the server runs), and its token."""
    return GAMES.keep(hashlib.sha256(data).hexdigest(), game, pinned)


def load_served_game(path: str) -> tuple[Game, bytes]:
    """The game ``oddsim serve --game FILE`` serves, read at start; GameFileError in one line."""
    game = load_game(path)
    with open(path, "rb") as handle:
        return game, handle.read()


def game_rules(token: object) -> Ruleset:
    """The ruleset of the game a battle request names (``game``: its token)."""
    return GAMES.get(token).rules


def game_request(body: Body, progress: Progress | None = None) -> str:
    """``POST /api/game``: a game file (``game_base64``, and its ``name``) or a kept game
    (``game``: its token), listed with ``attacker`` (the player attacking at sea, optional)."""
    refuse_unknown(body, {GAME_FIELD, "name", "game", "attacker"}, "game")
    attacker = _text(body, "attacker")
    if GAME_FIELD in body:
        if "game" in body:
            raise WebError(f"give {GAME_FIELD} (a game file) or game (a game read before), not both")
        data = _file_bytes(body[GAME_FIELD])
        name = _text(body, "name") or "the game file"
        token = keep_game(load_game(data, name[:200]), data)
    elif "game" in body:
        token = body["game"]
    else:
        raise WebError(f"a game request needs {GAME_FIELD} (a TripleA game file, base64) or game "
                       "(the token of a game read before)")
    return listing(token, attacker, progress)


def listing(token: object, attacker: str | None = None, progress: Progress | None = None) -> str:
    """The JSON listing of the kept game ``token``: its board and every battle with its odds."""
    game = GAMES.get(token)
    with engine_guard(True):
        answer = game_battles(game, attacker=attacker, runs=LIST_RUNS, seed=LIST_SEED,
                              on_chunk=stopper(progress, LIST_RUNS))
    from oddsim.results.readings import with_readings

    battles = [_listed(with_readings(entry, game.rules)) for entry in answer.to_list()]
    board = game.board
    return json.dumps({"game": token, "name": game.label, "title": board.name, "round": board.round,
                       "rules": game.rules.name, "players": list(board.players),
                       "attacker": board.player(attacker, "attacker") if attacker else None,
                       "battles": battles})


def _listed(entry: dict[str, Any]) -> dict[str, Any]:
    """A battle of the listing: the board's side of it (``BOARD_KEYS``) and the figures ``LISTED``."""
    return {key: value for key, value in entry.items() if key in BOARD_KEYS or key in LISTED}


def _text(body: Body, name: str) -> str | None:
    value = body.get(name)
    if value is not None and not isinstance(value, str):
        raise WebError(f"{name} must be text, not {type(value).__name__}")
    return value or None


def _file_bytes(value: object) -> bytes:
    if not isinstance(value, str):
        raise WebError(f"{GAME_FIELD} must be the game file's bytes as base64 text")
    if len(value) > GAME_BODY_BYTES:
        raise WebError(f"the game file is over {MAX_GAME_FILE_BYTES / 1e6:.1f} MB: give a map's own game "
                       "file (the largest are about 2.7 MB)", status=413)
    try:
        return base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        raise WebError(f"{GAME_FIELD} is not base64: send the game file's bytes as base64") from None
