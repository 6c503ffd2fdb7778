"""Small rulesets and the two-engine check the tests of TripleA's engine features share."""

from __future__ import annotations

import math

import pytest

from oddsim import Battle, simulate, solve
from oddsim.model.rules import ruleset_from_keys

RUNS = 200_000


def house(sides: int = 6, units: dict | None = None, **keys):
    """A small ruleset of ``sides``-sided dice: ``a`` (a land unit attacking at ``a``'s values)
    and ``d``, with ``units`` added or changed."""
    table = {"a": {"cost": 3, "attack": 1, "defense": 1, "domain": "land"},
             "d": {"cost": 3, "attack": 1, "defense": 1, "domain": "land"}}
    for name, record in (units or {}).items():
        table[name] = {**table.get(name, {"cost": 3, "domain": "land", "attack": 1, "defense": 1}),
                       **record}
    return ruleset_from_keys({"name": "house", "combat.dice_sides": sides, **keys}, table, "house")


def check(battle: Battle, attacker: float, defender: float, draw: float, seed: int = 5) -> None:
    """The exact engine's figures to 1e-12, and the Monte Carlo engine's within 4.5 standard
    errors of them."""
    exact = solve(battle)
    assert exact.attacker_win == pytest.approx(attacker, abs=1e-12)
    assert exact.defender_win == pytest.approx(defender, abs=1e-12)
    assert exact.draw == pytest.approx(draw, abs=1e-12)
    mc = simulate(battle, runs=RUNS, seed=seed)
    for got, p in ((mc.attacker_win, attacker), (mc.defender_win, defender), (mc.draw, draw)):
        assert abs(got - p) <= 4.5 * math.sqrt(p * (1 - p) / RUNS) + 1e-12
