"""Properties every battle must have, on random battles (hypothesis)."""

from functools import partial

from hypothesis import given, settings
from hypothesis import strategies as st

from oddsim.trench import TrenchBattle
from oddsim.trench import solve_trench as _solve_trench

# These tests check the reading before issue 14: both sides see every support value and dice go
# only on fronts with the side's card (test_trench_hidden.py covers the seed's reading).
FULL_OWN = {"information": "full", "dice_fronts": "own"}
solve_trench = partial(_solve_trench, **FULL_OWN)


ORDERS = st.sampled_from(["both-first", "attacker-first"])
card = st.one_of(st.none(), st.integers(0, 9))
fronts = st.lists(card, min_size=3, max_size=3)
supports = st.lists(st.integers(0, 3), min_size=3, max_size=3)


@st.composite
def battles(draw):
    a, d = draw(fronts), draw(fronts)
    sa = [0 if c is None else s for c, s in zip(a, draw(supports), strict=True)]
    sd = [0 if c is None else s for c, s in zip(d, draw(supports), strict=True)]
    return TrenchBattle(a, d, draw(st.integers(1914, 1918)), sa, sd,
                        points=draw(st.integers(0, 3)), sea=draw(st.booleans()))


def wins(battle, order):
    joint = solve_trench(battle, roll_order=order).counts.joint
    return sum(joint[i][j] for i in range(4) for j in range(4) if i > j)


def with_card(battle, side, front, value):
    cards = list(getattr(battle, side))
    cards[front] = value
    fields = dict(attacker=battle.attacker, defender=battle.defender, year=battle.year,
                  attacker_support=battle.attacker_support,
                  defender_support=battle.defender_support, points=battle.points, sea=battle.sea)
    fields[side] = cards
    return TrenchBattle(**fields)


@settings(max_examples=60, deadline=None)
@given(battles(), st.integers(0, 2), st.integers(1, 4), ORDERS)
def test_raising_an_attacker_card_never_lowers_its_win_chance(battle, front, raise_by, order):
    old = battle.attacker[front]
    stronger = with_card(battle, "attacker", front, (old + raise_by) if old is not None else 0)
    assert wins(stronger, order) >= wins(battle, order)


@settings(max_examples=60, deadline=None)
@given(battles(), st.integers(0, 2), st.integers(1, 4), ORDERS)
def test_raising_a_defender_card_never_raises_the_attackers_win_chance(battle, front, raise_by,
                                                                        order):
    old = battle.defender[front]
    stronger = with_card(battle, "defender", front, (old + raise_by) if old is not None else 0)
    assert wins(stronger, order) <= wins(battle, order)


@settings(max_examples=40, deadline=None)
@given(battles(), st.permutations([0, 1, 2]))
def test_the_order_of_the_fronts_does_not_matter(battle, order):
    def shuffled(values):
        return [values[i] for i in order]

    moved = TrenchBattle(shuffled(battle.attacker), shuffled(battle.defender), battle.year,
                         shuffled(battle.attacker_support), shuffled(battle.defender_support),
                         battle.points, battle.sea)
    before, after = solve_trench(battle), solve_trench(moved)
    assert before.counts.joint == after.counts.joint
    assert sum(before.counts.destroyed.attacker) == sum(after.counts.destroyed.attacker)
    assert sum(before.counts.destroyed.defender) == sum(after.counts.destroyed.defender)


@settings(max_examples=40, deadline=None)
@given(battles(), st.sampled_from(["optimal", "greedy"]), ORDERS)
def test_outcomes_add_up(battle, policy, order):
    r = solve_trench(battle, policy=policy, roll_order=order)
    assert abs(r.attacker_win + r.defender_win + r.draw - 1) < 1e-12
    assert abs(sum(r.fronts_won.attacker) - 1) < 1e-12
    assert r.crushing_victory.attacker <= r.attacker_win
    assert r.crushing_victory.defender <= r.defender_win
    # every battle is scored: the attacker's win, a draw (1 VP) or the defender's win
    assert r.expected_points.defender >= r.draw - 1e-12


@settings(max_examples=30, deadline=None)
@given(battles())
def test_optimal_attacker_beats_greedy_attacker_against_optimal_defence(battle):
    optimal = solve_trench(battle).attacker_win
    greedy = solve_trench(battle, policy="greedy", defender_policy="optimal").attacker_win
    assert optimal >= greedy - 1e-12


@settings(max_examples=30, deadline=None)
@given(battles())
def test_seeing_the_defenders_roll_never_hurts_the_attacker(battle):
    assert wins(battle, "both-first") >= wins(battle, "attacker-first")
