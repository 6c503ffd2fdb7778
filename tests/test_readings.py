"""Readings the rules summaries leave open: each edition's default as its summary words it, the
other reading one ``--rule KEY=VALUE`` away (``oddsim.model.rules.with_changes``), values by hand."""

import pytest
from click.testing import CliRunner

import oddsim
from oddsim.cli import cli
from oddsim.errors import RulesetError
from oddsim.model.rules import load_ruleset, parse_change, with_changes
from oddsim.raid import Raid, run_raid
from oddsim.stages.amphibious import Amphibious

TOL = 1e-12


def test_europe_transports_roll_no_die_as_the_summary_says_and_defend_at_1_as_its_chart_does():
    # a sub (hits 1/3, striking first) against a lone transport: rolling no die, it never hits
    # back; defending at 1 (hits 1/6) it sinks the sub after a miss: (1/3) / (1 - 2/3 x 5/6) = 3/4
    plain = oddsim.solve(oddsim.Battle("europe-1999", "1 sub", "1 trn", sea=True))
    chart = oddsim.solve(oddsim.Battle(with_changes("europe-1999", {"units.transport.defense": 1}),
                                       "1 sub", "1 trn", sea=True))
    assert plain.attacker_win == pytest.approx(1.0, abs=TOL)
    assert chart.attacker_win == pytest.approx(3 / 4, abs=TOL)


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


@pytest.mark.parametrize(("changes", "ships"), [({}, "2 battleships"),
                                                ({"bombard.one_per_landed_unit": True}, "1 battleship")])
def test_anniversary_bombards_with_every_battleship_and_cruiser_as_its_summary_says(changes, ships):
    rules = with_changes("anniversary", changes) if changes else "anniversary"
    assault = Amphibious(rules, fleet="2 bb, 1 trn", cargo="1 inf", defender="1 inf")
    assert assault.land_battle(1).attacker.bombard.describe() == ships


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
                                   "-d", "1 trn", "--rule", "units.transport.defense=1", "--json"])
    assert out.exit_code == 0, out.output
    assert '"attacker_win": 0.75' in out.output
    bad = CliRunner().invoke(cli, ["battle", "-a", "1 inf", "-d", "1 inf", "--rule",
                                   "units.infantry.attack=9"])
    assert bad.exit_code == 2 and bad.output.count("\n") == 1
    assert "units.infantry.attack" in bad.output
