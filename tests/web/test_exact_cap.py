"""The server's exact cap says seconds, from the calibrated cost model (issue 23)."""

from __future__ import annotations

import pytest

from oddsim.web import battle_requests
from oddsim.web.limits import MAX_EXACT_SECONDS

REVISED_LAND = {"rules": "revised", "attacker": "40 inf, 10 art, 15 arm, 6 ftr, 3 bmb",
                "defender": "45 inf, 10 arm, 8 ftr, 1 aa"}


@pytest.mark.slow
def test_the_server_solves_exactly_a_battle_of_a_fraction_of_a_second(client):
    """Before: refused (2.9e9 estimated steps, over the cap of 2e9), and auto sent it to Monte Carlo."""
    for method in ("exact", "auto"):
        response = client.post("/api/battle", json={**REVISED_LAND, "method": method})
        assert response.status_code == 200, response.text
        assert response.json()["method"] == "exact"


def test_the_refusal_names_seconds(client, monkeypatch):
    monkeypatch.setattr(battle_requests, "MAX_EXACT_SECONDS", 1e-6)
    fresh = {**REVISED_LAND, "attacker": "4 inf, 1 arm", "method": "exact"}  # (not an answer kept)
    response = client.post("/api/battle", json=fresh)
    assert response.status_code == 400
    error = response.json()["error"]
    assert "the limit is 1e-06 s" in error and "steps" not in error
    assert MAX_EXACT_SECONDS >= 1.0
