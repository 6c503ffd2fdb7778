"""``solve`` after ``estimate_work`` on the same Battle reuses its lowering: same answer."""

from __future__ import annotations

import oddsim
from oddsim.engines.exact import estimate_work
from oddsim.model.battle import Battle, RetreatPolicy
from oddsim.model.rules import load_ruleset


def battles():
    rules = load_ruleset("1942-2e")
    return [Battle(rules=rules, attacker="3 inf, 1 art, 2 arm", defender="4 inf, 1 arm"),
            Battle(rules=rules, attacker="2 sub, 1 dd", defender="1 dd, 1 cruiser", sea=True),
            Battle(rules=rules, attacker="3 inf, 2 art", defender="4 inf",
                   retreat=RetreatPolicy(after_round=2))]


def test_solve_after_estimate_work_equals_a_solve_of_a_fresh_equal_battle():
    for estimated, fresh in zip(battles(), battles(), strict=True):
        assert estimated is not fresh
        estimate_work(estimated)
        estimate_work(estimated)  # asked twice, as the server's quick path does
        first = oddsim.solve(estimated).to_dict()
        assert first == oddsim.solve(fresh).to_dict()
        assert oddsim.solve(estimated).to_dict() == first  # its lowering was not kept by the solve


def test_estimate_work_of_another_battle_in_between_changes_nothing():
    one, other, _ = battles()
    estimate_work(one)
    estimate_work(other)
    assert oddsim.solve(one).to_dict() == oddsim.solve(battles()[0]).to_dict()
