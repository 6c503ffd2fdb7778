"""Rulesets: the shipped editions match docs/rules.md, and bad files fail naming the field."""

import os
import re
from importlib import resources

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

import oddsim
from oddsim.cli import cli
from oddsim.errors import RulesetError
from oddsim.model.rules import (
    MAX_RULESET_BYTES,
    AADice,
    AirHitsSubs,
    SubFirstStrike,
    load_ruleset,
    parse_change,
)

EDITIONS = ["europe-1999", "revised", "anniversary", "1942-2e", "global-1940-2e"]

# (edition, unit, cost, attack, defense, move, hits) straight from docs/rules.md §2
TABLE = [
    ("europe-1999", "armor", 5, 3, 2, 2, 1),
    ("europe-1999", "fighter", 12, 3, 4, 4, 1),
    ("europe-1999", "destroyer", 12, 3, 3, 2, 1),
    ("europe-1999", "carrier", 18, 1, 3, 2, 1),
    ("revised", "armor", 5, 3, 3, 2, 1),
    ("revised", "bomber", 15, 4, 1, 6, 1),
    ("revised", "transport", 8, 0, 1, 2, 1),
    ("anniversary", "aa_gun", 6, 0, 0, 1, 1),
    ("anniversary", "submarine", 6, 2, 1, 2, 1),
    ("anniversary", "cruiser", 12, 3, 3, 2, 1),
    ("1942-2e", "armor", 6, 3, 3, 2, 1),
    ("1942-2e", "battleship", 20, 4, 4, 2, 2),
    ("global-1940-2e", "mech_infantry", 4, 1, 2, 2, 1),
    ("global-1940-2e", "tactical_bomber", 11, 3, 3, 4, 1),
    ("global-1940-2e", "carrier", 16, 0, 2, 2, 2),
]


def test_the_five_editions_ship():
    assert set(EDITIONS) <= set(oddsim.builtin_names())


@pytest.mark.parametrize("edition, unit, cost, attack, defense, move, hits", TABLE)
def test_unit_numbers_match_rules_md(edition, unit, cost, attack, defense, move, hits):
    u = load_ruleset(edition).unit(unit)
    assert (u.cost, u.attack, u.defense, u.move, u.hits) == (cost, attack, defense, move, hits)


def test_special_rule_flags_match_rules_md():
    europe, revised, g42 = (load_ruleset(n) for n in ("europe-1999", "revised", "1942-2e"))
    assert europe.combat.sub_first_strike is SubFirstStrike.ATTACKER
    assert revised.combat.air_hits_subs is AirHitsSubs.ALWAYS
    assert g42.combat.aa_dice is AADice.PER_GUN and g42.combat.aa_dice_per_gun == 3
    assert not load_ruleset("anniversary").unit("aa_gun").combatant
    assert g42.unit("aa_gun").combatant and g42.unit("transport").casualty_last
    assert not revised.unit("transport").defenceless
    assert "mech_infantry" in load_ruleset("global-1940-2e").support[0].supported


def test_unknown_edition_names_the_choices():
    with pytest.raises(oddsim.RulesetError, match="unknown edition 'classic'.*1942-2e"):
        load_ruleset("classic")


def _write(tmp_path, text):
    path = tmp_path / "house.toml"
    path.write_text(text)
    return str(path)


def test_a_user_file_loads_like_an_edition(tmp_path):
    text = (oddsim.rules.resources.files("oddsim.rulesets") / "1942-2e.toml").read_text()
    path = _write(tmp_path, text.replace('name = "1942-2e"', 'name = "house"')
                  .replace("[units.armor]\ncost = 6", "[units.armor]\ncost = 5"))
    rules = load_ruleset(path)
    assert rules.name == "house" and rules.unit("armor").cost == 5
    result = oddsim.solve(oddsim.Battle(rules=path, attacker="1 arm", defender="1 inf"))
    assert result.attacker_win == pytest.approx(0.5)


