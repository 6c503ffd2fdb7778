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


def phased_game(att, dfn, n_phases, fire, terminal, att_options, def_options, stalemate=0.0):
    """V(att, dfn) of ``phased_values``."""
    values = phased_values(n_phases, fire, terminal, att_options, def_options, stalemate)
    return values(tuple(att), tuple(dfn))


def phased_values(n_phases, fire, terminal, att_options, def_options, stalemate=0.0):
    """The function V(a, d) of rounds of ``n_phases`` phases, by recursion over compositions.
    Phase k from (a, d): ``fire(k, a, d)`` gives the attacker's and the defender's hit
    distributions (dicts: hits -> chance; None: no such phase there); the attacker's hits land,
    the defender picks what it keeps among ``def_options(d, hits)`` knowing them, the defender's
    hits land (its casualties fire), the attacker picks among ``att_options(a, hits)``. A phase's
    value where nothing changed is the next phase's at the same pair; the round where nothing
    changes at all is solved in closed form. ``terminal(a, d)``: the goal's value where the
    battle is over, else None. ``V.at(k, a, d)``: the value at the start of phase k."""
    @cache
    def value(a, d):
        end = terminal(a, d)
        if end is not None:
            return end
        r, q = linear(0, a, d)
        return stalemate if 1.0 - q < 1e-15 else r / (1.0 - q)

    @cache
    def at(k, a, d):  # the value at the start of phase k in (a, d)
        end = terminal(a, d)
        if end is not None or k == n_phases:
            return value(a, d) if end is None else end
        r, q = linear(k, a, d)
        return r + q * value(a, d)

    @cache
    def linear(k, a, d):  # phase k's value from (a, d) as r + q V(a, d)
        if k == n_phases:
            return 0.0, 1.0
        phase = fire(k, a, d)
        if phase is None:
            return linear(k + 1, a, d)
        pa, pd = phase

        def after(ap, dp):
            return linear(k + 1, a, d) if (ap, dp) == (a, d) else (at(k + 1, ap, dp), 0.0)

        def defence(dp):
            r = q = 0.0
            for hd, p in pd.items():
                options = att_options(a, hd)
                x, y = after(a, dp) if options == {a} else (max(after(ap, dp)[0] for ap in options), 0.0)
                r, q = r + p * x, q + p * y
            return r, q

        r = q = 0.0
        for ha, p in pa.items():
            options = def_options(d, ha)
            x, y = defence(d) if options == {d} else (min(defence(dp)[0] for dp in options), 0.0)
            r, q = r + p * x, q + p * y
        return r, q

    value.at = at  # (the value at the start of a phase: what a phase's choices lead to)
    return value


def _by_order(state, h, order):
    left = list(state)
    for k in order:
        take = min(h, left[k])
        left[k] -= take
        h -= take
    return tuple(left)


def brute_force(att, dfn, att_fire, def_fire, att_land, goal_take=True, att_order=None, def_order=None,
                hit_once=_one_hit_each):
    """V(att, dfn) of ``land_values``."""
    return land_values(att_fire, def_fire, att_land, goal_take, att_order, def_order, hit_once)(tuple(att),
                                                                                              tuple(dfn))


def _order_options(order, hit_once=_one_hit_each):
    return lambda s, h: {_by_order(s, h, order)} if order else _losses(s, h, hit_once)


def land_values(att_fire, def_fire, att_land, goal_take=True, att_order=None, def_order=None,
                hit_once=_one_hit_each):
    """V(a, d) of the round in the rulebook's order (``phased_values``, one phase): the attacker
    rolls, the defender picks its casualties (every set; or by ``def_order``, type indexes), the
    defender rolls with every unit, the attacker picks (every set, or ``att_order``). ``att_fire(a)``:
    the attacker's dice groups of composition a."""
    def terminal(a, d):
        if sum(d) == 0:
            takes = sum(a) > 0 and any(a[k] for k in att_land)
            return 1.0 if takes else (0.0 if goal_take else float(sum(a) > 0))
        return 0.0 if sum(a) == 0 else None

    def fire(_, a, d):
        return dict(enumerate(_hits(att_fire(a)))), dict(enumerate(_hits(def_fire(d))))

    return phased_values(1, fire, terminal, _order_options(att_order, hit_once),
                         _order_options(def_order, hit_once))


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


