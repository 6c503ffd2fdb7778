"""``POST /api/game`` and ``GET /api/game``: a TripleA game file's battles listed, and the game
kept as a ruleset other requests name (``game``); the small war (tests/triplea/games) under a
map's own rules."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from oddsim.triplea.document import MAX_GAME_FILE_BYTES
from oddsim.web.game_requests import GameStore, keep_game, listing, load_served_game

SMALL_WAR = Path(__file__).parents[1] / "triplea" / "games" / "small_war.xml"



def _send(client, data: bytes = SMALL_WAR.read_bytes(), **fields):
    return client.post("/api/game", json={"game_base64": base64.b64encode(data).decode(), **fields})


def test_a_game_file_sent_lists_its_battles(client):
    answer = _send(client, name="small_war.xml", attacker="germans")
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert (data["title"], data["round"], data["rules"], data["attacker"]) == ("Small War", 3, "Small War",
                                                                               "Germans")
    karelia = data["battles"][0]
    assert karelia["territory"] == "Karelia" and karelia["attacker_army"] == "3 infantry, 1 armour"
    assert "attacker_win" in karelia and "attacker_survivors" not in karelia  # (the Battle tab shows those)
    sea = data["battles"][4]
    assert sea["territory"] == "Sea Zone 6" and sea["attacker_win"] == pytest.approx(0.8, abs=1e-12)


def test_the_token_is_a_ruleset_for_other_requests(client):
    token = _send(client).json()["game"]
    battle = client.post("/api/battle", json={"game": token, "attacker": "1 armour",
                                              "defender": "1 infantry"})
    assert battle.status_code == 200, battle.text
    assert battle.json()["attacker_win"] == pytest.approx(0.5, abs=1e-12)  # armour on 3, infantry on 2
    rules = client.post("/api/rules", json={"game": token})
    assert rules.status_code == 200 and "armour" in [u["name"] for u in rules.json()["units"]]
    relisted = client.post("/api/game", json={"game": token, "attacker": "British"})
    assert relisted.json()["battles"][3]["attacker_players"] == ["British"]


@pytest.mark.parametrize("body, status, message", [
    ({"game_base64": base64.b64encode(b"<nope/>").decode()}, 400, "not a TripleA game"),
    ({"game_base64": base64.b64encode(b"not xml").decode()}, 400, "is not XML"),
    ({"game_base64": "***"}, 400, "not base64"),
    ({"game": "0" * 64}, 404, "unknown game"),
    ({}, 400, "needs game_base64"),
    ({"game": "x", "colour": "red"}, 400, "unknown field 'colour'"),
])
def test_a_bad_game_request_is_one_line(client, body, status, message):
    answer = client.post("/api/game", json=body)
    assert answer.status_code == status and message in answer.json()["error"]


def test_a_battle_naming_a_game_and_an_edition_is_refused(client):
    token = _send(client).json()["game"]
    answer = client.post("/api/battle", json={"game": token, "rules": "revised", "attacker": "1 inf",
                                              "defender": "1 inf"})
    assert answer.status_code == 400 and "drop rules" in answer.json()["error"]


def test_an_entity_bomb_is_refused_at_once(client):
    bomb = (b'<?xml version="1.0"?><!DOCTYPE game [<!ENTITY a "aaaaaaaaaa">'
            b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><game>&b;</game>')
    answer = _send(client, bomb)
    assert answer.status_code == 400 and "entities" in answer.json()["error"]


def test_a_file_over_the_cap_is_refused_before_it_is_read(client):
    answer = _send(client, b"<game>" + b" " * MAX_GAME_FILE_BYTES + b"</game>")
    assert answer.status_code == 400 and "MB, over the" in answer.json()["error"]


def test_no_game_served_is_a_404_naming_the_fix(client):
    answer = client.get("/api/game")
    assert answer.status_code == 404 and "oddsim serve --game FILE" in answer.json()["error"]


def test_the_served_game_is_listed():
    token = keep_game(*load_served_game(str(SMALL_WAR)))
    data = json.loads(listing(token))
    assert data["game"] == token and [b["territory"] for b in data["battles"]][0] == "Karelia"


def test_the_store_keeps_the_games_asked_of_last():
    store = GameStore(limit=2)
    game = object()
    store.keep("served", game, pinned=True)  # type: ignore[arg-type]
    for token in ("a", "b", "c"):
        store.keep(token, game)  # type: ignore[arg-type]
    assert store.get("c") is game and store.get("b") is game and store.get("served") is game
    with pytest.raises(Exception, match="unknown game"):
        store.get("a")
