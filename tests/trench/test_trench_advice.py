"""Advice against brute force: every commitment solved one by one with solve_trench."""

import itertools
from functools import partial

import pytest

from oddsim.trench import Commitment, Hand, TrenchBattle, TrenchError
from oddsim.trench import advise as _advise
from oddsim.trench import solve_trench as _solve_trench

# These tests check the reading before issue 14: both sides see every support value and dice go
# only on fronts with the side's card (test_trench_hidden.py covers the seed's reading).
FULL_OWN = {"information": "full", "dice_fronts": "own"}
advise = partial(_advise, **FULL_OWN)
solve_trench = partial(_solve_trench, **FULL_OWN)



def every_commitment(armies, supports, sea=False):
    """All commitments, by card identity (duplicates included), written independently."""
    found = []
    cards = list(enumerate(armies))
    for slots in itertools.product([None, *range(len(cards))], repeat=3):
        used = [s for s in slots if s is not None]
        if len(set(used)) != len(used):
            continue
        front = tuple(None if s is None else armies[s] for s in slots)
        pool = [v for i, v in cards if i not in used] if sea else list(supports)
        for extra in itertools.product([None, *range(len(pool))], repeat=3):
            picked = [e for e in extra if e is not None]
            if len(set(picked)) != len(picked):
                continue
            if any(e is not None and front[f] is None for f, e in enumerate(extra)):
                continue
            found.append(Commitment(front, tuple(0 if e is None else pool[e] for e in extra)))
    return found


def win_count(result):
    joint = result.counts.joint
    return sum(joint[i][j] for i in range(4) for j in range(4) if i > j)


def swing(result):
    return result.expected_points.attacker - result.expected_points.defender


def battle(a, d, year, points=1, sea=False):
    return TrenchBattle(a.cards, d.cards, year, a.support, d.support, points, sea)


@pytest.mark.parametrize("objective", ["win", "points"])
def test_best_commitment_against_committed_cards(objective):
    armies, supports = (5, 3, 2, 2), (2, 1)
    defender = Commitment((4, 3, None), (1, 0, 0))
    scores = []
    for c in every_commitment(armies, supports):
        r = solve_trench(battle(c, defender, 1917, points=2))
        scores.append((win_count(r), swing(r)) if objective == "win" else (swing(r), win_count(r)))
    advice = advise(Hand(armies, supports), defender, year=1917, points=2, objective=objective,
                    top=4)
    best = max(scores)
    top = advice.options[0]
    r = top.result
    got = (win_count(r), swing(r)) if objective == "win" else (swing(r), win_count(r))
    assert got[0] == pytest.approx(best[0]) and got[1] == pytest.approx(best[1])
    values = [(o.result.attacker_win if objective == "win" else o.points_swing)
              for o in advice.options]
    assert values == sorted(values, reverse=True)
    assert len(advice.options) == 4
    assert advice.considered == len({(c.cards, c.support)
                                     for c in every_commitment(armies, supports)})


def test_cheapest_of_equal_commitments_is_shown():
    # fronts 2 and 3 hold 30s, which nothing beats: the defender wins them, and with them the
    # battle, and front 1 cannot be lost, so no card changes the odds; committing nothing is
    # best, then one card on the empty front 1 (the weakest first; 1+3 is shown as 4, the same
    # battle with fewer cards), before any card facing a 30 (it would be destroyed)
    advice = advise(Hand((9, 4, 1), (3,)), Commitment((None, 30, 30)), year=1914, points=2,
                    top=8)
    assert [o.attacker for o in advice.options[:4]] == [
        Commitment((None, None, None)), Commitment((1, None, None)),
        Commitment((4, None, None)), Commitment((9, None, None))]
    assert advice.options[2].equivalents == 1  # 1+3
    assert advice.options[6].attacker == Commitment((None, 1, None))
    assert all(o.result.attacker_win == 0 for o in advice.options)
    assert all(o.points_swing == pytest.approx(-2) for o in advice.options)


def test_defender_hand_is_answered_with_its_worst_arrangement_for_the_attacker():
    # brute force over every defender commitment (not only its strongest cards)
    attacker_hand, defender_hand = ((4, 2), (1,)), ((3, 3), (2,))
    best = None
    for c in every_commitment(*attacker_hand):
        worst = min(win_count(solve_trench(battle(c, d, 1915)))
                    for d in every_commitment(*defender_hand))
        best = worst if best is None else max(best, worst)
    advice = advise(Hand(*attacker_hand), Hand(*defender_hand), year=1915, top=3)
    assert win_count(advice.options[0].result) == best
    assert advice.defender_hand


def test_sea_hands_hold_fleets_only():
    advice = advise(Hand((5, 4, 3, 1)), Commitment((4, 4, None), (2, 0, 0)), year=1916,
                    sea=True, top=2)
    best = max(win_count(solve_trench(battle(c, Commitment((4, 4, None), (2, 0, 0)), 1916,
                                             sea=True)))
               for c in every_commitment((5, 4, 3, 1), (), sea=True))
    assert win_count(advice.options[0].result) == best
    # a fleet in a support slot is one of the hand's fleets, not an extra card
    used = [v for v in advice.options[0].attacker.cards if v is not None]
    used += [v for v in advice.options[0].attacker.support if v]
    assert sorted(used, reverse=True) == sorted(used, reverse=True)[:len(used)]
    assert len(used) <= 4
    with pytest.raises(TrenchError, match="at sea only fleet cards"):
        advise(Hand((5, 4), (2,)), Commitment((4, 4, 4)), year=1916, sea=True)


def test_advice_json_lists_the_options():
    advice = advise(Hand((5, 3), (1,)), Commitment((4, 4, 4)), year=1918, top=2)
    data = advice.to_dict()
    assert data["objective"] == "win" and len(data["options"]) == 2
    assert data["options"][0]["attacker"]["cards"].count(None) <= 1
    assert "attacker" in advice.to_table()


@pytest.mark.parametrize("kwargs, message", [
    (dict(top=0), "top"),
    (dict(objective="glory"), "objective"),
    (dict(year=1920), "outside 1914-1918"),
])
def test_bad_advice_options(kwargs, message):
    options = dict(year=1915) | kwargs
    with pytest.raises(TrenchError, match=message):
        advise(Hand((5,)), Commitment((4, None, None)), **options)


def test_progress_counts_the_commitments_and_stops_the_search():
    from oddsim.trench.advice import AdviceStopped, commitments

    hand, defender = Hand((5, 3, 2), (1,)), Commitment((4, 4, None))
    seen = []
    whole = advise(hand, defender, year=1916,
                   on_progress=lambda done, total: seen.append((done, total)) and False)
    total = seen[0][1]
    # one call before each distinct commitment (<= every commitment), then one at the end
    assert 1 < total <= len(commitments(hand, False)) == whole.considered
    assert seen == [(i, total) for i in range(total)] + [(total, total)]
    assert whole == advise(hand, defender, year=1916)  # reporting changes nothing
    with pytest.raises(AdviceStopped, match=f"after 2 of {total} commitments"):
        advise(hand, defender, year=1916, on_progress=lambda done, total: done == 2)
