"""AA casualties as ruleset data: per_aircraft (chance picks the types) or attacker_chooses."""

import importlib
import tomllib
from importlib import resources

import pytest

import oddsim
from oddsim.errors import RulesetError
from oddsim.model.rules import parse_ruleset
from oddsim.stages import aa_split

TOL = 1e-12


def _rows(result) -> dict[str, float]:
    return {row.units: row.probability for row in result.attacker_survivors}


def test_per_aircraft_each_type_is_lost_with_one_sixth_independently():
    # anniversary: one die at the fighter, one at the bomber, each hits on 1
    result = oddsim.solve(oddsim.Battle("anniversary", "1 ftr, 1 bmb", "1 aa"))
    rows = _rows(result)
    assert rows["1 fighter, 1 bomber"] == pytest.approx(25 / 36, abs=TOL)
    assert rows["1 bomber"] == pytest.approx(5 / 36, abs=TOL)  # the fighter was hit
    assert rows["1 fighter"] == pytest.approx(5 / 36, abs=TOL)  # the bomber was hit
    assert rows["none"] == pytest.approx(1 / 36, abs=TOL)
    assert result.attacker_ipc_lost == pytest.approx((10 + 12) / 6, abs=TOL)


def test_attacker_chooses_loses_the_cheapest_aircraft_first():
    # 1942-2e: two dice (one gun, at most one per aircraft); the fighter (10) goes before the bomber
    rows = _rows(oddsim.solve(oddsim.Battle("1942-2e", "1 ftr, 1 bmb", "1 aa")))
    assert rows["1 fighter, 1 bomber"] == pytest.approx(25 / 36, abs=TOL)
    assert rows["1 bomber"] == pytest.approx(10 / 36, abs=TOL)
    assert "1 fighter" not in rows


def test_radar_and_revised_per_aircraft():
    # anniversary radar: AA hits on 2, each aircraft lost with 1/3
    rows = _rows(oddsim.solve(oddsim.Battle("anniversary", attacker="1 ftr, 1 bmb",
                                            defender=oddsim.Side("1 aa", tech="radar"))))
    assert rows["1 fighter"] == pytest.approx(2 / 9, abs=TOL)
    assert rows["none"] == pytest.approx(1 / 9, abs=TOL)
    rows = _rows(oddsim.solve(oddsim.Battle("revised", "2 ftr, 1 bmb", "1 aa")))
    assert rows["2 fighters"] == pytest.approx(25 / 36 * 1 / 6, abs=TOL)


def test_a_battle_after_aa_is_the_mixture_of_the_reduced_attackers():
    # an independent computation: P(fighters lost, bombers lost) by hand, each reduced attack
    # solved without AA (the non-combatant gun changes neither taking nor the losses)
    def binom(n, k):
        from math import comb
        return comb(n, k) * (1 / 6) ** k * (5 / 6) ** (n - k)

    result = oddsim.solve(oddsim.Battle("anniversary", "2 inf, 1 ftr, 2 bmb", "3 inf, 1 aa"))
    take = lost = 0.0
    for f in range(2):
        for b in range(3):
            p = binom(1, f) * binom(2, b)
            army = ", ".join(part for part in ("2 inf", f"{1 - f} ftr" if f < 1 else "",
                                               f"{2 - b} bmb" if b < 2 else "") if part)
            alone = oddsim.solve(oddsim.Battle("anniversary", army, "3 inf"))
            take += p * alone.takes_territory
            lost += p * (alone.attacker_ipc_lost + 10 * f + 12 * b)
    assert result.takes_territory == pytest.approx(take, abs=1e-12)
    assert result.attacker_ipc_lost == pytest.approx(lost, abs=1e-12)


def test_monte_carlo_follows_the_same_rule():
    battle = oddsim.Battle("anniversary", "2 inf, 1 ftr, 2 bmb", "3 inf, 1 aa")
    exact = oddsim.solve(battle)
    sampled = oddsim.simulate(battle, runs=300_000, seed=11)
    for name in ("takes_territory", "attacker_win", "attacker_ipc_lost"):
        err = sampled.std_error[name]
        assert err > 0
        assert abs(getattr(sampled, name) - getattr(exact, name)) <= 4.5 * err + 1e-9, name
    # the split itself is exact: the fighter alone survives AA in 5/36 of the runs' share
    one = oddsim.simulate(oddsim.Battle("anniversary", "1 ftr, 1 bmb", "1 aa"), runs=36_000, seed=2)
    assert _rows(one)["1 fighter"] == pytest.approx(5 / 36, abs=1e-3)


