"""Plain battles (no submarines) are fought on casualty counts; the general path must still give
the same odds when the plain tables are switched off, so both stay checked against exact."""

import importlib
import math

import pytest

import oddsim
from oddsim.engines.montecarlo import simulate
from oddsim.model.options import battle_from

RUNS = 200_000
Z = 4.5


def B(rules, attacker, defender=None, **options):
    """A battle with its options by their flat names, as the command line gives them."""
    return battle_from(rules, attacker, defender, options)
PLAIN = [
    B("1942-2e", "3 inf, 1 art, 2 arm, 1 ftr", "4 inf, 1 arm, 1 aa"),
    B("anniversary", "6 inf, 2 art, 1 bmb", "5 inf, 1 arm", attacker_tech="heavy-bombers"),
    B("revised", "4 inf, 2 arm", "5 inf", dice="lowluck"),
    B("1942-2e", "3 inf, 2 arm", "5 inf", retreat={"below_win": 0.3, "after_round": 3}),
    B("1942-2e", "1 bb, 2 dd", "2 dd, 1 cru", sea=True),
]


@pytest.mark.parametrize("general", [False, True], ids=["plain path", "general path"])
@pytest.mark.parametrize("battle", PLAIN, ids=[b.describe() for b in PLAIN])
def test_both_paths_agree_with_exact(battle, general, monkeypatch):
    if general:
        monkeypatch.setattr(importlib.import_module("oddsim.engines.montecarlo._model"), "MAX_PLAIN_WORK", -1)
    exact = oddsim.solve(battle)
    mc = simulate(battle, runs=RUNS, seed=2024)
    for key in ("attacker_win", "defender_win", "draw", "retreat"):
        p = getattr(exact, key)
        assert abs(getattr(mc, key) - p) <= Z * math.sqrt(p * (1 - p) / RUNS) + 1e-12, key
    assert abs(mc.attacker_ipc_lost - exact.attacker_ipc_lost) <= Z * mc.std_error["attacker_ipc_lost"] + 1e-9
