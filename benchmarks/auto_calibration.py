"""Calibrate ``--method auto``: the exact engine's estimate against measured solve times.

    python benchmarks/auto_calibration.py            # 50+ battles: estimate, seconds, the fit
    python benchmarks/auto_calibration.py --quick    # a dozen, for CI

For each battle (land and sea, four editions, AA guns, Low Luck, from a handful of units to a
few hundred) it prints the joint casualty states, the old work estimate (``estimate_work``, "about
a nanosecond a unit"), the seconds the calibrated model predicts (``estimate_seconds``) and the
seconds a warm solve took: the best of two solves of a fresh ``Battle``, in processor seconds (a
solve runs on one thread; processor time is steadier than the clock on a busy machine). Then it
fits log(seconds) = log(c) + a log(joint) + b log(spread), spread = work / joint (how many hit
outcomes a state's round spreads to), by least squares, and prints the constants to put in
``oddsim/exact/cost.py``, how far the model is off, and which battles auto would send where.
"""

from __future__ import annotations

import argparse
import importlib
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import oddsim  # noqa: E402
from oddsim.api import AUTO_EXACT_SECONDS, engine_for  # noqa: E402
from oddsim.engines.exact import array_pool  # noqa: E402
from oddsim.engines.exact.solve import MAX_JOINT_STATES  # noqa: E402
from oddsim.stages.pipeline import estimate_seconds, estimate_work  # noqa: E402

solve_module = importlib.import_module("oddsim.engines.exact.solve")
FIT_FROM = 0.05
"""Battles faster than this are left out of the fit: what matters is the model near a second (a
battle of many AA outcomes pays some 0.1 ms a part whatever its work, which would set the
envelope of a fit over the smallest battles and overstate the large ones tenfold)."""
MEASURED_WORK = 1e12
"""Battles of more estimated work are not timed (the benchmark stays short); up to it the engine's
own work cap is lifted while timing, to see what a higher one would let through."""

SHAPES = (  # (name, rules, attacker, defender, sea, dice): scaled below
    ("land", "1942-2e", "30 inf, 10 art, 15 arm, 8 ftr, 3 bmb", "40 inf, 5 art, 10 arm, 6 ftr", False,
     "standard"),
    ("land AA", "revised", "40 inf, 10 art, 15 arm, 6 ftr, 3 bmb", "45 inf, 10 arm, 8 ftr, 1 aa", False,
     "standard"),
    ("inf", "1942-2e", "50 inf", "50 inf", False, "standard"),
    ("land LL", "anniversary", "20 inf, 10 art, 10 arm, 4 ftr", "30 inf, 6 arm, 4 ftr", False, "lowluck"),
    ("sea", "1942-2e", "8 sub, 4 dd, 2 cru, 6 ftr, 4 bmb", "2 bb, 2 cv, 4 ftr, 6 sub, 3 dd", True,
     "standard"),
    ("sea G40", "global-1940-2e", "12 sub, 8 dd, 4 cru, 10 ftr, 6 tac", "4 bb, 3 cv, 6 ftr, 8 sub, 6 dd",
     True, "standard"),
)
SCALES = (0.1, 0.2, 0.3, 0.45, 0.6, 0.75, 0.9, 1.0, 1.2, 1.5, 2.0, 2.5, 3.5)
QUICK_SCALES = (0.1, 0.3)
EXAMPLES = (  # issue 23: auto sent these to Monte Carlo, the exact engine solves them in under a second
    ("example: revised land", "revised", "40 inf, 10 art, 15 arm, 6 ftr, 3 bmb",
     "45 inf, 10 arm, 8 ftr, 1 aa", False, "standard"),
    ("example: G40 fleet", "global-1940-2e", "12 sub, 8 dd, 4 cru, 10 ftr, 6 tac",
     "4 bb, 3 cv, 6 ftr, 8 sub, 6 dd", True, "standard"),
)


def scaled(army: str, scale: float) -> str:
    parts = []
    for item in army.split(","):
        count, unit = item.split()
        n = max(1, round(int(count) * scale)) if scale >= 0.1 else 1
        parts.append(f"{n} {unit}")
    return ", ".join(parts)


