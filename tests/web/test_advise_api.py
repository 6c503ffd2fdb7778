"""Longest Trench advice as a job: the CLI's answer and its error lines, progress, cancel and
the time cap."""

from __future__ import annotations

import json
import time

import pytest
from click.testing import CliRunner
from web_jobs import wait_for

pytest.importorskip("starlette")

import oddsim.cli  # noqa: E402


def cli_line(*args: str):
    """What ``oddsim trench advise ARGS`` prints: (exit status, stdout, its error line)."""
    result = CliRunner().invoke(oddsim.cli.cli, ["trench", "advise", *args])
    error = result.stderr.strip().removeprefix("oddsim: error: ")
    return result.exit_code, result.stdout, error


def as_args(body: dict) -> list[str]:
    """The request's fields as the CLI's options (``_`` for ``-``; ``sea`` a flag)."""
    args = []
    for name, value in body.items():
        flag = "--" + name.replace("_", "-")
        if value is True:
            args.append(flag)
        else:
            args += [flag, str(value)]
    return args


def start(client, body: dict, who: str):
    return client.post("/api/jobs/advise", json=body, headers={"x-oddsim-client": who})


@pytest.mark.parametrize("body", [
    {"attacker_hand": "6,5,4", "attacker_hand_support": "2,1", "defender": "5,4,-",
     "defender_support": "?,0,0", "year": 1917, "points": 2},
    {"attacker_hand": "6,5,4", "defender_hand": "5,4,4", "defender_hand_support": "1",
     "year": 1916, "objective": "points", "top": 3, "information": "full"},
    {"attacker_hand": "5,4,3,1", "defender": "4,4,-", "defender_support": "2,0,0",
     "year": 1916, "sea": True},
])
@pytest.mark.slow
def test_the_job_answers_what_the_cli_prints(client, body):
    status, printed, _ = cli_line(*as_args(body), "--json")
    assert status == 0
    started = start(client, body, "t-advise-same")
    assert started.status_code == 202, started.text
    job = wait_for(client, started.json()["id"])
    assert job["state"] == "done", job
    assert job["result"] == json.loads(printed)
    assert job["done"] == job["total"] >= 1


@pytest.mark.parametrize("body", [
    {"attacker_hand": "5", "year": 1915},
    {"attacker_hand": "5", "defender": "4,4,4"},
    {"attacker_hand": "5", "defender": "4,4,4", "defender_hand": "4", "year": 1915},
    {"attacker_hand": "5", "defender": "4,4,4", "defender_hand_support": "1", "year": 1915},
    {"attacker_hand": "5,x", "defender": "4,4,4", "year": 1915},
    {"attacker_hand": "5", "defender": "4,4", "year": 1915},
    {"attacker_hand": "5", "defender": "4,4,4", "year": 1913},
    # refused by the search's own checks, before any commitment is searched: also at once
    {"attacker_hand": "5,4", "attacker_hand_support": "1", "defender": "4,4,-", "year": 1916, "sea": True},
    {"attacker_hand": "5,4", "defender_hand": "4,4", "defender_hand_support": "2", "year": 1916, "sea": True},
])
def test_bad_input_gets_the_cli_line_at_once(client, body):
    status, _, line = cli_line(*as_args(body))
    assert status == 2 and line
    refused = start(client, body, "t-advise-bad")
    assert refused.status_code == 400
    assert refused.json()["error"] == line


@pytest.mark.parametrize("extra, named", [
    ({"objective": "glory"}, ["'glory'", "win", "points"]),
    ({"policy": "lucky"}, ["'lucky'", "optimal"]),
])
def test_a_bad_choice_names_it_and_the_choices(client, extra, named):
    """(The CLI's line here is click's own, from its option's choices.)"""
    body = {"attacker_hand": "5", "defender": "4,4,4", "year": 1915, **extra}
    status, _, line = cli_line(*as_args(body))
    refused = start(client, body, "t-advise-choice")
    assert status == 2 and refused.status_code == 400
    assert all(word in line and word in refused.json()["error"] for word in named)


@pytest.mark.parametrize("extra, message", [
    ({"top": 21}, "top must be a whole number from 1 to 20"),
    ({"top": 0}, "top must be"),
    ({"hand": "5"}, "unknown field 'hand' in the advice request"),
])
def test_what_only_the_server_refuses(client, extra, message):
    body = {"attacker_hand": "5", "defender": "4,4,4", "year": 1915, **extra}
    refused = start(client, body, "t-advise-server")
    assert refused.status_code == 400 and message in refused.json()["error"]


def test_advice_is_a_job_only(client):
    assert client.post("/api/advise", json={}).status_code in (404, 405)
    assert "advise" in client.get("/api").json()["endpoints"]["POST /api/jobs/{kind}"]


LONG = {"attacker_hand": "6,5,4,3,2", "attacker_hand_support": "2,1",
        "defender_hand": "5,4,4,3", "defender_hand_support": "1,1", "year": 1917}
"""About 8 s on a quiet two-core machine."""


def test_cancel_stops_the_search(client):
    started = start(client, LONG, "t-advise-cancel")
    job_id = started.json()["id"]
    deadline = time.monotonic() + 60
    while client.get(f"/api/jobs/{job_id}").json()["done"] < 2:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    client.delete(f"/api/jobs/{job_id}")
    job = wait_for(client, job_id, seconds=30)
    assert job["state"] == "cancelled" and job["result"] is None
    assert "advice stopped after" in job["error"] and job["done"] < job["total"]


def test_the_time_cap_ends_a_long_search(client, monkeypatch):
    from oddsim.web import trench_requests

    monkeypatch.setattr(trench_requests, "ADVICE_SECONDS", 0.0)
    job = wait_for(client, start(client, LONG, "t-advise-cap").json()["id"])
    assert job["state"] == "failed"
    assert job["error"].startswith("the advice took more than 0 s on the server")
    assert "run oddsim trench advise" in job["error"]
