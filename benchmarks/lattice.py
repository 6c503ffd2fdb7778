"""The lattice sweep of sub-armies against one exact solve per sub-army, side by side.

Run: python benchmarks/lattice.py [--repeat N]
Prints, for a few pools and targets and for the purchase sweep of budget 42 over inf, art, arm,
ftr, bmb (1942-2e, against 6 inf, 2 art, 1 arm, 1 ftr), the CPU seconds of each way, warmed
(best of ``--repeat``), and the speed-up; both ways' figures agree to 1e-12 (checked here).
CPU seconds (``time.process_time``): on a shared machine wall time measures the neighbours.
"""

from __future__ import annotations

import argparse
import time

import oddsim
from oddsim.model.forces import parse_force
from oddsim.model.rules import load_ruleset
from oddsim.purchase import BattleCache, SweepSpec, run_sweep
from oddsim.purchase.evaluate import evaluate_purchase
from oddsim.purchase.runner import purchases_of
from oddsim.stages.sub_armies import SubArmyOdds, solve_sub_armies, solve_sub_armies_one_by_one

POOLS = [  # (label, battle, pool, side, base)
    ("land, plan pool vs 6 inf 2 arm 1 aa",
     oddsim.Battle("1942-2e", "1 inf", "6 inf, 2 arm, 1 aa"), "8 inf, 3 art, 3 arm, 2 ftr, 1 bmb", "attacker",
     None),
    ("land, vs 3 inf", oddsim.Battle("1942-2e", "1 inf", "3 inf"), "8 inf, 3 art, 3 arm, 2 ftr, 1 bmb",
     "attacker", None),
    ("sea, 2 sub 1 dd 1 bb 1 cv 2 ftr vs 1 sub 2 dd 1 cru",
     oddsim.Battle("1942-2e", "1 sub", "1 sub, 2 dd, 1 cru", sea=True), "2 sub, 1 dd, 1 bb, 1 cv, 2 ftr",
     "attacker", None),
    ("defence, 6 inf 2 art 2 arm vs 6 inf 3 arm 2 ftr",
     oddsim.Battle("1942-2e", "6 inf, 3 arm, 2 ftr", "1 inf"), "6 inf, 2 art, 2 arm", "defender", None),
]
PURCHASE = dict(rules=load_ruleset("1942-2e"), budget=42, units="inf,art,arm,ftr,bmb",
                against="6 inf, 2 art, 1 arm, 1 ftr", goal="take")


def best_cpu(function, repeat: int) -> tuple[float, object]:
    """The least CPU seconds of ``repeat`` calls, and the last call's value."""
    best, value = float("inf"), None
    for _ in range(repeat):
        start = time.process_time()
        value = function()
        best = min(best, time.process_time() - start)
    return best, value


def worst_difference(fast: dict, slow: dict) -> float:
    return max(abs(getattr(fast[k], f) - getattr(slow[k], f)) / max(1.0, abs(getattr(slow[k], f)))
               for k in slow for f in SubArmyOdds.__dataclass_fields__)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="calls of each, the best counted (default 3)")
    args = parser.parse_args()
    print(f"{'battle':52s} {'armies':>7s} {'lattice s':>10s} {'one by one s':>13s} {'speed-up':>9s}")
    for label, battle, pool, side, base in POOLS:
        pool_force = parse_force(pool, battle.rules)
        base_force = None if base is None else parse_force(base, battle.rules)
        fast_s, fast = best_cpu(lambda b=battle, p=pool_force, s=side, o=base_force:
                                solve_sub_armies(b, p, s, o), args.repeat)
        slow_s, slow = best_cpu(lambda b=battle, p=pool_force, s=side, o=base_force:
                                solve_sub_armies_one_by_one(b, p, s, o), args.repeat)
        assert worst_difference(fast, slow) <= 1e-12
        print(f"{label:52s} {len(fast):7d} {fast_s:10.4f} {slow_s:13.4f} {slow_s / fast_s:8.1f}x")
    spec = SweepSpec.build(**PURCHASE)
    todo = purchases_of(spec)
    fast_s, table = best_cpu(lambda: run_sweep(spec, cache=BattleCache()), args.repeat)
    slow_s, rows = best_cpu(lambda: [evaluate_purchase(spec, i, c, BattleCache()).row for i, c in todo],
                            args.repeat)
    by_index = {row.index: row for row in table}
    assert all(abs(by_index[r.index].value - r.value) <= 1e-12 for r in rows)
    label = f"purchase sweep, budget 42 ({len(todo)} battles, rows ranked)"
    print(f"{label:52s} {len(todo):7d} {fast_s:10.4f} {slow_s:13.4f} {slow_s / fast_s:8.1f}x")


if __name__ == "__main__":
    main()
