"""What each wave leaves (issue 35): both sides' expected units by type when its battle ends, and
the defender compositions the next wave meets, against hand-derived fractions and the plain battle."""

import json
import math
from fractions import Fraction as F

import pytest
from click.testing import CliRunner

import oddsim
from oddsim.api import run_waves
from oddsim.cli import cli

TOL = 1e-12

# 1942-2e, 1 inf attacks 2 inf, then 1 arm attacks what is left. Attacking infantry hits 1/6,
# defending infantry 1/3 each, armor 1/2.
# Wave 1 from (1 vs 2): no change (5/6)(4/9) = 10/27, so over 17/27: both hit (1/6)(5/9) ->
# (0 vs 1) 5/34; only the attacker (1/6)(4/9) -> (1 vs 1) 4/34; only the defender -> (0 vs 2) 25/34.
# From (1 vs 1): over 8/18, the attacker wins 2/8, both die 1/8, the defender 5/8.
# The defender after wave 1: 2 inf 25/34, 1 inf 5/34 + 4/34 x 5/8 = 15/68, none 4/34 x 3/8 = 3/68;
# the attacking infantry lives 4/34 x 2/8 = 1/34.
# Wave 2, 1 arm against 2 inf: no change (1/2)(4/9) = 2/9, so over 7/9: both -> (0 vs 1) 5/14,
# only the armor -> (1 vs 1) 4/14, only the defender -> 5/14. 1 arm against 1 inf: over 2/3,
# both 1/4, the armor wins 1/2, the infantry 1/4. So against 2 inf the armor lives 4/14 x 1/2 =
# 1/7 and leaves 2 inf 5/14, 1 inf 5/14 + 4/14 x 1/4 = 6/14; against 1 inf it lives 1/2 and
# leaves 1 inf 1/4. Where the defender is gone (3/68) the armor walks in whole.
W1_DEFENDER = {"2 infantry": F(25, 34), "1 infantry": F(15, 68), "none": F(3, 68)}
W2_FIGHTS = F(65, 68)
W2_ARMOR = F(25, 34) * F(1, 7) + F(15, 68) * F(1, 2)  # where it fights
W2_DEFENDER = {"2 infantry": F(25, 34) * F(5, 14),
               "1 infantry": F(25, 34) * F(6, 14) + F(15, 68) * F(1, 4)}


def hand_waves():
    return run_waves(oddsim.Battle("1942-2e", "1 inf", "2 inf"), ["1 arm"], method="exact")


def rows(wave: dict) -> dict[str, float]:
    return {row["label"]: row["probability"] for row in wave["defender_survivors"]}


def test_two_waves_leave_hand_derived_units():
    first, second = hand_waves().waves
    assert first["attacker_units_left"] == pytest.approx({"infantry": float(F(1, 34))}, abs=TOL)
    assert first["defender_units_left"] == pytest.approx({"infantry": float(2 * F(25, 34) + F(15, 68))},
                                                         abs=TOL)
    assert rows(first) == pytest.approx({k: float(v) for k, v in W1_DEFENDER.items()}, abs=TOL)
    # the armor: where it fights, and whole where the defender was already gone (3/68)
    assert second["attacker_units_left"] == pytest.approx(
        {"armor": float(W2_ARMOR + 1 - W2_FIGHTS)}, abs=TOL)  # 247/952
    assert second["given_it_fights"]["attacker_units_left"] == pytest.approx(
        {"armor": float(W2_ARMOR / W2_FIGHTS)}, abs=TOL)  # 41/182
    infantry = 2 * W2_DEFENDER["2 infantry"] + W2_DEFENDER["1 infantry"]  # 1705/1904
    assert second["defender_units_left"] == pytest.approx({"infantry": float(infantry)}, abs=TOL)
    assert second["given_it_fights"]["defender_units_left"] == pytest.approx(
        {"infantry": float(infantry / W2_FIGHTS)}, abs=TOL)
    gone = 1 - sum(W2_DEFENDER.values())
    assert rows(second) == pytest.approx({**{k: float(v) for k, v in W2_DEFENDER.items()},
                                          "none": float(gone)}, abs=TOL)
    # most likely first: 1 inf 705/1904, none 699/1904, 2 inf 500/1904
    assert [row["label"] for row in second["defender_survivors"]] == ["1 infantry", "none", "2 infantry"]
    # taken by the end of each wave: the infantry wins 1/34; then the armor walks into the
    # emptied territory (1/68) or wins, 25/34 x 1/7 + 15/68 x 1/2: 247/952 in all (as often as
    # the armor is left: it is left only where it took the territory or walked in)
    assert first["takes_territory"] == pytest.approx(1 / 34, abs=TOL)
    assert second["takes_territory"] == pytest.approx(247 / 952, abs=TOL)