def test_low_luck_makes_each_type_its_own_group():
    # 3 fighters and 3 bombers: each type's strength is 3 -> one loss with 1/2, independently
    result = oddsim.solve(oddsim.Battle("anniversary", "3 ftr, 3 bmb", "1 aa", dice="lowluck"))
    rows = _rows(result)
    assert rows["2 fighters, 2 bombers"] == pytest.approx(1 / 4, abs=TOL)
    assert rows["3 fighters, 2 bombers"] == pytest.approx(1 / 4, abs=TOL)
    assert result.attacker_ipc_lost == pytest.approx((10 + 12) / 2, abs=TOL)


def test_per_aircraft_casualties_need_one_die_per_aircraft():
    data = tomllib.loads(resources.files("oddsim.rulesets").joinpath("1942-2e.toml")
                         .read_text(encoding="utf-8"))
    data["combat"]["aa_casualties"] = "per_aircraft"
    with pytest.raises(RulesetError, match="aa_dice = per_aircraft"):
        parse_ruleset(data, origin="house")
    data["combat"]["aa_dice"] = "per_aircraft"
    house = parse_ruleset(data, origin="house")
    rows = _rows(oddsim.solve(oddsim.Battle(house, "1 ftr, 1 bmb", "1 aa")))
    assert rows["1 fighter"] == pytest.approx(5 / 36, abs=TOL)


def test_cli_battle_uses_the_editions_aa_casualties():
    import json

    from click.testing import CliRunner

    from oddsim.cli import cli

    for method in ("exact", "mc"):
        out = CliRunner().invoke(cli, ["battle", "--rules", "revised", "-a", "1 ftr, 1 bmb", "-d",
                                       "1 inf, 1 aa", "--method", method, "--json"]
                                 + (["--runs", "36000", "--seed", "3"] if method == "mc" else []))
        assert out.exit_code == 0, out.output
        data = json.loads(out.output)
        # the fighter alone survives AA only when the bomber alone was hit
        assert any(row["label"].startswith("1 fighter") for row in data["attacker_survivors"])


def test_per_aircraft_monte_carlo_rounds_before_a_retreat_carry_an_error():
    """The AA split mixes each part's rounds before a retreat by its share of the retreats; the
    mixed error is checked against the exact engine's mean at a fixed seed."""
    battle = oddsim.Battle("anniversary", "2 inf, 1 ftr, 1 bmb", "2 inf, 1 aa",
                           retreat=oddsim.RetreatPolicy(units_left=2))
    mc = oddsim.simulate(battle, runs=200_000, seed=5)
    exact = oddsim.solve(battle)
    se = mc.std_error["retreat_round"]
    assert 0 < se < 0.05
    assert abs(mc.retreat_round - exact.retreat_round) <= 4.5 * se


def test_too_many_aa_outcomes_are_refused_by_both_engines_saying_the_limit():
    # 101 x 101 outcomes (0-100 of each type shot down), over aa_split.MAX_SPLITS = 4096
    battle = oddsim.Battle("revised", "100 ftr, 100 bmb", "10 inf, 1 aa")
    for engine in (oddsim.solve, oddsim.simulate):
        with pytest.raises(oddsim.TooLargeError, match=r"10,201 outcomes.*Monte Carlo.*at most 4,096"):
            engine(battle)


def test_low_luck_splits_only_the_outcomes_that_can_happen():
    # 100 aircraft a type at 1: 16 sure hits and a 17th with chance 4/6, so 2 x 2 parts (not 101 x 101)
    battle = oddsim.Battle("revised", "100 ftr, 100 bmb", "10 inf, 1 aa", dice="lowluck")
    parts = aa_split.splits(battle)
    got = sorted((p, spec.attacker.army.describe()) for p, spec, _ in parts)
    assert [p for p, _ in got] == pytest.approx([1 / 9, 2 / 9, 2 / 9, 4 / 9], abs=TOL)
    assert got[-1][1] == "83 fighters, 83 bombers"  # both lose 17, with (2/3)^2
    assert oddsim.solve(battle).attacker_ipc_lost >= 16 * (10 + 12)  # at least the sure losses


def test_each_part_is_the_battle_rebuilt_with_the_aircraft_left():
    # the parts skip Battle's checks of what did not change: the same as replace() building them anew
    from dataclasses import replace

    battle = oddsim.Battle("revised",
                           attacker=oddsim.Side("3 ftr, 2 bmb, 2 inf, 1 arm", order_of_loss="bmb, inf",
                                                keep_land=1), defender="4 inf, 1 aa")
    for _, spec, lost in aa_split.splits(battle):
        left = {name: n - lost.count(name) for name, n in battle.attacker.army.counts}
        army = {name: n for name, n in left.items() if n}
        rebuilt = replace(battle, attacker=replace(battle.attacker, army=army), aa_fired=True)
        assert spec == rebuilt
        assert (spec.attacker.steps, spec.defender.steps) == (rebuilt.attacker.steps, rebuilt.defender.steps)


