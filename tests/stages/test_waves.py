"""Second waves against hand-derived odds: wave 2 fights what wave 1 left."""

import json
from fractions import Fraction as F

import pytest
from click.testing import CliRunner
from oracle import duel

import oddsim
from oddsim.api import run_waves
from oddsim.cli import cli
from oddsim.stages.waves import Wave

TOL = 1e-12


def test_two_waves_exact():
    first = oddsim.Battle(rules="1942-2e", attacker="1 inf", defender="1 inf")
    total = run_waves(first, [Wave(attacker="1 arm")], method="exact")
    w1 = duel(1, 2)  # 1/4, 5/8, 1/8
    w2 = duel(3, 2)  # 1/2, 1/4, 1/4
    holds = w1[1] * w2[1]
    # taken: wave 1 wins (1/4); wave 1 draws and the tank walks in (1/8); wave 2 wins
    taken = w1[0] + w1[2] + w1[1] * w2[0]
    assert total.defender_win == pytest.approx(float(holds), abs=TOL)
    # the whole attack ends in a draw only where wave 2 fights and both die: 5/8 x 1/4 = 5/32
    assert total.draw == pytest.approx(float(w1[1] * w2[2]), abs=TOL)
    assert total.attacker_win == pytest.approx(float(1 - holds - w1[1] * w2[2]), abs=TOL)
    assert total.defender_destroyed == pytest.approx(float(1 - holds), abs=TOL)
    assert total.takes_territory == pytest.approx(float(taken), abs=TOL)
    assert total.waves[1]["fights"] == pytest.approx(float(w1[1]), abs=TOL)
    # IPC: wave 1 loses the infantry unless it wins; wave 2 loses the tank when it loses/draws
    attacker = 3 * (w1[1] + w1[2]) + 6 * w1[1] * (w2[1] + w2[2])
    assert total.attacker_ipc_lost == pytest.approx(float(attacker), abs=TOL)
    # the total swing's distribution is not known (its mean is): the JSON says so, wave 1's own
    # result keeps its own
    assert total.to_dict()["tuv_swing_distribution"] is None


def test_damaged_units_carry_into_the_next_wave():
    first = oddsim.Battle(rules="1942-2e", attacker="1 bmb", defender="1 bb", sea=True)
    total = run_waves(first, [Wave(attacker="1 bmb")], method="exact")
    # wave 1: the first round that changes anything leaves (damaged bb, bomber dead) 1/2,
    # (fresh bb, bomber dead) 1/4, (damaged bb, bomber alive) 1/4, and from there the damaged bb
    # survives 1/4: the defender keeps a fresh bb 1/4 and a damaged one 1/2 + 1/16 = 9/16
    hold_fresh = F(1, 4) * F(13, 16)  # wave 2 against a fresh bb: the golden 13/16
    hold_damaged = F(9, 16) * duel(4, 4)[1]
    assert total.defender_win == pytest.approx(float(hold_fresh + hold_damaged), abs=TOL)


def test_an_edition_that_repairs_after_each_battle_meets_the_next_wave_with_a_whole_battleship():
    # europe-1999 (repair = "after_battle"): its rules summary repairs a battleship "at the very
    # end of the combat" and it "goes into the next one undamaged". Attacking subs (hit 1/3) fire
    # first; the battleship (2/3) fires back. Whole: the sub damages it and lives 1/9, is sunk
    # 6/9, nothing 2/9: to the damaged battleship 1/7; from there the sub wins (1/3) / (7/9) = 3/7.
    first = oddsim.Battle(rules="europe-1999", attacker="1 sub", defender="1 bb", sea=True)
    total = run_waves(first, [Wave(attacker="1 sub")], method="exact")
    wave = total.waves[1]
    assert wave["given_it_fights"]["attacker_win"] == pytest.approx(3 / 49, abs=TOL)
    assert wave["fights"] == pytest.approx(46 / 49, abs=TOL)  # the first sub sank it 3/49


