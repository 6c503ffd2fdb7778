"""Jobs: unguessable ids told only to their creator, limits per client and per address, and
finished results that expire and stay within their bytes."""

from __future__ import annotations

import re
import threading
import time

import pytest

pytest.importorskip("starlette")

from oddsim.web.jobs import JobBoard  # noqa: E402
from oddsim.web.limits import FETCHED_SECONDS, FINISHED_SECONDS, WebError  # noqa: E402


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _wait(job, states=("done", "failed", "cancelled")):
    deadline = time.monotonic() + 15
    while job.state not in states or job.ended is None:
        assert time.monotonic() < deadline
        time.sleep(0.01)


def _blocked(gate: threading.Event):
    return lambda progress: (gate.wait(10), "{}")[1]


def test_a_job_id_is_unguessable():
    board = JobBoard(max_waiting=100, per_address=100)
    ids = {board.submit("battle", f"c{i}", f"10.0.0.{i}", lambda p: "{}").id for i in range(20)}
    assert len(ids) == 20
    # secrets.token_urlsafe(16): 128 random bits (before: token_hex(8), 64)
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{22}", job_id) for job_id in ids)
    board.shutdown()


def test_a_429_never_tells_another_job_id():
    """Before: "your battle job <id> is still running", so anyone who sent the same client
    header learnt the id and could cancel it."""
    gate = threading.Event()
    board = JobBoard()
    job = board.submit("battle", "tab-1", "127.0.0.1", _blocked(gate))
    with pytest.raises(WebError) as refused:
        board.submit("battle", "tab-1", "127.0.0.1", lambda p: "{}")
    assert refused.value.status == 429 and job.id not in str(refused.value)
    gate.set()
    board.shutdown()


def test_one_address_cannot_fill_the_board_under_made_up_clients():
    """Before: eight made-up X-Oddsim-Client ids took all eight places."""
    gate = threading.Event()
    board = JobBoard(workers=1, max_waiting=8, per_address=4)
    for i in range(4):
        board.submit("battle", f"made-up-{i}", "127.0.0.1", _blocked(gate))
    with pytest.raises(WebError, match="address") as refused:
        board.submit("battle", "made-up-4", "127.0.0.1", lambda p: "{}")
    assert refused.value.status == 429
    board.submit("battle", "elsewhere", "10.0.0.7", _blocked(gate))  # another address still may
    gate.set()
    board.shutdown()


def test_a_finished_result_expires_after_ten_minutes():
    clock = Clock()
    board = JobBoard(clock=clock)
    job = board.submit("purchase", "c", "127.0.0.1", lambda p: '{"rows": []}')
    _wait(job)
    clock.now += FINISHED_SECONDS - 1
    board.submit("battle", "other", "10.0.0.1", lambda p: "{}")  # (any call tidies the board)
    assert board.get(job.id).result == '{"rows": []}'
    clock.now += 2 + FETCHED_SECONDS
    with pytest.raises(WebError) as gone:
        board.get(job.id)
    assert gone.value.status == 404
    board.shutdown()


def test_a_result_read_once_expires_a_minute_later():
    clock = Clock()
    board = JobBoard(clock=clock)
    job = board.submit("purchase", "c", "127.0.0.1", lambda p: "{}")
    _wait(job)
    assert board.get(job.id).state == "done"  # read: its minute starts
    clock.now += FETCHED_SECONDS - 1
    assert board.get(job.id).result == "{}"
    clock.now += 2
    with pytest.raises(WebError):
        board.get(job.id)
    board.shutdown()


def test_finished_results_stay_within_their_bytes():
    """Before: only more than 64 finished jobs freed any (nine purchase jobs held 346-444 MB)."""
    board = JobBoard(finished_bytes=1000)
    jobs = []
    for i in range(5):
        jobs.append(board.submit("purchase", f"c{i}", f"10.0.0.{i}", lambda p: "x" * 400))
        _wait(jobs[-1])
    board.submit("battle", "tidy", "10.0.1.1", lambda p: "{}")
    kept = []
    for job in jobs:
        try:
            kept.append(board.get(job.id).id)
        except WebError:
            pass
    assert kept == [jobs[3].id, jobs[4].id]  # 2 x 400 bytes fit in 1000, 3 do not: the newest stay
    board.shutdown()


def test_the_api_page_says_how_jobs_are_limited_and_kept(client):
    text = str(client.get("/api").json())
    assert "address" in text and "10 minutes" in text


def test_another_client_cannot_read_a_job_by_a_guessed_id(client):
    created = client.post("/api/jobs/battle", json={"attacker": "2 inf", "defender": "1 inf"},
                          headers={"X-Oddsim-Client": "owner"})
    assert created.status_code == 202
    job_id = created.json()["id"]
    for guess in (job_id[:-1], job_id[:16], "0" * 16):
        assert client.get(f"/api/jobs/{guess}").status_code == 404
        assert client.delete(f"/api/jobs/{guess}").status_code == 404
