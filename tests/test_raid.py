"""Strategic bombing raids against hand-derived expectations, exact vs Monte Carlo, and errors."""

import math
from fractions import Fraction as F

import pytest
from click.testing import CliRunner

import oddsim
from oddsim.cli import cli
from oddsim.raid import Raid, simulate_raid, solve_raid

TOL = 1e-12


def test_one_bomber_1942():
    # AA hits on 1: damage 0 with 1/6, else 1d6 (cap 2 x 10 is never reached)
    result = solve_raid(Raid("1942-2e", bombers=1, territory_value=10))
    assert result.damage[0] == pytest.approx(1 / 6, abs=TOL)
    for k in range(1, 7):
        assert result.damage[k] == pytest.approx(5 / 36, abs=TOL)
    assert result.expected_damage == pytest.approx(float(F(5, 6) * F(7, 2)), abs=TOL)
    assert result.bombers_lost == pytest.approx(1 / 6, abs=TOL)
    assert result.ipc_swing == pytest.approx(35 / 12 - 12 / 6, abs=TOL)


def test_damage_is_capped():
    # 1942-2e: cap 2 x 2 = 4; min(d6, 4) averages 18/6
    assert solve_raid(Raid("1942-2e", bombers=1, territory_value=2)).expected_damage == \
        pytest.approx(5 / 6 * 3, abs=TOL)
    # revised: cap = territory value
    assert solve_raid(Raid("revised", bombers=1, territory_value=2)).expected_damage == \
        pytest.approx(5 / 6 * 11 / 6, abs=TOL)


def test_heavy_bombers():
    # revised: 2d6 summed; anniversary: best of two d6, plus 1 (E[max] = 161/36)
    revised = solve_raid(Raid("revised", bombers=1, territory_value=20, attacker_tech=("heavy-bombers",)))
    assert revised.expected_damage == pytest.approx(5 / 6 * 7, abs=TOL)
    aa50 = solve_raid(Raid("anniversary", bombers=1, territory_value=20, attacker_tech=("heavy-bombers",)))
    assert aa50.expected_damage == pytest.approx(float(F(5, 6) * (F(161, 36) + 1)), abs=TOL)


def test_radar_makes_aa_hit_on_two():
    result = solve_raid(Raid("anniversary", bombers=1, territory_value=10, defender_tech=("radar",)))
    assert result.expected_damage == pytest.approx(4 / 6 * 3.5, abs=TOL)


def test_global_air_battle():
    # 1 bomber against 1 interceptor: every aircraft of the air battle hits on 1 (the second
    # edition's rule, as TripleA's Global 1940 2nd edition map has it: fighters' airDefense 1);
    # then AA on 1; damage 1d6 + 2 on a major complex (cap 20)
    result = solve_raid(Raid("global-1940-2e", bombers=1, interceptors=1, facility="major"))
    assert result.expected_damage == pytest.approx(float(F(5, 6) * F(5, 6) * F(11, 2)), abs=TOL)
    assert result.interceptors_lost == pytest.approx(1 / 6, abs=TOL)
    assert result.bombers_lost == pytest.approx(float(F(1, 6) + F(5, 6) * F(1, 6)), abs=TOL)
    # escorts are lost before bombers
    escorted = solve_raid(Raid("global-1940-2e", bombers=1, escorts=1, interceptors=1, facility="major"))
    assert escorted.escorts_lost == pytest.approx(1 / 6, abs=TOL)
    assert escorted.bombers_lost == pytest.approx(1 / 6, abs=TOL)  # AA only


def test_global_interceptors_on_2_are_a_house_rule_one_rule_away():
    # the first edition's (and Alpha's) interceptors on 2: the bomber survives the air battle
    # with 2/3, then AA
    rules = oddsim.model.rules.with_changes("global-1940-2e", {"raid.interceptor_hit": 2})
    result = solve_raid(Raid(rules, bombers=1, interceptors=1, facility="major"))
    assert result.expected_damage == pytest.approx(float(F(2, 3) * F(5, 6) * F(11, 2)), abs=TOL)
    assert result.bombers_lost == pytest.approx(float(F(1, 3) + F(2, 3) * F(1, 6)), abs=TOL)
    escorted = solve_raid(Raid(rules, bombers=1, escorts=1, interceptors=1, facility="major"))
    assert escorted.escorts_lost == pytest.approx(1 / 3, abs=TOL)


