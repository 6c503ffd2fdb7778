"""Parsing armies: names, abbreviations, counts, damaged units, and the errors."""

import pytest

import oddsim
from oddsim.forces import MAX_UNITS_PER_SIDE, parse_force

G42 = oddsim.load_ruleset("1942-2e")
G40 = oddsim.load_ruleset("global-1940-2e")


@pytest.mark.parametrize("text, expected", [
    ("3 inf, 2 art, 1 arm", {"infantry": 3, "artillery": 2, "armor": 1}),
    ("3 Infantry; 1 TANK, 2 armour", {"infantry": 3, "armor": 3}),
    ("2 ftr, 1 fig, 1 fighter, 1 bmb, 1 bom", {"fighter": 4, "bomber": 2}),
    ("1 tra, 1 trn, 1 transport, 2 dd, 1 des, 1 cru, 1 cv, 1 acc, 1 bb, 1 bat, 1 sub",
     {"transport": 3, "destroyer": 3, "cruiser": 1, "carrier": 2, "battleship": 2,
      "submarine": 1}),
    ("aa, 1 aaa", {"aa_gun": 2}),
    ("3inf, 2 tanks", {"infantry": 3, "armor": 2}),
    ("0 inf, 1 arm", {"armor": 1}),
])
def test_names_and_abbreviations(text, expected):
    assert dict(parse_force(text, G42).counts) == expected


def test_global_only_units():
    force = parse_force("2 mech, 1 tac", G40)
    assert dict(force.counts) == {"mech_infantry": 2, "tactical_bomber": 1}
    with pytest.raises(oddsim.ForceError, match="unknown unit 'mech' in 1942-2e"):
        parse_force("1 mech", G42)


def test_damaged_units_and_mapping():
    force = parse_force({"bb": 2, "damaged bb": 1}, G42)
    assert force.count("battleship") == 3 and force.damaged_count("battleship") == 1
    assert parse_force(force.describe(), G42) == force
    assert force.describe() == "2 battleships, 1 damaged battleship"


def test_describe_uses_the_names_players_write_with_plurals():
    g40 = oddsim.load_ruleset("global-1940-2e")
    force = parse_force("2 aa, 1 mech, 3 mech, 9 ftr, 1 tac", g40)
    assert force.describe() == "4 mech infantry, 2 AA guns, 9 fighters, 1 tactical bomber"
    assert parse_force(force.describe(), g40) == force


@pytest.mark.parametrize("text, message", [
    ("3 knights", "unknown unit 'knights'"),
    ("-2 inf", "count -2 of 'inf' is negative"),
    ("2.5 inf", "count '2.5' of 'inf' must be a whole number"),
    (f"{MAX_UNITS_PER_SIDE + 1} inf", "too many"),
    ("600 inf, 600 arm", "1200 units is too many"),
    (", ,", "the army is empty"),
    ("3", "has a count but no unit"),
    ("1 damaged inf", "cannot be entered as damaged"),
])
def test_bad_armies_raise_force_error(text, message):
    with pytest.raises(oddsim.ForceError, match=message):
        parse_force(text, G42)


def test_bad_mapping_counts():
    with pytest.raises(oddsim.ForceError, match="negative"):
        parse_force({"inf": -1}, G42)
    with pytest.raises(oddsim.ForceError, match="whole number"):
        parse_force({"inf": 1.5}, G42)
    with pytest.raises(oddsim.ForceError, match="not a number"):
        parse_force({"inf": "many"}, G42)