@pytest.mark.parametrize("text, message", [
    ("name = 'x'\n[units.inf]\ncost = 'three'\nattack=1\ndefense=2\ndomain='land'",
     "units.inf.cost' must be an integer"),
    ("name = 'x'\n[units.inf]\ncost = 3\nattack=9\ndefense=2\ndomain='land'",
     "units.inf.attack' must be between 0 and 6"),
    ("name = 'x'\n[units.inf]\ncost = 3\nattack=1\ndefense=2\ndomain='moon'",
     "units.inf.domain' must be one of land | air | sea"),
    ("name = 'x'\n[units.inf]\ncost = 3\nattack=1\ndefense=2\ndomain='land'\nspeed=3",
     "units.inf.speed' is not a known field"),
    ("name = 'x'\n[combat]\nsub_first_strike='always'\n[units.inf]\ncost=3\nattack=1\n"
     "defense=2\ndomain='land'", "combat.sub_first_strike' must be one of none | attacker | both"),
    ("name = 'x'\n[[support]]\nsupporters=['art']\nsupported=['inf']\nvalue=2\n[units.inf]\n"
     "cost=3\nattack=1\ndefense=2\ndomain='land'", "support\\[0\\]' names unknown unit 'art'"),
    ("title = 'x'\n[units.inf]\ncost=3\nattack=1\ndefense=2\ndomain='land'",
     "'ruleset.name' is missing"),
    ("name = 'x'\n[units.inf\ncost=3", "not valid TOML"),
])
def test_broken_ruleset_files_name_the_field(tmp_path, text, message):
    with pytest.raises(oddsim.RulesetError, match=message):
        load_ruleset(_write(tmp_path, text))


def test_unreadable_ruleset_file(tmp_path):
    with pytest.raises(oddsim.RulesetError, match="cannot read ruleset file"):
        load_ruleset(str(tmp_path / "missing.toml"))


# Ruleset files are capped and must be regular files (issue 11).

@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_device_is_refused_unread():
    """Before: ``oddsim rules show /dev/zero`` read until the memory was gone."""
    with pytest.raises(oddsim.RulesetError, match="not a regular file"):
        load_ruleset("/dev/zero")


def test_a_folder_and_a_huge_file_are_refused(tmp_path):
    with pytest.raises(oddsim.RulesetError, match="not a regular file"):
        load_ruleset(str(tmp_path))
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (MAX_RULESET_BYTES + 1))
    with pytest.raises(oddsim.RulesetError, match="over 1 MiB: a ruleset is a short TOML file"):
        load_ruleset(str(big))


def test_a_ruleset_needs_a_name(tmp_path):
    text = resources.files("oddsim.rulesets").joinpath("1942-2e.toml").read_text()
    path = tmp_path / "nameless.toml"
    path.write_text(re.sub(r'(?m)^name\s*=\s*".*"$', 'name = "  "', text, count=1))
    with pytest.raises(oddsim.RulesetError, match="'name' is empty"):
        load_ruleset(str(path))


# Unit names and aliases a ruleset may give are the ones players can type (QA: a house rule's
# [units."Artillery"] loaded, and then "1 Artillery" was an unknown unit).

def _one_unit(name: str, aliases: list[str] | None = None) -> dict:
    unit = {"cost": 3, "attack": 1, "defense": 2, "domain": "land", "hits": 2}
    if aliases is not None:
        unit["aliases"] = aliases
    return {"name": "house", "units": {name: unit}}


RULE = ("a unit name or alias is lowercase letters, digits and underscores (typed as spaces or "
        "hyphens), starts with a letter, is not none, nothing or empty, and its first word (up to an "
        "underscore) is not damaged or dmg")


