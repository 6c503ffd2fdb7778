"""Strafing: the attacker retreats once the defender is down to N units or fewer."""

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from oddsim import Battle, Side
from oddsim.cli import cli
from oddsim.errors import BattleError
from oddsim.stages.pipeline import simulate, solve

# 1942-2e, 1 armor (attack 3) against 2 infantry (defense 2), retreat at 1 defender or fewer.
# A round: the armor hits with 1/2 and survives both infantry with 4/9. It retreats after a round
# where it hits and survives (2/9); a round where it misses and survives (2/9) repeats; otherwise it
# dies with the defender holding. Retreat: (2/9) / (1 - 2/9) = 2/7; the defender wins 5/7. The
# armor hits once before the battle ends with (1/2) / (7/9) = 9/14: one infantry lost (3 IPC);
# the armor (6 IPC) is lost with 5/7.
RETREAT = Fraction(2, 7)
HIT = Fraction(9, 14)


def armor_strafe() -> Battle:
    return Battle(rules="1942-2e", attacker="1 arm", defender="2 inf", retreat={"strafe": 1})


def test_strafe_exact_matches_the_hand_value():
    result = solve(armor_strafe())
    assert result.retreat == pytest.approx(float(RETREAT), abs=1e-12)
    assert result.defender_win == pytest.approx(float(1 - RETREAT), abs=1e-12)
    assert result.attacker_win == 0.0
    assert result.defender_ipc_lost == pytest.approx(3 * float(HIT), abs=1e-12)
    assert result.attacker_ipc_lost == pytest.approx(6 * float(1 - RETREAT), abs=1e-12)


def test_strafe_monte_carlo_matches_the_hand_value():
    result = simulate(armor_strafe(), runs=100_000, seed=15)
    assert abs(result.retreat - float(RETREAT)) < 4.5 * result.std_error["retreat"]


@pytest.mark.parametrize("battle", [
    Battle(rules="1942-2e", attacker="4 inf, 2 arm, 1 ftr", defender="5 inf, 1 aa", retreat={"strafe": 2}),
    Battle(rules="1942-2e", attacker="2 sub, 2 dd, 1 ftr", defender="2 dd, 2 sub", sea=True,
           retreat={"strafe": 1}),
    Battle(rules="1942-2e", attacker=Side("3 inf, 2 arm", landed="3 inf"), defender="4 inf",
           retreat={"strafe": 2}),
])
def test_strafe_monte_carlo_agrees_with_exact(battle):
    exact = solve(battle)
    mc = simulate(battle, runs=100_000, seed=7)
    for name in ("attacker_win", "defender_win", "retreat"):
        assert abs(getattr(mc, name) - getattr(exact, name)) < 4.5 * mc.std_error[name] + 1e-9, name
    assert abs(mc.defender_ipc_lost - exact.defender_ipc_lost) < 4.5 * mc.std_error["defender_ipc_lost"]


def test_strafe_bad_value_is_a_battle_error():
    with pytest.raises(BattleError, match="strafe"):
        Battle(rules="1942-2e", attacker="1 arm", defender="2 inf", retreat={"strafe": -1})


def test_strafe_cli():
    out = CliRunner().invoke(cli, ["battle", "-a", "1 arm", "-d", "2 inf", "--retreat-strafe", "1",
                                   "--json"])
    assert out.exit_code == 0
    assert json.loads(out.output)["retreat"] == pytest.approx(float(RETREAT), abs=1e-12)
    bad = CliRunner().invoke(cli, ["battle", "-a", "1 arm", "-d", "2 inf", "--retreat-strafe", "-2"])
    assert bad.exit_code == 2 and bad.output.count("\n") == 1 and "strafe" in bad.output
