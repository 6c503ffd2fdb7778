"""A battle in progress: resumed at a round boundary, so nothing before round 1 happens again."""

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from oddsim import Battle, Side
from oddsim.cli import cli
from oddsim.errors import BattleError
from oddsim.stages.pipeline import simulate, solve

# 1942-2e: a fighter (attack 3) against an infantry (defense 2) and an AA gun (hit on 1, fires once
# before round 1 when the battle is fresh). Per round the fighter hits with 1/2 and is hit with
# 1/3, so it wins with (1/2 * 2/3) / (1 - 1/2 * 2/3) = 1/2; fresh, it first survives the AA gun (5/6).
# (The defender loses its infantry before the gun: the default loses the gun first.)
IN_PROGRESS_WIN = Fraction(1, 2)
FRESH_WIN = Fraction(5, 6) * Fraction(1, 2)


@pytest.mark.parametrize(("in_progress", "expected"), [(True, IN_PROGRESS_WIN), (False, FRESH_WIN)])
def test_no_aa_fire_in_a_battle_in_progress_exact(in_progress, expected):
    battle = Battle(rules="1942-2e", attacker="1 ftr", defender=Side("1 inf, 1 aa", order_of_loss="inf,aa"),
                    in_progress=in_progress)
    assert solve(battle).attacker_win == pytest.approx(float(expected), abs=1e-12)


@pytest.mark.parametrize(("in_progress", "expected"), [(True, IN_PROGRESS_WIN), (False, FRESH_WIN)])
def test_no_aa_fire_in_a_battle_in_progress_monte_carlo(in_progress, expected):
    battle = Battle(rules="1942-2e", attacker="1 ftr", defender=Side("1 inf, 1 aa", order_of_loss="inf,aa"),
                    in_progress=in_progress)
    result = simulate(battle, runs=100_000, seed=15)
    assert abs(result.attacker_win - float(expected)) < 4.5 * result.std_error["attacker_win"]


def test_in_progress_changes_nothing_without_pre_battle_fire():
    fresh = solve(Battle(rules="1942-2e", attacker="3 inf, 1 arm", defender="3 inf"))
    resumed = solve(Battle(rules="1942-2e", attacker="3 inf, 1 arm", defender="3 inf", in_progress=True))
    assert resumed.attacker_win == pytest.approx(fresh.attacker_win, abs=1e-12)


@pytest.mark.parametrize("engine", [solve, lambda b: simulate(b, runs=100_000, seed=4)])
def test_no_aa_fire_in_progress_where_aa_picks_its_casualties(engine):
    # revised: AA hits fall on aircraft by chance (the engines fight each AA outcome apart); in
    # progress there is none, so the AA gun (not a casualty) changes nothing in the attacker's win
    battle = Battle(rules="revised", attacker="1 ftr, 1 bmb", defender="1 inf, 1 aa", in_progress=True)
    without_aa = solve(Battle(rules="revised", attacker="1 ftr, 1 bmb", defender="1 inf"))
    result = engine(battle)
    error = result.std_error.get("attacker_win", 0.0)
    assert abs(result.attacker_win - without_aa.attacker_win) <= 4.5 * error + 1e-12


def test_in_progress_with_bombardment_is_an_error():
    with pytest.raises(BattleError, match="in progress"):
        Battle(rules="1942-2e", attacker=Side("2 inf", landed="2 inf", bombard="1 bb"), defender="2 inf",
               in_progress=True)


def test_in_progress_cli():
    out = CliRunner().invoke(cli, ["battle", "-a", "1 ftr", "-d", "1 inf, 1 aa", "--in-progress",
                                   "--ool-defender", "inf,aa", "--json"])
    assert out.exit_code == 0
    data = json.loads(out.output)
    assert data["attacker_win"] == pytest.approx(0.5, abs=1e-12)
    assert "in progress" in data["battle"]
