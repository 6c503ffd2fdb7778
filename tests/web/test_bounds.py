"""What a request may make the server hold or do, bounded (issue 36): a ruleset sent with a
request, a plan's targets and its search for the best split, oversized texts, and clients that go
away mid-upload. Through a real server on loopback (``live_server``) where the socket matters."""

from __future__ import annotations

import http.client
import json
import logging
import socket
import time
from importlib import resources
from urllib.parse import urlsplit

import numpy as np
import pytest

pytest.importorskip("starlette")

from oddsim.plan import PlanError  # noqa: E402
from oddsim.plan.goals import Combine  # noqa: E402


def post(base: str, path: str, body: object, client: str = "t-bounds") -> tuple[int, dict]:
    """(status, JSON answer) of a POST to the live server."""
    where = urlsplit(base)
    connection = http.client.HTTPConnection(where.hostname, where.port, timeout=60)
    try:
        connection.request("POST", path, json.dumps(body),
                           {"Content-Type": "application/json", "X-Oddsim-Client": client})
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def ruleset_with_aliases(count: int) -> str:
    """The 1942-2e file with ``count`` more aliases for infantry (``i0``, ``i1``, ...)."""
    text = (resources.files("oddsim") / "rulesets" / "1942-2e.toml").read_text()
    extra = ", ".join(f'"i{n}"' for n in range(count))
    assert 'aliases = ["inf"]' in text
    return text.replace('aliases = ["inf"]', f'aliases = ["inf", {extra}]', 1)


# 1. the answer cache counts what each entry keeps; a sent ruleset's aliases are capped

def test_a_ruleset_with_too_many_aliases_is_refused_in_one_line(live_server):
    """Before: 24,000 aliases were taken, and each answer kept its own ruleset (1.66 MB)."""
    from oddsim.model.rules import load_ruleset
    from oddsim.web.limits import MAX_RULESET_ALIASES

    edition = sum(len(unit.aliases) for unit in load_ruleset("1942-2e").units)
    extra = MAX_RULESET_ALIASES - edition + 1
    status, answer = post(live_server, "/api/battle", {
        "ruleset_toml": ruleset_with_aliases(extra), "attacker": "2 inf", "defender": "1 inf"})
    assert status == 413, answer
    assert answer["error"].startswith(f"the ruleset gives its units {MAX_RULESET_ALIASES + 1:,} aliases, "
                                      f"more than the {MAX_RULESET_ALIASES:,} the server takes")
    assert "\n" not in answer["error"]


def test_a_kept_answer_counts_the_ruleset_it_keeps(live_server, monkeypatch):
    """Before: an entry counted its answer's text alone; the ruleset its key keeps was free."""
    from oddsim.model.rules import ruleset_from_text
    from oddsim.web import battle_requests
    from oddsim.web.answers import AnswerCache, kept_bytes

    monkeypatch.setattr(battle_requests, "ANSWERS", AnswerCache(shared=battle_requests.ANSWERS._shared))
    text = ruleset_with_aliases(400)
    status, answer = post(live_server, "/api/battle", {"ruleset_toml": text, "attacker": "2 i7",
                                                       "defender": "1 inf"})
    assert status == 200, answer
    ruleset = kept_bytes(ruleset_from_text(text))
    assert battle_requests.ANSWERS.bytes > ruleset + len(json.dumps(answer)) // 2
    # a built-in edition is kept anyway: its answers do not count it
    assert post(live_server, "/api/battle", {"attacker": "2 inf", "defender": "1 inf"})[0] == 200
    assert battle_requests.ANSWERS.bytes < 2 * ruleset


def test_kept_bytes_counts_what_a_value_holds_once():
    from oddsim.web.answers import kept_bytes

    shared = "s" * 10_000
    held = ("x" * 1000, "y" * 1000)
    assert kept_bytes(held) >= 2000
    assert kept_bytes((shared, shared)) < 10_000 + 200  # (the same object once)
    assert kept_bytes((shared,), lambda value: value is shared) < 100


# 2. a plan's targets are bounded, and an empty target is not free

@pytest.mark.parametrize("targets, message", [
    ([f"T{n}=1 inf" for n in range(17)], "the plan has 17 targets, more than the 16"),
    ([f"T{n}=none" for n in range(5000)], "the plan has 5,000 targets, more than the 16"),
    ([f"T{n}=none" for n in range(8)], "the plan's battles are too large to solve on the server"),
], ids=["17", "5000-empty", "8-empty-on-a-large-pool"])
def test_a_plan_that_cannot_finish_is_refused_at_once(live_server, targets, message):
    """Before: each was accepted (202) and grew the server ~18 MB a target."""
    body = {"pool": "24 inf, 7 art, 9 arm, 9 ftr" if len(targets) == 8 else "3 inf", "targets": targets}
    status, answer = post(live_server, "/api/jobs/plan", body, client="t-bounds-plan")
    assert status == 400, answer
    assert message in answer["error"] and "\n" not in answer["error"]


def test_what_a_plan_holds_grows_with_its_targets():
    from oddsim.model.rules import load_ruleset
    from oddsim.plan import parse_plan
    from oddsim.web.plan_requests import plan_bytes

    rules = load_ruleset("1942-2e")
    one, four = (plan_bytes(parse_plan(rules, "12 inf, 4 art", [f"T{n}=none" for n in range(count)]))
                 for count in (1, 4))
    assert four == 4 * one > 0


# 3. the search for the best split asks the stop between its steps

def lattice_scores(targets: int, shape=(5, 4, 3), seed=1) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.random(shape) for _ in range(targets)]


