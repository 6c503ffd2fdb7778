"""Per-wave options, defender reinforcements between waves, and the wave plan file."""

import json
from fractions import Fraction as F

import pytest
from click.testing import CliRunner
from engines.test_destroyer_last import KEPT, PLAIN
from oracle import duel

import oddsim
from oddsim.api import run_waves
from oddsim.cli import cli
from oddsim.errors import BattleError, ForceError
from oddsim.stages.wave_plan import load_wave_plan
from oddsim.stages.waves import Wave

TOL = 1e-12


def test_reinforcements_join_the_defender_before_the_wave():
    first = oddsim.Battle(rules="1942-2e", attacker="1 inf", defender="1 inf")
    total = run_waves(first, [Wave(attacker="1 arm", defender_reinforcements="1 inf",
                                   reinforce_emptied=False)], method="exact")
    w1 = duel(1, 2)  # (joining only defenders still standing: tests/test_waves.py has the default)
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
    # a miss ends in the retreat (one round takes at most one of the two attackers): the
    # defender holds by the retreat, never by destroying the wave
    assert total.retreat == pytest.approx(float(w1[1] * (1 - a_hit)), abs=TOL)
    assert total.defender_holds == pytest.approx(float(w1[1] * (1 - a_hit)), abs=TOL)
    assert total.defender_win == 0.0
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
    # the reinforcement also stands alone where wave 1 left the territory empty (both died)
    holds = w1[1] * (1 - F(2, 7) * (duel(3, 2)[0] + duel(3, 2)[2])) + w1[2] * duel(3, 2)[1]
    assert data["defender_win"] == pytest.approx(float(holds), abs=TOL)
    plan.write_text('[[wave]]\nattacker = "1 arm"\ndefender_reinforcements = "1 inf"\n'
                    'reinforce_emptied = false\n')
    assert load_wave_plan(plan)[0].reinforce_emptied is False
    as_json = tmp_path / "plan.json"
    as_json.write_text(json.dumps({"wave": [{"attacker": "1 arm", "retreat": {"after_round": 1}}]}))
    assert load_wave_plan(as_json)[0].retreat == oddsim.RetreatPolicy(after_round=1)


def refused_plan(tmp_path, text: str | bytes, battle=("-a", "1 inf", "-d", "1 inf"),
                 options=()) -> tuple[str, str]:
    """Run ``oddsim battle`` (``battle``, then ``options``) with ``text`` as its wave plan file,
    which it must refuse: status 2 and one line. Returns (that line, the plan's path)."""
    plan = tmp_path / "plan.toml"
    if isinstance(text, bytes):
        plan.write_bytes(text)
    else:
        plan.write_text(text)
    out = CliRunner().invoke(cli, ["battle", *battle, "--wave-plan", str(plan), *options])
    assert out.exit_code == 2, out.output
    assert out.output.count("\n") == 1, out.output
    return out.output, str(plan)


@pytest.mark.parametrize(("text", "message"), [
    ('[[wave]]\nattackers = "1 arm"\n', "unknown option 'attackers'"),
    ('[[wave]]\nool_attacker = "arm"\n', "needs an attacker"),
    ('[[wave]]\nattacker = "1 arm"\nretreat = { after = 1 }\n', "unknown retreat option"),
    ('wave = 3\n', "one list of waves"),
    ('[[wave]\n', "not valid TOML"),
])
def test_bad_wave_plans_are_one_line_errors(tmp_path, text, message):
    assert message in refused_plan(tmp_path, text)[0]


def test_a_plan_file_that_is_not_text_is_a_one_line_error(tmp_path):
    assert "not UTF-8 text" in refused_plan(tmp_path, b"\x89PNG\r\n\x1a\n\x00\xff")[0]


def test_a_bad_army_in_a_plan_names_the_file_and_the_wave(tmp_path):
    line, _ = refused_plan(tmp_path, '[[wave]]\nattacker = "1 arm"\n[[wave]]\nattacker = 3\n')
    assert "wave 2: attacker" in line


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


# Destroyer last per wave. The first battle, 1942-2e at sea: 1 sub (attack 2) against 1 sub
# (defense 1), neither side with a destroyer, so both strike first together: a 2-against-1 duel.
# The defender's sub survives it with duel(2, 1)[1]; the wave, 1 destroyer + 1 cruiser with the
# destroyer first in the order, then meets it: the hand values of test_destroyer_last (PLAIN: the
# destroyer is lost first, KEPT: kept while the sub lives).
def _sub_duel_then(kept: bool | None, first_keeps: bool = False):
    first = oddsim.Battle(rules="1942-2e", attacker=oddsim.Side("1 sub", destroyer_last=first_keeps),
                          defender="1 sub", sea=True)
    return first, [Wave(attacker="1 dd, 1 cru", ool_attacker="dd,cru", attacker_destroyer_last=kept)]


@pytest.mark.parametrize(("kept", "first_keeps", "hand"), [
    (True, False, KEPT), (False, False, PLAIN), (None, True, KEPT), (False, True, PLAIN),
    (None, False, PLAIN)])
def test_a_wave_keeps_its_last_destroyer_or_not(kept, first_keeps, hand):
    total = run_waves(*_sub_duel_then(kept, first_keeps), method="exact")
    reach = duel(2, 1)[1]
    assert total.waves[1]["fights"] == pytest.approx(float(reach), abs=TOL)
    assert total.waves[1]["attacker_win"] == pytest.approx(float(reach * hand[0]), abs=TOL)
    assert total.defender_win == pytest.approx(float(reach * hand[1]), abs=TOL)


