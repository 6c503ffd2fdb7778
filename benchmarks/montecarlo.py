"""Benchmark of the Monte Carlo engine: battles per second on 1 and 2 threads, first-call times.

    python benchmarks/montecarlo.py [--scale 1.0]
    python benchmarks/montecarlo.py --against DIR [--rounds 7]   # the general path: this checkout
        # and DIR (e.g. a 'git worktree add' of an older commit) alternating, one thread, CPU time

Speed is measured on a warm kernel (compiled and loaded beforehand), best of five runs. The
first-call times are measured in fresh interpreters: "cold" with an empty Numba cache (so the
kernel is compiled), "warm" with the cache the warm-up left behind (so it is only loaded).

``--against`` times the battles of ``GENERAL`` (each takes the general path, ``_run_block``) in
one worker process per checkout (``NUMBA_NUM_THREADS=1``), warm, alternating battle by battle,
in processor time; then each checkout's first call of the first of them in a fresh interpreter
with an empty Numba cache and ``ODDSIM_QUICK_START=0`` (the general path's compile), alternating.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

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
GENERAL = [  # (name, runs, the battle's flat options as battle_from takes them)
    ("naval, subs and destroyers (1942-2e)", 200_000,
     ("1942-2e", "2 sub, 2 dd, 1 cru, 2 ftr", "1 bb, 1 cv, 2 ftr, 2 sub", {"sea": True})),
    ("subs against aircraft that may not hit them (1942-2e)", 200_000,
     ("1942-2e", "2 sub, 1 cru, 3 ftr, 1 bmb", "3 sub, 1 cv, 2 ftr, 1 trn", {"sea": True})),
    ("landed units, retreat at 2 units left (anniversary, land)", 200_000,
     ("anniversary", "4 inf, 2 art, 2 arm, 1 ftr", "6 inf, 1 arm, 1 aa",
      {"landed": "3 inf, 1 art", "retreat_units": 2})),
    ("naval, Low Luck (1942-2e)", 200_000,
     ("1942-2e", "2 sub, 2 dd, 1 cru, 2 ftr", "1 bb, 1 cv, 2 ftr, 2 sub", {"sea": True, "dice": "lowluck"})),
]
"""Battles that take the Monte Carlo engine's general path (submarines, aircraft barred from hitting
them, a partial retreat), for ``--against``."""
WORKER = """
import sys, time
import oddsim
from oddsim.engines.montecarlo import _kernel
from oddsim.model.options import battle_from
battles = [battle_from(*spec) for spec in eval(sys.argv[1])]
for battle in battles:
    oddsim.simulate(battle, runs=1000, seed=0)  # compile or load the kernel first
assert not _kernel._run_plain_block.signatures, "a battle took the plain path"
print(oddsim.__file__, flush=True)
for line in sys.stdin:
    i, runs, seed = map(int, line.split())
    start = time.process_time()
    oddsim.simulate(battles[i], runs=runs, seed=seed)
    print(time.process_time() - start, flush=True)
"""
GENERAL_FIRST_CALL = """
import sys, time
start = time.process_time()
import oddsim
from oddsim.model.options import battle_from
oddsim.simulate(battle_from(*eval(sys.argv[1])), runs=1000, seed=1)
print(time.process_time() - start)
"""
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


def _env(root: Path, **extra: str) -> dict[str, str]:
    """The environment of a child that imports oddsim from checkout ``root`` (run in it: ``-c``
    puts the working folder first on the path), on one thread."""
    return {**os.environ, "PYTHONPATH": str(root), "NUMBA_NUM_THREADS": "1", **extra}


def against(other: Path, rounds: int, scale: float) -> None:
    """``GENERAL``'s battles in this checkout and ``other`` alternating (see the module's doc)."""
    roots = [Path(__file__).resolve().parent.parent, other.resolve()]
    specs = repr([spec for _, _, spec in GENERAL])
    workers = [subprocess.Popen([sys.executable, "-c", WORKER, specs], env=_env(root), text=True, cwd=root,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE) for root in roots]
    for root, worker in zip(roots, workers, strict=True):
        print(f"{root}: oddsim from {worker.stdout.readline().strip()}")  # type: ignore[union-attr]
    seen: list[list[list[float]]] = [[[] for _ in GENERAL] for _ in roots]
    for r in range(rounds):
        for i, (_, runs, _) in enumerate(GENERAL):
            for w, worker in enumerate(workers):
                print(i, max(1000, int(runs * scale)), r, file=worker.stdin, flush=True)
                seen[w][i].append(float(worker.stdout.readline()))  # type: ignore[union-attr]
    for worker in workers:
        worker.stdin.close()  # type: ignore[union-attr]
        worker.wait()
    print(f"\nthe general path, warm, CPU ms of one simulate, {rounds} rounds alternating "
          f"(median, min-max; NUMBA_NUM_THREADS=1)")
    print(f"  {'battle':<58} {'runs':>8} {'this checkout':>22} {str(roots[1])[-22:]:>22} {'ratio':>6}")
    for i, (name, runs, _) in enumerate(GENERAL):
        new, old = (sorted(seen[w][i]) for w in range(2))
        cells = "".join(f" {median(t) * 1e3:8.1f} ({t[0] * 1e3:5.1f}-{t[-1] * 1e3:5.1f})" for t in (new, old))
        print(f"  {name:<58} {max(1000, int(runs * scale)):>8,}{cells} {median(new) / median(old):6.2f}")
    print("\nfirst call of the first battle, empty Numba cache, ODDSIM_QUICK_START=0 (CPU s, compiles "
          "the general path)")
    first = repr(GENERAL[0][2])
    compiles: list[list[float]] = [[] for _ in roots]
    for _ in range(max(1, rounds // 3)):
        for w, root in enumerate(roots):
            with tempfile.TemporaryDirectory() as empty:
                out = subprocess.run([sys.executable, "-c", GENERAL_FIRST_CALL, first], check=True, text=True,
                                     capture_output=True, cwd=root,
                                     env=_env(root, NUMBA_CACHE_DIR=empty, ODDSIM_QUICK_START="0")).stdout
            compiles[w].append(float(out.split()[-1]))
    for root, times in zip(roots, compiles, strict=True):
        print(f"  {str(root):<40} " + ", ".join(f"{t:.1f}" for t in times))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every run count")
    parser.add_argument("--against", type=Path, help="time the general path against this checkout instead")
    parser.add_argument("--rounds", type=int, default=7, help="with --against: rounds of each battle")
    args = parser.parse_args()
    if args.against is not None:
        against(args.against, args.rounds, args.scale)
        return
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