@pytest.mark.parametrize("combine, k", [(Combine.ADD, 0), (Combine.MULTIPLY, 0), (Combine.AT_LEAST, 2)])
def test_the_optimiser_stops_when_told(combine, k):
    """Before: best_splits took no stop; a cancelled plan searched on (214 s after DELETE)."""
    from oddsim.plan.optimise import best_splits

    asked = []

    def stop() -> bool:
        asked.append(1)
        return len(asked) >= 2

    with pytest.raises(PlanError, match="plan stopped while its best split was sought"):
        best_splits(lattice_scores(4), combine, 3, k, stop=stop)
    assert len(asked) == 2


def test_the_at_least_search_in_chunks_finds_the_same_splits(monkeypatch):
    """The chunks a stop is asked between (entries of ``GROW_PAIRS`` pairs) change no answer."""
    from oddsim.plan import optimise

    scores = lattice_scores(4, seed=5)
    whole = optimise.best_splits(scores, Combine.AT_LEAST, 4, 2)
    monkeypatch.setattr(optimise, "GROW_PAIRS", 7)
    asked = []
    chunked = optimise.best_splits(scores, Combine.AT_LEAST, 4, 2, stop=lambda: asked.append(1) or False)
    assert chunked == whole
    assert len(asked) > 10


def test_a_plan_cancelled_after_its_battles_stops_in_its_search():
    from oddsim.model.rules import load_ruleset
    from oddsim.plan import parse_plan, solve_plan

    spec = parse_plan(load_ruleset("1942-2e"), "3 inf, 1 arm", ["A=1 inf", "B=1 inf"])
    after = []  # (the reports with every target solved: the first says the battles are done)
    with pytest.raises(PlanError, match="while its best split was sought"):
        solve_plan(spec, on_target=lambda done, total: done == total and (after.append(1) or len(after) > 1))


def test_the_time_cap_reaches_the_search_for_the_best_split(live_server, monkeypatch):
    """Before: the cap was asked between targets only; one target, then an endless search."""
    from oddsim.web import plan_requests

    monkeypatch.setattr(plan_requests, "PLAN_SECONDS", 0.0)
    status, job = post(live_server, "/api/jobs/plan", {"pool": "3 inf", "targets": ["A=1 inf"]},
                       client="t-bounds-cap")
    assert status == 202, job
    where = urlsplit(live_server)
    deadline = time.monotonic() + 120
    while job["state"] in ("waiting", "running"):
        assert time.monotonic() < deadline, job
        time.sleep(0.05)
        connection = http.client.HTTPConnection(where.hostname, where.port, timeout=30)
        connection.request("GET", f"/api/jobs/{job['id']}", headers={"X-Oddsim-Client": "t-bounds-cap"})
        job = json.loads(connection.getresponse().read())
        connection.close()
    assert job["state"] == "failed", job
    assert job["error"].startswith("the plan took more than 0 s on the server (the best split not yet found)")


# 4. oversized texts are refused before anything parses them

def test_an_oversized_army_is_refused_before_it_is_parsed(live_server, monkeypatch):
    """Before: a 246 KiB army was parsed on the event loop (0.5 s each) and refused for its units."""
    from oddsim.model import forces

    def never(*args, **kwargs):
        raise AssertionError("an oversized army was parsed")

    monkeypatch.setattr(forces, "parse_force", never)
    status, answer = post(live_server, "/api/battle", {"attacker": "1 inf, " * 36_000, "defender": "1 inf"})
    assert status == 413, answer
    assert answer["error"].startswith("attacker is 252,000 characters, more than the 4,096 the server takes")


def test_a_sent_ruleset_is_never_parsed_on_the_event_loop():
    """Before: a battle with ``ruleset_toml`` took the quick path, which parsed the TOML there."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # starlette: "install httpx2" (httpx works)
        from starlette.testclient import TestClient

    from oddsim.web import app as app_module
    from oddsim.web import create_app

    seen = []
    original = app_module.QUICK["battle"]
    app_module.QUICK["battle"] = lambda body: seen.append(body) or original(body)
    try:
        with TestClient(create_app(), base_url="http://127.0.0.1") as client:
            answer = client.post("/api/battle", json={"ruleset_toml": ruleset_with_aliases(3),
                                                      "attacker": "2 inf", "defender": "1 inf"})
            small = client.post("/api/battle", json={"attacker": "2 inf", "defender": "1 inf"})
    finally:
        app_module.QUICK["battle"] = original
    assert answer.status_code == small.status_code == 200
    assert len(seen) == 1 and "ruleset_toml" not in seen[0]


# 5. a client gone mid-upload is one short line, rate-limited

class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.mark.slow
def test_clients_gone_mid_upload_log_one_short_line(live_server, monkeypatch):
    """Before: each logged a 3.1 KB traceback ("Exception in ASGI application")."""
    from oddsim.web import app as app_module

    monkeypatch.setattr(app_module, "GONE", app_module._GoneLog())
    lines = Lines()
    logger = logging.getLogger("uvicorn.error")
    logger.addHandler(lines)
    try:
        where = urlsplit(live_server)
        for _ in range(5):
            with socket.create_connection((where.hostname, where.port), timeout=10) as sock:
                sock.sendall(b"POST /api/battle HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                             b"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
                             + b'{"attacker": "' + b"1 inf, " * 100)
                time.sleep(0.2)
        deadline = time.monotonic() + 10
        while not lines.records and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)
    finally:
        logger.removeHandler(lines)
    assert len(lines.records) == 1, [r.getMessage()[:200] for r in lines.records]
    record = lines.records[0]
    assert record.exc_info is None and len(record.getMessage()) < 200
    assert "went away" in record.getMessage()
