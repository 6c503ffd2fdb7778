"""Destroyer last: while the enemy has subs in the battle a side keeps its last destroyer until
every other unit that can take the hit is lost (but before units chosen last, transports); once the
enemy's subs are gone it is lost at its place in the order of loss."""

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from oddsim import Battle, Side
from oddsim.cli import cli
from oddsim.engines.exact import _tables as t
from oddsim.engines.exact.solve import prepare
from oddsim.errors import BattleError
from oddsim.stages.pipeline import simulate, solve

# 1942-2e: 1 destroyer (attack 2) + 1 cruiser (attack 3), destroyer first in the order of loss,
# against 1 sub (defense 1). The attacker hits with 1 - 4/6 * 3/6 = 2/3 a round, the sub with 1/6.
# With both units the round ends the battle for the attacker with 2/3 (even when the sub also hits),
# so from there it wins 12/13 and with 1/13 one of its units is left alone with the sub.
# - Plain order: the destroyer is lost; the cruiser alone faces a sub that now strikes first:
#   lose 1/6, win 5/6 * 1/2 a round, so win 5/7, lose 2/7. Win 12/13 + 1/13 * 5/7 = 89/91.
# - Destroyer last: the cruiser is lost; the destroyer (2) keeps the sub from striking first:
#   win 1/3 * 5/6, draw 1/3 * 1/6, lose 2/3 * 1/6 a round: win 5/8, draw 1/8, lose 2/8.
#   Win 12/13 + 1/13 * 5/8 = 101/104, draw 1/104, lose 2/104.
PLAIN = (Fraction(89, 91), Fraction(2, 91), Fraction(0))
KEPT = (Fraction(101, 104), Fraction(2, 104), Fraction(1, 104))


def destroyer_and_cruiser(kept: bool) -> Battle:
    return Battle(rules="1942-2e", attacker=Side("1 dd, 1 cru", order_of_loss="dd,cru", destroyer_last=kept),
                  defender="1 sub", sea=True)


@pytest.mark.parametrize(("kept", "expected"), [(False, PLAIN), (True, KEPT)])
def test_exact_engine_matches_the_hand_values(kept, expected):
    r = solve(destroyer_and_cruiser(kept))
    assert (r.attacker_win, r.defender_win, r.draw) == pytest.approx([float(x) for x in expected], abs=1e-12)


@pytest.mark.parametrize(("kept", "expected"), [(False, PLAIN), (True, KEPT)])
def test_monte_carlo_engine_matches_the_hand_values(kept, expected):
    r = simulate(destroyer_and_cruiser(kept), runs=100_000, seed=5)
    for name, value in zip(("attacker_win", "defender_win", "draw"), expected, strict=True):
        assert abs(getattr(r, name) - float(value)) <= 4.5 * max(r.std_error[name], 1e-4)


def _alive(p, state):
    """The attacker's units left in exact state ``state``, by name."""
    names = [u.name for u in destroyer_and_cruiser(False).rules.units]
    return {n: int(c) for n, c in zip(names, p.a_counts.alive[state], strict=True) if c}


def test_the_kept_destroyer_moves_with_the_enemy_subs():
    """The exact engine's next-hit tables, read against the rule: order dd, cru, cru, tra."""
    battle = Battle(rules="1942-2e",
                    attacker=Side("1 dd, 2 cru, 1 tra", order_of_loss="dd,cru", destroyer_last=True),
                    defender="1 sub", sea=True)
    p = prepare(battle)
    with_subs = t.N_HIT_KINDS + t.H_ANY
    s1 = p.A.next_hit[0, with_subs]
    assert _alive(p, s1) == {"destroyer": 1, "cruiser": 1, "transport": 1}  # a cruiser, not the dd
    # the subs gone, the destroyer's place in the order has passed: it is the next casualty
    assert _alive(p, p.A.next_hit[s1, t.H_ANY]) == {"cruiser": 1, "transport": 1}
    s2 = p.A.next_hit[s1, with_subs]
    assert _alive(p, s2) == {"destroyer": 1, "transport": 1}
    s3 = p.A.next_hit[s2, with_subs]  # the transport is chosen last, after the destroyer
    assert _alive(p, s3) == {"transport": 1}
    # no flag: the destroyer goes first either way
    plain = prepare(Battle(rules="1942-2e", attacker=Side("1 dd, 2 cru, 1 tra", order_of_loss="dd,cru"),
                            defender="1 sub", sea=True))
    assert _alive(plain, plain.A.next_hit[0, with_subs]) == {"cruiser": 2, "transport": 1}