@pytest.mark.parametrize(("emptied", "holds"), [(True, F(117, 224)), (False, F(55, 112))])
def test_reinforcements_also_hold_a_territory_emptied_but_not_taken(emptied, holds):
    # 1 inf against 1 inf: the attacker takes it 1/4, the defender holds 5/8, both die 1/8 (an empty
    # territory, still the defender's). One more infantry joins before 1 armor attacks. Against
    # 2 inf the armor reaches 1 vs 1 only by hitting first and living, (2/9) / (7/9) = 2/7, so the
    # defender holds 5/7 + 2/7 x 1/4 = 11/14; against the lone reinforcement it holds 1/4.
    # So 5/8 x 11/14 + 1/8 x 1/4 = 117/224; joining only defenders still standing, 55/112.
    first = oddsim.Battle(rules="1942-2e", attacker="1 inf", defender="1 inf")
    later = Wave(attacker="1 arm", defender_reinforcements="1 inf", reinforce_emptied=emptied)
    total = run_waves(first, [later], method="exact")
    assert total.defender_win == pytest.approx(float(holds), abs=TOL)


def test_waves_from_the_cli():
    result = CliRunner().invoke(cli, ["battle", "-a", "1 inf", "-d", "1 inf", "--wave", "1 arm"])
    assert result.exit_code == 0
    # (test_two_waves_exact) attacker 1/4 + 1/8 + 5/8 x 1/2 = 11/16, draw 5/8 x 1/4 = 5/32,
    # defender 5/8 x 1/4 = 5/32; destroyed 11/16 + 5/32 = 27/32
    assert "total: attacker wins 68.75%, draw 15.63%, defender wins 15.63%" in result.output
    assert "defender destroyed 84.38%, holds 15.63%" in result.output


def test_a_waves_total_counts_no_draw_as_a_win():
    # issue 34: 1 inf vs 1 inf (1942-2e), then 1 inf. Wave 1 (duel(1, 2)): attacker 1/4,
    # defender 5/8, draw 1/8; after a win or a draw wave 2 walks in (an attacking unit is left);
    # after the defender's win (5/8) wave 2 fights the same duel. Attacker wins 1/4 + 1/8 +
    # 5/8 x 1/4 = 17/32; draw 5/8 x 1/8 = 5/64; defender 5/8 x 5/8 = 25/64.
    out = CliRunner().invoke(cli, ["battle", "-a", "1 inf", "-d", "1 inf", "--wave", "1 inf", "--json"])
    assert out.exit_code == 0, out.output
    total = json.loads(out.output)
    want = {"attacker_win": F(17, 32), "draw": F(5, 64), "defender_win": F(25, 64), "retreat": 0,
            "stalemate": 0, "defender_destroyed": F(39, 64), "defender_holds": F(25, 64),
            "takes_territory": F(17, 32)}
    for name, value in want.items():
        assert total[name] == pytest.approx(float(value), abs=TOL), name


def test_a_last_wave_that_retreats_leaves_the_defender_standing_by_retreat():
    # 1 inf vs 1 inf, then 1 arm retreating after round 1 (1942-2e). Wave 2 meets the lone
    # infantry 5/8 (wave 1 above). Round 1 of 1 arm (hits 1/2) vs 1 inf (hits 1/3): the armor
    # wins 1/2 x 2/3 = 1/3, dies 1/2 x 1/3 = 1/6, both die 1/6, nobody hits 1/3 (it retreats).
    # Total: retreat 5/8 x 1/3 = 5/24, defender wins 5/8 x 1/6 = 5/48, draw 5/8 x 1/6 = 5/48,
    # attacker 1/4 + 1/8 + 5/8 x 1/3 = 7/12; the defender holds 5/24 + 5/48 = 5/16.
    first = oddsim.Battle(rules="1942-2e", attacker="1 inf", defender="1 inf")
    total = run_waves(first, [Wave(attacker="1 arm", retreat={"after_round": 1})], method="exact")
    want = {"attacker_win": F(7, 12), "draw": F(5, 48), "defender_win": F(5, 48),
            "retreat": F(5, 24), "stalemate": 0, "defender_holds": F(5, 16)}
    for name, value in want.items():
        assert getattr(total, name) == pytest.approx(float(value), abs=TOL), name
    assert total.attacker_win + total.draw + total.defender_win + total.retreat == pytest.approx(1, abs=TOL)


