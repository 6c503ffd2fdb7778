"""Per-wave options, defender reinforcements between waves, and the wave plan file."""

import json
from fractions import Fraction as F

import pytest
from click.testing import CliRunner
from oracle import duel

import oddsim
from oddsim.api import run_waves
from oddsim.cli import cli
from oddsim.errors import BattleError
from oddsim.wave_plan import load_wave_plan
from oddsim.waves import Wave

TOL = 1e-12


def test_reinforcements_join_the_defender_before_the_wave():
    first = oddsim.Battle(rules="1942-2e", attacker="1 inf", defender="1 inf")
    total = run_waves(first, [Wave(attacker="1 arm", defender_reinforcements="1 inf")], method="exact")
    w1 = duel(1, 2)
    # wave 2: 1 armor (hits 1/2) against 2 infantry (no hit on the armor: 4/9). From 2 infantry
    # the armor hits and lives 2/9, misses and lives 2/9 (again), else dies: it reaches 1 infantry
    # with (2/9) / (7/9) = 2/7 and wins that duel with 1/2 (both die 1/4: the defender is gone)
    wins = F(2, 7) * duel(3, 2)[0]
    both_die = F(2, 7) * duel(3, 2)[2]
    assert total.waves[1]["attacker_win"] == pytest.approx(float(w1[1] * wins), abs=TOL)
    assert total.defender_win == pytest.approx(float(w1[1] * (1 - wins - both_die)), abs=TOL)


def test_a_wave_has_its_own_retreat_and_dice():
    first = oddsim.Battle(rules="1942-2e", attacker="1 inf", defender="1 inf")
    total = run_waves(first, [Wave(attacker="1 arm, 1 inf", retreat={"after_round": 1}, dice="lowluck")],
                      method="exact")
    # wave 2, Low Luck: armor + infantry have strength 4: a hit with 4/6; the infantry defends
    # with 2: a hit with 2/6; after round 1 the attacker retreats if the battle is not over
    w1 = duel(1, 2)
    a_hit, d_hit = F(4, 6), F(2, 6)
    assert total.waves[1]["attacker_win"] == pytest.approx(float(w1[1] * a_hit), abs=TOL)
    assert total.defender_win == pytest.approx(float(w1[1] * (1 - a_hit)), abs=TOL)
    assert d_hit  # the defender's hit only changes who is lost, not who holds


def test_a_wave_can_drop_the_first_battles_retreat():
    first = oddsim.Battle(rules="1942-2e", attacker="1 inf", defender="1 inf", retreat={"after_round": 1})
    inherit = run_waves(first, [Wave(attacker="1 arm")], method="exact")
    own = run_waves(first, [Wave(attacker="1 arm", retreat=oddsim.RetreatPolicy())], method="exact")
    assert own.waves[1]["attacker_win"] > inherit.waves[1]["attacker_win"]


def test_bad_reinforcements_are_refused():
    first = oddsim.Battle(rules="1942-2e", attacker="1 inf", defender="1 inf")
    with pytest.raises(BattleError, match="cannot fight"):
        run_waves(first, [Wave(attacker="1 arm", defender_reinforcements="1 bb")], method="exact")


def test_wave_plan_file_from_the_cli(tmp_path):
    plan = tmp_path / "plan.toml"
    plan.write_text('[[wave]]\nattacker = "1 arm"\ndefender_reinforcements = "1 inf"\n')
    out = CliRunner().invoke(cli, ["battle", "-a", "1 inf", "-d", "1 inf", "--wave-plan", str(plan),
                                   "--json"])
    assert out.exit_code == 0
    data = json.loads(out.output)
    w1 = duel(1, 2)
    holds = w1[1] * (1 - F(2, 7) * (duel(3, 2)[0] + duel(3, 2)[2]))
    assert data["defender_win"] == pytest.approx(float(holds), abs=TOL)
    as_json = tmp_path / "plan.json"
    as_json.write_text(json.dumps({"wave": [{"attacker": "1 arm", "retreat": {"after_round": 1}}]}))
    assert load_wave_plan(as_json)[0].retreat == oddsim.RetreatPolicy(after_round=1)


@pytest.mark.parametrize(("text", "message"), [
    ('[[wave]]\nattackers = "1 arm"\n', "unknown option 'attackers'"),
    ('[[wave]]\nool_attacker = "arm"\n', "needs an attacker"),
    ('[[wave]]\nattacker = "1 arm"\nretreat = { after = 1 }\n', "unknown retreat option"),
    ('wave = 3\n', "one list of waves"),
    ('[[wave]\n', "not valid TOML"),
])
def test_bad_wave_plans_are_one_line_errors(tmp_path, text, message):
    plan = tmp_path / "plan.toml"
    plan.write_text(text)
    out = CliRunner().invoke(cli, ["battle", "-a", "1 inf", "-d", "1 inf", "--wave-plan", str(plan)])
    assert out.exit_code == 2
    assert out.output.count("\n") == 1 and message in out.output


def test_a_plan_file_that_is_not_text_is_a_one_line_error(tmp_path):
    plan = tmp_path / "plan.toml"
    plan.write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff")
    out = CliRunner().invoke(cli, ["battle", "-a", "1 inf", "-d", "1 inf", "--wave-plan", str(plan)])
    assert out.exit_code == 2
    assert out.output.count("\n") == 1 and "not UTF-8 text" in out.output


def test_a_bad_army_in_a_plan_names_the_file_and_the_wave(tmp_path):
    plan = tmp_path / "plan.toml"
    plan.write_text('[[wave]]\nattacker = "1 arm"\n[[wave]]\nattacker = 3\n')
    out = CliRunner().invoke(cli, ["battle", "-a", "1 inf", "-d", "1 inf", "--wave-plan", str(plan)])
    assert out.exit_code == 2
    assert out.output.count("\n") == 1 and "wave 2: attacker" in out.output


def test_monte_carlo_plays_each_waves_own_options_like_exact():
    first = oddsim.Battle(rules="1942-2e", attacker="2 inf", defender="3 inf")
    later = [Wave(attacker="2 arm", retreat={"units_left": 1}, defender_reinforcements="1 inf"),
             Wave(attacker="2 inf", dice="lowluck")]
    exact = run_waves(first, later, method="exact")
    mc = run_waves(first, later, method="mc", runs=100_000, seed=17)
    for name in ("attacker_win", "takes_territory", "attacker_ipc_lost", "defender_ipc_lost"):
        assert abs(getattr(mc, name) - getattr(exact, name)) < 4.5 * mc.std_error[name], name
    for number, (e, m) in enumerate(zip(exact.waves, mc.waves, strict=True)):
        for name in ("fights", "attacker_win", "attacker_ipc_lost", "defender_ipc_lost"):
            error = m["std_error"].get(name, 0.0)
            assert abs(m[name] - e[name]) <= 4.5 * error + 1e-12, (number, name)
