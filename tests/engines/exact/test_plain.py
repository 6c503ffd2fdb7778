"""A small plain battle solved in one kernel call (``_plain``) against the same battle through
``prepare`` and the DP called on its own: the same kernels in the same order, so every figure
of the result (odds, IPCs, rounds, survivor rows, swings) agrees; and which battles take it."""

import importlib

import pytest

import oddsim
from oddsim.engines.exact import array_pool
from oddsim.engines.lowering import lower
from oddsim.model.options import battle_from
from oddsim.model.rules import with_changes

exact = importlib.import_module("oddsim.engines.exact.solve")

PLAIN = [
    ("1942-2e", "10 inf, 4 art, 3 arm, 2 ftr, 1 bmb", "12 inf, 2 art, 2 arm, 2 ftr", {}),
    ("1942-2e", "3 inf, 1 art, 2 arm", "4 inf, 1 arm, 1 aa", {}),  # an AA gun and no aircraft: it holds
    ("1942-2e", "2 sub, 2 dd, 1 cru, 2 ftr", "1 bb, 1 cv, 2 ftr, 2 sub", {"sea": True}),
    ("1942-2e", "4 sub, 1 bmb", "2 tra, 1 dd, 1 ftr", {"sea": True}),  # defenceless transports
    ("revised", "3 sub, 1 bb", "2 dd, 1 sub", {"sea": True}),
    ("anniversary", "6 inf, 2 art, 1 arm, 1 bmb", "7 inf, 1 arm", {"dice": "lowluck"}),
    ("global-1940-2e", "4 inf, 2 mech, 1 art, 1 tac", "5 inf, 1 art", {"attacker_tech": "heavy_bombers"}),
    ("europe-1999", "5 inf, 2 arm, 1 ftr", "6 inf, 1 ftr", {}),
    ("1942-2e", "1 bb, 1 cru", "2 bb, 1 damaged bb", {"sea": True}),
]


def _through_prepare(battle, monkeypatch):
    with monkeypatch.context() as patched:
        patched.setattr(exact, "_is_plain", lambda *lowered: False)
        return exact.solve(battle)


def _flat(result):
    figures = result.to_dict()
    figures["attacker_survivors"] = [(r.units, r.probability) for r in result.attacker_survivors]
    figures["defender_survivors"] = [(r.units, r.probability) for r in result.defender_survivors]
    return figures


@pytest.mark.parametrize(("rules", "attacker", "defender", "options"), PLAIN)
def test_one_kernel_call_gives_the_figures_of_the_kernels_called_one_by_one(rules, attacker, defender,
                                                                             options, monkeypatch):
    battle = battle_from(rules, attacker, defender, options)
    assert exact._is_plain(battle, *exact.size(battle).lowered)
    plain, apart = _flat(exact.solve(battle)), _flat(_through_prepare(battle, monkeypatch))
    assert plain == apart


@pytest.mark.parametrize(("attacker", "defender", "options"), [
    ("3 inf, 1 ftr", "3 inf, 1 aa", {}),  # AA fire before round 1
    ("3 inf, 1 art", "4 inf", {"retreat": {"units_left": 1}}),
    ("2 inf", "3 inf", {"landed": "2 inf", "bombard": "1 bb"}),
    ("2 sub, 1 dd", "2 sub, 1 cru", {"sea": True, "defender_submerge": "always"}),
])
def test_battles_with_more_than_rounds_of_fire_go_through_prepare(attacker, defender, options):
    battle = battle_from("1942-2e", attacker, defender, options)
    low, a, d = exact.size(battle, plain=False).lowered
    assert not exact._is_plain(battle, low, a, d)


def test_subs_striking_first_in_round_one_only_go_through_prepare():
    rules = with_changes("1942-2e", {"combat.sub_strike_rounds": "first"})
    battle = oddsim.Battle(rules=rules, attacker="2 sub", defender="1 cru", sea=True)
    assert lower(battle).subs_first_round_one
    assert not exact._is_plain(battle, *exact.size(battle).lowered)


def test_battles_whose_joint_arrays_are_kept_go_through_prepare():
    battle = oddsim.Battle(rules="1942-2e", attacker="8 sub, 4 dd, 2 cru, 6 ftr, 4 bmb",
                           defender="2 bb, 2 cv, 4 ftr, 6 sub, 3 dd", sea=True)
    low, a, d = exact.size(battle).lowered
    assert a.n_states * d.n_states >= array_pool.MIN_POOLED_ENTRIES
    assert not exact._is_plain(battle, low, a, d)