# --- shore bombardment: the defender loses its bombardment casualties knowing the hits -------------------

def bombard_brute_force(att, dfn, bombard, fire_back, att_order=None, def_order=None):
    """1 inf, 1 arm, 1 ftr (all but the fighter landed) against infantry and armor, after a
    bombardment of ``bombard`` (hit chances of each ship): the defender keeps the best of its
    options for each number of bombardment hits; with ``fire_back`` its casualties fire in round 1
    (the defender rolls from its army before the bombardment), else round 1 starts after them."""
    value = land_values(_issue_fire_attacker, _issue_fire_defender, (0, 1), att_order=att_order,
                        def_order=def_order)
    att_options, def_options = _order_options(att_order), _order_options(def_order)
    pd = dict(enumerate(_hits(_issue_fire_defender(dfn))))

    def round_one(d1):
        if not fire_back:
            return value(att, d1)
        total = 0.0
        for ha, p in enumerate(_hits(_issue_fire_attacker(att))):
            total += p * min(sum(q * max(value(ap, d2) for ap in att_options(att, hd))
                                 for hd, q in pd.items()) for d2 in def_options(d1, ha))
        return total

    return sum(p * min(round_one(d1) for d1 in def_options(dfn, b))
               for b, p in enumerate(_hits([(1, c) for c in bombard])))


@pytest.mark.parametrize(("rules", "fire_back"), [("1942-2e", True), ("revised", False)])
@pytest.mark.parametrize("who", ["attacker", "defender", "both"])
def test_bombardment_brute_force_agrees(rules, fire_back, who):
    """A battleship bombards (at 4); 1942-2e: its casualties fire back in round 1; Revised: not.
    Orders where a side does not choose: infantry, armor, fighter."""
    a_best, d_best = who in ("attacker", "both"), who in ("defender", "both")
    independent = bombard_brute_force((1, 1, 1), (2, 1), [4 / 6], fire_back, None if a_best else (0, 1, 2),
                                      None if d_best else (0, 1))
    attacker = Side("1 inf, 1 arm, 1 ftr", landed="1 inf, 1 arm", bombard="1 bb",
                    order_of_loss="best" if a_best else "inf, arm, ftr")
    defender = Side("2 inf, 1 arm", order_of_loss="best" if d_best else "inf, arm")
    result = oddsim.solve(Battle(rules, attacker, defender))
    assert result.casualty_policy.value == pytest.approx(independent, abs=1e-12)
    assert result.takes_territory == pytest.approx(independent, abs=1e-12)
    engine = oddsim.solve(Battle(rules, Side("1 inf, 1 arm, 1 ftr", landed="1 inf, 1 arm", bombard="1 bb"),
                                 "2 inf, 1 arm"))
    assert result.casualty_policy.fixed == pytest.approx(engine.takes_territory, abs=1e-12)
    assert bombard_brute_force((1, 1, 1), (2, 1), [4 / 6], fire_back, (0, 1, 2), (0, 1)) == \
        pytest.approx(engine.takes_territory, abs=1e-12)


# --- at sea with submarines: typed hits and the surprise strike ----------------------------------------

SUB_RULES = {"1942-2e": {"values": {"attack": {"sub": 2, "dd": 2, "ftr": 3, "cruiser": 3},
                                    "defense": {"sub": 1, "dd": 2, "ftr": 4, "cruiser": 3, "transport": 0}},
                         "air_needs_destroyer": True},
             "revised": {"values": {"attack": {"sub": 2, "dd": 3, "ftr": 3},
                                    "defense": {"sub": 2, "dd": 3, "ftr": 4, "transport": 1}},
                         "air_needs_destroyer": False}}
