"""Readings of the rules: each edition's default the rulebook's where its summary is silent or
agrees with it (issue 34; docs/rules.md, "Which reading is the default"), the other reading, a
house rule, one ``--rule KEY=VALUE`` away (``oddsim.model.rules.with_changes``); values by hand."""

import json
from fractions import Fraction as F

import pytest
from click.testing import CliRunner

import oddsim
from oddsim.api import run_amphibious
from oddsim.cli import cli
from oddsim.errors import RulesetError
from oddsim.model.rules import load_ruleset, parse_change, with_changes
from oddsim.raid import Raid, run_raid
from oddsim.stages.amphibious import Amphibious

TOL = 1e-12


def test_europe_transports_defend_at_1_as_the_chart_and_the_rulebook_have_it():
    # issue 34: 1 destroyer (attack 3: hits 1/2) against 1 transport (defence 1: hits 1/6),
    # together each round, decided with 1 - 1/2 x 5/6 = 7/12: attacker (1/2 x 5/6) / (7/12) = 5/7,
    # defender (1/2 x 1/6) / (7/12) = 1/7, both sunk (1/2 x 1/6) / (7/12) = 1/7
    chart = oddsim.solve(oddsim.Battle("europe-1999", "1 dd", "1 trn", sea=True))
    odds = (chart.attacker_win, chart.defender_win, chart.draw)
    assert odds == pytest.approx((5 / 7, 1 / 7, 1 / 7), abs=TOL)
    # a sub (hits 1/3, striking first) against a lone transport: defending at 1 (hits 1/6) it
    # sinks the sub after a miss: (1/3) / (1 - 2/3 x 5/6) = 3/4; the house rule (defence 0)
    # never hits back
    sub = oddsim.solve(oddsim.Battle("europe-1999", "1 sub", "1 trn", sea=True))
    house = oddsim.solve(oddsim.Battle(with_changes("europe-1999", {"units.transport.defense": 0}),
                                       "1 sub", "1 trn", sea=True))
    assert sub.attacker_win == pytest.approx(3 / 4, abs=TOL)
    assert house.attacker_win == pytest.approx(1.0, abs=TOL)


def test_europe_transports_defend_at_1_on_the_command_line():
    out = CliRunner().invoke(cli, ["battle", "--rules", "europe-1999", "--sea", "-a", "1 dd",
                                   "-d", "1 trn", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["attacker_win"] == pytest.approx(5 / 7, abs=TOL)


def test_europe_factories_have_no_aa_of_their_own():
    # the summary's industrial complex defends at 0: with no AA gun, the bomber is never shot
    # at and does 1d6 = 3.5 on average; with the gun (hits 1/6 first) 3.5 x 5/6
    alone = run_raid(Raid("europe-1999", bombers=1, territory_value=10, aa_gun=False), method="exact")
    guarded = run_raid(Raid("europe-1999", bombers=1, territory_value=10), method="exact")
    assert alone.expected_damage == pytest.approx(3.5, abs=TOL)
    assert guarded.expected_damage == pytest.approx(3.5 * 5 / 6, abs=TOL)
    with pytest.raises(oddsim.OddsimError, match="built-in AA"):
        Raid(with_changes("europe-1999", {"raid.builtin_aa": True}), bombers=1, territory_value=10,
             aa_gun=False)


@pytest.mark.parametrize(("changes", "ships", "takes"), [
    ({}, "1 battleship", F(19, 36)),
    ({"bombard.one_per_landed_unit": False}, "2 battleships", F(67, 108))])
def test_anniversary_bombards_with_one_ship_per_land_unit_landed_as_its_rulebook_says(changes, ships, takes):
    # 2 battleships and 1 transport carrying 1 infantry against 1 infantry, no sea battle. A hit
    # (a battleship bombards at 4: 2/3) kills the defender, which still fires back in round 1
    # (2: 1/3): the landed infantry takes it 2/3. With no hit, 1 inf against 1 inf: 1/4.
    # One battleship (the rulebook's limit): 2/3 x 2/3 + 1/3 x 1/4 = 19/36. Both (the house
    # rule): a hit with 1 - 1/9 = 8/9: 8/9 x 2/3 + 1/9 x 1/4 = 67/108.
    rules = with_changes("anniversary", changes) if changes else "anniversary"
    assault = Amphibious(rules, fleet="2 bb, 1 trn", cargo="1 inf", defender="1 inf")
    assert assault.land_battle(1).attacker.bombard.describe() == ships
    result = run_amphibious(assault, method="exact")
    assert result.takes_territory == pytest.approx(float(takes), abs=TOL)


def test_a_change_names_itself_and_bad_changes_name_the_key():
    changed = with_changes("1942-2e", dict([parse_change("combat.repair=after_battle")]))
    assert changed.name == "1942-2e (combat.repair=after_battle)"
    assert load_ruleset("1942-2e").combat.repair.value == "end_of_turn"
    with pytest.raises(RulesetError, match="no table 'unitz'"):
        with_changes("1942-2e", {"unitz.tank.attack": 1})
    with pytest.raises(RulesetError, match="combat.repair"):
        with_changes("1942-2e", {"combat.repair": "sometimes"})
    with pytest.raises(RulesetError, match="KEY=VALUE"):
        parse_change("combat.repair")


def test_the_rule_option_on_the_command_line():
    out = CliRunner().invoke(cli, ["battle", "--rules", "europe-1999", "--sea", "-a", "1 sub",
                                   "-d", "1 trn", "--rule", "units.transport.defense=0", "--json"])
    assert out.exit_code == 0, out.output
    assert '"attacker_win": 1.0' in out.output
    bad = CliRunner().invoke(cli, ["battle", "-a", "1 inf", "-d", "1 inf", "--rule",
                                   "units.infantry.attack=9"])
    assert bad.exit_code == 2 and bad.output.count("\n") == 1
    assert "units.infantry.attack" in bad.output
