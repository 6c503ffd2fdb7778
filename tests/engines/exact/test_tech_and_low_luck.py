"""Technology and Low Luck in the exact engine, against hand-derived odds."""

from fractions import Fraction as F

import pytest
from oracle import duel, duel_p

import oddsim
from oddsim.model.options import battle_from

TOL = 1e-12


def solve(rules, attacker, defender, sea=False, **options):
    return oddsim.solve(battle_from(rules, attacker, defender, {"sea": sea, **options}))


def assert_odds(result, expected):
    for got, want in zip((result.attacker_win, result.defender_win, result.draw), expected, strict=True):
        assert got == pytest.approx(float(want), abs=TOL)


def test_jets():
    assert_odds(solve("anniversary", "1 ftr", "1 inf", attacker_tech="jets"), duel(4, 2))
    assert_odds(solve("revised", "1 inf", "1 ftr", defender_tech="jets"), duel(1, 5))
    # the defender's jets do nothing for the attacker
    assert_odds(solve("anniversary", "1 ftr", "1 inf", defender_tech="jets"), duel(3, 2))


def test_super_subs_strike_first_at_three():
    assert_odds(solve("revised", "1 sub", "1 trn", sea=True, attacker_tech="super-subs"),
                duel(3, 1, first="attacker"))


def test_heavy_bombers_single_target():
    # two dice at 4 (revised: both count; anniversary: best of two): a hit with 8/9 either way
    expected = duel_p(F(8, 9), F(1, 3))
    assert_odds(solve("revised", "1 bmb", "1 inf", attacker_tech="heavy-bombers"), expected)
    assert_odds(solve("anniversary", "1 bmb", "1 inf", attacker_tech="heavy-bombers"), expected)


def test_revised_heavy_bomber_can_hit_twice():
    # 1 bomber, two dice at 4 that both count, against 2 infantry: hand-derived 656/1925 etc.
    assert_odds(solve("revised", "1 bmb", "2 inf", attacker_tech="heavy-bombers"),
                (F(656, 1925), F(641, 1925), F(628, 1925)))
    # best of two never scores two hits
    aa50 = solve("anniversary", "1 bmb", "2 inf", attacker_tech="heavy-bombers")
    assert aa50.attacker_win < 656 / 1925


def test_radar():
    assert solve("anniversary", "1 ftr", "1 aa", defender_tech="radar").defender_win == \
        pytest.approx(2 / 6, abs=TOL)


def test_improved_artillery_supports_two_infantry():
    # 2 inf + 1 art against 1 inf, infantry first: three dice at 2 (19/27), then the pair (83/95)
    result = solve("anniversary", "2 inf, 1 art", "1 inf", attacker_tech="improved-artillery")
    assert result.attacker_win == pytest.approx(6079 / 6175, abs=TOL)
    plain = solve("anniversary", "2 inf, 1 art", "1 inf")
    assert plain.attacker_win < result.attacker_win


def test_improved_mech_infantry():
    # mech at 2 with a tank; mech lost first; then the tank alone (1/2 vs 2)
    result = solve("global-1940-2e", "1 mech, 1 arm", "1 inf", attacker_tech="improved-mech-infantry",
                   ool_attacker="mech")
    assert result.attacker_win == pytest.approx(13 / 14, abs=TOL)


def test_technology_the_edition_lacks_is_an_error():
    with pytest.raises(oddsim.RulesetError, match="technology 'radar' is not in revised"):
        oddsim.Battle(rules="revised", attacker="1 ftr", defender=oddsim.Side("1 aa", tech="radar"))
    with pytest.raises(oddsim.RulesetError, match="not in 1942-2e"):
        oddsim.Battle(rules="1942-2e", attacker=oddsim.Side("1 ftr", tech="jets"), defender="1 inf")


def test_low_luck_total_of_exactly_six():
    # 3 artillery (total 6) always score one hit: the defender dies in round 1; the infantry
    # defending at 2 hits with 2/6 (a total of 2 in Low Luck)
    result = solve("1942-2e", "3 art", "1 inf", dice="lowluck")
    assert result.attacker_win == pytest.approx(1.0, abs=TOL)
    assert result.expected_rounds == pytest.approx(1.0, abs=TOL)
    assert result.attacker_ipc_lost == pytest.approx(4 / 3, abs=TOL)


def test_low_luck_remainder():
    # 2 infantry (total 2) hit once with 2/6, never twice; then 1 inf (1/6) against 1 inf (2/6)
    assert_odds(solve("1942-2e", "2 inf", "1 inf", dice="lowluck"), (F(7, 10), F(1, 4), F(1, 20)))
    # standard dice: a hit with 1 - (5/6)^2 = 11/36; from 2 inf vs 1 inf it wins with 33/58 and
    # reaches 1 inf vs 1 inf with 25/58, which the attacker wins 1/4, loses 5/8, draws 1/8
    standard = solve("1942-2e", "2 inf", "1 inf")
    assert_odds(standard, (F(33, 58) + F(25, 58) / 4, F(25, 58) * F(5, 8), F(25, 58) / 8))


def test_low_luck_aa():
    # three AA dice (one gun) at 1: total 3, one hit with 1/2, at four fighters
    result = solve("1942-2e", "4 ftr", "1 aa", dice="lowluck")
    lost = sum(s.probability for s in result.attacker_survivors if s.units == "3 fighters")
    assert lost == pytest.approx(0.5, abs=TOL)


def test_low_luck_rejects_best_of_two():
    with pytest.raises(oddsim.BattleError, match="Low Luck"):
        oddsim.Battle(rules="anniversary", attacker=oddsim.Side("1 bmb", tech="heavy-bombers"),
                      defender="1 inf", dice="lowluck")


def test_a_sure_low_luck_win_is_exactly_one_not_more():
    """Low Luck: 3 inf and 3 arm roll 12 pips, two sure hits a round, while 4 inf (8 pips) take at
    most two of the six a round; the attacker always wins. Before: 1.0000000000000002 (a sum of
    the ways to win rounded past 1)."""
    r = oddsim.solve(oddsim.Battle("1942-2e", "3 inf, 3 arm", "4 inf", dice="lowluck"))
    assert r.attacker_win == r.takes_territory == 1.0
    assert r.defender_win == r.draw == 0.0
