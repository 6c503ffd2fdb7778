"""A purchase sweep with units valued beyond their cost (``prices``, ``--unit-values``): the
purchases pay the edition's prices, the battles count the values."""

import pytest

from oddsim import Battle, solve
from oddsim.model.rules import load_ruleset, unit_value_changes, with_changes
from oddsim.purchase import sweep
from oddsim.purchase.spec import SweepSpec


def test_purchases_pay_the_prices_and_battles_count_the_values():
    valued = with_changes("1942-2e", unit_value_changes("ftr=20", load_ruleset("1942-2e")))
    spec = SweepSpec.build(valued, 10, "ftr", "1 inf", goal="tuv", prices=load_ruleset("1942-2e"))
    assert spec.costs == (10,)  # one fighter still fits the budget
    table = sweep(valued, 10, "ftr", "1 inf", goal="tuv", prices=load_ruleset("1942-2e"))
    fighter = next(r for r in table.records() if r["purchase"] == "1 fighter")
    expected = solve(Battle(valued, "1 ftr", "1 inf"))
    assert fighter["cost"] == 10
    assert fighter["tuv_swing"] == pytest.approx(expected.tuv_swing, abs=1e-12)
    plain = solve(Battle("1942-2e", "1 ftr", "1 inf"))
    # the fighter is lost as often; at 20 each loss counts twice its price
    assert expected.attacker_ipc_lost == pytest.approx(2 * plain.attacker_ipc_lost, abs=1e-12)
