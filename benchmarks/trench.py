"""Benchmark of oddsim.trench: exact solve, Monte Carlo, advice. Run: python benchmarks/trench.py

Prints the best of a few repeats for each step (the first call, which loads or compiles the
Numba kernels, is timed apart).
"""

from __future__ import annotations

import time

from timing import best_of

from oddsim.trench import (
    Commitment,
    Hand,
    TrenchBattle,
    advise,
    simulate_trench,
    solve_trench,
)

FULL = {"information": "full", "dice_fronts": "own"}  # the reading these rows measured before
BATTLE = TrenchBattle((5, 4, 3), (4, 4, 4), 1917, (2, 0, 1), (0, 0, 3), points=2)


def main() -> None:
    start = time.perf_counter()
    solve_trench(BATTLE)
    simulate_trench(BATTLE, runs=1000, seed=0)
    advise(Hand((5,)), Commitment((4, None, None)), year=1917)
    print(f"first calls (load or compile kernels)    {time.perf_counter() - start:8.3f} s")
    steps = [
        ("exact, optimal, both-first", 20, lambda: solve_trench(BATTLE)),
        ("exact, optimal, attacker-first", 20,
         lambda: solve_trench(BATTLE, roll_order="attacker-first")),
        ("exact, greedy", 20, lambda: solve_trench(BATTLE, policy="greedy")),
        ("Monte Carlo, 1,000,000 runs", 3,
         lambda: simulate_trench(BATTLE, runs=1_000_000, seed=1)),
        ("Monte Carlo, 10,000,000 runs", 2,
         lambda: simulate_trench(BATTLE, runs=10_000_000, seed=1)),
        ("exact, hidden supports (3 face down)", 5,
         lambda: solve_trench(TrenchBattle((5, 4, 3), (4, 4, 4), 1917, (2, 1, 1), (0, 0, 3),
                                           points=2))),
        ("advise 4 armies + 2 supports, hidden", 1,
         lambda: advise(Hand((6, 5, 4, 3), (2, 1)), Commitment((4, 4, 4), (1, 0, 2)),
                        year=1917)),
        ("advise 6 armies + 3 supports vs committed (full, own)", 1,
         lambda: advise(Hand((6, 5, 4, 3, 2, 1), (3, 2, 1)), Commitment((4, 4, 4), (0, 0, 3)),
                        year=1917, points=2, **FULL)),
        ("advise 6+3 vs defender hand 5+3 (full, own)", 1,
         lambda: advise(Hand((6, 5, 4, 3, 2, 1), (3, 2, 1)), Hand((5, 4, 4, 3, 2), (3, 2, 1)),
                        year=1915, points=2, **FULL)),
        ("advise at sea, 9 fleets vs hand of 7 (full, own)", 1,
         lambda: advise(Hand((6, 5, 5, 4, 3, 3, 2, 2, 1)), Hand((5, 4, 4, 3, 2, 2, 1)),
                        year=1916, points=2, sea=True, **FULL)),
    ]
    for name, repeats, step in steps:
        seconds = best_of(repeats, step)
        unit = f"{1000 * seconds:8.2f} ms" if seconds < 1 else f"{seconds:8.3f} s "
        print(f"{name:40s} {unit}")


if __name__ == "__main__":
    main()
