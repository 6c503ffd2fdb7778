"""What answering costs after the solve: ``BattleResult.to_dict()`` (``oddsim battle --json`` and the
web page) and the CLI's text with every survivor row, on the exact benchmark battles.

Run: python benchmarks/result_json.py [--repeat N]
Each figure is the fastest of N (default 25) fresh results (a new solve each, outside the timer):
a result's survivor rows are built when first read, so "to_dict ms" includes building them and
"again ms" is a second ``to_dict()`` of the same result (rows built). "text ms" is
``to_table(0)`` of a fresh result. On a shared machine the fastest run is the steadiest figure.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from exact import CASES, battle_of

import oddsim


def fastest_ms(battle: oddsim.Battle, read: Callable[[oddsim.BattleResult], object], repeat: int,
               again: bool = False) -> float:
    """The fastest ``read`` of a fresh result of ``battle`` (``again``: its second one), in ms."""
    best = float("inf")
    for _ in range(repeat):
        result = oddsim.solve(battle)
        if again:
            read(result)
        start = time.perf_counter()
        read(result)
        best = min(best, time.perf_counter() - start)
    return best * 1000


def solve_ms(battle: oddsim.Battle, repeat: int) -> float:
    """The fastest warm solve of ``battle``, in ms (for scale)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        oddsim.solve(battle)
        best = min(best, time.perf_counter() - start)
    return best * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=25, help="fresh results per figure")
    args = parser.parse_args()
    print(f"{'battle':22s} {'rows':>5s} {'solve ms':>9s} {'to_dict ms':>11s} {'again ms':>9s}"
          f" {'text ms':>8s}")
    for case in CASES:
        if case.name == "land 150 vs 150":  # its solve dominates the run; its rows are like 66 vs 61's
            continue
        battle = battle_of(case)
        result = oddsim.solve(battle)  # compile or load the cache, warm the caches
        rows = len(result.attacker_survivors) + len(result.defender_survivors)
        solve = solve_ms(battle, args.repeat)
        print(f"{case.name:22s} {rows:5d} {solve:9.2f}"
              f" {fastest_ms(battle, lambda r: r.to_dict(), args.repeat):11.2f}"
              f" {fastest_ms(battle, lambda r: r.to_dict(), args.repeat, again=True):9.2f}"
              f" {fastest_ms(battle, lambda r: r.to_table(0), args.repeat):8.2f}")


if __name__ == "__main__":
    main()