def test_engines_agree_on_a_fleet_battle_with_both_flags():
    """Subs, destroyers and aircraft on both sides (first strikes, aircraft that need a destroyer
    to hit subs, a transport chosen last): the two engines are written apart, so they check
    each other; the flags must change the answer for the check to mean something."""
    attacker, defender = "2 sub, 2 dd, 1 cru, 1 ftr", "2 sub, 1 dd, 1 cv, 1 ftr, 1 tra"
    battle = Battle("1942-2e", Side(attacker, "dd,sub", destroyer_last=True),
                    Side(defender, "dd,sub", destroyer_last=True), sea=True)
    exact = solve(battle)
    plain = solve(Battle("1942-2e", Side(attacker, "dd,sub"), Side(defender, "dd,sub"), sea=True))
    assert abs(exact.attacker_win - plain.attacker_win) > 0.003
    mc = simulate(battle, runs=100_000, seed=17)
    for name in ("attacker_win", "defender_win", "attacker_ipc_lost", "defender_ipc_lost"):
        assert abs(getattr(mc, name) - getattr(exact, name)) < 4.5 * mc.std_error[name], name
    # survivors: the kept destroyer leaves its category's order, so its count is kept apart
    for side in ("attacker", "defender"):
        left, error = getattr(mc, f"{side}_units_left"), mc.units_left_std_error(side)
        for unit, mean in getattr(exact, f"{side}_units_left").items():
            assert abs(left.get(unit, 0.0) - mean) < 4.5 * max(error.get(unit, 0.0), 1e-4), (side, unit)


def test_no_enemy_sub_or_no_destroyer_changes_nothing():
    a = solve(Battle(rules="1942-2e", attacker=Side("1 dd, 1 cru", order_of_loss="dd", destroyer_last=True),
                     defender="1 dd", sea=True))
    b = solve(Battle(rules="1942-2e", attacker=Side("1 dd, 1 cru", order_of_loss="dd"), defender="1 dd",
                     sea=True))
    assert a.attacker_win == b.attacker_win and a.attacker_ipc_lost == b.attacker_ipc_lost
    c = solve(Battle(rules="1942-2e", attacker=Side("1 cru", destroyer_last=True), defender="1 sub",
                     sea=True))
    d = solve(Battle(rules="1942-2e", attacker="1 cru", defender="1 sub", sea=True))
    assert c.attacker_win == d.attacker_win


def test_destroyer_last_on_land_is_an_error():
    with pytest.raises(BattleError, match="sea battles"):
        Battle(rules="1942-2e", attacker="1 inf", defender=Side("1 inf", destroyer_last=True))
    with pytest.raises(BattleError, match="True or False"):
        Battle(rules="1942-2e", attacker=Side("1 dd", destroyer_last="yes"), defender="1 sub", sea=True)


def test_destroyer_last_cli():
    out = CliRunner().invoke(cli, ["battle", "--sea", "-a", "1 dd, 1 cru", "-d", "1 sub", "--ool-attacker",
                                   "dd,cru", "--attacker-destroyer-last", "--method", "exact", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["attacker_win"] == pytest.approx(float(KEPT[0]), abs=1e-12)
    mirrored = CliRunner().invoke(cli, ["battle", "--sea", "-a", "1 sub", "-d", "1 dd, 1 cru",
                                        "--ool-defender", "dd,cru", "--defender-destroyer-last", "--method",
                                        "exact", "--json"])
    assert mirrored.exit_code == 0, mirrored.output
    assert json.loads(mirrored.output)["defender_win"] != pytest.approx(
        json.loads(CliRunner().invoke(cli, ["battle", "--sea", "-a", "1 sub", "-d", "1 dd, 1 cru",
                                            "--ool-defender", "dd,cru", "--method", "exact", "--json"]).output
                   )["defender_win"], abs=1e-6)
    bad = CliRunner().invoke(cli, ["battle", "-a", "1 inf", "-d", "1 inf", "--attacker-destroyer-last"])
    assert bad.exit_code == 2 and bad.output.count("\n") == 1
