"""Best casualties (issue 33): the game of choosing each loss, checked against an independent
brute-force solver written here, against the fixed-order engine, by hand, and by Monte Carlo."""

import itertools
from fractions import Fraction
from functools import cache
from math import comb

import numpy as np
import pytest

import oddsim
from oddsim.engines.exact import _casualties as kc
from oddsim.engines.exact import casualties
from oddsim.errors import BattleError, TooLargeError
from oddsim.model.battle import Battle
from oddsim.model.side import Side
from oddsim.stages.pipeline import _after_battle

RULES = "1942-2e"


def _best(attacker, defender, who="attacker", goal=None, rules=RULES, **options):
    a = Side(attacker, order_of_loss="best") if who in ("attacker", "both") else attacker
    d = Side(defender, order_of_loss="best") if who in ("defender", "both") else defender
    return Battle(rules, a, d, casualty_goal=goal, **options)


# --- an independent solver: compositions as tuples, every set of casualties enumerated ---------------

def _hits(dice):
    """Distribution of hits of (number, chance) dice groups, as a list."""
    dist = [1.0]
    for n, p in dice:
        one = [comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]
        out = [0.0] * (len(dist) + n)
        for i, x in enumerate(dist):
            for k, y in enumerate(one):
                out[i + k] += x * y
        dist = out
    return dist


def _one_hit_each(state):
    """The compositions one hit leaves: one unit of any type present removed."""
    return {state[:k] + (state[k] - 1,) + state[k + 1:] for k in range(len(state)) if state[k]}


def _losses(state, h, hit_once=_one_hit_each):
    """Every composition left after h hits, one at a time (until none can be taken)."""
    states = {state}
    for _ in range(h):
        after = set().union(*(hit_once(s) or {s} for s in states))
        if after == states:
            break
        states = after
    return states


def brute_force(att, dfn, att_fire, def_fire, att_land, goal_take=True, att_order=None, def_order=None,
                hit_once=_one_hit_each):
    """V(a, d) of the round in the rulebook's order, by recursion over compositions: the attacker
    rolls, the defender picks its casualties (every set; or by ``def_order``, type indexes), the
    defender rolls with every unit, the attacker picks (every set, or ``att_order``). ``att_fire(a)``:
    the attacker's dice groups of composition a."""
    def by_order(state, h, order):
        left = list(state)
        for k in order:
            take = min(h, left[k])
            left[k] -= take
            h -= take
        return tuple(left)

    @cache
    def value(a, d):
        if sum(d) == 0:
            takes = sum(a) > 0 and any(a[k] for k in att_land)
            return 1.0 if takes else (0.0 if goal_take else float(sum(a) > 0))
        if sum(a) == 0:
            return 0.0
        pa, pd = _hits(att_fire(a)), _hits(def_fire(d))

        def after_defence(dp):
            total, loop = 0.0, 0.0
            for hd, q in enumerate(pd):
                if hd == 0:
                    if dp == d:
                        loop += q  # nothing happened: V(a, d) itself
                    else:
                        total += q * value(a, dp)
                    continue
                options = [by_order(a, hd, att_order)] if att_order else _losses(a, hd, hit_once)
                total += q * max(value(ap, dp) for ap in options)
            return total, loop

        total, loop = 0.0, 0.0
        for ha, p in enumerate(pa):
            if ha == 0:
                t, lo = after_defence(d)
                total, loop = total + p * t, loop + p * lo
                continue
            options = [by_order(d, ha, def_order)] if def_order else _losses(d, ha, hit_once)
            total += p * min(after_defence(dp)[0] for dp in options)
        return total / (1.0 - loop)

    return value(tuple(att), tuple(dfn))


def _issue_fire_attacker(a):  # infantry, armor, fighter attacking (no artillery)
    return [(a[0], 1 / 6), (a[1], 3 / 6), (a[2], 3 / 6)]


def _issue_fire_defender(d):  # infantry, armor defending
    return [(d[0], 2 / 6), (d[1], 3 / 6)]


