"""Purchase-sweep speed: rows per second in-process and on a two-worker local Dask cluster.

Run: python benchmarks/purchase.py
The sweep: 1942-2e, budget 40 over inf, art, arm, ftr, bmb (590 purchases) against a 10-unit
defender. Goal: the whole sweep, command line included, in under 10 seconds on a 2-core machine.
"""

from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import replace

import oddsim
from oddsim.model.rules import load_ruleset
from oddsim.purchase import BattleCache, SweepSpec, run_sweep
from oddsim.purchase.dask_runner import dask_client

SWEEP = dict(rules=load_ruleset("1942-2e"), budget=40, units="inf,art,arm,ftr,bmb",
             against="6 inf, 2 art, 1 arm, 1 ftr", goal="take")
CLI = [sys.executable, "-m", "oddsim.cli", "purchase", "--rules", "1942-2e", "--budget", "40",
       "--units", "inf,art,arm,ftr,bmb", "--against", "6 inf, 2 art, 1 arm, 1 ftr", "--quiet"]


def timed(function) -> tuple[float, object]:
    start = time.perf_counter()
    value = function()
    return time.perf_counter() - start, value


def cli_seconds(extra: list[str]) -> float:
    seconds, _ = timed(lambda: subprocess.run([*CLI, *extra], check=True, capture_output=True))
    return seconds


def main() -> None:
    spec = SweepSpec.build(**SWEEP)
    oddsim.solve(oddsim.Battle(rules="1942-2e", attacker="1 inf", defender="1 inf"))  # load the cache
    seconds, table = timed(lambda: run_sweep(spec, cache=BattleCache()))
    rows = len(table)
    print(f"sweep: {spec.describe()}")
    print(f"{rows} rows, best: {table.best.purchase} ({spec.goal.format(table.best.value)})")
    print(f"in-process, warm:            {seconds:6.2f} s  {rows / seconds:8.1f} rows/s")
    seconds, on_dask = timed(lambda: run_sweep(spec, workers=2))
    assert on_dask.rows == table.rows
    print(f"--workers 2, with startup:   {seconds:6.2f} s  {rows / seconds:8.1f} rows/s")
    with dask_client(workers=2) as client:
        address = client.scheduler_info()["address"]
        run_sweep(spec, scheduler=address)  # start the workers' engines
        # another seed: the same exact rows, but missing the workers' caches, so solved again
        reseeded = replace(spec, seed=1)
        seconds, warm = timed(lambda: run_sweep(reseeded, scheduler=address))
    assert warm.stats.solved == rows
    print(f"2 workers, warm cluster:     {seconds:6.2f} s  {rows / seconds:8.1f} rows/s")
    print(f"oddsim purchase (process):   {cli_seconds([]):6.2f} s")
    print(f"oddsim purchase --workers 2: {cli_seconds(['--workers', '2']):6.2f} s")


if __name__ == "__main__":
    main()
