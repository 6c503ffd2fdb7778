"""Amphibious assaults: stages composed as docs/rules.md §10 says, against odds derived by hand."""

import json
import math

import pytest
from click.testing import CliRunner

import oddsim
from oddsim.api import run_amphibious
from oddsim.cli import cli
from oddsim.stages.amphibious import Amphibious

TOL = 1e-12


def test_no_sea_battle_means_the_best_ships_bombard_one_per_landed_unit():
    assault = Amphibious("1942-2e", fleet="2 bb, 1 cru, 1 dd, 1 trn", cargo="1 inf, 1 arm",
                         defender="3 inf")
    land = assault.land_battle(1)
    assert land.attacker.bombard.describe() == "2 battleships"  # 2 landed units: the two best ships
    result = run_amphibious(assault, method="exact")
    alone = oddsim.solve(oddsim.Battle("1942-2e",
                                       attacker=oddsim.Side("1 inf, 1 arm", landed="1 inf, 1 arm",
                                                            bombard="2 bb"), defender="3 inf"))
    assert result.sea is None
    assert result.takes_territory == pytest.approx(alone.takes_territory, abs=TOL)
    assert result.attacker_ipc_lost == pytest.approx(alone.attacker_ipc_lost, abs=TOL)
    assert result.to_dict()["tuv_swing_distribution"] is None  # the assault's own: not known
    assert result.landings[0].result.swing_distribution == alone.swing_distribution  # the landing's is


def test_no_bombardment_after_a_sea_battle_and_cargo_dies_with_its_transport():
    # 1942-2e sea battle: cruiser (3) and a transport (chosen last, defenceless) against a
    # destroyer (2). Each round: cruiser hits 1/2, destroyer 1/3. The defender gone -> the
    # transport unloads; the cruiser gone with the destroyer alive -> the transport is lost.
    # win = (1/2) / (1 - (1/2)(2/3)) = 3/4. Then 1 inf against 1 inf, no bombardment: 1/4.
    assault = Amphibious("1942-2e", fleet="1 cru, 1 trn", cargo="1 inf", defender="1 inf",
                         sea_defender="1 dd")
    result = run_amphibious(assault, method="exact")
    assert result.sea.attacker_win == pytest.approx(3 / 4, abs=TOL)
    assert result.takes_territory == pytest.approx(3 / 4 * 1 / 4, abs=TOL)
    assert result.cargo_lost == pytest.approx(1 / 4 * 3, abs=TOL)  # the infantry, 3 IPCs
    landing = {x.transports: x for x in result.landings}
    assert landing[1].probability == pytest.approx(3 / 4, abs=TOL)
    assert "bombard" not in landing[1].battle


def test_overland_units_attack_even_when_the_sea_battle_is_lost():
    assault = Amphibious("1942-2e", fleet="1 cru, 1 trn", cargo="1 inf", defender="1 inf",
                         sea_defender="1 dd", overland="1 arm")
    result = run_amphibious(assault, method="exact")
    alone = oddsim.solve(oddsim.Battle("1942-2e", "1 arm", "1 inf"))
    both = oddsim.solve(oddsim.Battle("1942-2e", attacker=oddsim.Side("1 inf, 1 arm", landed="1 inf"),
                                      defender="1 inf"))
    assert result.takes_territory == pytest.approx(
        3 / 4 * both.takes_territory + 1 / 4 * alone.takes_territory, abs=TOL)


def test_with_nothing_landed_and_nobody_overland_the_attack_is_over_aircraft_do_not_fight_alone():
    # anniversary: the lone transport (defenceless) against a destroyer always sinks, with its
    # infantry: the attacker loses 7 + 3 IPCs; the bomber sent to land does not attack alone
    # (the rules summary's land step: no attacking land units left, the attack is over)
    assault = Amphibious("anniversary", fleet="1 trn", cargo="1 inf", sea_defender="1 dd",
                         air="1 bmb", defender="1 inf")
    result = run_amphibious(assault, method="exact")
    assert result.attacker_ipc_lost == pytest.approx(10.0, abs=TOL)
    assert result.defender_destroyed == 0.0 and result.takes_territory == 0.0
    assert [x.result for x in result.landings] == [None]
    assert assault.land_battle(0) is None