def test_the_issues_battle_brute_force_agrees():
    """1942-2e, 2 inf, 1 arm, 1 ftr against 2 inf, 1 arm: 57.8% losing cheapest first, about 76%
    choosing each loss; the brute force here and the solver agree to rounding, and the fixed
    orders agree with the fixed-order engine."""
    independent = brute_force((2, 1, 1), (2, 1), _issue_fire_attacker, _issue_fire_defender, att_land=(0, 1),
                              def_order=(0, 1))
    battle = _best("2 inf, 1 arm, 1 ftr", "2 inf, 1 arm")
    result = oddsim.solve(battle)
    policy = result.casualty_policy
    assert policy.value == pytest.approx(independent, abs=1e-12)
    assert result.takes_territory == pytest.approx(independent, abs=1e-12)
    assert round(100 * policy.value, 1) == 76.3
    fixed = oddsim.solve(Battle(RULES, "2 inf, 1 arm, 1 ftr", "2 inf, 1 arm")).takes_territory
    assert policy.fixed == pytest.approx(fixed, abs=1e-12)
    assert round(100 * fixed, 1) == 57.8
    by_order = brute_force((2, 1, 1), (2, 1), _issue_fire_attacker, _issue_fire_defender, att_land=(0, 1),
                           att_order=(0, 1, 2), def_order=(0, 1))
    assert fixed == pytest.approx(by_order, abs=1e-12)
    assert "76.3%" in policy.summary() and "57.8%" in policy.summary()


def test_both_sides_best_brute_force_agrees():
    independent = brute_force((2, 1, 1), (2, 1), _issue_fire_attacker, _issue_fire_defender, att_land=(0, 1))
    assert oddsim.solve(_best("2 inf, 1 arm, 1 ftr", "2 inf, 1 arm", "both")).casualty_policy.value == \
        pytest.approx(independent, abs=1e-12)


def test_the_defender_best_brute_force_agrees():
    # attacker by its default order (infantry, armor, fighter), the defender choosing
    independent = brute_force((2, 1, 1), (2, 1), _issue_fire_attacker, _issue_fire_defender, att_land=(0, 1),
                              att_order=(0, 1, 2))
    policy = oddsim.solve(_best("2 inf, 1 arm, 1 ftr", "2 inf, 1 arm", "defender")).casualty_policy
    assert policy.value == pytest.approx(independent, abs=1e-12)
    assert policy.value <= policy.fixed + 1e-12


# --- best never does worse than any fixed order ----------------------------------------------------------

@pytest.mark.parametrize(("attacker", "defender"), [
    ("1 inf, 1 art, 1 arm, 1 ftr", "2 inf, 1 ftr"),
    ("2 inf, 1 ftr, 1 bmb", "1 inf, 1 art, 1 arm"),
])
def test_best_beats_every_fixed_order(attacker, defender):
    """The fixed-order engine's answer for every order of the attacker's types (the defender by
    its default): none takes more than best; for the defender, none takes less."""
    a_types = [name for name, _ in Battle(RULES, attacker, defender).attacker.army.counts]
    d_types = [name for name, _ in Battle(RULES, attacker, defender).defender.army.counts]
    best_a = oddsim.solve(_best(attacker, defender, "attacker")).casualty_policy.value
    fixed = [oddsim.solve(Battle(RULES, Side(attacker, order_of_loss=",".join(order)), defender))
             .takes_territory for order in itertools.permutations(a_types)]
    assert max(fixed) <= best_a + 1e-12
    best_d = oddsim.solve(_best(attacker, defender, "defender")).casualty_policy.value
    fixed_d = [oddsim.solve(Battle(RULES, attacker, Side(defender, order_of_loss=",".join(order))))
               .takes_territory for order in itertools.permutations(d_types)]
    assert min(fixed_d) >= best_d - 1e-12


# --- by hand: the best loss changes with the state --------------------------------------------------------

def _index(side: kc.CasualtySide, counts) -> int:
    return int(np.dot(side.stride, counts))


def test_the_best_loss_changes_with_the_state():
    """2 inf, 1 ftr against 1 inf (1942-2e, goal take), by hand. 1 inf alone against 1 inf: a round
    takes with 1/6 * 2/3, trades with 1/6 * 1/3, repeats with 5/6 * 2/3: V = (1/9) / (4/9) = 1/4.
    1 inf, 1 ftr: any attacker hit (7/12) takes (a return hit costs the fighter); else a defender
    hit (1/3) leaves the better of inf (1/4) or fighter (0): V = (7/12 + 5/12 * 1/3 * 1/4) /
    (1 - 5/12 * 2/3) = 89/104. 2 inf: V = (11/36 + 25/36 * 1/3 * 1/4) / (1 - 25/36 * 2/3) = 157/232.
    So with 1 hit at 2 inf, 1 ftr the attacker loses an infantry (89/104 > 157/232), and at 1 inf,
    1 ftr the fighter (1/4 > 0): cheapest first is wrong at the second."""
    g = casualties.game(_best("2 inf, 1 ftr", "1 inf"))
    solved = casualties.solve_game(g)
    V, M = solved.V, solved.M  # noqa: N806
    one_inf = _index(g.D, [1])
    expected = {(1, 0): Fraction(1, 4), (1, 1): Fraction(89, 104), (2, 0): Fraction(157, 232), (0, 1): 0}
    for counts, value in expected.items():
        assert V[one_inf, _index(g.A, counts)] == pytest.approx(float(value), abs=1e-13)
    full, one_each = _index(g.A, [2, 1]), _index(g.A, [1, 1])
    assert kc.attacker_choice(g.A, M, full, 1, one_inf) == _index(g.A, [1, 1])  # an infantry
    assert kc.attacker_choice(g.A, M, one_each, 1, one_inf) == _index(g.A, [1, 0])  # the fighter