"""The rulebooks' values (docs: RULES.md) the sub tests read, by edition; both editions give each
side's subs a surprise strike while the enemy has no destroyer (Revised: casualties removed before
they fire back only then, which is the same game)."""


def _typed_hit_once(state, kind, types):
    """The compositions one hit of ``kind`` (S: a sub's, never an aircraft; X: an aircraft's that
    cannot hit subs; G: any) leaves; a transport is hit only where nothing else that hit may
    take is left."""
    def may(k):
        return state[k] and (kind, types[k]) not in (("S", "ftr"), ("X", "sub"))
    targets = [k for k in range(len(state)) if may(k)]
    if any(types[k] != "transport" for k in targets):
        targets = [k for k in targets if types[k] != "transport"]
    return {state[:k] + (state[k] - 1,) + state[k + 1:] for k in targets}


def _typed_options(state, hits, types):
    """Every composition the hits (S, X, G) can leave: the subs' hits first, then the aircraft's,
    then the rest, as the firing groups come; each hit on any unit that may take it (none: lost)."""
    states = {state}
    for i, kind in enumerate("SXG"):
        for _ in range(hits[i]):
            states = set().union(*(_typed_hit_once(s, kind, types) or {s} for s in states))
    return states


def _typed_by_order(state, hits, types, order):
    """The order of loss's casualties: S hits first (skipping aircraft), then X (skipping subs),
    then G, each on the first unit in ``order`` that may take it."""
    left = list(state)
    for i, kind in enumerate("SXG"):
        for _ in range(hits[i]):
            k = next((k for k in order if left[k] and not (kind == "S" and types[k] == "ftr")
                      and not (kind == "X" and types[k] == "sub")), None)
            if k is not None:
                left[k] -= 1
    return tuple(left)


def sub_brute_force(att, dfn, rules, att_order=None, def_order=None):
    """Goal win at sea with subs (``att``/``dfn``: {type: count}): rounds of two phases, the surprise
    strike of each side's subs while the enemy has no destroyer, then every unit that has not fired;
    independent of the solver's tables."""
    return phased_game(tuple(att.values()), tuple(dfn.values()), 2,
                       *sub_game_parts(att, dfn, rules, att_order, def_order))


def sub_game_parts(att, dfn, rules, att_order=None, def_order=None):
    """``sub_brute_force``'s game as ``phased_values`` reads it: (fire, terminal, the attacker's
    options, the defender's), states as tuples of counts in the order of ``att``/``dfn``."""
    spec = SUB_RULES[rules]
    a_types, d_types = list(att), list(dfn)

    def fire_of(state, types, role, kinds):
        groups = {"S": [], "X": [], "G": []}
        for k, name in enumerate(types):
            kind = "S" if name == "sub" else ("X" if name == "ftr" else "G")
            if kind in kinds:
                groups[kinds[kind]].append((state[k], spec["values"][role][name] / 6))
        s, x, g = (_hits(groups[i]) for i in "SXG")
        return {(i, j, k): p * q * r for i, p in enumerate(s) for j, q in enumerate(x)
                for k, r in enumerate(g)}

    def has(state, types, name):
        return any(n and t == name for n, t in zip(state, types, strict=True))

    def fire(k, a, d):
        a_first = has(a, a_types, "sub") and not has(d, d_types, "dd")
        d_first = has(d, d_types, "sub") and not has(a, a_types, "dd")
        if k == 0:
            if not (a_first or d_first):
                return None
            return (fire_of(a, a_types, "attack", {"S": "S"} if a_first else {}),
                    fire_of(d, d_types, "defense", {"S": "S"} if d_first else {}))

        def general(state, types, first, own_dd, enemy_sub, role):
            air = "X" if spec["air_needs_destroyer"] and not own_dd and enemy_sub else "G"
            return fire_of(state, types, role, {**({} if first else {"S": "S"}), "X": air, "G": "G"})
        return (general(a, a_types, a_first, has(a, a_types, "dd"), has(d, d_types, "sub"), "attack"),
                general(d, d_types, d_first, has(d, d_types, "dd"), has(a, a_types, "sub"), "defense"))

    def fights(state, types):  # a 1942-2e transport never fires: alone, it is destroyed
        return any(n and not (t == "transport" and spec["values"]["defense"][t] == 0)
                   for n, t in zip(state, types, strict=True))

    def terminal(a, d):
        a_on, d_on = fights(a, a_types), fights(d, d_types)
        if a_on and d_on:
            return None
        return 1.0 if a_on or (not d_on and sum(a) > 0 and sum(d) == 0) else 0.0

    def options(types, order):
        if order:
            return lambda s, h: {_typed_by_order(s, h, types, [types.index(n) for n in order])}
        return lambda s, h: _typed_options(s, h, types)

    return fire, terminal, options(a_types, att_order), options(d_types, def_order)


