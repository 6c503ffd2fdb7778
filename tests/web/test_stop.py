"""Every Monte Carlo part of every request sees the server's stop (the time cap, a cancel, a
client gone, shutdown), and nothing slow runs on the event loop."""

from __future__ import annotations

import importlib
import time

import pytest

pytest.importorskip("starlette")

mc = importlib.import_module("oddsim.engines.montecarlo.simulate")  # (the package exports the function)
pipeline = importlib.import_module("oddsim.stages.pipeline")  # (the split battle's parts)

SPLIT = {"rules": "revised", "attacker": "4 inf, 2 ftr, 2 bmb", "defender": "4 inf, 1 aa"}
"""Split by AA outcome into 3 x 3 parts (0-2 fighters x 0-2 bombers shot down)."""


def test_a_split_battle_answers_what_it_has_at_the_time_cap(client, monkeypatch):
    """Before: each AA outcome ran its whole share, whatever the cap (one request ran 148 s)."""
    from oddsim.web import work

    monkeypatch.setattr(work, "MC_SECONDS", 0.0)
    response = client.post("/api/battle", json={**SPLIT, "method": "mc", "runs": 2_000_000, "seed": 9})
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["interrupted"] is True
    # the first part stops after its first chunk, the eight others run a few battles each
    assert data["runs"] == mc.FIRST_CHUNK + 8 * pipeline.STOPPED_PART_RUNS


def test_a_cancelled_split_battle_job_stops(client):
    body = {**SPLIT, "method": "mc", "runs": 5_000_000, "seed": 3}
    created = client.post("/api/jobs/battle", json=body, headers={"X-Oddsim-Client": "split-cancel"})
    assert created.status_code == 202, created.text
    job_id = created.json()["id"]
    while client.get(f"/api/jobs/{job_id}").json()["state"] == "waiting":
        time.sleep(0.02)
    client.delete(f"/api/jobs/{job_id}")
    deadline = time.monotonic() + 15  # (the behaviour under test: generous)
    while (job := client.get(f"/api/jobs/{job_id}").json())["state"] == "running":
        assert time.monotonic() < deadline, "the cancelled job still runs"
        time.sleep(0.05)
    assert job["state"] == "cancelled"
    assert job["result"]["interrupted"] is True and job["result"]["runs"] < body["runs"]


def test_a_counter_attack_answers_what_it_has_at_the_time_cap(client, monkeypatch):
    """Before: its Monte Carlo battles ran without the stop hook."""
    from oddsim.web import work

    monkeypatch.setattr(work, "MC_SECONDS", 0.0)
    body = {"attacker": "6 inf, 3 arm", "defender": "5 inf", "counter_attack": "4 inf, 2 arm",
            "method": "mc", "runs": 4_000_000, "seed": 2}
    response = client.post("/api/battle", json=body)
    assert response.status_code == 200, response.text
    battle = response.json()["battle"]
    assert battle["interrupted"] is True and battle["runs"] == mc.FIRST_CHUNK


def test_the_event_loop_never_estimates_a_split_battle(monkeypatch):
    """Before: the quick path estimated the AA split's work on the event loop (0.35-1.1 s)."""
    import oddsim.stages.pipeline
    import oddsim.stages.request
    import oddsim.stages.runner
    from oddsim.web.battle_requests import quick_battle_answer

    def never(battle):
        raise AssertionError("a battle was sized for the exact engine on the event loop")

    # (each reads its own name)
    for module in (oddsim.stages.pipeline, oddsim.stages.runner, oddsim.stages.request):
        monkeypatch.setattr(module, "exact_size", never)
    small = {**SPLIT, "attacker": "1 inf, 1 ftr, 1 bmb", "defender": "1 inf, 1 aa"}
    assert quick_battle_answer(small) is None