def battles(quick: bool):
    for name, rules, attacker, defender, sea, dice in SHAPES:
        for scale in QUICK_SCALES if quick else SCALES:
            yield (f"{name} x{scale}", rules, scaled(attacker, scale), scaled(defender, scale), sea, dice)
    yield from EXAMPLES


def solve_seconds(rules: str, attacker: str, defender: str, sea: bool, dice: str) -> float:
    """Processor seconds of a warm exact solve as a command makes it: the best of two, each of a
    fresh Battle with no arrays kept from a solve before (``array_pool``: a command solves once)."""
    times = []
    for _ in range(2):
        battle = oddsim.Battle(rules=rules, attacker=attacker, defender=defender, sea=sea, dice=dice)
        array_pool.pool = array_pool.ArrayPool()
        start = time.process_time()
        oddsim.solve(battle)
        times.append(time.process_time() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a dozen battles (CI)")
    options = parser.parse_args()
    solve_module.MAX_SECONDS = math.inf  # (the cap is what is calibrated)
    for _, rules, attacker, defender, sea, dice in SHAPES:  # compile/load every kernel first
        solve_seconds(rules, scaled(attacker, 0.05), scaled(defender, 0.05), sea, dice)
    print(f"{'battle':<24} {'states':>10} {'old work':>9} {'model s':>8} {'solve s':>8}  auto")
    rows = []
    for name, rules, attacker, defender, sea, dice in battles(options.quick):
        battle = oddsim.Battle(rules=rules, attacker=attacker, defender=defender, sea=sea, dice=dice)
        joint, work = estimate_work(battle)
        predicted = estimate_seconds(battle)
        engine = engine_for(battle, "auto")
        if joint > MAX_JOINT_STATES:  # the exact engine refuses it (memory)
            print(f"{name:<24} {joint:10,d} {work:9.2g} {predicted:8.2f} {'refused':>8}  {engine}")
            continue
        if work > MEASURED_WORK:
            print(f"{name:<24} {joint:10,d} {work:9.2g} {predicted:8.2f} {'skipped':>8}  {engine}")
            continue
        seconds = solve_seconds(rules, attacker, defender, sea, dice)
        rows.append((work, seconds, predicted))
        print(f"{name:<24} {joint:10,d} {work:9.2g} {predicted:8.2f} {seconds:8.3f}  {engine}"
              f"{'  <- exact would take under a second' if engine == 'mc' and seconds < 1.0 else ''}")
    fit(rows)


def fit(rows) -> None:
    """Least squares of log(seconds) on log(work) over the battles that took ``FIT_FROM`` or
    more, then raised to an envelope: none of them took longer than the model says."""
    data = np.array([r for r in rows if r[1] >= FIT_FROM])
    work, seconds, predicted = data.T
    design = np.column_stack([np.ones(len(data)), np.log(work)])
    coef, *_ = np.linalg.lstsq(design, np.log(seconds), rcond=None)
    envelope = float(np.max(np.log(seconds) - design @ coef))
    fitted = np.exp(design @ coef + envelope)
    print(f"\n{len(data)} battles timed {FIT_FROM * 1000:.0f} ms or more; the fit, raised to the slowest:")
    print(f"  seconds = {math.exp(coef[0] + envelope):.4g} * work^{coef[1]:.4f}   (least squares: "
          f"{math.exp(coef[0]):.4g} * work^{coef[1]:.4f})")
    print(f"  1 s of solving is {(1 / math.exp(coef[0] + envelope)) ** (1 / coef[1]):.3g} units of work")
    for label, model in (("this fit", fitted), ("estimate_seconds now", predicted)):
        ratio = model / seconds
        print(f"  {label:<22} over by a factor: median {np.median(ratio):.2f}, most {np.max(ratio):.2f}, "
              f"least {np.min(ratio):.2f}")
    wrong = [(s, p) for _, s, p in rows if (s < 0.5 and p > AUTO_EXACT_SECONDS) or (s > 2 and p <= 1)]
    print(f"  auto's choice (exact up to {AUTO_EXACT_SECONDS} s predicted) wrong for {len(wrong)} battles: "
          f"Monte Carlo for one solved under 0.5 s, or exact for one over 2 s")


if __name__ == "__main__":
    main()