def _army(counts):
    return ", ".join(f"{n} {name}" for name, n in counts.items())


SUB_BATTLES = [
    ("1942-2e", {"sub": 1, "dd": 1, "ftr": 1}, {"sub": 1, "ftr": 1, "transport": 1}),
    ("1942-2e", {"sub": 2, "ftr": 1}, {"sub": 1, "dd": 1}),
    ("1942-2e", {"sub": 2, "ftr": 2}, {"sub": 1, "cruiser": 1, "ftr": 1}),
    ("revised", {"sub": 2, "dd": 1}, {"sub": 1, "dd": 1, "ftr": 1}),
]
ORDER = ["sub", "dd", "ftr", "cruiser", "transport"]  # each side's order where it does not choose
FULL = {"sub": "submarine", "dd": "destroyer", "ftr": "fighter", "cruiser": "cruiser",
        "transport": "transport"}


def _side(counts, best):
    order = ",".join(FULL[n] for n in ORDER if n in counts)
    return Side(_army(counts), order_of_loss="best" if best else order)


@pytest.mark.parametrize(("rules", "att", "dfn"), SUB_BATTLES)
@pytest.mark.parametrize("who", ["attacker", "defender", "both"])
def test_sub_battles_brute_force_agrees(rules, att, dfn, who):
    a_best, d_best = who in ("attacker", "both"), who in ("defender", "both")
    a_order, d_order = ([n for n in ORDER if n in army] for army in (att, dfn))
    independent = sub_brute_force(att, dfn, rules, None if a_best else a_order, None if d_best else d_order)
    result = oddsim.solve(Battle(rules, _side(att, a_best), _side(dfn, d_best), sea=True))
    assert result.casualty_policy.value == pytest.approx(independent, abs=1e-12)
    assert result.attacker_win == pytest.approx(independent, abs=1e-12)
    by_orders = sub_brute_force(att, dfn, rules, a_order, d_order)
    engine = oddsim.solve(Battle(rules, _side(att, False), _side(dfn, False), sea=True)).attacker_win
    assert by_orders == pytest.approx(engine, abs=1e-12)
    default = oddsim.solve(Battle(rules, _side(att, False) if not a_best else _army(att),
                                  _side(dfn, False) if not d_best else _army(dfn), sea=True)).attacker_win
    assert result.casualty_policy.fixed == pytest.approx(default, abs=1e-12)  # (a chooser: its default)