# --- where cheapest first is provably best, best is the fixed order -----------------------------------

def test_infantry_only_is_the_fixed_order():
    battle = _best("5 inf", "4 inf", "both")
    policy = oddsim.solve(battle).casualty_policy
    fixed = oddsim.solve(Battle(RULES, "5 inf", "4 inf")).takes_territory
    assert policy.value == pytest.approx(fixed, abs=1e-12) and policy.fixed == pytest.approx(fixed, abs=1e-12)


def test_a_defender_of_equal_fighters_loses_the_cheapest_for_tuv():
    """Infantry and artillery both defend at 2: which one dies changes no roll, so for the TUV swing
    losing the cheaper infantry first is best, and best play is the default order exactly."""
    battle = _best("3 inf, 1 arm", "2 inf, 2 art", "defender", goal="tuv")
    policy = oddsim.solve(battle).casualty_policy
    fixed = oddsim.solve(Battle(RULES, "3 inf, 1 arm", "2 inf, 2 art"))
    assert policy.value == pytest.approx(fixed.tuv_swing, abs=1e-9)
    assert policy.fixed == pytest.approx(fixed.tuv_swing, abs=1e-9)


# --- the fixed orders in this solver are the fixed-order engine's --------------------------------------

@pytest.mark.parametrize(("rules", "attacker", "defender", "options"), [
    ("1942-2e", "3 inf, 2 art, 1 arm, 1 ftr, 1 bmb", "3 inf, 1 arm, 1 aa", {}),
    ("1942-2e", "2 inf, 1 ftr, 1 bmb", "2 inf, 1 aa", {"dice": "lowluck"}),
    ("revised", "2 inf, 1 arm, 2 ftr, 1 bmb", "3 inf, 1 aa", {}),
    ("anniversary", "2 inf, 1 art, 1 ftr", "2 inf, 1 ftr", {"in_progress": True}),
])
def test_fixed_orders_agree_with_the_fixed_order_engine(rules, attacker, defender, options):
    battle = _best(attacker, defender, "attacker", rules=rules, **options)
    fixed = oddsim.solve(Battle(rules, attacker, defender, **options))
    assert casualties.fixed_value(battle) == pytest.approx(fixed.takes_territory, abs=1e-10)
    best = oddsim.solve(battle)
    assert best.casualty_policy.value >= fixed.takes_territory - 1e-12
    assert best.takes_territory == pytest.approx(best.casualty_policy.value, abs=1e-10)
    assert best.attacker_win + best.defender_win + best.draw + best.stalemate == pytest.approx(1.0, abs=1e-10)


def test_tuv_goal_result_matches_its_value():
    battle = _best("3 inf, 1 art, 1 arm, 1 ftr", "3 inf, 1 ftr", "both", goal="tuv")
    result = oddsim.solve(battle)
    assert result.tuv_swing == pytest.approx(result.casualty_policy.value, abs=1e-9)


def test_value_goal_adds_the_territory():
    battle = _best("3 inf, 1 arm, 1 ftr", "3 inf", goal="value", casualty_value=10)
    result = oddsim.solve(battle)
    expected = result.tuv_swing + 10 * result.takes_territory
    assert result.casualty_policy.value == pytest.approx(expected, abs=1e-9)


# --- at sea: a two-hit unit's damage is one of the choices ---------------------------------------------

def _sea_hit_once(state):
    """(whole battleships, damaged battleships, other units...): a hit damages a whole battleship,
    sinks a damaged one, or removes another unit."""
    out = set()
    if state[0]:
        out.add((state[0] - 1, state[1] + 1) + state[2:])
    if state[1]:
        out.add((state[0], state[1] - 1) + state[2:])
    for k in range(2, len(state)):
        if state[k]:
            out.add(state[:k] + (state[k] - 1,) + state[k + 1:])
    return out


