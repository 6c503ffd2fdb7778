"""A target too large for the exact engine is simulated for every sub-army, with errors.

The exact engine solves nearly every battle a pool can make, so these tests tell the plan that
every battle is too large (``exact_is_cheap`` patched in ``oddsim.plan.odds``) and compare what
Monte Carlo gives with the exact plan of the same battles: every figure within 4.5 standard
errors (a fixed seed: the same runs every time), the same best split where the exact plan's
runner-up is far behind, and the objective's error from the targets' own.
"""

from __future__ import annotations

import math

import pytest

import oddsim
from oddsim import plan
from oddsim.errors import TooLargeError
from oddsim.plan import odds as plan_odds
from oddsim.plan.goals import parse_goal
from oddsim.plan.planner import objective_std_error

RULES = "1942-2e"
TARGETS = ["Ukraine=3 inf, 1 arm", "Belarus=1 inf"]
VALUES = ["Ukraine=3", "Belarus=2"]


@pytest.fixture
def too_large(monkeypatch):
    monkeypatch.setattr(plan_odds, "exact_is_cheap", lambda size: False)


def _both(monkeypatch, **kw):
    exact = plan.attack(RULES, "5 inf, 2 arm", TARGETS, values=VALUES, **kw)
    monkeypatch.setattr(plan_odds, "exact_is_cheap", lambda size: False)
    simulated = plan.attack(RULES, "5 inf, 2 arm", TARGETS, values=VALUES, runs=20_000, seed=7, **kw)
    return exact, simulated


@pytest.mark.parametrize("goal", ["value", "take-all", "take-at-least:1"])
def test_simulated_targets_agree_with_the_exact_plan(monkeypatch, goal):
    exact, simulated = _both(monkeypatch, goal=goal)
    assert exact.method == "exact" and exact.objective_std_error == 0
    assert simulated.method == "mc" and simulated.simulated == ("Ukraine", "Belarus")
    assert simulated.runs == 20_000
    gap = exact.objective - exact.alternatives[0].objective
    error = simulated.objective_std_error  # 0 where every run took what it was sent to
    # the best of noisy estimates; a chance every run saw come true is within 3 / runs (rule of three)
    assert abs(simulated.objective - exact.objective) <= 4.5 * error + gap + 3 / 20_000
    if gap > 10 * error + 6 / 20_000:  # far ahead: Monte Carlo finds the same split
        assert {n: t.sent for n, t in simulated.split.items()} == {n: t.sent for n, t in exact.split.items()}
    for name, target in simulated.split.items():
        row = target.to_dict()
        if not row["fought"]:  # nothing sent: no battle to simulate
            assert row["method"] == "exact" and row["score_std_error"] == 0
            continue
        assert row["method"] == "mc" and row["runs"] == 20_000
        # the same units solved exactly: each figure within 4.5 of its standard errors
        defenders = dict(t.split("=", 1) for t in TARGETS)[name]
        truth = oddsim.solve(oddsim.Battle(RULES, attacker=target.sent, defender=defenders))
        for figure in ("takes_territory", "tuv_swing", "attacker_win"):
            assert abs(row[figure] - getattr(truth, figure)) <= 4.5 * row["std_error"][figure] + 3 / 20_000


def test_the_objective_error_comes_from_the_targets_errors(too_large):
    result = plan.attack(RULES, "5 inf, 2 arm", TARGETS, values=VALUES, runs=5_000, seed=3)
    rows = [t.to_dict() for t in result.split.values()]
    by_hand = math.sqrt(sum((r["std_error"].get("tuv_swing", 0) + r["value"] * r["std_error"].get(
        "takes_territory", 0)) ** 2 for r in rows if r["fought"]))
    assert result.objective_std_error == pytest.approx(by_hand, rel=1e-12)
    assert "±" in result.to_table() and "Monte Carlo for Ukraine, Belarus" in result.to_table()


def test_the_error_of_at_least_k_uses_each_targets_slope():
    # P(at least 1 of 2) = 1 - (1 - p)(1 - q): its slope in p is 1 - q, in q 1 - p
    goal = parse_goal("take-at-least:1", 2, False)
    p, q, ep, eq = 0.6, 0.3, 0.01, 0.02
    expected = math.hypot((1 - q) * ep, (1 - p) * eq)
    assert objective_std_error(goal, [p, q], [ep, eq]) == pytest.approx(expected, rel=1e-12)
    both = parse_goal("take-all", 2, False)  # p q: slopes q and p
    assert objective_std_error(both, [p, q], [ep, eq]) == pytest.approx(math.hypot(q * ep, p * eq), rel=1e-12)


def test_a_seed_fixes_the_plan(too_large):
    first = plan.attack(RULES, "3 inf, 1 arm", TARGETS, values=VALUES, runs=2_000, seed=11).to_dict()
    again = plan.attack(RULES, "3 inf, 1 arm", TARGETS, values=VALUES, runs=2_000, seed=11).to_dict()
    other = plan.attack(RULES, "3 inf, 1 arm", TARGETS, values=VALUES, runs=2_000, seed=12).to_dict()
    assert first == again and first["objective"] != other["objective"]


def test_too_many_runs_are_refused_before_any_is_run(too_large):
    with pytest.raises(TooLargeError, match="lower --runs"):
        plan.attack(RULES, "5 inf, 2 arm", TARGETS, values=VALUES, runs=10**8)