@pytest.mark.parametrize(("rules", "attacker", "defender", "options"), [
    ("global-1940-2e", "2 sub, 1 ftr, 1 tac", "1 sub, 1 dd, 1 carrier, 1 ftr", {}),
    ("europe-1999", "2 sub, 1 dd", "1 sub, 1 ftr, 1 transport", {}),
    ("1942-2e", "3 sub, 1 ftr", "1 sub, 1 dd, 1 ftr", {"dice": "lowluck"}),
    ("anniversary", "2 sub, 1 ftr", "1 sub, 1 dd, 2 transport", {}),
    ("1942-2e", "2 sub, 1 ftr", "1 damaged bb, 1 sub", {}),
    ("revised", "2 sub, 1 ftr", "1 sub, 1 dd, 1 transport", {"in_progress": True}),
])
def test_fixed_orders_with_subs_agree_with_the_fixed_order_engine(rules, attacker, defender, options):
    battle = _best(attacker, defender, "both", rules=rules, sea=True, **options)
    fixed = oddsim.solve(Battle(rules, attacker, defender, sea=True, **options))
    assert casualties.fixed_value(battle) == pytest.approx(fixed.attacker_win, abs=1e-10)
    best = oddsim.solve(battle)
    assert best.attacker_win == pytest.approx(best.casualty_policy.value, abs=1e-10)
    assert best.attacker_win + best.defender_win + best.draw + best.stalemate == pytest.approx(1.0, abs=1e-10)


@pytest.mark.parametrize(("rules", "att", "dfn"), SUB_BATTLES[1:])
def test_best_beats_every_fixed_order_with_subs(rules, att, dfn):
    """The fixed-order engine, every order of each side's types against the other's default: none
    wins more for the attacker than its best, none less for the defender than its best."""
    a, d = _army(att), _army(dfn)

    def names(army):
        return [name for name, _ in army.counts]
    battle = Battle(rules, a, d, sea=True)
    best_a = oddsim.solve(_best(a, d, "attacker", rules=rules, sea=True)).casualty_policy.value
    best_d = oddsim.solve(_best(a, d, "defender", rules=rules, sea=True)).casualty_policy.value
    for order in itertools.permutations(names(battle.attacker.army)):
        fixed = oddsim.solve(Battle(rules, Side(a, order_of_loss=",".join(order)), d, sea=True)).attacker_win
        assert fixed <= best_a + 1e-12
    for order in itertools.permutations(names(battle.defender.army)):
        fixed = oddsim.solve(Battle(rules, a, Side(d, order_of_loss=",".join(order)), sea=True)).attacker_win
        assert fixed >= best_d - 1e-12


def test_a_sub_duel_by_hand():
    """1942-2e, 1 sub, 1 ftr against 1 sub, goal win. Neither side has a destroyer: both subs
    strike first, each only at the other sub (a sub never hits an aircraft); the fighter cannot
    hit a sub without a destroyer, so phase 2 changes nothing. A round: the attacker's sub hits
    (1/3) wins (the fighter is left if the sub dies too); the defender's alone (2/3 x 1/6) leaves a
    fighter and a sub that cannot hit each other: a stalemate. V = (1/3) / (1 - 2/3 x 5/6) = 3/4."""
    result = oddsim.solve(_best("1 sub, 1 ftr", "1 sub", "both", sea=True))
    assert result.attacker_win == pytest.approx(0.75, abs=1e-13)
    assert result.stalemate == pytest.approx(0.25, abs=1e-13)


# --- Monte Carlo plays the policy -----------------------------------------------------------------------

