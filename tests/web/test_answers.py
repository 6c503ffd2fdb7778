"""Answers kept for a battle asked again: keyed by the parsed battle, capped by bytes."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

from oddsim.web.answers import AnswerCache  # noqa: E402


def test_spaces_in_an_army_hit_the_same_answer(client, monkeypatch):
    """Before: the key was the request's text, so a space made a new entry (300 best-retreat
    answers of 9.2 MB each took the server to 3 GB)."""
    from oddsim.web import battle_requests

    monkeypatch.setattr(battle_requests, "ANSWERS", AnswerCache())
    sent = [{"attacker": "3 inf, 1 art", "defender": "2 inf"},
            {"attacker": " 3  inf ,1 art", "defender": "2 inf "},
            {"attacker": {"inf": 3, "art": 1}, "defender": {"infantry": 2}, "rules": "1942-2e"}]
    answers = [client.post("/api/battle", json=body) for body in sent]
    assert all(a.status_code == 200 for a in answers)
    assert answers[0].json() == answers[1].json() == answers[2].json()
    assert len(battle_requests.ANSWERS) == 1


def test_what_is_kept_is_capped_by_bytes():
    cache = AnswerCache(max_bytes=1000, shared=lambda key: True)  # (the keys count nothing here)
    for i in range(10):
        cache.put(i, "x" * 200)
    assert cache.bytes == 1000 and len(cache) == 5
    assert cache.get(0) is None and cache.get(9) == "x" * 200  # the oldest went first
    cache.put("huge", "y" * 251)  # over a quarter of the cap: not kept
    assert cache.get("huge") is None and cache.bytes == 1000


def test_the_server_keeps_no_more_bytes_than_its_cap(client, monkeypatch):
    from oddsim.web import battle_requests

    monkeypatch.setattr(battle_requests, "ANSWERS", AnswerCache(max_bytes=20_000))
    sizes = []
    for n in range(1, 9):
        response = client.post("/api/battle", json={"attacker": f"{n} inf, 2 arm", "defender": f"{n} inf"})
        assert response.status_code == 200
        sizes.append(len(response.content))
    assert battle_requests.ANSWERS.bytes <= 20_000 < sum(sizes)
