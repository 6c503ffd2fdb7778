"""Best casualties over many battles: a purchase sweep and a plan, their games' predicted seconds
(``oddsim.stages.best_size``, what the caps read) beside the CPU seconds they take, and what
choosing each loss changes in their answers.

Run: python benchmarks/best_sweeps.py
Warm (a first small sweep compiles the kernels), CPU seconds of this process (time.process_time:
on a shared machine wall time swings with the others' load). Each answer is given choosing each
loss and by the default orders, so the gain of choosing is read beside its cost.
"""

from __future__ import annotations

import time

import oddsim.plan
from oddsim.model.rules import load_ruleset
from oddsim.plan.spec import check_best_size, parse_plan
from oddsim.purchase import PROCESS_CACHE
from oddsim.purchase.runner import run_sweep
from oddsim.purchase.spec import SweepSpec

RULES = load_ruleset("1942-2e")
PURCHASE = dict(budget=40, units="inf,art,arm,ftr", against="8 inf, 2 arm, 1 ftr")
PLAN = dict(pool="8 inf, 2 art, 3 arm, 2 ftr", targets=["A=8 inf, 2 art, 2 arm, 1 ftr"], goal="take-all")


def _cpu(work):
    start = time.process_time()
    answer = work()
    return answer, time.process_time() - start


def purchase(orders: dict) -> None:
    spec = SweepSpec.build(RULES, PURCHASE["budget"], PURCHASE["units"], PURCHASE["against"], **orders)
    predicted = spec.check_best_size() if spec.best_casualties else None
    PROCESS_CACHE.clear()
    table, seconds = _cpu(lambda: run_sweep(spec))
    best = table.rows[0]
    print(f"purchase {orders or 'default orders'}: {len(table.rows)} purchases, {seconds:.2f} s CPU"
          + (f" (predicted {predicted:.2f} s)" if predicted is not None else "")
          + f"; best {best.purchase}: takes {100 * best.value:.2f}%")


def plan(orders: dict) -> None:
    spec = parse_plan(RULES, PLAN["pool"], PLAN["targets"], PLAN["goal"], battle_options=orders)
    predicted = check_best_size(spec) if orders else None
    result, seconds = _cpu(lambda: oddsim.plan.solve_plan(spec))
    print(f"plan {orders or 'default orders'}: {result.battles} battles, {seconds:.2f} s CPU"
          + (f" (predicted {predicted:.2f} s)" if predicted is not None else "")
          + f"; takes {100 * result.objective:.2f}% sending {result.split['A'].sent.describe()}")


def main() -> None:
    run_sweep(SweepSpec.build(RULES, 6, "inf", "1 inf", ool_attacker="best"))  # (compiles the kernels)
    for orders in ({}, {"ool_attacker": "best"}, {"ool_attacker": "best", "ool_defender": "best"}):
        purchase(orders)
    for orders in ({}, {"ool_attacker": "best"}, {"ool_attacker": "best", "ool_defender": "best"}):
        plan(orders)


if __name__ == "__main__":
    main()
