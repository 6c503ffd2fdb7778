"""A plan job with odd JSON (a number where a list of entries goes, a retreat that is no mapping,
a goal's K in superscript) is a 400 naming the part and the fix, never Python's message
(issue 36: "'int' object is not iterable", "'int' object has no attribute 'items'")."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

BASE = {"pool": "2 inf, 1 ftr", "targets": ["A=1 inf"]}
PYTHONS = ("is not iterable", "has no attribute", "keyword argument", "invalid literal", "int()")


@pytest.mark.parametrize("change, named", [
    ({"values": 5}, "value: give a list of NAME=... entries"),
    ({"reach": True}, "reach: give a list of NAME=... entries"),
    ({"targets": 1.5}, "target: give a list of NAME=... entries"),
    ({"retreat": 5}, "retreat: give the retreat options as a mapping"),
    ({"retreat": {"x": 1}}, "unknown retreat option 'x'"),
    ({"goal": "take-at-least:²"}, "needs its number of targets"),
])
def test_odd_plan_json_is_named(client, change, named):
    answer = client.post("/api/jobs/plan", json={**BASE, **change}, headers={"x-oddsim-client": "odd"})
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert named in error
    assert not any(text in error for text in PYTHONS)
