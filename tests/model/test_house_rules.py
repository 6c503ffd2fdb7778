"""A user's ruleset with two support rules on one unit type: both engines raise each unit to the
value of the rule that raised it."""

import math

from oddsim import Battle, simulate, solve
from oddsim.model.rules import resources


def test_two_support_rules_on_one_unit_type(tmp_path):
    text = (resources.files("oddsim.rulesets") / "1942-2e.toml").read_text()
    house = text.replace('name = "1942-2e"', 'name = "house"') + (
        '\n[[support]]\nsupporters = ["armor"]\nsupported = ["infantry"]\nper_supporter = 1\n'
        'value = 3\nside = "attack"\n')
    path = tmp_path / "house.toml"
    path.write_text(house)
    battle = Battle(rules=str(path), attacker="2 inf, 1 art, 1 arm", defender="4 inf")
    exact = solve(battle)
    plain = solve(Battle(rules="1942-2e", attacker="2 inf, 1 art, 1 arm", defender="4 inf"))
    assert exact.attacker_win > plain.attacker_win  # the second infantry attacks at 3
    mc = simulate(battle, runs=200_000, seed=11)
    p = exact.attacker_win
    assert abs(mc.attacker_win - p) < 4.5 * math.sqrt(p * (1 - p) / 200_000)
