"""Every Axis & Allies answer names the readings and house rules it was computed under where they
differ from its edition's rulebook, in one line (text) and as ``readings`` (JSON), and nothing
when none do (issue 34; ``oddsim.results.readings``)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from oddsim.cli import cli
from oddsim.model.rules import builtin_names, load_ruleset, rule_changes, ruleset_from_text, with_changes
from oddsim.results.readings import describe_rule_readings, rule_readings

TRANSPORT_0 = {"units.transport.defense": {"value": "0", "rulebook": "1"}}


@pytest.mark.parametrize("edition", builtin_names())
def test_an_edition_as_shipped_has_no_reading_to_name(edition):
    assert rule_readings(edition) == {}
    assert describe_rule_readings(rule_readings(edition)) is None


def test_each_changed_key_is_named_with_the_rulebooks_value():
    changed = with_changes("anniversary", {"combat.sub_strike_rounds": "first",
                                           "bombard.one_per_landed_unit": False})
    assert rule_readings(changed) == {
        "combat.sub_strike_rounds": {"value": "first", "rulebook": "every"},
        "bombard.one_per_landed_unit": {"value": "false", "rulebook": "true"}}
    assert describe_rule_readings(rule_readings(changed)) == (
        "readings: combat.sub_strike_rounds=first (rulebook: every); "
        "bombard.one_per_landed_unit=false (rulebook: true)")
    valued = with_changes("1942-2e", rule_changes([], "ftr=14", load_ruleset("1942-2e")))
    assert rule_readings(valued) == {"units.fighter.cost": {"value": "14", "rulebook": "10"}}
    # a change back to the rulebook's value is no reading
    assert rule_readings(with_changes("anniversary", {"combat.sub_strike_rounds": "every"})) == {}


def test_a_users_file_is_compared_with_the_edition_it_is_named_after():
    from importlib import resources

    text = resources.files("oddsim.rulesets").joinpath("europe-1999.toml").read_text(encoding="utf-8")
    house = ruleset_from_text(text.replace("defense = 1\nmove = 2\nhits = 1\ndomain = \"sea\"\n"
                                           "aliases = [\"tra\"", "defense = 0\nmove = 2\nhits = 1\n"
                                           "domain = \"sea\"\naliases = [\"tra\""))
    assert rule_readings(house) == TRANSPORT_0
    other = ruleset_from_text(text.replace('name = "europe-1999"', 'name = "my-table"'))
    assert rule_readings(other) == {}  # no rulebook to compare with


COMMANDS = {
    "battle": ["battle", "--rules", "europe-1999", "--sea", "-a", "1 dd", "-d", "1 trn"],
    "waves": ["battle", "--rules", "europe-1999", "--sea", "-a", "1 dd", "-d", "1 trn", "--wave", "1 dd"],
    "counter-attack": ["battle", "--rules", "europe-1999", "-a", "2 inf", "-d", "1 inf",
                       "--counter-attack", "1 inf"],
    "amphibious": ["amphibious", "--rules", "europe-1999", "--fleet", "1 trn", "--cargo", "1 inf",
                   "--defender", "1 inf"],
    "raid": ["raid", "--rules", "europe-1999", "--bombers", "1", "--territory-value", "3"],
    "purchase": ["purchase", "--rules", "europe-1999", "--budget", "3", "--units", "inf",
                 "--against", "1 inf", "--quiet"],
    "plan": ["plan", "--rules", "europe-1999", "--pool", "2 inf", "--target", "A=1 inf", "--quiet"],
}


@pytest.mark.parametrize("command", COMMANDS)
def test_every_answer_says_its_readings_in_one_line_and_nothing_without(command):
    args = COMMANDS[command]
    runner = CliRunner()
    plain = runner.invoke(cli, args)
    assert plain.exit_code == 0, plain.output
    assert "readings:" not in plain.output
    plain_json = runner.invoke(cli, [*args, "--json"])
    assert plain_json.exit_code == 0, plain_json.output
    assert json.loads(plain_json.stdout)["readings"] == {}
    house = [*args, "--rule", "units.transport.defense=0"]
    text = runner.invoke(cli, house)
    assert text.exit_code == 0, text.output
    lines = [line for line in text.output.splitlines() if line.startswith("readings:")]
    assert lines == ["readings: units.transport.defense=0 (rulebook: 1)"]
    answer = runner.invoke(cli, [*house, "--json"])
    assert answer.exit_code == 0, answer.output
    assert json.loads(answer.stdout)["readings"] == TRANSPORT_0
