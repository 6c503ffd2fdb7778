"""The best retreat's plan rows (``oddsim.engines.exact.best.PlanRows``): counted and read a few at a
time without making the others, in the order of the whole plan (most likely first, equal chances
by their texts)."""

import pickle

import numpy as np

from oddsim import Battle
from oddsim.engines.exact.best import PlanRows, SideCounts, retreat_plan
from oddsim.results.battle_result import RetreatPlanRow
from oddsim.stages.pipeline import solve

NAMES = ["infantry", "armor"]


def counts(rows: list[list[int]]) -> SideCounts:
    alive = np.array(rows, dtype=np.int64)
    zero = np.zeros_like(alive)
    return SideCounts(alive, zero, zero, np.zeros(len(rows)))


def test_equal_chances_go_by_the_attackers_text_then_the_defenders():
    # attacker states: 0 "2 infantry", 1 "1 armor"; defender states: 0 "1 infantry", 1 "3 infantry"
    attacker, defender = counts([[2, 0], [0, 1]]), counts([[1, 0], [3, 0]])
    states = np.array([0 * 2 + 1, 1 * 2 + 1, 1 * 2 + 0, 0 * 2 + 0])  # joint: attacker * 2 + defender
    mass = np.array([0.25, 0.25, 0.25, 0.5])
    plan = retreat_plan(NAMES, attacker, defender, 2, states, mass, 2 * mass)
    # "1 armor" < "2 infantry", then "1 infantry" < "3 infantry"; the 0.5 first
    assert [(row.attacker, row.defender, row.probability) for row in plan] == [
        ("2 infantry", "1 infantry", 0.5), ("1 armor", "1 infantry", 0.25), ("1 armor", "3 infantry", 0.25),
        ("2 infantry", "3 infantry", 0.25)]
    assert all(row.mean_round == 2.0 for row in plan)


def test_rows_read_one_by_one_are_the_rows_of_the_whole_plan():
    result = solve(Battle(rules="1942-2e", attacker="10 inf, 4 art, 4 arm, 2 ftr",
                          defender="14 inf, 3 arm, 2 ftr, 1 aa", retreat={"best": "tuv"}))
    plan = result.retreat_plan
    assert isinstance(plan, PlanRows)
    n = len(plan)
    assert plan._build is not None  # counted without making the rows
    top, last, middle = plan[:10], plan[-1], plan[n // 2]
    assert plan._build is not None
    whole = tuple(plan)
    assert n == len(whole) > 10
    assert top == whole[:10] and last == whole[-1] and middle == whole[n // 2]
    assert plan[3:7] == whole[3:7] and plan == whole
    assert isinstance(whole[0], RetreatPlanRow)
    probabilities = [row.probability for row in whole]
    assert probabilities == sorted(probabilities, reverse=True)
    assert abs(sum(probabilities) - result.retreat) < 1e-12
    assert pickle.loads(pickle.dumps(plan)) == whole


def test_an_index_past_the_end_is_an_index_error():
    plan = solve(Battle(rules="1942-2e", attacker="3 inf, 1 art, 1 arm", defender="4 inf, 1 arm",
                        retreat={"best": "tuv"})).retreat_plan
    for i in (len(plan), -len(plan) - 1):
        try:
            plan[i]
        except IndexError:
            continue
        raise AssertionError(f"plan[{i}] did not raise IndexError")


def test_the_json_of_a_plan_never_read_is_that_of_its_rows():
    battle = Battle(rules="1942-2e", attacker="10 inf, 4 art, 4 arm, 2 ftr",
                    defender="14 inf, 3 arm, 2 ftr, 1 aa", retreat={"best": "tuv"})
    unread = solve(battle).to_dict()["retreat_plan"]  # made from the arrays
    rows = solve(battle).retreat_plan
    assert unread == [{"attacker": row.attacker, "defender": row.defender, "probability": row.probability,
                       "mean_round": row.mean_round} for row in rows]
