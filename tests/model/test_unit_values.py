"""``--unit-values``: a unit valued beyond its cost is that cost in a copy of the edition, so IPC
figures and the default order of loss (cheapest first, 2.5 IPCs per fighting point) follow it."""

import pytest

from oddsim import Battle, parse_force, solve
from oddsim.errors import RulesetError
from oddsim.model.order_of_loss import casualty_order
from oddsim.model.rules import load_ruleset, unit_value_changes, with_changes

G42 = load_ruleset("1942-2e")


def _order(rules):
    force = parse_force("1 inf, 1 arm, 1 ftr, 1 bmb", rules)
    return [step.unit for step in casualty_order(force, rules, True, None)]


def test_values_are_costs_in_a_copy():
    changes = unit_value_changes("ftr=14, bmb=15", G42)
    assert changes == {"units.fighter.cost": 14, "units.bomber.cost": 15}
    rules = with_changes("1942-2e", changes)
    assert rules.unit("fighter").cost == 14 and load_ruleset("1942-2e").unit("fighter").cost == 10


def test_the_default_order_of_loss_follows_the_values():
    # attacking armor 6 + 2.5 x 3 = 13.5 < fighter 10 + 2.5 x 3 = 17.5; at 11 the armor counts 18.5
    assert _order(load_ruleset("1942-2e")) == ["infantry", "armor", "fighter", "bomber"]
    valued = with_changes("1942-2e", unit_value_changes({"arm": 11}, G42))
    assert _order(valued) == ["infantry", "fighter", "armor", "bomber"]


def test_ipc_figures_count_the_values():
    plain = solve(Battle("1942-2e", "1 bmb", "1 inf"))
    valued = solve(Battle(with_changes("1942-2e", unit_value_changes("bmb=15", G42)), "1 bmb", "1 inf"))
    assert valued.attacker_ipc_lost == pytest.approx(plain.attacker_ipc_lost * 15 / 12, abs=1e-12)
    assert valued.attacker_win == pytest.approx(plain.attacker_win, abs=1e-15)


@pytest.mark.parametrize(("spec", "message"), [
    ("zep=3", "unit values: unknown unit 'zep' in 1942-2e"),
    ("ftr", "unit values: write UNIT=IPCS, e.g. ftr=14, not 'ftr'"),
    ("ftr=-1", "unit values: ftr=-1: a value is a whole number of IPCs from 0 to 10000"),
    ({"ftr": 2.5}, "unit values: ftr=2.5: a value is a whole number of IPCs from 0 to 10000"),
])
def test_bad_values_are_refused(spec, message):
    with pytest.raises(RulesetError) as error:
        unit_value_changes(spec, G42)
    assert str(error.value) == message
