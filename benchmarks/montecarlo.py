"""Benchmark of the Monte Carlo engine: battles per second on 1 and 2 threads, first-call times.

    python benchmarks/montecarlo.py [--scale 1.0]

Speed is measured on a warm kernel (compiled and loaded beforehand), best of five runs. The
first-call times are measured in fresh interpreters: "cold" with an empty Numba cache (so the
kernel is compiled), "warm" with the cache the warm-up left behind (so it is only loaded).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

import numba

import oddsim
from oddsim import simulate

BATTLES = [
    ("10 inf, 5 arm, 2 ftr vs 12 inf, 3 arm, 1 ftr (anniversary, land)", 4_000_000,
     dict(rules="anniversary", attacker="10 inf, 5 arm, 2 ftr", defender="12 inf, 3 arm, 1 ftr")),
    ("65 units, artillery and AA (1942-2e, land)", 1_000_000,
     dict(rules="1942-2e", attacker="20 inf, 6 art, 6 arm, 3 ftr, 1 bmb",
          defender="22 inf, 2 art, 2 arm, 2 ftr, 1 aa")),
    ("subs, destroyers, carriers, fighters, battleships (anniversary, sea)", 2_000_000,
     dict(rules="anniversary", attacker="3 sub, 2 dd, 1 cv, 2 ftr, 2 bb",
          defender="2 sub, 2 dd, 1 cv, 2 ftr, 1 bb, 1 cru", sea=True)),
]
FIRST_CALL = """
import time
start = time.perf_counter()
import oddsim
from oddsim import simulate
imported = time.perf_counter()
battle = oddsim.Battle(rules="anniversary", attacker="10 inf, 5 arm, 2 ftr",
                       defender="12 inf, 3 arm, 1 ftr")
simulate(battle, runs=100_000, seed=1)
print(imported - start, time.perf_counter() - imported)
"""


def battles_per_second(battle: oddsim.Battle, runs: int, threads: int) -> float:
    """Best of five timed runs on ``threads`` threads (the machine's speed varies)."""
    numba.set_num_threads(threads)
    best = float("inf")
    for attempt in range(5):
        start = time.perf_counter()
        simulate(battle, runs=runs, seed=attempt)
        best = min(best, time.perf_counter() - start)
    return runs / best


def first_call(cache_dir: str | None) -> tuple[float, float]:
    """(import time, first ``simulate`` of 100,000 runs) in a fresh interpreter."""
    env = dict(os.environ)
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    out = subprocess.run([sys.executable, "-c", FIRST_CALL], env=env, check=True,
                         capture_output=True, text=True).stdout.split()
    return float(out[0]), float(out[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every run count")
    args = parser.parse_args()
    most = numba.config.NUMBA_NUM_THREADS
    counts = sorted({1, min(2, most)})
    print(f"Numba {numba.__version__}, {most} threads available, {os.cpu_count()} CPUs\n")
    header = f"{'battle':<70} {'runs':>10}" + "".join(f" {f'{t} thread' + 's' * (t > 1):>12}"
                                                      for t in counts)
    print(header)
    print("-" * len(header))
    for name, runs, spec in BATTLES:
        battle = oddsim.Battle(**spec)
        runs = max(1000, int(runs * args.scale))
        simulate(battle, runs=1000, seed=0)  # compile or load the kernel first
        rates = [battles_per_second(battle, runs, t) for t in counts]
        print(f"{name:<70} {runs:>10,}" + "".join(f" {rate / 1e6:>10.2f} M/s" for rate in rates))
    numba.set_num_threads(most)
    print("\nfirst call, simulate(100,000 runs) in a fresh interpreter (import time apart):")
    with tempfile.TemporaryDirectory() as empty:
        cold_import, cold = first_call(empty)
    warm_import, warm = first_call(None)
    print(f"  cold Numba cache (compiles the kernel): {cold:6.2f} s  (import {cold_import:.2f} s)")
    print(f"  warm Numba cache (loads it)           : {warm:6.2f} s  (import {warm_import:.2f} s)")


if __name__ == "__main__":
    main()
