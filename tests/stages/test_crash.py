"""Crash fighters: the defender's aircraft its surviving carriers cannot hold are lost after a sea
battle, counted in its IPC lost and survivors."""

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from oddsim import Battle
from oddsim.cli import cli
from oddsim.errors import BattleError
from oddsim.stages.pipeline import simulate, solve

# 1942-2e: a submarine (attack 2) against a carrier (defense 2) and 3 fighters. With no defending
# destroyer the sub strikes first and the fighters cannot hit it; they cannot be hit either. The
# carrier sinks with (1/3) / (1 - 2/3 * 2/3) = 3/5 (else the sub dies). A carrier holds 2 fighters:
# one fighter (10 IPCs) crashes when it lives, all three when it sinks.
SUNK = Fraction(3, 5)
CRASH_IPC = 10 * (3 * SUNK + 1 * (1 - SUNK))


def sub_against_carrier(crash: bool) -> Battle:
    return Battle(rules="1942-2e", attacker="1 sub", defender="1 cv, 3 ftr", sea=True, crash_fighters=crash)


def test_crashed_fighters_count_in_ipc_lost_and_survivors():
    plain = solve(sub_against_carrier(False))
    crash = solve(sub_against_carrier(True))
    assert crash.defender_ipc_lost - plain.defender_ipc_lost == pytest.approx(float(CRASH_IPC), abs=1e-12)
    rows = {tuple(sorted(row.counts.items())): row.probability for row in crash.defender_survivors}
    assert rows == pytest.approx({(): float(SUNK), (("carrier", 1), ("fighter", 2)): float(1 - SUNK)})
    assert crash.defender_win == plain.defender_win  # the battle itself is unchanged


def test_a_damaged_carrier_holds_no_aircraft_in_global_1940():
    battle = Battle(rules="global-1940-2e", attacker="1 sub", defender="1 damaged cv, 2 ftr", sea=True)
    plain = solve(battle)
    crash = solve(Battle(rules="global-1940-2e", attacker="1 sub", defender="1 damaged cv, 2 ftr", sea=True,
                         crash_fighters=True))
    assert crash.defender_ipc_lost - plain.defender_ipc_lost == pytest.approx(20.0, abs=1e-12)  # 2 x 10
    assert {(tuple(row.counts.items()), tuple(row.damaged.items())) for row in crash.defender_survivors} \
        >= {((("carrier", 1),), (("carrier", 1),))}


def test_crash_fighters_monte_carlo_agrees_with_exact():
    battle = Battle(rules="1942-2e", attacker="2 sub, 1 dd, 1 ftr", defender="1 cv, 3 ftr, 1 dd", sea=True,
                    crash_fighters=True)
    exact = solve(battle)
    mc = simulate(battle, runs=100_000, seed=21)
    assert abs(mc.defender_ipc_lost - exact.defender_ipc_lost) < 4.5 * mc.std_error["defender_ipc_lost"]


def test_crash_fighters_on_land_is_an_error():
    with pytest.raises(BattleError, match="sea battles"):
        Battle(rules="1942-2e", attacker="1 inf", defender="1 ftr", crash_fighters=True)


def test_crash_fighters_cli():
    out = CliRunner().invoke(cli, ["battle", "--sea", "-a", "1 sub", "-d", "1 cv, 3 ftr", "--crash-fighters",
                                   "--json"])
    assert out.exit_code == 0
    plain = solve(sub_against_carrier(False))
    assert json.loads(out.output)["defender_ipc_lost"] == pytest.approx(
        plain.defender_ipc_lost + float(CRASH_IPC), abs=1e-12)
    bad = CliRunner().invoke(cli, ["battle", "-a", "1 inf", "-d", "1 ftr", "--crash-fighters"])
    assert bad.exit_code == 2 and bad.output.count("\n") == 1


def test_crashed_fighters_leave_no_swing_distribution_but_say_so():
    battle = Battle(rules="1942-2e", attacker="2 sub, 1 dd, 1 ftr", defender="1 cv, 3 ftr, 1 dd", sea=True,
                    crash_fighters=True)
    for result in (solve(battle), simulate(battle, runs=5_000, seed=3)):
        assert result.swing_distribution is None and result.tuv_swing_percentiles() is None
        data = result.to_dict()
        assert data["tuv_swing_distribution"] is None and data["tuv_swing_percentiles"] is None
        assert "TUV swing range: not known for this battle" in result.to_table()
    # no aircraft to crash: the engine's distribution stands
    whole = solve(Battle(rules="1942-2e", attacker="1 sub", defender="1 dd", sea=True, crash_fighters=True))
    assert whole.swing_distribution is not None