@pytest.mark.parametrize("sea", [False, True])
def test_each_wave_takes_what_the_attack_cut_after_it_takes(sea):
    """A wave's ``takes_territory`` is the whole attack's, cut after that wave (None at sea)."""
    if sea:
        first, later = oddsim.Battle("1942-2e", "1 dd, 1 ftr", "1 dd, 1 sub", sea=True), ["1 ftr", "1 dd"]
    else:
        first, later = oddsim.Battle("1942-2e", "1 ftr, 1 inf", "2 inf"), ["1 ftr", "1 inf"]
    waves = run_waves(first, later, method="exact").waves
    for k, wave in enumerate(waves):
        cut = oddsim.solve(first) if k == 0 else run_waves(first, later[:k], method="exact")
        if sea:
            assert wave["takes_territory"] is None and cut.takes_territory is None
        else:
            assert wave["takes_territory"] == pytest.approx(cut.takes_territory, abs=TOL)


@pytest.mark.parametrize("first", [
    oddsim.Battle("1942-2e", "3 inf, 1 art, 2 arm", "4 inf, 1 arm"),
    oddsim.Battle("1942-2e", "2 sub, 1 dd, 1 bb", "1 bb, 1 cv, 1 ftr", sea=True),
    oddsim.Battle("revised", "2 inf, 1 arm, 1 ftr", "3 inf, 1 arm", retreat={"after_round": 2}),
])
def test_the_first_waves_units_are_the_plain_battles(first):
    plain = oddsim.solve(first)
    wave = run_waves(first, ["1 ftr"], method="exact").waves[0]
    assert wave["attacker_units_left"] == pytest.approx(plain.attacker_units_left, abs=TOL)
    assert wave["defender_units_left"] == pytest.approx(plain.defender_units_left, abs=TOL)
    assert wave["given_it_fights"]["attacker_units_left"] == pytest.approx(plain.attacker_units_left, abs=TOL)
    # the defender's compositions: the plain battle's rows, "none" where none is left
    expected: dict[str, float] = {}
    for row in plain.defender_survivors:
        label = row.force(first.rules).describe()
        expected[label] = expected.get(label, 0.0) + row.probability
    assert rows(wave) == pytest.approx(expected, abs=TOL)
    assert math.fsum(rows(wave).values()) == pytest.approx(1.0, abs=1e-12)


def test_monte_carlo_units_left_carry_errors_that_cover_the_exact_ones():
    first = oddsim.Battle("1942-2e", "4 inf, 2 art", "6 inf")
    later = ["3 arm, 2 ftr", "2 inf"]
    exact = run_waves(first, later, method="exact")
    mc = run_waves(first, later, method="mc", runs=50_000, seed=8)
    for got, want in zip(mc.waves, exact.waves, strict=True):
        se = got["std_error"]
        for name in ("attacker_units_left", "defender_units_left"):
            assert set(got[name]) == set(want[name]), name
            for unit, n in want[name].items():
                assert abs(got[name][unit] - n) <= 4.5 * se[name][unit] + 1e-12, (name, unit)
                given = se["given_it_fights"][name][unit]
                assert abs(got["given_it_fights"][name][unit] - want["given_it_fights"][name][unit]) \
                    <= 4.5 * given + 1e-12, (name, unit)
        for row in got["defender_survivors"]:
            p = row["probability"]
            assert row["std_error"] == pytest.approx(math.sqrt(p * (1 - p) / 50_000), rel=1e-9)
    assert "std_error" not in exact.waves[0]["defender_survivors"][0]


def test_the_cli_says_and_its_json_holds_what_each_wave_leaves():
    args = ["battle", "-a", "1 inf", "-d", "2 inf", "--wave", "1 arm"]
    text = CliRunner().invoke(cli, args)
    assert text.exit_code == 0, text.output
    # 247/952 = 0.26 armor, 1705/1904 = 0.90 infantry; 41/182 = 0.23, 1705/1820 = 0.94
    assert ("units left, unconditional: attacker 0.26 armor (its whole army where it does not fight), "
            "defender 0.90 infantry") in text.output
    given = "units left, given it reaches the battle: attacker 0.23 armor, defender 0.94 infantry"
    assert given in text.output
    assert "the defender after this wave: 1 infantry 37.03%, none 36.71%, 2 infantry 26.26%" in text.output
    answer = json.loads(CliRunner().invoke(cli, [*args, "--json"]).output)
    assert answer["waves"][1]["attacker_units_left"]["armor"] == pytest.approx(247 / 952, abs=TOL)


@pytest.mark.parametrize(("first", "later"), [
    (oddsim.Battle("revised", "2 inf, 1 arm, 1 ftr", "3 inf, 1 aa", retreat={"after_round": 2}), ["1 ftr"]),
    (oddsim.Battle("revised", "1 inf, 1 ftr", "1 inf, 1 aa"), ["1 ftr", "1 inf"]),
])
def test_with_aa_guns_every_chance_is_counted_once(first, later):
    total = run_waves(first, later, method="exact")
    ends = total.attacker_win + total.draw + total.defender_win + total.retreat + total.stalemate
    assert ends == pytest.approx(1.0, abs=1e-12)
    assert total.defender_holds + total.defender_destroyed == pytest.approx(1.0, abs=1e-12)
    for wave in total.waves:
        assert math.fsum(rows(wave).values()) == pytest.approx(1.0, abs=1e-12)
