"""Joint arrays kept from one exact solve for the next (``oddsim.engines.exact.array_pool``): a solve on kept
arrays gives exactly what it gives on fresh ones, in any order and thread, and every array comes
back as it was made."""

import gc
import json
import threading

import numpy as np
import pytest

from oddsim import Battle, Side
from oddsim.engines.exact import array_pool, solve

BEST = {"best": "tuv"}
SEA = dict(rules="1942-2e", attacker="3 sub, 2 dd, 1 cru, 2 ftr, 1 bmb",
           defender="1 bb, 1 cv, 2 ftr, 3 sub, 1 dd", sea=True)
LANDED = dict(rules="1942-2e", attacker=Side("6 inf, 2 arm, 2 ftr", landed="2 inf, 1 arm"),
              defender="8 inf, 2 arm, 1 ftr")
BATTLES = [
    Battle(**SEA),
    Battle(**SEA, retreat=BEST),
    Battle(**SEA, retreat={"units_left": 3}),
    Battle(**SEA, retreat={"after_round": 2}),
    Battle(**{**SEA, "attacker": Side(SEA["attacker"], submerge="alone"),
              "defender": Side(SEA["defender"], submerge="alone")}, retreat=BEST),
    Battle(**LANDED, retreat=BEST),
    Battle(**LANDED, retreat={"after_round": 1}),
    Battle(rules="1942-2e", attacker="8 inf, 3 art, 3 arm, 1 ftr", defender="10 inf, 2 arm, 1 aa"),
    Battle(rules="1942-2e", attacker="2 inf, 1 arm", defender="2 inf"),
]


def answer(battle: Battle) -> str:
    result = solve(battle)
    plan = [repr(row) for row in result.retreat_plan or ()]
    return json.dumps([result.to_dict(), plan], sort_keys=True, default=repr)


def test_solves_on_kept_arrays_give_what_fresh_arrays_give(monkeypatch):
    """Every battle keeps its arrays here (no size limit); solved after larger and smaller ones,
    at sea and on land, with and without a retreat, in the main thread and another, each gives
    the answer it gives on fresh arrays, and the arrays kept are as made (zeros)."""
    monkeypatch.setattr(array_pool, "MIN_POOLED_ENTRIES", 2**62)  # nothing kept: fresh arrays
    fresh = [answer(b) for b in BATTLES]
    monkeypatch.setattr(array_pool, "MIN_POOLED_ENTRIES", 0)
    monkeypatch.setattr(array_pool, "pool", array_pool.ArrayPool())
    order = list(range(len(BATTLES))) * 2 + list(reversed(range(len(BATTLES))))
    for n, i in enumerate(order):
        if n % 3 == 2:
            got: list[str] = []
            worker = threading.Thread(target=lambda: got.append(answer(BATTLES[i])))  # noqa: B023
            worker.start()
            worker.join()
            assert got == [fresh[i]], BATTLES[i]
        else:
            assert answer(BATTLES[i]) == fresh[i], BATTLES[i]
    gc.collect()  # the best retreat's arrays go back when its policy is collected
    kept = array_pool.pool.arrays()
    assert {"x1", "x2", "w1", "w2", "outcome", "visited", "at"} <= set(kept)
    for name in ("x1", "x2", "w1", "w2", "outcome", "visited", "at"):
        assert not kept[name].any(), name


def test_arrays_beyond_the_cap_are_freed_not_kept():
    kept = array_pool.ArrayPool(max_bytes=1000)
    kept.give("a", np.zeros(100))  # 800 bytes
    kept.give("b", np.zeros(50))  # 400 more: over the cap
    assert set(kept.arrays()) == {"a"}
    kept.give("a", np.zeros(120))  # replaces its own name's 800 bytes: 960 in all
    assert kept.pooled_bytes() == 960
    assert kept.take("a", 200, np.ones).shape == (200,)  # too short: a new one is made...
    assert kept.arrays() == {}  # ...and the short one is dropped
    whole = np.zeros(10)
    kept.give("c", whole[:4])  # a view gives its whole array back
    assert kept.take("c", 10, np.ones) is whole


@pytest.mark.parametrize("name", ["x1", "outcome"])
def test_a_kept_array_is_taken_by_one_solve_at_a_time(name):
    kept = array_pool.ArrayPool()
    kept.give(name, np.zeros(8))
    first = kept.take(name, 8, np.zeros)
    second = kept.take(name, 8, np.zeros)
    assert first is not second