@pytest.mark.parametrize(("attacker", "defender", "who", "rules"), [
    ("2 inf, 1 arm, 1 ftr", "2 inf, 1 arm", "attacker", "1942-2e"),
    ("3 inf, 1 art, 1 ftr, 1 bmb", "3 inf, 1 ftr, 1 aa", "both", "1942-2e"),
    ("2 inf, 2 ftr, 1 bmb", "2 inf, 1 aa", "both", "revised"),
    ("1 bb, 1 dd, 1 ftr", "1 bb, 1 cruiser, 1 carrier, 1 ftr", "both", "1942-2e"),
    ("2 sub, 1 dd, 1 ftr", "1 sub, 1 cruiser, 1 ftr, 1 transport", "both", "1942-2e"),
    ("3 sub, 1 ftr", "1 sub, 1 dd, 1 ftr", "attacker", "1942-2e"),
    ("2 sub, 1 dd", "1 sub, 1 dd, 1 ftr", "defender", "revised"),
])
def test_monte_carlo_under_the_policy_agrees(attacker, defender, who, rules):
    sea = "bb" in attacker or "sub" in attacker
    battle = _best(attacker, defender, who, rules=rules, sea=sea)
    exact = oddsim.solve(battle)
    mc = oddsim.simulate(battle, runs=40_000, seed=7)
    for name in ("attacker_win", *(() if sea else ("takes_territory",)), "attacker_ipc_lost",
                 "defender_ipc_lost", "expected_rounds"):
        error = mc.std_error[name]
        assert abs(getattr(mc, name) - getattr(exact, name)) <= 4.5 * error + 1e-12, name
    assert mc.casualty_policy.value == pytest.approx(exact.casualty_policy.value)
    again = oddsim.simulate(battle, runs=2_000, seed=7)  # each battle its own stream of the seed
    assert again.attacker_win == oddsim.simulate(battle, runs=2_000, seed=7).attacker_win


@pytest.mark.parametrize(("rules", "defender", "who"), [
    ("1942-2e", "2 inf, 1 arm", "both"),  # bombardment casualties fire back
    ("revised", "2 inf, 1 arm", "attacker"),  # they do not
    ("1942-2e", "2 inf, 1 arm, 1 aa", "both"),  # AA fire first, the attacker choosing its aircraft
])
def test_monte_carlo_under_the_policy_with_bombardment(rules, defender, who):
    a_best, d_best = who in ("attacker", "both"), who in ("defender", "both")
    attacker = Side("1 inf, 1 arm, 2 ftr", landed="1 inf, 1 arm", bombard="1 bb",
                    order_of_loss="best" if a_best else None)
    battle = Battle(rules, attacker, Side(defender, order_of_loss="best" if d_best else None))
    exact = oddsim.solve(battle)
    mc = oddsim.simulate(battle, runs=40_000, seed=11)
    for name in ("attacker_win", "takes_territory", "attacker_ipc_lost", "defender_ipc_lost",
                 "expected_rounds"):
        assert abs(getattr(mc, name) - getattr(exact, name)) <= 4.5 * mc.std_error[name] + 1e-12, name


# --- refusals -----------------------------------------------------------------------------------------------

def test_submerging_subs_are_refused_in_one_line():
    with pytest.raises(BattleError, match="do not cover submerging") as caught:
        oddsim.solve(Battle(RULES, Side("2 sub", order_of_loss="best", submerge="always"), "1 dd", sea=True))
    assert "\n" not in str(caught.value) and "order of loss" in str(caught.value)


@pytest.mark.parametrize(("options", "message"), [
    ({"retreat": {"best": "tuv"}}, "do not cover retreats"),
    ({"attacker": Side("2 sub, 1 dd", order_of_loss="best", destroyer_last=True)}, "drop --destroyer-last"),
])
def test_what_subs_leave_out_is_refused_in_one_line(options, message):
    attacker = options.pop("attacker", Side("2 sub, 1 dd", order_of_loss="best"))
    with pytest.raises(BattleError, match=message) as caught:
        oddsim.solve(Battle(RULES, attacker, "1 sub, 1 dd", sea=True, casualty_goal="tuv", **options))
    assert "\n" not in str(caught.value)


def test_the_size_guard_with_subs_refuses_in_one_line(monkeypatch):
    monkeypatch.setattr(casualties.sub_game, "MAX_TYPED_ENTRIES", 100)
    with pytest.raises(TooLargeError, match="too large for best casualties with submarines") as caught:
        oddsim.solve(_best("3 sub, 1 ftr", "2 sub, 1 dd", sea=True))
    assert "\n" not in str(caught.value)


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
    ("1942-2e", "2 sub, 1 dd, 1 ftr", "1 sub, 1 cruiser, 1 ftr, 1 transport", True),
    ("europe-1999", "2 sub, 1 ftr", "1 sub, 1 dd", True),
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