def test_every_part_of_a_split_battle_sees_the_stop_hook():
    """Before: each AA outcome ran its whole share without ``on_chunk`` (the server's 30 s cap,
    cancel and disconnect, ignored: one request ran 148 s)."""
    mc = importlib.import_module("oddsim.stages.pipeline")
    FIRST_CHUNK = importlib.import_module("oddsim.engines.montecarlo.simulate").FIRST_CHUNK
    STOPPED_PART_RUNS = mc.STOPPED_PART_RUNS

    battle = oddsim.Battle("revised", "4 inf, 2 ftr, 2 bmb", "4 inf, 1 aa")
    parts = aa_split.splits(battle)
    assert len(parts) == 3 * 3  # 0-2 fighters x 0-2 bombers shot down, every outcome possible
    seen = []
    result = mc.simulate(battle, runs=2_000_000, seed=5, on_chunk=lambda n: seen.append(n) or True)
    # the first part stops after its first chunk; each later one runs STOPPED_PART_RUNS (the
    # rarest share, (1/6)^4 of 2,000,000 = 1,543 runs, is larger)
    assert result.interrupted is True
    assert result.runs == FIRST_CHUNK + (len(parts) - 1) * STOPPED_PART_RUNS
    assert seen == [FIRST_CHUNK]
    total = sum(getattr(result, name) for name in ("attacker_win", "defender_win", "draw", "stalemate"))
    assert total == pytest.approx(1.0, abs=1e-12)


def test_the_stop_hook_sees_the_battles_of_every_part_so_far():
    mc = importlib.import_module("oddsim.stages.pipeline")

    battle = oddsim.Battle("anniversary", "2 inf, 1 ftr, 1 bmb", "2 inf, 1 aa")
    seen = []
    result = mc.simulate(battle, runs=40_000, seed=1, on_chunk=lambda n: seen.append(n) or False)
    assert not result.interrupted
    assert seen == sorted(seen) and seen[-1] == result.runs  # the whole battle's progress


def test_the_swing_distribution_mixes_the_aa_outcomes():
    # anniversary: a die at each aircraft, each hits on 1; the gun alone is no casualty, so the
    # swing is minus what AA shot down: none 25/36, the fighter (10) 5/36, the bomber (12) 5/36,
    # both (every attacker shot down, no battle) 1/36
    battle = oddsim.Battle("anniversary", "1 ftr, 1 bmb", "1 aa")
    for result in (oddsim.solve(battle), oddsim.simulate(battle, runs=20_000, seed=2)):
        expected = {-22.0: 1 / 36, -12.0: 5 / 36, -10.0: 5 / 36, 0.0: 25 / 36}
        assert result.tuv_swing_distribution() == pytest.approx(expected, abs=TOL)  # (AA outcomes: exact)
        assert result.swing_distribution.mean == pytest.approx(result.tuv_swing, abs=1e-9)


def test_a_mixed_battle_keeps_the_swing_mean_and_a_total_of_one():
    result = oddsim.solve(oddsim.Battle("anniversary", "2 inf, 1 ftr, 2 bmb", "3 inf, 1 aa"))
    assert result.swing_distribution.total == pytest.approx(1.0, abs=1e-12)
    assert result.swing_distribution.mean == pytest.approx(result.tuv_swing, abs=1e-12)


def test_aa_outcomes_left_unfought_after_a_stop_are_named_in_the_answer(monkeypatch):
    """Before: the parts left unfought after a stop were missing from every figure (0.13-0.27%
    of the chances, the expected IPC lost 7-13 standard errors low) and the text did not say so."""
    mc = importlib.import_module("oddsim.stages.pipeline")
    monkeypatch.setattr(mc, "STOPPED_SECONDS", -1.0)  # after the stop, no part is fought at all
    battle = oddsim.Battle("revised", "4 inf, 2 ftr, 2 bmb", "4 inf, 1 aa")
    result = mc.simulate(battle, runs=2_000_000, seed=5, on_chunk=lambda n: True)
    # only the likeliest AA outcome (no aircraft shot down, (5/6)^4) was fought, and stopped
    fought = (5 / 6) ** 4
    assert result.interrupted is True
    assert result.truncated_mass == pytest.approx(1 - fought, abs=TOL)
    total = sum(getattr(result, name) for name in ("attacker_win", "defender_win", "draw", "stalemate"))
    assert total == pytest.approx(fought, abs=TOL)
    method_line = str(result).splitlines()[1]
    assert "interrupted" in method_line
    assert f"{1 - fought:.2%} of the battle's chances not fought" in method_line
