"""The optimiser against brute force: every split of a small pool over its targets, each battle
solved on its own (``oddsim.solve``, the counter-attack by ``run_counter_attack``), the objective
computed from its definition (the chance of at least K by summing over which targets are taken).
The plan's best objective, its runners-up and its margins must be the brute force's."""

from __future__ import annotations

import itertools
from functools import cache

import pytest

import oddsim.plan as plan
from oddsim import Battle, solve
from oddsim.api import run_counter_attack

RULES = "1942-2e"


def _sub_armies(pool: dict[str, int]):
    names = list(pool)
    for counts in itertools.product(*(range(pool[n] + 1) for n in names)):
        yield {n: c for n, c in zip(names, counts, strict=True) if c}


def _text(army: dict[str, int]) -> str:
    return ", ".join(f"{n} {u}" for u, n in army.items()) or "none"


@cache
def _fight(attacker: str, defender: str, counter: str | None) -> tuple[float, float, float]:
    """(takes, tuv swing, takes and holds) of one battle fought on its own."""
    result = solve(Battle(RULES, attacker, defender))
    holds = result.takes_territory
    if counter is not None:
        holds = run_counter_attack(Battle(RULES, attacker, defender), counter, method="exact").holds
    return result.takes_territory, result.tuv_swing, holds


def _brute(pool, targets, goal, values=None, reach=None, counters=None, stands=None, defend=False):
    """Every split's objective, best first."""
    values, reach, counters, stands = values or {}, reach or {}, counters or {}, stands or {}
    names = list(targets)
    options = []
    for name in names:
        allowed = {u: n for u, n in pool.items() if name in reach.get(u, names)}
        options.append(list(_sub_armies(allowed)))
    found = []
    for split in itertools.product(*options):
        used = {u: sum(a.get(u, 0) for a in split) for u in pool}
        if any(used[u] > pool[u] for u in pool):
            continue
        chances, total = [], 0.0
        for name, army in zip(names, split, strict=True):
            if defend:
                here = dict(army)
                for u, n in stands.get(name, {}).items():
                    here[u] = here.get(u, 0) + n
                takes, swing, _ = _fight(targets[name], _text(here), None)
                chances.append(1 - takes)
                total += values.get(name, 0) * (1 - takes) - swing
            elif not army:
                chances.append(0.0)
            else:
                takes, swing, holds = _fight(_text(army), targets[name], counters.get(name))
                chances.append(holds if goal == "hold-after" else takes)
                total += swing if goal == "tuv" else swing + values.get(name, 0) * takes
        if goal in ("value", "tuv"):
            found.append(total)
        elif ":" in goal:
            k = int(goal.split(":")[1])
            found.append(sum(_chance(chances, taken) for taken in itertools.product((0, 1), repeat=len(names))
                             if sum(taken) >= k))
        else:
            found.append(_chance(chances, (1,) * len(names)))
    return sorted(found, reverse=True)


def _chance(chances, taken) -> float:
    p = 1.0
    for c, t in zip(chances, taken, strict=True):
        p *= c if t else 1 - c
    return p


CASES = [
    ("value", "2 inf, 1 arm", {"A": "1 inf", "B": "1 inf"}, {"values": {"A": 3, "B": 2}}),
    ("tuv", "2 inf, 1 arm, 1 ftr", {"A": "1 inf", "B": "1 arm"}, {"reach": {"fighter": ["B"]}}),
    ("take-all", "2 inf, 1 art, 1 ftr", {"A": "1 inf", "B": "1 inf"}, {"reach": {"fighter": ["A"]}}),
    ("take-at-least:1", "2 inf, 1 arm", {"A": "1 inf", "B": "2 inf", "C": "1 inf"}, {}),
    ("take-at-least:2", "2 inf, 1 arm", {"A": "1 inf", "B": "2 inf", "C": "1 inf"}, {}),
    # four targets: the entries are pruned twice before the last target is tried on them
    ("take-at-least:2", "3 inf, 1 arm", {"A": "1 inf", "B": "2 inf", "C": "1 inf", "D": "1 arm"}, {}),
    ("take-at-least:3", "3 inf, 1 arm", {"A": "1 inf", "B": "2 inf", "C": "1 inf", "D": "1 arm"}, {}),
    ("hold-after", "2 inf, 1 arm", {"A": "1 inf", "B": "1 inf"}, {"counters": {"A": "2 inf"}}),
]


def _reach_text(reach):
    names = {"fighter": "ftr"}
    return [f"{names[u]}={','.join(t)}" for u, t in (reach or {}).items()]


def _pool_dict(text):
    out = {}
    for part in text.split(","):
        n, u = part.split()
        out[{"inf": "infantry", "arm": "armor", "art": "artillery", "ftr": "fighter"}[u]] = int(n)
    return out