def test_a_battleship_fight_brute_force_agrees():
    """1942-2e at sea, goal win, both choosing: 1 battleship, 1 destroyer, 1 fighter against
    1 battleship, 1 cruiser, 1 fighter; states (whole bb, damaged bb, destroyer or cruiser, fighter)."""
    def fire_a(a):
        return [(a[0] + a[1], 4 / 6), (a[2], 2 / 6), (a[3], 3 / 6)]

    def fire_d(d):
        return [(d[0] + d[1], 4 / 6), (d[2], 3 / 6), (d[3], 4 / 6)]

    independent = brute_force((1, 0, 1, 1), (1, 0, 1, 1), fire_a, fire_d, att_land=(), goal_take=False,
                              hit_once=_sea_hit_once)
    battle = _best("1 bb, 1 dd, 1 ftr", "1 bb, 1 cruiser, 1 ftr", "both", sea=True)
    result = oddsim.solve(battle)
    assert result.casualty_policy.value == pytest.approx(independent, abs=1e-12)
    assert result.attacker_win == pytest.approx(independent, abs=1e-12)


@pytest.mark.parametrize(("attacker", "defender", "options"), [
    ("1 bb, 1 dd", "1 cruiser, 1 ftr, 1 carrier", {}),
    ("2 bb, 1 ftr", "2 dd, 1 cruiser, 1 transport", {}),
    ("1 bb, 1 cruiser, 2 ftr, 1 bmb", "1 bb, 1 carrier, 2 ftr, 1 dd", {}),
    ("1 damaged bb, 2 dd", "1 bb, 1 cruiser", {}),
])
def test_fixed_orders_at_sea_agree_with_the_fixed_order_engine(attacker, defender, options):
    battle = _best(attacker, defender, "both", sea=True, **options)
    fixed = oddsim.solve(Battle(RULES, attacker, defender, sea=True, **options))
    assert casualties.fixed_value(battle) == pytest.approx(fixed.attacker_win, abs=1e-10)
    best = oddsim.solve(_best(attacker, defender, "attacker", sea=True, **options))
    assert best.casualty_policy.value >= fixed.attacker_win - 1e-12
    assert best.attacker_win == pytest.approx(best.casualty_policy.value, abs=1e-10)


# --- Monte Carlo plays the policy -----------------------------------------------------------------------

@pytest.mark.parametrize(("attacker", "defender", "who", "rules"), [
    ("2 inf, 1 arm, 1 ftr", "2 inf, 1 arm", "attacker", "1942-2e"),
    ("3 inf, 1 art, 1 ftr, 1 bmb", "3 inf, 1 ftr, 1 aa", "both", "1942-2e"),
    ("2 inf, 2 ftr, 1 bmb", "2 inf, 1 aa", "both", "revised"),
    ("1 bb, 1 dd, 1 ftr", "1 bb, 1 cruiser, 1 carrier, 1 ftr", "both", "1942-2e"),
])
def test_monte_carlo_under_the_policy_agrees(attacker, defender, who, rules):
    sea = "bb" in attacker
    battle = _best(attacker, defender, who, rules=rules, sea=sea)
    exact = oddsim.solve(battle)
    mc = oddsim.simulate(battle, runs=40_000, seed=7)
    for name in ("attacker_win", *(() if sea else ("takes_territory",)), "attacker_ipc_lost",
                 "defender_ipc_lost", "expected_rounds"):
        error = mc.std_error[name]
        assert abs(getattr(mc, name) - getattr(exact, name)) <= 4.5 * error + 1e-12, name
    assert mc.casualty_policy.value == pytest.approx(exact.casualty_policy.value)


# --- refusals -----------------------------------------------------------------------------------------------

def test_submarines_are_refused_in_one_line():
    with pytest.raises(BattleError, match="do not cover submarines") as caught:
        oddsim.solve(Battle(RULES, Side("2 sub", order_of_loss="best"), "1 dd", sea=True))
    assert "\n" not in str(caught.value) and "order of loss" in str(caught.value)


def test_the_size_guard_refuses_in_one_line(monkeypatch):
    monkeypatch.setattr(casualties, "MAX_ENTRIES", 1000)
    with pytest.raises(TooLargeError, match="too large for best casualties") as caught:
        oddsim.solve(_best("10 inf, 3 arm", "10 inf"))
    assert "\n" not in str(caught.value)