def test_two_waves_monte_carlo_agrees_with_exact():
    import math

    first = oddsim.Battle(rules="1942-2e", attacker="2 inf, 1 arm", defender="3 inf, 1 arm")
    later = [Wave(attacker="1 arm, 1 ftr")]
    exact = run_waves(first, later, method="exact")
    runs = 200_000
    mc = run_waves(first, later, method="mc", runs=runs, seed=5)
    for key in ("attacker_win", "takes_territory"):
        p = getattr(exact, key)
        assert abs(getattr(mc, key) - p) < 4.5 * math.sqrt(p * (1 - p) / runs)
    assert mc.waves[1]["method"] == "mc"


def test_each_wave_reports_figures_unconditional_and_given_it_reaches_the_battle():
    # 1942-2e: 1 inf attacks 1 inf; the defender survives alone with duel(1, 2)'s defender win,
    # then 1 armor attacks that 1 inf and wins with 1/2 (see test_result: 1 arm vs 1 inf)
    _, holds, _ = duel(1, 2)
    total = run_waves(oddsim.Battle("1942-2e", "1 inf", "1 inf"), ["1 arm"], method="exact")
    second = total.waves[1]
    assert second["fights"] == pytest.approx(float(holds), abs=1e-12)
    assert second["given_it_fights"]["attacker_win"] == pytest.approx(0.5, abs=1e-12)
    assert second["attacker_win"] == pytest.approx(float(holds * F(1, 2)), abs=1e-12)
    text = total.to_table()
    assert "unconditional" in text and "given it reaches the battle" in text


def test_monte_carlo_waves_carry_standard_errors_that_cover_the_exact_figures():
    first = oddsim.Battle("1942-2e", "4 inf, 2 art", "6 inf")
    exact = run_waves(first, ["3 arm, 2 ftr", "2 inf"], method="exact")
    mc = run_waves(first, ["3 arm, 2 ftr", "2 inf"], method="mc", runs=50_000, seed=8)
    assert exact.std_error == {} and "std_error" not in exact.waves[1]
    for got, want in zip(mc.waves, exact.waves, strict=True):
        se = got["std_error"]
        for name in ("fights", "attacker_win", "attacker_ipc_lost", "defender_ipc_lost"):
            assert se[name] > 0 or got[name] in (0.0, 1.0)
            assert abs(got[name] - want[name]) <= 4.5 * se[name] + 1e-12, name
        for name in ("attacker_win", "attacker_ipc_lost"):
            assert abs(got["given_it_fights"][name] - want["given_it_fights"][name]) <= \
                4.5 * se["given_it_fights"][name] + 1e-12, name
    # a chance's error is the binomial one over all runs
    p = mc.attacker_win
    assert mc.std_error["attacker_win"] == pytest.approx((p * (1 - p) / 50_000) ** 0.5, rel=1e-3)
    for name in ("attacker_win", "takes_territory", "attacker_ipc_lost", "defender_ipc_lost"):
        assert abs(getattr(mc, name) - getattr(exact, name)) <= 4.5 * mc.std_error[name], name
    assert "±" in mc.to_table()


