"""Exact-engine speed: warm solve times of battles of growing size, and the cold CLI call.

Run: python benchmarks/exact.py
Reference: aacalc2 (TypeScript, the fastest exact calculator we know) takes about 43 ms on the
66-vs-61 land battle and 200 ms on the 24-vs-17 naval battle on this kind of machine, warm.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import oddsim
from oddsim.exact import estimate_work

AACALC2_MS = {"land 66 vs 61": 43.0, "naval 24 vs 17": 200.0}

BATTLES = [
    ("land 5 vs 5", "1942-2e", "3 inf, 1 art, 1 arm", "4 inf, 1 arm", False),
    ("land 20 vs 20", "1942-2e", "10 inf, 4 art, 4 arm, 2 ftr", "14 inf, 3 arm, 2 ftr, 1 aa", False),
    ("land 66 vs 61", "1942-2e", "30 inf, 10 art, 15 arm, 8 ftr, 3 bmb",
     "40 inf, 5 art, 10 arm, 6 ftr", False),
    ("land 150 vs 150", "1942-2e", "80 inf, 30 art, 30 arm, 10 ftr",
     "100 inf, 30 arm, 20 ftr", False),
    ("naval 24 vs 17", "1942-2e", "8 sub, 4 dd, 2 cru, 6 ftr, 4 bmb",
     "2 bb, 2 cv, 4 ftr, 6 sub, 3 dd", True),
    ("naval 40 vs 27 (G40)", "global-1940-2e", "12 sub, 8 dd, 4 cru, 10 ftr, 6 tac",
     "4 bb, 3 cv, 6 ftr, 8 sub, 6 dd", True),
]


def best_time(battle: oddsim.Battle, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        oddsim.solve(battle)
        best = min(best, time.perf_counter() - start)
    return best


def cold_cli_seconds(repeat: int = 3) -> float:
    """Wall time of a whole `oddsim battle` process, Numba cache already filled."""
    args = [sys.executable, "-m", "oddsim.cli", "battle", "--rules", "1942-2e",
            "-a", "3 inf, 1 art, 2 arm", "-d", "4 inf, 1 arm"]
    subprocess.run(args, check=True, capture_output=True)  # fill the cache
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(args, check=True, capture_output=True, env=dict(os.environ))
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    print(f"{'battle':24s} {'states':>10s} {'warm ms':>9s} {'vs aacalc2':>11s}  attacker wins")
    for name, rules, attacker, defender, sea in BATTLES:
        battle = oddsim.Battle(rules=rules, attacker=attacker, defender=defender, sea=sea)
        oddsim.solve(battle)  # compile / load the cache
        seconds = best_time(battle, repeat=10)
        states, _ = estimate_work(battle)
        reference = AACALC2_MS.get(name)
        ratio = f"{reference / (seconds * 1000):9.1f}x" if reference else ""
        win = oddsim.solve(battle).attacker_win
        print(f"{name:24s} {states:10,d} {seconds * 1000:9.2f} {ratio:>11s}  {win:.6f}")
    print(f"cold `oddsim battle` call, cache filled: {cold_cli_seconds():.2f} s (goal < 2 s)")


if __name__ == "__main__":
    main()
