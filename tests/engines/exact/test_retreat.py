"""Attacker retreat policies in the exact engine, against hand-derived odds."""

from fractions import Fraction as F

import pytest
from oracle import landed_retreat_rounds

import oddsim
from oddsim.model.battle import RetreatPolicy

TOL = 1e-12


def solve(attacker, defender, rules="1942-2e", **retreat):
    return oddsim.solve(oddsim.Battle(rules=rules, attacker=attacker, defender=defender,
                                      retreat=retreat))


def test_retreat_after_one_round():
    # 1 inf (hits 1/6) against 1 inf (hits 1/3), one round, then retreat
    r = solve("1 inf", "1 inf", after_round=1)
    assert r.attacker_win == pytest.approx(1 / 9, abs=TOL)
    assert r.defender_win == pytest.approx(5 / 18, abs=TOL)
    assert r.draw == pytest.approx(1 / 18, abs=TOL)
    assert r.retreat == pytest.approx(5 / 9, abs=TOL)
    assert r.retreat_round == pytest.approx(1.0, abs=TOL)
    assert r.expected_rounds == pytest.approx(1.0, abs=TOL)
    assert r.check() < 1e-9
    retreated = {s.units: s.probability for s in r.attacker_survivors}
    assert retreated["1 infantry (retreated)"] == pytest.approx(5 / 9, abs=TOL)


def test_retreat_after_two_rounds():
    # the same, two rounds: the no-change round repeats with 5/9
    r = solve("1 inf", "1 inf", after_round=2)
    assert r.retreat == pytest.approx(25 / 81, abs=TOL)
    assert r.attacker_win == pytest.approx(1 / 9 + 5 / 9 * 1 / 9, abs=TOL)
    assert r.retreat_round == pytest.approx(2.0, abs=TOL)
    assert r.expected_rounds == pytest.approx(1 + 5 / 9, abs=TOL)


def test_units_left_policy_matches_round_policy_when_it_always_fires():
    every = solve("2 inf, 1 arm", "2 inf", units_left=10)
    first = solve("2 inf, 1 arm", "2 inf", after_round=1)
    for key in ("attacker_win", "defender_win", "draw", "retreat", "expected_rounds"):
        assert getattr(every, key) == pytest.approx(getattr(first, key), abs=TOL)
    never = solve("2 inf, 1 arm", "2 inf", units_left=0)
    plain = oddsim.solve(oddsim.Battle(rules="1942-2e", attacker="2 inf, 1 arm", defender="2 inf"))
    assert never.attacker_win == pytest.approx(plain.attacker_win, abs=TOL)
    assert never.retreat == 0


def test_units_left_retreats_when_down_to_one():
    # 2 inf against 1 inf, retreat at 1 unit left: the attacker fights on only with both
    r = solve("2 inf", "1 inf", units_left=1)
    # round from (2 inf): att hit 11/36, def hit 1/3
    p_hit, p_def = F(11, 36), F(1, 3)
    stay = (1 - p_hit) * (1 - p_def)
    win = (p_hit) / (1 - stay)  # whenever the attacker hits, it wins (with or without a loss)
    retreat = (1 - p_hit) * p_def / (1 - stay)
    assert r.attacker_win == pytest.approx(float(win), abs=TOL)
    assert r.retreat == pytest.approx(float(retreat), abs=TOL)


def test_retreat_below_win_chance():
    # 1 tank against 2 inf: win chance 1/7 at the start, 1/2 once one infantry is dead. With a
    # threshold of 0.4 the tank leaves after any round that left both infantry standing
    r = solve("1 arm", "2 inf", below_win=0.4)
    assert r.retreat == pytest.approx(2 / 9, abs=TOL)
    assert r.attacker_win == pytest.approx(1 / 9, abs=TOL)
    assert r.draw == pytest.approx(1 / 18, abs=TOL)
    assert r.defender_win == pytest.approx(11 / 18, abs=TOL)
    assert oddsim.solve(oddsim.Battle(rules="1942-2e", attacker="1 arm", defender="2 inf")
                        ).attacker_win == pytest.approx(1 / 7, abs=TOL)


# 1 inf + 1 ftr (fighter lost last) against 2 inf, 1942-2e. One round from each state:
# attacker hits 0/1/2 with 5/12, 1/2, 1/12 (inf 1/6, ftr 1/2); 2 defending inf hit 0/1/2 with
# 4/9, 4/9, 1/9, one with 2/3, 1/3. The next round's chance to lose the fighter, per state:
# inf + ftr vs 2 inf: two hits, 1/9; inf + ftr vs 1 inf: 0; ftr vs 2 inf: 5/9; ftr vs 1 inf: 1/3.
# The policy retreats where that chance is above the risk, so the odds change only at 1/9, 1/3
# and 5/9. From inf + ftr vs 2 inf the round repeats with 5/27 (factor 27/22) and goes on to
# inf + ftr vs 1 inf with 2/9 (so 3/11 of the time), where it repeats with 5/18 (factor 18/13)
# and then wins with 7/12 (21/26) or loses the infantry (5/26). A lone fighter against 1 inf
# that fights on wins 1/2, loses 1/4, draws 1/4.
AIRCRAFT_RISK_ODDS = [
    # risk below 1/9: it leaves every state but inf + ftr vs 1 inf after round 1
    (0.1, dict(retreat=F(223, 351), attacker_win=F(89, 351), defender_win=F(11, 108), draw=F(1, 108))),
    # between 1/9 and 1/3: it leaves as soon as the fighter is alone
    (0.2, dict(retreat=F(79, 143), attacker_win=F(89, 286), defender_win=F(1, 8), draw=F(1, 88))),
    (0.32, dict(retreat=F(79, 143), attacker_win=F(89, 286), defender_win=F(1, 8), draw=F(1, 88))),
    # between 1/3 and 5/9: a lone fighter leaves 2 inf but fights 1 inf to the end
    (0.34, dict(retreat=F(5, 22), attacker_win=F(271, 572), defender_win=F(59, 286), draw=F(53, 572))),
    (0.55, dict(retreat=F(5, 22), attacker_win=F(271, 572), defender_win=F(59, 286), draw=F(53, 572))),
]


