"""Parsing armies: names, abbreviations, counts, damaged units, and the errors."""

import pytest

import oddsim
from oddsim.model.forces import MAX_UNITS_PER_SIDE, Force, parse_force

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


@pytest.mark.parametrize("side, hint", [
    ("defender", " (or 'none' for an undefended territory)"),
    ("against", " (or 'none' for an undefended territory)"),
    ("existing", " (or 'none' for no units)"),
    ("attacker", ""),  # an attack is never empty: 'none' is refused there, so it is not offered
    ("counter-attack", ""),
])
def test_an_empty_army_offers_none_only_where_it_is_taken(side, hint):
    with pytest.raises(oddsim.ForceError) as error:
        parse_force(" , ", G42, side)
    assert str(error.value) == f"{side}: the army is empty: list units like '3 inf, 1 arm'{hint}"


@pytest.mark.parametrize("count", ["1_000", "\uff13", "\u0663"])  # an underscore, a fullwidth and an Arabic 3
def test_a_whole_count_in_other_digits_is_asked_for_in_0_to_9(count):
    """Before: "must be a whole number", which it is."""
    with pytest.raises(oddsim.ForceError) as error:
        parse_force({"inf": count}, G42)
    assert str(error.value) == f"army: count '{count}' of 'inf': write it with the digits 0 to 9"


def test_bad_mapping_counts():
    with pytest.raises(oddsim.ForceError, match="negative"):
        parse_force({"inf": -1}, G42)
    with pytest.raises(oddsim.ForceError, match="whole number"):
        parse_force({"inf": 1.5}, G42)
    with pytest.raises(oddsim.ForceError, match="not a number"):
        parse_force({"inf": "many"}, G42)


# A hand-built Force goes through the same validation as text or a mapping (issue 11).

def test_a_hand_built_force_resolves_aliases_like_text():
    """Before: the alias was dropped, so "3 infantry attack none" won with certainty."""
    battle = oddsim.Battle(rules="1942-2e", attacker="3 inf", defender=oddsim.Force((("inf", 5),)))
    assert battle.defender.army == parse_force("5 inf", battle.rules)
    result = oddsim.solve(battle)
    assert "attack 5 infantry" in result.battle
    assert result.attacker_win < 0.1


def test_a_hand_built_force_keeps_every_unit():
    rules = oddsim.load_ruleset("1942-2e")
    force = parse_force(oddsim.Force((("infantry", 3), ("arm", 2))), rules)
    assert force == parse_force("3 inf, 2 arm", rules)
    assert parse_force(oddsim.Force((("inf", 1), ("infantry", 2))), rules) == parse_force("3 inf", rules)


@pytest.mark.parametrize("force, message", [
    (oddsim.Force((("inf", 2.5),)), "whole number"),
    (oddsim.Force((("inf", -3),)), "negative"),
    (oddsim.Force((("bb", 1),), (("bb", 5),)), "5 damaged battleships but 1 battleship"),
    (oddsim.Force((("inf", 2),), (("inf", 1),)), "one hit"),
    (oddsim.Force((("xyz", 2),)), "unknown unit 'xyz'"),
    (oddsim.Force((("inf", float("nan")),)), "whole number"),
    (oddsim.Force((("inf", float("inf")),)), "whole number"),
    (oddsim.Force((("inf", 2000),)), "too many"),
    (oddsim.Force("3 inf"), "pairs"),
    (oddsim.Force(((3, "inf"),)), "pairs"),
])
def test_a_bad_hand_built_force_is_a_force_error(force, message):
    with pytest.raises(oddsim.ForceError, match=message):
        oddsim.Battle(rules="1942-2e", attacker="1 bb", defender=force, sea=True)


@pytest.mark.parametrize("spec", ["1e400 inf", "1e309 inf", "3 inf, 1e999 arm", {"inf": float("nan")},
                                  {"inf": float("inf")}, {"inf": "1e400"}, {"inf": 10**400}])
def test_huge_and_not_finite_counts_are_force_errors(spec):
    """Before: OverflowError (1e309 and up) or ValueError (NaN)."""
    with pytest.raises(oddsim.ForceError):
        parse_force(spec, oddsim.load_ruleset("1942-2e"))


# Counts are exact integers, and an error quotes the count as written (QA: "9007199254740993 inf"
# was "9007199254740992 'inf' is too many", a 1 and 400 zeros "must be a whole number").

TOO_MANY = "is too many: at most 1000 units per side"
GOOGOL4 = "1" + "0" * 400