def test_the_text_names_the_aircraft_at_sea_and_the_sides_of_the_sea_battles_losses():
    assault = Amphibious("1942-2e", fleet="1 cru, 1 trn", cargo="1 inf", defender="1 inf",
                         sea_defender="1 dd", sea_air="1 ftr")
    text = run_amphibious(assault, method="exact").to_table()
    assert "aircraft at sea 1 fighter" in text.splitlines()[0]
    assert "IPC lost: attacker " in text and ", defender " in text


def test_cargo_is_loaded_one_heavy_unit_per_transport_and_the_cheapest_load_lost_first():
    assault = Amphibious("1942-2e", fleet="2 trn", cargo="2 inf, 1 art, 1 arm", defender="1 inf")
    assert [load.describe() for load in assault.loads] == ["1 infantry, 1 artillery",
                                                           "1 infantry, 1 armor"]
    assert assault.land_battle(1).attacker.landed.describe() == "1 infantry, 1 armor"
    with pytest.raises(oddsim.BattleError, match="needs 2 transports"):
        Amphibious("1942-2e", fleet="1 trn", cargo="1 art, 1 arm", defender="1 inf")


def test_amphibious_cli_runs_and_reports_json():
    out = CliRunner().invoke(cli, ["amphibious", "--rules", "1942-2e", "--fleet", "1 cru, 1 trn",
                                   "--cargo", "1 inf", "-d", "1 inf", "--sea-defender", "1 dd",
                                   "--method", "exact", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["takes_territory"] == pytest.approx(3 / 16, abs=1e-9)


@pytest.mark.parametrize("args, message", [
    (["--fleet", "1 inf", "--cargo", "1 inf", "-d", "1 inf"], "fleet: infantry is not a sea unit"),
    (["--fleet", "1 trn", "--cargo", "3 inf", "-d", "1 inf"], "needs 2 transports"),
    (["--fleet", "1 trn", "--cargo", "1 inf", "-d", "1 inf", "--retreat-below-win", "2"],
     "probability between 0 and 1"),
])
def test_amphibious_cli_bad_input_is_one_line_and_exit_2(args, message):
    out = CliRunner().invoke(cli, ["amphibious", *args])
    assert out.exit_code == 2
    assert message in out.output
    assert len(out.output.strip().splitlines()) == 1


@pytest.mark.parametrize("args, message", [
    (["-a", "1 inf", "-d", "1 inf", "--sea", "--bombard", "1 bb"], "cannot fight in a sea battle"),
    (["-a", "1 bb", "-d", "1 bb", "--sea", "--bombard", "1 bb"], "drop --bombard for a sea battle"),
    (["-a", "1 inf", "-d", "1 inf", "--bombard", "1 bb"], "--landed"),
    (["-a", "1 inf", "-d", "1 inf", "--landed", "1 inf", "--bombard", "2 bb"],
     "one bombarding ship per unit landed"),
    (["-a", "1 inf", "-d", "1 inf", "--landed", "2 inf"], "landed: 2 infantry but the attacker has 1"),
    (["-a", "1 ftr", "-d", "1 inf", "--landed", "1 ftr"], "not a land unit"),
    (["-a", "1 dd", "-d", "1 dd", "--sea", "--attacker-submerge", "always"], "needs submarines"),
    (["-a", "1 inf", "-d", "1 inf", "--defender-submerge", "alone"], "applies to sea battles"),
    (["-a", "1 inf", "-d", "1 inf", "--retreat-below-win", "-0.1"], "between 0 and 1"),
    (["-a", "1 inf", "-d", "1 inf", "--retreat-after-round", "-1"], "from 1 to 100"),
])
def test_battle_cli_rejects_incompatible_options(args, message):
    out = CliRunner().invoke(cli, ["battle", *args])
    assert out.exit_code == 2
    assert message in out.output
    assert len(out.output.strip().splitlines()) == 1


@pytest.mark.parametrize("assault", [
    Amphibious("1942-2e", fleet="1 bb, 1 cru, 2 trn", cargo="2 inf, 1 art, 1 arm", defender="4 inf",
               overland="1 inf", air="1 ftr"),
    Amphibious("anniversary", fleet="1 dd, 1 cru, 2 trn", cargo="3 inf, 1 arm", defender="3 inf",
               sea_defender="1 dd, 1 sub", sea_air="1 bmb", retreat=oddsim.RetreatPolicy(after_round=2)),
    Amphibious("anniversary", fleet="1 bb, 1 cru, 2 trn", cargo="2 inf, 2 arm", defender="4 inf",
               sea_defender="1 sub, 1 trn"),
], ids=["bombard", "sea-battle", "ignored-subs"])
def test_monte_carlo_assault_agrees_with_the_exact_one(assault):
    # each stage's estimate has at most the variance of a plain proportion over all runs, and
    # the sea stage's split adds at most as much again: 4.5 standard errors of twice t(1 - t) / N
    runs = 400_000
    exact = run_amphibious(assault, method="exact")
    sampled = run_amphibious(assault, method="mc", runs=runs, seed=77)
    for name in ("takes_territory", "defender_destroyed"):
        t = getattr(exact, name)
        assert abs(getattr(sampled, name) - t) <= 4.5 * (2 * t * (1 - t) / runs) ** 0.5 + 1e-9, name


def test_defender_destroyed_counts_landed_units_that_win_after_the_others_left():
    # revised: land battle 1 inf (landed) + 1 arm against 1 inf, retreat after round 1. The
    # defender dies in round 1 with 7/12; with 5/12 x 2/3 the armor leaves and the lone inf
    # destroys the defender with 1/4 + 1/8 (a win or both dead: the latter ends as a retreat)
    assault = Amphibious("revised", fleet="1 trn", cargo="1 inf", defender="1 inf", overland="1 arm",
                         retreat=oddsim.RetreatPolicy(after_round=1))
    result = run_amphibious(assault, method="exact")
    assert result.defender_destroyed == pytest.approx(7 / 12 + 10 / 36 * 3 / 8, abs=TOL)


def test_a_sea_battle_with_too_many_end_states_still_follows_each_transport(monkeypatch):
    # with every end state past the limit, the Monte Carlo sea battle keeps them one by one
    # (few here, all kept), so the landings match those of exact keys with the same seed
    from oddsim.engines.montecarlo import _model

    assault = Amphibious("1942-2e", fleet="2 cru, 2 trn", cargo="2 inf", defender="1 inf",
                         sea_defender="2 dd, 1 sub")
    plain = run_amphibious(assault, method="mc", runs=20_000, seed=1)
    monkeypatch.setattr(_model, "MAX_EXACT_KEYS", 1)
    kept = run_amphibious(assault, method="mc", runs=20_000, seed=1)
    assert [(x.transports, x.probability) for x in kept.landings] == \
        [(x.transports, x.probability) for x in plain.landings]
    assert kept.takes_territory == plain.takes_territory


@pytest.mark.parametrize("options, message", [
    ({"bombard": "no"}, "bombard must be True or False"),
    ({"dice": "loaded"}, "unknown dice mode"),
    ({"attacker_tech": "lasers"}, "lasers"),
])
def test_bad_assault_options_fail_when_the_assault_is_made(options, message):
    with pytest.raises(oddsim.OddsimError, match=message):
        Amphibious("1942-2e", fleet="1 trn", cargo="1 inf", defender="1 inf", **options)


def test_runs_with_the_exact_method_is_an_error():
    assault = Amphibious("1942-2e", fleet="1 trn", cargo="1 inf", defender="1 inf")
    with pytest.raises(oddsim.BattleError, match="--runs applies to Monte Carlo"):
        run_amphibious(assault, method="exact", runs=100)


def test_subs_and_transports_alone_are_ignored_by_default_where_the_edition_allows_it():
    # 1942-2e lets the attacker ignore a sea zone held only by subs/transports: no sea battle,
    # so the battleship bombards, exactly as with no sea defender at all
    plain = Amphibious("1942-2e", fleet="1 bb, 2 trn", cargo="2 inf, 2 arm", defender="4 inf")
    ignored = Amphibious("1942-2e", fleet="1 bb, 2 trn", cargo="2 inf, 2 arm", defender="4 inf",
                         sea_defender="1 trn")
    assert ignored.sea_battle == "ignore" and not ignored.has_sea_battle
    with_bombard = oddsim.solve(oddsim.Battle("1942-2e",
                                              attacker=oddsim.Side("2 inf, 2 arm", landed="2 inf, 2 arm",
                                                                   bombard="1 bb"), defender="4 inf"))
    for assault in (plain, ignored):
        result = run_amphibious(assault, method="exact")
        assert result.sea is None
        assert result.takes_territory == pytest.approx(with_bombard.takes_territory, abs=TOL)


def test_fighting_a_lone_transport_cancels_the_bombardment():
    # --sea-battle fight: the lone defenceless transport is destroyed at once (nothing is lost),
    # but there was a sea battle, so nobody bombards: the land battle without the battleship
    fought = Amphibious("1942-2e", fleet="1 bb, 2 trn", cargo="2 inf, 2 arm", defender="4 inf",
                        sea_defender="1 trn", sea_battle="fight")
    result = run_amphibious(fought, method="exact")
    alone = oddsim.solve(oddsim.Battle("1942-2e", attacker=oddsim.Side("2 inf, 2 arm", landed="2 inf, 2 arm"),
                                       defender="4 inf"))
    assert result.sea.attacker_win == pytest.approx(1.0, abs=TOL)
    assert result.takes_territory == pytest.approx(alone.takes_territory, abs=TOL)


@pytest.mark.parametrize("rules, options, message", [
    ("revised", {"sea_defender": "1 trn", "sea_battle": "ignore"}, "revised does not let"),
    ("1942-2e", {"sea_defender": "1 sub, 1 dd", "sea_battle": "ignore"}, "not destroyer"),
    ("1942-2e", {"sea_battle": "fight"}, "no --sea-defender"),
    ("1942-2e", {"sea_defender": "1 sub", "sea_air": "1 ftr"}, "no sea battle for these aircraft"),
    ("1942-2e", {"sea_defender": "1 sub", "sea_battle": "maybe"}, "fight or ignore"),
])
def test_sea_battle_choices_that_the_rules_do_not_allow_are_errors(rules, options, message):
    with pytest.raises(oddsim.BattleError, match=message):
        Amphibious(rules, fleet="1 bb, 1 trn", cargo="1 inf", defender="1 inf", **options)


def test_revised_must_fight_a_lone_sub_and_europe_follows_revised():
    for rules in ("revised", "europe-1999"):
        assault = Amphibious(rules, fleet="1 bb, 1 trn", cargo="1 inf", defender="1 inf",
                             sea_defender="1 sub")
        assert assault.has_sea_battle


def test_sea_battle_option_on_the_cli():
    base = ["amphibious", "--fleet", "1 bb, 2 trn", "--cargo", "2 inf, 2 arm", "-d", "4 inf",
            "--sea-defender", "1 trn", "--method", "exact", "--json"]
    ignored = json.loads(CliRunner().invoke(cli, base).output)
    fought = json.loads(CliRunner().invoke(cli, [*base, "--sea-battle", "fight"]).output)
    # ignored: no sea battle, so the battleship bombards the landing; fought: the lone transport
    # is sunk at once (nothing lost), and after a sea battle nobody bombards
    bombarded = oddsim.solve(oddsim.Battle("1942-2e", oddsim.Side("2 inf, 2 arm", landed="2 inf, 2 arm",
                                                                  bombard="1 bb"), "4 inf"))
    alone = oddsim.solve(oddsim.Battle("1942-2e", oddsim.Side("2 inf, 2 arm", landed="2 inf, 2 arm"),
                                       "4 inf"))
    assert bombarded.takes_territory > alone.takes_territory + 0.05  # the choice matters
    assert ignored["sea"] is None
    assert ignored["takes_territory"] == pytest.approx(bombarded.takes_territory, abs=TOL)
    assert fought["sea"]["attacker_win"] == pytest.approx(1.0, abs=TOL)
    assert fought["sea"]["attacker_ipc_lost"] == pytest.approx(0.0, abs=TOL)
    assert fought["takes_territory"] == pytest.approx(alone.takes_territory, abs=TOL)
    assert ignored["takes_territory"] > fought["takes_territory"]
    out = CliRunner().invoke(cli, [*base[:-3], "--rules", "revised", "--sea-battle", "ignore"])
    assert out.exit_code == 2 and len(out.output.strip().splitlines()) == 1


def test_cargo_rule_is_data_europe_carries_any_two_but_two_tanks():
    # europe-1999 (docs/rules.md §9): any two land units except two tanks
    loads = Amphibious("europe-1999", fleet="1 trn", cargo="1 art, 1 arm", defender="1 inf").loads
    assert [load.describe() for load in loads] == ["1 artillery, 1 armor"]
    Amphibious("europe-1999", fleet="1 trn", cargo="2 art", defender="1 inf")
    with pytest.raises(oddsim.BattleError, match="needs 2 transports"):
        Amphibious("europe-1999", fleet="1 trn", cargo="2 arm", defender="1 inf")
    # the others: one unit of any kind plus one infantry
    with pytest.raises(oddsim.BattleError, match="needs 2 transports"):
        Amphibious("anniversary", fleet="1 trn", cargo="2 art", defender="1 inf")


def test_transport_capacity_and_roles_come_from_the_ruleset(tmp_path):
    import tomllib
    from importlib import resources

    from oddsim.model.rules import parse_ruleset

    data = tomllib.loads(resources.files("oddsim.rulesets").joinpath("1942-2e.toml")
                         .read_text(encoding="utf-8"))
    data["transport"] = {"capacity": 3, "max_heavy": 2}
    data["units"]["cruiser"]["transport"] = True  # a house rule: cruisers carry troops too
    rules = parse_ruleset(data, origin="house")
    assault = Amphibious(rules, fleet="1 cru", cargo="2 arm, 1 inf", defender="1 inf")
    assert [load.describe() for load in assault.loads] == ["1 infantry, 2 armor"]
    with pytest.raises(oddsim.BattleError, match="at most 2 of them"):
        Amphibious(rules, fleet="1 cru", cargo="3 arm", defender="1 inf")


def test_europe_destroyers_bombard_at_their_attack():
    from oddsim.model.battle import bombard_values
    from oddsim.model.rules import load_ruleset

    europe = load_ruleset("europe-1999")
    assert bombard_values(europe)["destroyer"] == europe.unit("destroyer").attack == 3


def test_monte_carlo_assault_figures_carry_their_standard_error():
    # one landing (2 transports) or none: take = p t, with p from the sea battle's runs and t
    # from the land battle's share of them; the error adds t^2 p(1-p)/n and p^2 t(1-t)/(p n)
    assault = Amphibious("1942-2e", fleet="1 dd, 2 trn", cargo="3 inf, 1 arm", defender="3 inf",
                         sea_defender="1 dd, 1 sub")
    runs = 100_000
    exact = run_amphibious(assault, method="exact")
    mc = run_amphibious(assault, method="mc", runs=runs, seed=11)
    p = exact.landings[0].probability
    t = exact.landings[0].result.takes_territory
    expected = math.sqrt(t * t * p * (1 - p) / runs + p * p * t * (1 - t) / (p * runs))
    assert mc.std_error["takes_territory"] == pytest.approx(expected, rel=0.05)
    for name in ("takes_territory", "defender_destroyed", "attacker_ipc_lost", "defender_ipc_lost"):
        assert abs(getattr(mc, name) - getattr(exact, name)) <= 4.5 * mc.std_error[name], name
    assert exact.std_error == {}
    assert "±" in mc.to_table()


def test_a_sea_battle_whose_rows_sum_to_1_but_for_rounding_adds_no_landing():
    """Before: an interrupted Monte Carlo sea battle's rows summed to 1 - 1e-16, and the rest
    became a '0.00%  0 transports unload' row (fought as a one-run battle with overland units)."""
    from dataclasses import replace

    from oddsim.stages.amphibious import fight_amphibious

    def run(spec, share):
        result = oddsim.solve(spec)
        if not spec.sea:
            return result
        rows = tuple(replace(row, probability=row.probability * (1 - 1e-15))
                     for row in result.attacker_survivors)
        return replace(result, attacker_survivors=rows)

    assault = Amphibious("1942-2e", fleet="1 bb, 2 trn", cargo="2 inf, 2 arm", defender="4 inf",
                         sea_defender="2 dd", overland="1 inf")
    result = fight_amphibious(assault, run)
    assert [x.transports for x in result.landings] == [2, 0]  # the sea battle's two outcomes
    assert "0.00%" not in result.to_table()