@pytest.mark.parametrize("risk, odds", AIRCRAFT_RISK_ODDS)
def test_retreat_to_save_aircraft(risk, odds):
    r = solve("1 inf, 1 ftr", "2 inf", aircraft_risk=risk)
    for key, value in odds.items():
        assert getattr(r, key) == pytest.approx(float(value), abs=TOL), key
    assert r.check() < 1e-9
    retreated = {s.units: s.probability for s in r.attacker_survivors if s.units.endswith("(retreated)")}
    if risk > 1 / 9:  # the infantry never retreats: it is always gone when the fighter leaves
        assert retreated == {"1 fighter (retreated)": pytest.approx(float(odds["retreat"]), abs=TOL)}
    else:  # inf + ftr leave 2 inf after a round of no hits (5/27 from the start, times 27/22)
        assert retreated["1 infantry, 1 fighter (retreated)"] == pytest.approx(5 / 27, abs=TOL)


@pytest.mark.parametrize("risk", [0.56, 1.0])
def test_aircraft_risk_above_every_loss_chance_never_retreats(risk):
    # the highest chance to lose the fighter in a round is 5/9 (alone against 2 inf)
    r = solve("1 inf, 1 ftr", "2 inf", aircraft_risk=risk)
    plain = oddsim.solve(oddsim.Battle(rules="1942-2e", attacker="1 inf, 1 ftr", defender="2 inf"))
    assert r.retreat == 0
    assert r.attacker_win == pytest.approx(plain.attacker_win, abs=TOL)
    assert r.defender_win == pytest.approx(plain.defender_win, abs=TOL)


@pytest.mark.parametrize("kwargs, message", [
    (dict(after_round=0), "after round"),
    (dict(after_round=-1), "after round"),
    (dict(units_left=-2), "units left"),
    (dict(below_win=1.5), "between 0 and 1"),
    (dict(aircraft_risk=-0.1), "between 0 and 1"),
])
def test_bad_retreat_options(kwargs, message):
    with pytest.raises(oddsim.BattleError, match=message):
        RetreatPolicy(**kwargs)
    with pytest.raises(oddsim.BattleError, match=message):
        oddsim.Battle(rules="1942-2e", attacker="1 inf", defender="1 inf", retreat=kwargs)


def test_retreat_table_indexes_states_by_casualties_per_loss_step():
    from oddsim.engines.exact import retreat_table

    table = retreat_table(oddsim.Battle(rules="1942-2e", attacker="1 arm", defender="2 inf",
                                        retreat={"below_win": 0.4}))
    assert table.n_defender_states == 3
    assert list(table.defender_step_stride) == [1]  # one loss step: 2 infantry

    def decision(tank_lost, infantry_lost):
        index = tank_lost * table.attacker_step_stride[0] * table.n_defender_states \
            + infantry_lost * table.defender_step_stride[0]
        return table.retreat[index]

    assert decision(0, 0) == 1  # win chance 1/7 < 0.4
    assert decision(0, 1) == 0  # win chance 1/2
    assert decision(0, 2) == 0 and decision(1, 0) == 0  # battle over: no decision


def test_landed_units_fighting_on_leave_retreat_round_at_the_round_the_others_left():
    """Before: retreat_round counted the landed units' fight after the others left (3.53 rounds
    for the battle below, where every retreat leaves after round 1 by construction)."""
    battle = dict(rules="1942-2e", attacker=oddsim.Side("3 inf, 1 art, 2 arm", landed="3 inf, 1 art"),
                  defender="4 inf")
    by_round = oddsim.solve(oddsim.Battle(**battle, retreat={"after_round": 1}))
    assert by_round.retreat_round == pytest.approx(1.0, abs=TOL)
    assert by_round.landed_after_retreat["destroyed"] > 0.01  # some landed units did fight on
    # the state-based path: a win chance below 1 holds in every state still fought, so this
    # retreats after round 1 too, with the same odds
    by_state = oddsim.solve(oddsim.Battle(**battle, retreat={"below_win": 1.0}))
    assert by_state.retreat_round == pytest.approx(1.0, abs=TOL)
    assert by_state.retreat == pytest.approx(by_round.retreat, abs=TOL)
    assert by_state.expected_rounds == pytest.approx(by_round.expected_rounds, abs=TOL)


def test_retreat_round_mixes_the_rounds_the_others_left():
    """Retreats after round 1 (armor alone) and after round 2 (armor alone, or the armor leaving
    the landed inf to fight on and die): the oracle's independent sum of the rounds."""
    retreat, rounds = landed_retreat_rounds()
    r = oddsim.solve(oddsim.Battle("1942-2e", attacker=oddsim.Side("1 inf, 1 arm", landed="1 inf"),
                                   defender="2 inf", retreat={"after_round": 2, "units_left": 1}))
    assert r.retreat == pytest.approx(float(retreat), abs=TOL)
    assert r.retreat_round == pytest.approx(float(rounds), abs=TOL)
    assert 1 < r.retreat_round < 2
