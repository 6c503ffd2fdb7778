"""The page's answers carry the readings of the rules where they differ from the edition's
rulebook, as the command line's ``--json`` does (issue 34; ``oddsim.results.readings``)."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

TRANSPORT_0 = {"units.transport.defense": {"value": "0", "rulebook": "1"}}


def test_the_server_answers_the_readings_the_command_line_prints(client):
    body = {"rules": "anniversary", "attacker": "1 sub", "defender": "1 cru", "sea": True,
            "rule": ["combat.sub_strike_rounds=first"]}
    answer = client.post("/api/battle", json=body)
    assert answer.status_code == 200, answer.text
    assert answer.json()["readings"] == {"combat.sub_strike_rounds": {"value": "first", "rulebook": "every"}}
    # the house rule's 5/12 (tests/test_strike_readings.py), not the rulebook's 1/2
    assert answer.json()["attacker_win"] == pytest.approx(5 / 12, abs=1e-12)
    plain = client.post("/api/battle", json={k: v for k, v in body.items() if k != "rule"})
    assert plain.json()["readings"] == {}
    raid = client.post("/api/raid", json={"rules": "europe-1999", "bombers": 1, "territory_value": 3,
                                          "rule": ["units.transport.defense=0"]})
    assert raid.status_code == 200, raid.text
    assert raid.json()["readings"] == TRANSPORT_0