def test_monte_carlo_waves_and_assaults_bound_the_tuv_swing_error():
    """Before: the waves' and the assault's TUV swing had no error under Monte Carlo. The bound
    (the sum of both sides' loss errors) holds the exact swing at a fixed seed."""
    from oddsim.api import run_amphibious
    from oddsim.stages.amphibious import Amphibious

    battle = oddsim.Battle("1942-2e", "4 inf, 2 art", "6 inf")
    mc = run_waves(battle, ["3 arm, 2 ftr"], method="mc", runs=100_000, seed=1)
    exact = run_waves(battle, ["3 arm, 2 ftr"], method="exact")
    bound = mc.std_error["tuv_swing"]
    assert bound == pytest.approx(mc.std_error["attacker_ipc_lost"] + mc.std_error["defender_ipc_lost"])
    assert abs(mc.tuv_swing - exact.tuv_swing) <= 4.5 * bound
    assert "± at most" in mc.to_table().splitlines()[-1]
    assault = Amphibious("1942-2e", fleet="1 bb, 2 trn", cargo="2 inf, 2 arm", defender="4 inf",
                         sea_defender="2 dd")
    mc_a = run_amphibious(assault, method="mc", runs=100_000, seed=1)
    exact_a = run_amphibious(assault, method="exact")
    bound_a = mc_a.std_error["attacker_ipc_lost"] + mc_a.std_error["defender_ipc_lost"]
    assert abs(mc_a.tuv_swing - exact_a.tuv_swing) <= 4.5 * bound_a
    # the JSON has the bound the text prints (before: the assault's JSON left it out)
    assert mc_a.to_dict()["std_error"]["tuv_swing"] == pytest.approx(bound_a, rel=1e-12)
    assert f"(TUV swing {mc_a.tuv_swing:+.2f}, ± at most " in mc_a.to_table()


def given_it_fights(first: oddsim.Battle, later: str) -> float:
    """A later wave's chance to win given that it reaches the battle, from the first battle's
    defender survivors each fought by ``later`` as a new, plain battle (fresh AA fire, nothing
    landed, no bombardment)."""
    standing = [row for row in oddsim.solve(first).defender_survivors if row.count > 0]
    reached = sum(row.probability for row in standing)
    won = 0.0
    for row in standing:
        plain = oddsim.Battle(first.rules, later, dict(row.counts))
        won += row.probability * oddsim.solve(plain).attacker_win
    return won / reached


@pytest.mark.parametrize("first", [
    oddsim.Battle("1942-2e", attacker=oddsim.Side("1 inf", landed="1 inf", bombard="1 bb"), defender="2 inf"),
    oddsim.Battle("1942-2e", "1 arm", "1 inf, 1 aa", in_progress=True),
])
@pytest.mark.parametrize("later", ["1 inf", "1 arm", "1 ftr"])
def test_a_later_wave_is_a_new_attack(first, later):
    """Before: the first battle's landed units, bombardment and "in progress" carried into every
    later wave (ships bombarded again, AA never fired at a later wave's aircraft, and a later
    wave without the landed units was refused)."""
    total = run_waves(first, [later], method="exact")
    assert total.waves[1]["given_it_fights"]["attacker_win"] == pytest.approx(given_it_fights(first, later),
                                                                           abs=1e-12)


def test_a_fighter_after_a_battle_in_progress_meets_the_aa_gun():
    # the armor's battle (no AA: in progress) ends with the infantry standing (1/4) or only the AA
    # gun (a draw, 1/4); the fighter then survives the AA die 5/6 of the time and beats the
    # infantry half the time, or meets no unit that fights (the infantry is lost before the gun)
    total = run_waves(oddsim.Battle("1942-2e", attacker="1 arm",
                                    defender=oddsim.Side("1 inf, 1 aa", order_of_loss="inf,aa"),
                                    in_progress=True), ["1 ftr"], method="exact")
    assert total.waves[1]["given_it_fights"]["attacker_win"] == pytest.approx(
        float(F(1, 2) * F(5, 6) * F(1, 2) + F(1, 2) * F(5, 6)), abs=1e-12)