def test_goal_checks():
    with pytest.raises(BattleError, match="chooses each loss"):
        Battle(RULES, "1 inf", "1 inf", casualty_goal="take")
    with pytest.raises(BattleError, match="needs the territory's value"):
        _best("1 inf", "1 inf", goal="value")
    assert _best("1 inf", "1 inf").casualty_goal == "take"


# --- the whole answer by the fixed orders is the fixed-order engine's -----------------------------------

def _fixed_answer(battle):
    g = casualties.game(battle, False, False)
    solved = casualties.solve_game(g)
    end, gone, _, rounds = casualties.forward(solved)
    return casualties.result_of(g, end, rounds, gone)


@pytest.mark.parametrize(("rules", "attacker", "defender", "sea"), [
    ("1942-2e", "1 ftr", "1 aa", False),  # DESIGN.md's golden value: 5/6 attacker, 1/6 defender
    ("revised", "1 ftr", "1 aa", False),
    ("1942-2e", "2 inf", "none", False),
    ("1942-2e", "3 inf, 1 art, 1 arm, 1 ftr, 1 bmb", "3 inf, 1 arm, 1 ftr, 1 aa", False),
    ("revised", "2 inf, 1 arm, 2 ftr", "3 inf, 1 art, 1 aa", False),
    ("1942-2e", "1 bb, 1 cruiser, 1 ftr", "1 bb, 1 dd, 1 carrier, 1 ftr, 1 transport", True),
    ("1942-2e", "1 bmb", "1 bb", True),  # golden: 1/16, 13/16, 2/16 both destroyed
])
def test_the_whole_answer_by_fixed_orders_is_the_fixed_order_engines(rules, attacker, defender, sea):
    battle = _best(attacker, defender, "attacker", rules=rules, sea=sea)
    mine = _after_battle(battle, _fixed_answer(battle))
    theirs = oddsim.solve(Battle(rules, attacker, defender, sea=sea))
    for name in ("attacker_win", "defender_win", "draw", "stalemate", "takes_territory", "attacker_ipc_lost",
                 "defender_ipc_lost", "expected_rounds"):
        ours, expected = getattr(mine, name), getattr(theirs, name)
        assert (ours is None and expected is None) or ours == pytest.approx(expected, abs=1e-10), name
    assert [(r.units, round(r.probability, 10)) for r in mine.attacker_survivors] == \
        [(r.units, round(r.probability, 10)) for r in theirs.attacker_survivors]


# --- with the best retreat: the attacker's policy covers both choices --------------------------------

@pytest.mark.parametrize(("attacker", "defender"), [
    ("3 inf, 1 art, 2 arm, 1 ftr", "4 inf, 1 arm, 1 ftr"),
    ("2 inf, 1 ftr, 1 bmb", "3 inf, 1 aa"),
])
def test_with_the_best_retreat(attacker, defender):
    """By the fixed orders the game with retreats is the best retreat's own problem: its objective
    is the fixed-order engine's; choosing each loss as well never does worse, and the answer's TUV
    swing is the value; Monte Carlo under both policies agrees."""
    battle = _best(attacker, defender, goal="tuv", retreat={"best": "tuv"})
    engine = oddsim.solve(Battle(RULES, attacker, defender, retreat={"best": "tuv"}))
    assert casualties.fixed_value(battle) == pytest.approx(engine.objective, abs=1e-9)
    result = oddsim.solve(battle)
    assert result.casualty_policy.value >= engine.objective - 1e-9
    assert result.tuv_swing == pytest.approx(result.casualty_policy.value, abs=1e-9)
    assert result.objective == pytest.approx(result.casualty_policy.value, abs=1e-12)
    assert result.retreat == pytest.approx(engine.retreat, abs=1e-9) or result.casualty_policy.value > \
        engine.objective + 1e-9  # (the same policy where choosing each loss changes nothing)
    plan = result.retreat_plan or ()
    assert sum(row.probability for row in plan) == pytest.approx(result.retreat, abs=1e-12)
    if plan and result.casualty_policy.value <= engine.objective + 1e-9:
        assert result.retreat_round == pytest.approx(engine.retreat_round, abs=1e-9)
    mc = oddsim.simulate(battle, runs=40_000, seed=5)
    for name in ("retreat", "attacker_ipc_lost", "defender_ipc_lost"):
        assert abs(getattr(mc, name) - getattr(result, name)) <= 4.5 * mc.std_error[name], name


def test_a_retreat_of_another_goal_is_refused():
    with pytest.raises(BattleError, match="same goal"):
        oddsim.solve(_best("3 inf, 1 arm", "3 inf", retreat={"best": "tuv"}))
