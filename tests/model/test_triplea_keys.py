"""The ruleset keys TripleA's features map onto (issue 32): bounds and the checks between keys."""

from __future__ import annotations

import pytest

from oddsim.errors import RulesetError
from oddsim.model.rules import parse_ruleset


def _ruleset(combat: dict | None = None, support: list | None = None, **units: dict):
    table: dict = {"name": "house", "units": {
        "inf": {"cost": 3, "attack": 1, "defense": 2, "domain": "land"},
        "art": {"cost": 4, "attack": 2, "defense": 2, "domain": "land"},
        **units}}
    if combat is not None:
        table["combat"] = combat
    if support is not None:
        table["support"] = support
    return parse_ruleset(table, origin="house")


def test_defaults_read_as_todays_units():
    unit = _ruleset().unit("inf")
    assert (unit.attack_rolls, unit.defense_rolls, unit.choose_best_roll) == (1, 1, False)
    assert _ruleset().combat.dice_sides == 6


@pytest.mark.parametrize("combat, units, message", [
    ({"dice_sides": 1}, {}, "'combat.dice_sides' must be between 2 and 120, not 1"),
    ({}, {"big": {"cost": 1, "attack": 7, "defense": 1, "domain": "land"}},
     r"'units.big.attack' must be between 0 and 6, not 7 \(a die's sides"),
    ({"dice_sides": 12, "aa_hit": 13}, {}, "'combat.aa_hit' must be between 0 and 12, not 13"),
    ({}, {"big": {"cost": 1, "attack": 1, "defense": 1, "domain": "land", "hits": 5}},
     "'units.big.hits' must be between 1 and 4, not 5"),
    ({}, {"big": {"cost": 1, "attack": 1, "defense": 1, "domain": "land", "attack_rolls": -1}},
     "'units.big.attack_rolls' must be between 0 and 20, not -1"),
])
def test_bounds(combat, units, message):
    with pytest.raises(RulesetError, match=message):
        _ruleset(combat, **units)


@pytest.mark.parametrize("rule, message", [
    ({"value": 2, "bonus": 1}, "must give one of value .* or bonus .*, not both"),
    ({}, "must give one of value .* or bonus .*, not neither"),
    ({"value": 2, "faction": "enemy"}, "gives a value: faction, bonus_type"),
    ({"value": 2, "bonus_type": "artillery"}, "gives a value: faction, bonus_type"),
])
def test_a_support_rule_gives_a_value_or_a_bonus(rule, message):
    with pytest.raises(RulesetError, match=rf"field 'support\[0\]' {message}"):
        _ruleset(support=[{"supporters": ["art"], "supported": ["inf"], **rule}])


def test_support_kinds_do_not_mix():
    rules = [{"supporters": ["art"], "supported": ["inf"], "value": 2},
             {"supporters": ["art"], "supported": ["inf"], "bonus": 1}]
    with pytest.raises(RulesetError, match=r"field 'support\[1\]' mixes support kinds"):
        _ruleset(support=rules)


def test_one_bonus_type_has_one_count():
    rules = [{"supporters": ["art"], "supported": ["inf"], "bonus": 1, "bonus_type": "a"},
             {"supporters": ["inf"], "supported": ["art"], "bonus": 1, "bonus_type": "a",
              "bonus_type_count": 2}]
    with pytest.raises(RulesetError, match=r"'support\[1\].bonus_type_count' is 2 but support\[0\]"):
        _ruleset(support=rules)