@pytest.mark.parametrize(("kept", "hand", "other"), [(True, KEPT, PLAIN), (False, PLAIN, KEPT)])
def test_monte_carlo_keeps_a_waves_last_destroyer_like_the_hand_values(kept, hand, other):
    total = run_waves(*_sub_duel_then(kept), method="mc", runs=200_000, seed=23)
    wave = total.waves[1]
    given = wave["given_it_fights"]["attacker_win"]
    error = wave["std_error"]["given_it_fights"]["attacker_win"]
    assert abs(given - float(hand[0])) < 4.5 * error
    # the check tells the two apart: the other policy's value lies far outside the tolerance
    # (about 50,000 runs reach the wave: an error near 0.0007 against a difference of 0.0068)
    assert abs(given - float(other[0])) > 4.5 * error
    assert abs(total.defender_win - float(duel(2, 1)[1] * hand[1])) < 4.5 * total.std_error["defender_win"]


def test_a_plan_file_sets_a_waves_destroyer_last(tmp_path):
    plan = tmp_path / "plan.toml"
    plan.write_text('[[wave]]\nattacker = "1 dd, 1 cru"\nool_attacker = "dd,cru"\n'
                    'attacker_destroyer_last = true\n')
    out = CliRunner().invoke(cli, ["battle", "--sea", "-a", "1 sub", "-d", "1 sub", "--wave-plan", str(plan),
                                   "--method", "exact", "--json"])
    assert out.exit_code == 0, out.output
    reach = duel(2, 1)[1]
    assert json.loads(out.output)["defender_win"] == pytest.approx(float(reach * KEPT[1]), abs=TOL)
    # a --wave inherits the battle's flag, which the first attacker (no destroyer) cannot use
    out = CliRunner().invoke(cli, ["battle", "--sea", "-a", "1 sub", "-d", "1 sub", "--wave", "1 dd, 1 cru",
                                   "--ool-attacker", "dd,cru", "--attacker-destroyer-last",
                                   "--method", "exact", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["defender_win"] == pytest.approx(float(reach * KEPT[1]), abs=TOL)


def test_a_json_plans_null_destroyer_last_is_the_first_battles(tmp_path):
    """JSON null, like None in a Wave (and like null for dice or retreat): the first battle's flag."""
    plan = tmp_path / "plan.json"
    wave = {"attacker": "1 dd, 1 cru", "ool_attacker": "dd,cru", "attacker_destroyer_last": None,
            "defender_destroyer_last": None}
    plan.write_text(json.dumps({"wave": [wave]}))
    assert load_wave_plan(plan)[0].attacker_destroyer_last is None
    out = CliRunner().invoke(cli, ["battle", "--sea", "-a", "1 sub", "-d", "1 sub", "--wave-plan", str(plan),
                                   "--attacker-destroyer-last", "--method", "exact", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["defender_win"] == pytest.approx(float(duel(2, 1)[1] * KEPT[1]), abs=TOL)


SEA = ["--sea", "-a", "1 sub", "-d", "1 sub"]
LAND = ["-a", "1 inf", "-d", "1 inf"]


@pytest.mark.parametrize(("where", "text", "message"), [
    (SEA, 'attacker = "1 dd"\nattacker_destroyer_last = "yes"', "attacker_destroyer_last is true or false"),
    (SEA, 'attacker = "1 dd"\ndefender_destroyer_last = 1', "defender_destroyer_last is true or false"),
    (LAND, 'attacker = "1 inf"\nattacker_destroyer_last = true', "applies to sea battles: drop it"),
])
def test_bad_destroyer_last_in_a_plan_is_a_one_line_error(tmp_path, where, text, message):
    line, _ = refused_plan(tmp_path, f"[[wave]]\n{text}\n", where, ("--method", "exact"))
    assert message in line, line


def test_a_wave_that_keeps_a_destroyer_on_land_is_refused():
    first = oddsim.Battle(rules="1942-2e", attacker="1 inf", defender="1 inf")
    with pytest.raises(BattleError, match="attacker_destroyer_last applies to sea battles"):
        run_waves(first, [Wave(attacker="1 arm", attacker_destroyer_last=True)], method="exact")


@pytest.mark.parametrize(("option", "message"), [
    ('keep_land = "two"', "keep_land must be a whole number"),
    ("dice = 5", "unknown dice mode"),
    ("retreat = { units_left = -3 }", "retreat units left must be a whole number"),
    ("attacker_submerge = 7", "unknown attacker submerge policy"),
    ("ool_attacker = 7", "order of loss for the attacker"),
    ('defender_reinforcements = "2 zzz"', "unknown unit 'zzz'"),
])
def test_a_bad_option_checked_against_the_battle_names_the_plan_file_and_its_wave(tmp_path, option, message):
    text = f'[[wave]]\nattacker = "1 arm"\n[[wave]]\nattacker = "1 inf"\n{option}\n'
    line, plan = refused_plan(tmp_path, text)
    assert line.startswith(f"oddsim: error: wave plan {plan}, wave 2: ") and message in line


def test_a_bad_wave_from_the_api_or_the_command_line_names_its_place():
    first = oddsim.Battle(rules="1942-2e", attacker="1 inf", defender="1 inf")
    with pytest.raises(ForceError, match=r"^wave 3: attacker: unknown unit 'zzz'"):
        run_waves(first, [Wave(attacker="1 arm"), Wave(attacker="2 zzz")], method="exact")
    out = CliRunner().invoke(cli, ["battle", "-a", "1 inf", "-d", "1 inf", "--wave", "1 arm",
                                   "--wave", "2 zzz"])
    assert out.exit_code == 2 and out.output.startswith("oddsim: error: wave 3: attacker: unknown unit 'zzz'")
