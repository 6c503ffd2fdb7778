"""The battle endpoint's quick path (answered on the event loop) against ``oddsim.solve``."""

from __future__ import annotations

import json

import pytest

import oddsim
from oddsim.model.battle import Battle
from oddsim.model.rules import load_ruleset
from oddsim.stages.pipeline import estimate_work
from oddsim.web.battle_requests import QUICK_WORK, battle_spec, quick_battle_answer, run_battle_request


def solved(**fields) -> dict:
    """What ``oddsim.solve`` gives for the battle, built straight from the Python API, with the
    readings of its rules (none: an edition as shipped)."""
    return {**oddsim.solve(Battle(rules=load_ruleset(fields.pop("rules", "1942-2e")), **fields)).to_dict(),
            "readings": {}}


@pytest.mark.parametrize("body", [
    {"attacker": "3 inf, 1 art, 2 arm", "defender": "4 inf, 1 arm", "seed": 11},
    {"attacker": "2 sub, 1 dd", "defender": "1 dd, 1 cruiser", "sea": True, "method": "exact"},
    {"attacker": "3 inf, 2 art", "defender": "4 inf", "retreat": {"after_round": 2}, "seed": 12},
])
def test_a_small_battle_is_answered_quickly_as_solve_answers_it(body):
    text = quick_battle_answer(body)
    assert text is not None
    fields = {k: v for k, v in body.items() if k not in ("seed", "method", "retreat")}
    if "retreat" in body:
        fields["retreat"] = oddsim.RetreatPolicy(**body["retreat"])
    assert json.loads(text) == solved(**fields)
    assert run_battle_request(body) == text  # now from memory, the same text


@pytest.mark.parametrize("body", [
    {"attacker": "3 inf", "defender": "2 inf", "method": "mc", "runs": 1000, "seed": 3},
    {"attacker": "1 arm", "defender": "none", "counter_attack": "1 inf", "seed": 4},
    {"attacker": "2 inf, 1 arm", "defender": "2 inf", "retreat": {"best": "tuv"}, "seed": 6},
    {"attacker": "20 inf, 10 art, 10 arm, 6 ftr", "defender": "25 inf, 8 arm, 4 ftr", "method": "exact"},
])
def test_monte_carlo_counter_attacks_and_large_battles_go_to_a_worker_thread(body):
    if body.get("method") == "exact":
        battle = battle_spec(body).fight
        assert estimate_work(battle)[1] > QUICK_WORK
    assert quick_battle_answer(body) is None


def test_a_bad_battle_raises_on_the_quick_path_as_in_the_thread():
    body = {"attacker": "3 tanks and a dragon", "defender": "1 inf"}
    with pytest.raises(oddsim.OddsimError) as quick:
        quick_battle_answer(body)
    with pytest.raises(oddsim.OddsimError) as threaded:
        run_battle_request(body)
    assert str(quick.value) == str(threaded.value)
