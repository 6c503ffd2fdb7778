"""The Monte Carlo kernel against the exact engine, and its reproducibility."""

import random
from functools import partial

import numba
import pytest

from oddsim.trench import TrenchBattle, TrenchError
from oddsim.trench import simulate_trench as _simulate_trench
from oddsim.trench import solve_trench as _solve_trench

# These tests check the reading before issue 14: both sides see every support value and dice go
# only on fronts with the side's card (test_trench_hidden.py covers the seed's reading).
FULL_OWN = {"information": "full", "dice_fronts": "own"}
simulate_trench = partial(_simulate_trench, **FULL_OWN)
solve_trench = partial(_solve_trench, **FULL_OWN)


RUNS = 100_000
SIGMAS = 5


def random_battle(rng):
    cards = [[rng.choice([None, *range(8)]) for _ in range(3)] for _ in range(2)]
    support = [[0 if c is None else rng.choice([0, 0, 1, 2, 3]) for c in side] for side in cards]
    return TrenchBattle(cards[0], cards[1], rng.randint(1914, 1918), support[0], support[1],
                        points=rng.randint(0, 3), sea=rng.random() < 0.2)


def figures(result):
    """Every probability and mean with its name, as (name, value, standard error)."""
    err = result.std_error
    out = [(name, getattr(result, name), err[name])
           for name in ("attacker_win", "defender_win", "draw")]
    for side in ("attacker", "defender"):
        out += [(f"fronts_won {side} {k}", p, e) for k, (p, e) in enumerate(zip(
            getattr(result.fronts_won, side), err["fronts_won"][side], strict=True))]
        out.append((f"crush {side}", getattr(result.crushing_victory, side),
                    err["crushing_victory"][side]))
        out += [(f"destroyed {side} {f}", p, e) for f, (p, e) in enumerate(zip(
            getattr(result.cards_destroyed, side), err["cards_destroyed"][side], strict=True))
            if p is not None]
        out.append((f"points {side}", getattr(result.expected_points, side),
                    err["expected_points"][side]))
    return out


CASES = [(random_battle(random.Random(seed)), policy, order)
         for seed, (policy, order) in enumerate(
             [("optimal", "both-first"), ("greedy", "both-first"),
              ("optimal", "attacker-first")] * 8)]


@pytest.mark.parametrize("battle, policy, order", CASES,
                         ids=[f"{i}-{c[1]}-{c[2]}" for i, c in enumerate(CASES)])
def test_monte_carlo_agrees_with_exact(battle, policy, order):
    exact = solve_trench(battle, policy=policy, roll_order=order)
    mc = simulate_trench(battle, policy=policy, roll_order=order, runs=RUNS, seed=12345)
    for (name, p, _), (_, q, se) in zip(figures(exact), figures(mc), strict=True):
        # the standard error of the exact value bounds how far an honest estimate strays
        assert abs(p - q) <= SIGMAS * max(se, 1.0 / RUNS), (name, p, q, se)


def test_mixed_policies_agree():
    battle = TrenchBattle((5, 4, 3), (4, 4, 4), 1917, (2, 0, 1), (0, 0, 3), points=2)
    exact = solve_trench(battle, policy="optimal", defender_policy="greedy")
    mc = simulate_trench(battle, policy="optimal", defender_policy="greedy", runs=RUNS, seed=1)
    assert abs(exact.attacker_win - mc.attacker_win) <= SIGMAS * mc.std_error["attacker_win"]
    assert exact.attacker_win > solve_trench(battle).attacker_win  # greedy defends worse here


def test_standard_errors_match_the_binomial_formula():
    battle = TrenchBattle((5, 4, 3), (4, 4, 4), 1917, (2, 0, 1), (0, 0, 3), points=2)
    p = solve_trench(battle).attacker_win
    mc = simulate_trench(battle, runs=RUNS, seed=3)
    assert mc.std_error["attacker_win"] == pytest.approx((p * (1 - p) / RUNS) ** 0.5, rel=0.02)
    assert mc.runs == RUNS and mc.method == "mc"


def test_same_seed_same_counts_whatever_the_threads():
    battle = TrenchBattle((5, None, 3), (4, 4, 4), 1918, (2, 0, 1), (0, 0, 3))
    first = simulate_trench(battle, runs=50_001, seed=99).counts
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        single = simulate_trench(battle, runs=50_001, seed=99).counts
    finally:
        numba.set_num_threads(threads)
    assert first == single
    assert simulate_trench(battle, runs=50_001, seed=100).counts != first


def test_runs_are_split_without_loss():
    battle = TrenchBattle((1, 2, 3), (3, 2, 1), 1914)
    for runs in (2, 7, 255, 257):
        assert simulate_trench(battle, runs=runs, seed=5).counts.total == runs
        assert sum(map(sum, simulate_trench(battle, runs=runs, seed=5).counts.joint)) == runs


@pytest.mark.parametrize("runs, seed", [(0, 1), (-5, 1), (10, -1), (1.5, 1)])
def test_bad_runs_or_seed(runs, seed):
    with pytest.raises(TrenchError):
        simulate_trench(TrenchBattle((1, 2, 3), (3, 2, 1), 1914), runs=runs, seed=seed)


def test_monte_carlo_text_gives_every_figure_an_error_to_significant_digits():
    """Before: '± 0.06' without a %, to two fixed decimals (so '± 0.00' from 10**9 runs), and no
    error at all for the fronts-won and cards-lost tables."""
    import dataclasses
    import math
    import re

    battle = TrenchBattle(attacker="5,4,3", defender="4,4,4", year=1917)
    runs = 100_000
    result = _simulate_trench(battle, runs=runs, seed=3)
    text = result.to_table()
    p = result.attacker_win
    shown = float(re.search(r"attacker wins\s+[\d.]+% ± ([\d.]+)%", text).group(1))
    assert shown == pytest.approx(100 * math.sqrt(p * (1 - p) / runs), rel=0.1)
    worst = max(math.sqrt(q * (1 - q) / runs) for q in (*result.fronts_won.attacker,
                                                          *result.fronts_won.defender))
    table = float(re.search(r"these two tables ± at most ([\d.]+)%", text).group(1))
    assert table >= 100 * worst * 0.95
    # as if from 10**4 times the runs: the errors keep a significant digit, never '± 0.00'
    scale = 1e-2

    def shrink(value):
        if isinstance(value, dict):
            return {k: shrink(v) for k, v in value.items()}
        if isinstance(value, list):
            return [shrink(v) for v in value]
        return None if value is None else value * scale

    tiny = dataclasses.replace(result, std_error=shrink(result.std_error))
    for spread in re.findall(r"± (?:at most )?([\d.]+)", tiny.to_table()):
        assert re.search("[1-9]", spread), tiny.to_table()