@pytest.mark.parametrize("raid", [
    Raid("1942-2e", bombers=4, territory_value=3),
    Raid("revised", bombers=3, territory_value=8, attacker_tech=("heavy-bombers",)),
    Raid("global-1940-2e", bombers=3, tactical_bombers=2, escorts=2, interceptors=3, facility="air_base",
         defender_tech=("radar",)),
])
def test_monte_carlo_agrees_with_exact(raid):
    exact = solve_raid(raid)
    mc = simulate_raid(raid, runs=200_000, seed=7)
    for key in ("expected_damage", "bombers_lost", "escorts_lost", "interceptors_lost"):
        se = max(mc.std_error[key], 1e-9)
        assert abs(getattr(mc, key) - getattr(exact, key)) < 4.5 * se + 1e-12


@pytest.mark.parametrize("kwargs, message", [
    (dict(rules="1942-2e", bombers=1, escorts=1, territory_value=5), "has none"),
    (dict(rules="1942-2e", bombers=0, territory_value=5), "at least one bomber"),
    (dict(rules="1942-2e", bombers=-1, territory_value=5), "whole number"),
    (dict(rules="1942-2e", bombers=1), "territory value"),
    (dict(rules="global-1940-2e", bombers=1), "--facility"),
    (dict(rules="global-1940-2e", bombers=1, tactical_bombers=1, facility="major"), "tactical bombers"),
    (dict(rules="1942-2e", bombers=1, territory_value=5, defender_tech=("radar",)), "not in 1942-2e"),
])
def test_bad_raids(kwargs, message):
    with pytest.raises(oddsim.OddsimError, match=message):
        Raid(**kwargs)


def test_raid_cli():
    ok = CliRunner().invoke(cli, ["raid", "--rules", "1942-2e", "--bombers", "1", "--territory-value", "10",
                                  "--json"])
    assert ok.exit_code == 0 and '"expected_damage": 2.91666' in ok.output
    bad = CliRunner().invoke(cli, ["raid", "--rules", "1942-2e", "--bombers", "1", "--escorts", "2",
                                   "--territory-value", "10"])
    assert bad.exit_code == 2 and len(bad.output.strip().splitlines()) == 1


def _capped_mean(bombers: int, cap: int) -> F:
    """E[min(sum of ``bombers`` d6, cap)] by enumerating every roll."""
    import itertools

    rolls = list(itertools.product(range(1, 7), repeat=bombers))
    return F(sum(min(sum(r), cap) for r in rolls), len(rolls))


def test_revised_and_anniversary_factories_fire_aa_only_with_an_aa_gun():
    # revised: no built-in AA, so without a gun both bombers always roll: E[min(2d6, 10)]
    no_gun = solve_raid(Raid("revised", bombers=2, territory_value=10, aa_gun=False))
    assert no_gun.expected_damage == pytest.approx(float(_capped_mean(2, 10)), abs=TOL)
    assert no_gun.bombers_lost == 0.0
    with_gun = solve_raid(Raid("anniversary", bombers=1, territory_value=10, aa_gun=True))
    assert with_gun.bombers_lost == pytest.approx(1 / 6, abs=TOL)
    assert solve_raid(Raid("anniversary", bombers=1, territory_value=10)).bombers_lost == \
        pytest.approx(1 / 6, abs=TOL)  # a gun is assumed unless --no-aa-gun


def test_no_aa_gun_is_an_error_where_the_facility_has_built_in_aa():
    with pytest.raises(oddsim.BattleError, match="built-in AA"):
        Raid("1942-2e", bombers=1, territory_value=10, aa_gun=False)
    out = CliRunner().invoke(cli, ["raid", "--rules", "global-1940-2e", "--bombers", "1",
                                   "--facility", "major", "--no-aa-gun"])
    assert out.exit_code == 2 and "built-in AA" in out.output
    assert len(out.output.strip().splitlines()) == 1
    out = CliRunner().invoke(cli, ["raid", "--rules", "revised", "--bombers", "1",
                                   "--territory-value", "4", "--no-aa-gun", "--json"])
    assert out.exit_code == 0, out.output


def test_low_luck_raid_aa_is_one_group():
    # 3 bombers, AA on 1: strength 3 -> no sure hit, one more with 3/6; then the survivors roll
    result = solve_raid(Raid("revised", bombers=3, territory_value=10, dice="lowluck"))
    assert result.bombers_lost == pytest.approx(1 / 2, abs=TOL)
    expected = F(1, 2) * _capped_mean(3, 10) + F(1, 2) * _capped_mean(2, 10)
    assert result.expected_damage == pytest.approx(float(expected), abs=TOL)
    # 7 bombers: strength 7 -> one sure hit, a second with 1/6
    seven = solve_raid(Raid("1942-2e", bombers=7, territory_value=20, dice="lowluck"))
    assert seven.bombers_lost == pytest.approx(1 + 1 / 6, abs=TOL)