@pytest.mark.parametrize(("goal", "pool", "targets", "extra"), CASES, ids=[c[0] for c in CASES])
def test_the_best_splits_are_the_brute_forces(goal, pool, targets, extra):
    pooled = _pool_dict(pool)
    expected = _brute(pooled, targets, goal, extra.get("values"), extra.get("reach"), extra.get("counters"))
    result = plan.attack(RULES, pool, [f"{n}={a}" for n, a in targets.items()], goal=goal,
                         values=[f"{n}={v}" for n, v in extra.get("values", {}).items()],
                         reach=_reach_text(extra.get("reach")),
                         counter_attack=[f"{n}={a}" for n, a in extra.get("counters", {}).items()],
                         alternatives=4)
    got = [result.objective] + [a.objective for a in result.alternatives]
    assert got == pytest.approx(expected[:5], abs=1e-12)
    # the best split's targets make the objective, and it sends no more than the pool
    scores = [t.score for t in result.split.values()]
    if goal in ("value", "tuv"):
        assert sum(scores) == pytest.approx(result.objective, abs=1e-12)
    elif ":" not in goal:
        assert scores[0] * scores[1] == pytest.approx(result.objective, abs=1e-12)
    sent = {name: t.to_dict()["counts"] for name, t in result.split.items()}
    used = {u: sum(c.get(u, 0) for c in sent.values()) for u in pooled}
    assert all(used[u] <= pooled[u] for u in pooled)


def test_margins_are_the_brute_forces_with_one_fewer():
    targets = {"A": "1 inf", "B": "2 inf"}
    result = plan.attack(RULES, "2 inf, 1 arm", [f"{n}={a}" for n, a in targets.items()],
                         values=["A=3", "B=4"])
    best = _brute({"infantry": 2, "armor": 1}, targets, "value", {"A": 3, "B": 4})[0]
    for unit, fewer in (("infantry", {"infantry": 1, "armor": 1}), ("armor", {"infantry": 2})):
        expected = best - _brute(fewer, targets, "value", {"A": 3, "B": 4})[0]
        assert result.marginal[unit] == pytest.approx(expected, abs=1e-12)


def test_keep_home_plans_with_what_is_left():
    targets = {"A": "2 inf", "B": "1 inf"}
    result = plan.attack(RULES, "3 inf, 1 arm", [f"{n}={a}" for n, a in targets.items()], goal="take-all",
                         keep_home="1 inf", alternatives=2)
    expected = _brute({"infantry": 2, "armor": 1}, targets, "take-all")
    assert [result.objective] + [a.objective for a in result.alternatives] == pytest.approx(expected[:3],
                                                                                             abs=1e-12)
    assert result.home.count("infantry") >= 1


@pytest.mark.parametrize("goal", ["hold-all", "hold-at-least:1", "value"])
def test_defence_is_the_brute_forces(goal):
    threats = {"A": "2 inf, 1 arm", "B": "2 inf"}
    stands = {"A": {"infantry": 1}}
    expected = _brute({"infantry": 3}, threats, goal, {"A": 4, "B": 2}, stands=stands, defend=True)
    result = plan.defend(RULES, "3 inf", [f"{n}={a}" for n, a in threats.items()], goal=goal,
                         values=["A=4", "B=2"], stands=["A=1 inf"], alternatives=3)
    got = [result.objective] + [a.objective for a in result.alternatives]
    assert got == pytest.approx(expected[:4], abs=1e-12)


def test_the_best_retreat_counts_each_targets_own_value():
    # each battle's best retreat by value, its own territory value in it, solved on its own
    values = {"A": 6, "B": 1}
    targets = {"A": "2 inf", "B": "1 inf, 1 arm"}
    pool = {"infantry": 2, "armor": 2}
    best = {}
    for name, defenders in targets.items():
        for army in _sub_armies(pool):
            if army:
                result = solve(Battle(RULES, _text(army), defenders,
                                      retreat={"best": "value", "territory_value": values[name]}))
                best[name, _text(army)] = result.tuv_swing + values[name] * result.takes_territory
    splits = []
    for a, b in itertools.product(list(_sub_armies(pool)), repeat=2):
        if all(a.get(u, 0) + b.get(u, 0) <= n for u, n in pool.items()):
            splits.append(best.get(("A", _text(a)), 0.0) + best.get(("B", _text(b)), 0.0))
    result = plan.attack(RULES, "2 inf, 2 arm", [f"{n}={d}" for n, d in targets.items()],
                         values=[f"{n}={v}" for n, v in values.items()], retreat={"best": "value"},
                         alternatives=2)
    got = [result.objective] + [a.objective for a in result.alternatives]
    assert got == pytest.approx(sorted(splits, reverse=True)[:3], abs=1e-12)