@pytest.mark.parametrize("spec, message", [
    ("9007199254740993 inf", f"army: 9007199254740993 'inf' {TOO_MANY}"),
    ("1000000000000000000000000000000 inf", f"army: 1000000000000000000000000000000 'inf' {TOO_MANY}"),
    ("+0001001 inf", f"army: +0001001 'inf' {TOO_MANY}"),
    (f"{GOOGOL4} inf", f"army: 100000000000... (401 digits) 'inf' {TOO_MANY}"),
    (f"3 arm, {GOOGOL4}inf", f"army: 100000000000... (401 digits) 'inf' {TOO_MANY}"),
    (f"-{GOOGOL4} inf", "army: count -100000000000... (401 digits) of 'inf' is negative: counts start at 0"),
    ({"inf": "9007199254740993"}, f"army: 9007199254740993 'inf' {TOO_MANY}"),
    ({"inf": 9007199254740993}, f"army: 9007199254740993 'inf' {TOO_MANY}"),
    ({"inf": 1e308}, f"army: 1e+308 'inf' {TOO_MANY}"),
    ({"inf": -2.0}, "army: count -2.0 of 'inf' is negative: counts start at 0"),
    ({"inf": 10**400}, f"army: 100000000000... (401 digits) 'inf' {TOO_MANY}"),
    ({"inf": 10**5000 + 1}, f"army: 100000000000... (5001 digits) 'inf' {TOO_MANY}"),
    ({"inf": -(10**5000) + 1}, "army: count -999999999999... (5000 digits) of 'inf' is negative: "
                                "counts start at 0"),
])
def test_a_count_out_of_range_is_quoted_as_written(spec, message):
    with pytest.raises(oddsim.ForceError) as caught:
        parse_force(spec, G42)
    assert str(caught.value) == message


@pytest.mark.parametrize("spec", ["0003 inf", "+3 inf", {"inf": "3"}, {"inf": 3.0}, {"inf": " 3 "}])
def test_a_whole_count_however_written_is_exact(spec):
    assert parse_force(spec, G42) == Force((("infantry", 3),))


# Force arithmetic (1942-2e costs: infantry 3, artillery 4, armor 6, fighter 10, battleship 20)
RULES_1942 = oddsim.load_ruleset("1942-2e")


def test_joined_armies_add_counts_and_damaged_units_in_the_editions_order():
    fleet = parse_force("1 damaged bb, 2 dd", RULES_1942)
    more = parse_force("1 bb, 1 dd, 2 ftr", RULES_1942)
    joined = oddsim.forces.join_forces(RULES_1942, fleet, None, more, side="fleet")
    assert joined == parse_force("1 bb, 1 damaged bb, 3 dd, 2 ftr", RULES_1942)
    assert joined.counts == (("fighter", 2), ("destroyer", 3), ("battleship", 2))  # the edition's order
    assert joined.damaged == (("battleship", 1),)
    assert oddsim.forces.join_forces(RULES_1942, None) == Force(())
    with pytest.raises(oddsim.ForceError, match="too many"):
        oddsim.forces.join_forces(RULES_1942, parse_force("600 inf", RULES_1942),
                                  parse_force("600 inf", RULES_1942))


def test_an_army_minus_some_of_its_units():
    army = parse_force("3 inf, 1 art, 2 bb, 1 damaged bb", RULES_1942)
    assert army.minus(parse_force("1 inf, 1 art", RULES_1942), RULES_1942) == parse_force(
        "2 inf, 2 bb, 1 damaged bb", RULES_1942)
    # the whole battleships leave first: of 3 (1 damaged), taking 2 leaves the damaged one
    assert army.minus(parse_force("2 bb", RULES_1942), RULES_1942).describe() == \
        "3 infantry, 1 artillery, 1 damaged battleship"
    # a damaged one taken leaves the two whole ones
    assert army.minus(parse_force("1 damaged bb", RULES_1942), RULES_1942).describe() == \
        "3 infantry, 1 artillery, 2 battleships"
    assert army.minus(army, RULES_1942) == Force(())
    with pytest.raises(oddsim.ForceError, match="4 infantry cannot be taken from 3 infantry"):
        army.minus(parse_force("4 inf", RULES_1942), RULES_1942)


def test_an_armys_ipc_value_and_its_units_of_some_types():
    army = parse_force("3 inf, 1 art, 2 ftr, 1 damaged bb", RULES_1942)
    assert army.ipc(RULES_1942) == 3 * 3 + 4 + 2 * 10 + 20  # a damaged unit at full price
    assert Force(()).ipc(RULES_1942) == 0
    land = army.where(lambda name: RULES_1942.unit(name).domain.value == "land")
    assert land == parse_force("3 inf, 1 art", RULES_1942)
    assert army.where(lambda name: name == "battleship") == Force((("battleship", 1),), (("battleship", 1),))


def test_equal_compositions_are_one_key():
    """The stages key compositions by Force: a normalised Force is equal, and hashes equal,
    exactly when it describes the same units."""
    a = parse_force("2 inf, 1 damaged bb, 1 bb", RULES_1942)
    b = oddsim.forces.join_forces(RULES_1942, parse_force("1 bb", RULES_1942),
                                  parse_force("1 damaged bb, 2 inf", RULES_1942))
    assert a == b and hash(a) == hash(b) and {a: 1}[b] == 1
    assert a != a.repaired() and a.describe() != a.repaired().describe()