@pytest.mark.parametrize("name, aliases, where, fix", [
    ("Artillery", None, "unit 'Artillery'", "artillery"),
    ("heavy artillery", None, "unit 'heavy artillery'", "heavy_artillery"),
    ("heavy-artillery", None, "unit 'heavy-artillery'", "heavy_artillery"),
    ("", None, "unit ''", None),
    ("art,y", None, "unit 'art,y'", None),
    ("art;y", None, "unit 'art;y'", None),
    ("heavy__art", None, "unit 'heavy__art'", None),
    ("_art", None, "unit '_art'", None),
    ("2x", None, "unit '2x'", None),
    ("none", None, "unit 'none'", None),
    ("empty", None, "unit 'empty'", None),
    ("damaged", None, "unit 'damaged'", None),
    ("dmg_tank", None, "unit 'dmg_tank'", None),
    ("tank", ["Heavy Tank"], "unit 'tank': alias 'heavy tank'", "heavy_tank"),
    ("tank", ["none"], "unit 'tank': alias 'none'", None),
    ("tank", ["nothing"], "unit 'tank': alias 'nothing'", None),
    ("tank", ["damaged"], "unit 'tank': alias 'damaged'", None),
    ("tank", [""], "unit 'tank': alias ''", None),
    ("tank", ["2 x"], "unit 'tank': alias '2 x'", None),
    ("tank", ["a,b"], "unit 'tank': alias 'a,b'", None),
])
def test_a_unit_name_or_alias_players_cannot_type_is_refused(name, aliases, where, fix):
    from oddsim.model.rules import parse_ruleset

    expected = f"ruleset house: {where} cannot be typed in an army: {RULE}"
    if fix is not None:
        expected += f"; write '{fix}'"
    with pytest.raises(oddsim.RulesetError) as caught:
        parse_ruleset(_one_unit(name, aliases), origin="house")
    assert str(caught.value) == expected


def test_typable_names_load_and_are_found_as_players_write_them():
    from oddsim.model.forces import parse_force
    from oddsim.model.rules import parse_ruleset

    rules = parse_ruleset(_one_unit("t34_model2", ["Panzer", "nonempty", "damaged2"]), origin="house")
    assert rules.unit("t34_model2").aliases == ("panzer", "nonempty", "damaged2")
    for text in ("3 t34 model2", "3 T34-Model2", "3 t34_model2s", "3 PANZER", "3 nonempty", "3 damaged2"):
        assert parse_force(text, rules).counts == (("t34_model2", 3),), text


@given(st.text(alphabet="abAB09_ -,;é", max_size=8))
def test_every_name_a_ruleset_accepts_parses_back_from_its_description(name):
    """Whatever name loads, a force of it (damaged ones too) written as players read it
    parses back to the same force."""
    from oddsim.model.forces import Force, parse_force
    from oddsim.model.rules import parse_ruleset

    try:
        rules = parse_ruleset(_one_unit(name), origin="house")
    except oddsim.RulesetError as exc:
        assert "cannot be typed in an army" in str(exc)
        return
    for force in (Force(((name, 1),)), Force(((name, 3),), ((name, 2),))):
        assert parse_force(force.describe(), rules) == force


def test_the_cli_refuses_an_untypable_unit_name_in_every_command(tmp_path):
    from click.testing import CliRunner

    from oddsim.cli import cli

    text = resources.files("oddsim.rulesets").joinpath("1942-2e.toml").read_text()
    path = tmp_path / "cap.toml"
    path.write_text(text.replace("[units.artillery]", '[units."Artillery"]')
                    .replace('"artillery"', '"Artillery"'))
    expected = (f"oddsim: error: ruleset {path}: unit 'Artillery' cannot be typed in an army: "
                f"{RULE}; write 'artillery'")
    for args in (["battle", "--rules", str(path), "-a", "1 Artillery", "-d", "1 inf"],
                 ["purchase", "--rules", str(path), "--budget", "10", "--units", "Artillery",
                  "--against", "1 inf"]):
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 2, result.output
        assert result.stderr.strip() == expected


@pytest.mark.parametrize("value", ["[" * 100_000 + "]" * 100_000, "[" * 40 + "1" + "]" * 40])
def test_a_rule_change_nested_too_deep_is_one_line(value):
    # before: a RecursionError traceback from the TOML parser (the first), or from code that
    # walked the value it returned
    with pytest.raises(RulesetError, match="rule change units.infantry.attack is nested too deeply"):
        parse_change(f"units.infantry.attack={value}")
    out = CliRunner().invoke(cli, ["battle", "-a", "1 inf", "-d", "1 inf", "--rule",
                                   f"units.infantry.attack={value}"])
    assert out.exit_code == 2 and out.output.count("\n") == 1, out.output
    assert "nested too deeply" in out.output