def test_low_luck_air_battle_and_monte_carlo_agree_with_exact():
    raid = Raid("global-1940-2e", bombers=4, escorts=2, interceptors=3, facility="major",
                dice="lowluck")
    # interceptors: strength 3 x 1 = 3 -> one hit with chance 3/6, taken by an escort
    exact = solve_raid(raid)
    assert exact.escorts_lost == pytest.approx(0.5, abs=TOL)
    # attackers: 6 aircraft x 1 = 6 -> exactly one interceptor lost
    assert exact.interceptors_lost == pytest.approx(1.0, abs=TOL)
    sampled = simulate_raid(raid, runs=200_000, seed=5)
    for name in ("expected_damage", "bombers_lost"):
        err = sampled.std_error[name]
        assert abs(getattr(sampled, name) - getattr(exact, name)) <= 4.5 * err + 1e-9, name
    out = CliRunner().invoke(cli, ["raid", "--rules", "revised", "--bombers", "3",
                                   "--territory-value", "10", "--dice", "lowluck", "--json"])
    assert out.exit_code == 0 and '"bombers_lost": 0.5' in out.output


def test_raid_memory_does_not_grow_with_runs(monkeypatch):
    """Before: one array per run (8.5 GB at 100,000,000 runs). Now raids run in chunks: ten
    times the runs peak at about the same memory."""
    import tracemalloc

    import oddsim.raid as raid_module

    monkeypatch.setattr(raid_module, "RAID_CHUNK", 4_096)
    spec = Raid(rules="1942-2e", bombers=3, territory_value=10)

    def peak(runs):
        tracemalloc.start()
        simulate_raid(spec, runs=runs, seed=1)
        _, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return top

    assert peak(40 * 4_096) < 2 * peak(4_096)


def test_chunked_raid_monte_carlo_agrees_with_exact():
    spec = Raid(rules="1942-2e", bombers=2, territory_value=4)
    exact = solve_raid(spec)
    mc = simulate_raid(spec, runs=600_000, seed=11)  # three chunks of RAID_CHUNK and a part
    assert abs(mc.expected_damage - exact.expected_damage) < 4 * mc.std_error["expected_damage"]
    assert abs(mc.bombers_lost - exact.bombers_lost) < 4 * mc.std_error["bombers_lost"]
    assert mc.runs == 600_000 and not mc.interrupted


def test_raid_without_a_territory_value_names_the_option():
    """Before: "territory value must be a whole number from 0 to 1000, not None"."""
    with pytest.raises(oddsim.OddsimError) as caught:
        Raid(rules="1942-2e", bombers=1)
    assert "--territory-value" in str(caught.value) and "None" not in str(caught.value)


def test_monte_carlo_ipc_swing_carries_its_standard_error():
    """Before: the raid's IPC swing had no error under Monte Carlo. 1942-2e, 1 bomber (12 IPCs)
    on a territory worth 10: shot down with chance 1/6 (swing -12), else 1d6 damage (swing d).
    Mean 35/12 - 2 = 11/12; E[swing^2] = 144/6 + (5/6)(91/6); the error is sqrt(variance / n)."""

    runs = 100_000
    r = simulate_raid(Raid(rules="1942-2e", bombers=1, territory_value=10), runs=runs, seed=8)
    mean = 11 / 12
    variance = 144 / 6 + (5 / 6) * (91 / 6) - mean * mean
    se = r.std_error["ipc_swing"]
    assert se == pytest.approx(math.sqrt(variance / runs), rel=0.03)
    assert abs(r.ipc_swing - mean) <= 4.5 * se
    assert f"expected IPC swing for the attacker: +{r.ipc_swing:.3f} ± " in r.to_table()


def test_the_damage_table_leaves_out_what_would_print_as_zero():
    """Before: 200 bombers printed all 1,001 damage values, the least likely with about 150
    leading zeros (lines of 166 characters)."""
    result = solve_raid(Raid(rules="revised", bombers=200, territory_value=1000))
    rare = [damage for damage, p in result.damage.items() if p < 5e-7]
    lines = result.to_table().splitlines()
    assert rare and max(len(line) for line in lines) < 100
    assert lines[-1] == f"  ({len(rare)} damage values less likely than 5e-05% not shown; --json has all)"
    shown = [int(line.split()[0]) for line in lines[lines.index("damage distribution:") + 1:-1]]
    assert shown == sorted(set(result.damage) - set(rare))
