"""Plan the turn (issue 26): the three-target attack split of the issue, exact, timed by stage.

Run: python benchmarks/plan.py [--one-by-one] [--goal GOAL]
The plan: 1942-2e, pool 12 inf, 4 art, 4 arm, 3 ftr, 1 bmb over Ukraine (6 inf, 2 arm, 1 aa,
worth 3), Belarus (3 inf, worth 2) and Baltic States (2 inf, 1 art); fighters reach Ukraine
and Belarus, the bomber Ukraine; goal value. Prints the split and CPU and wall seconds for each
stage: every target's odds for every sub-army it may be sent (``solve_sub_armies``; with
``--one-by-one`` also the reference, one solve per sub-army, side by side), then the optimiser
(the DP, its runners-up and the margins). Goal: the whole plan in under 2 s on a 2-core machine.
``--goal`` plans for another goal (``take-at-least:2``: the optimiser's kernels of
``oddsim/plan/_at_least.py``; in pure Python it did not finish in 300 s).
"""

from __future__ import annotations

import argparse
import time

import oddsim
from oddsim.model.rules import load_ruleset
from oddsim.plan import parse_plan
from oddsim.plan.odds import target_odds
from oddsim.plan.planner import optimised
from oddsim.stages.sub_armies import solve_sub_armies, solve_sub_armies_one_by_one

PLAN = dict(rules=load_ruleset("1942-2e"), pool="12 inf, 4 art, 4 arm, 3 ftr, 1 bmb",
            targets=["Ukraine=6 inf, 2 arm, 1 aa", "Belarus=3 inf", "Baltic States=2 inf, 1 art"],
            values=["Ukraine=3", "Belarus=2"], reach=["ftr=Ukraine,Belarus", "bmb=Ukraine"])


def timed(function):
    cpu, wall = time.process_time(), time.perf_counter()
    value = function()
    return time.process_time() - cpu, time.perf_counter() - wall, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--one-by-one", action="store_true", help="also one solve per sub-army, side by side")
    parser.add_argument("--goal", default="value", help="the plan's goal (default: value)")
    args = parser.parse_args()
    oddsim.solve(oddsim.Battle(rules="1942-2e", attacker="1 inf", defender="1 aa, 1 inf"))  # load kernels
    spec = parse_plan(**PLAN, goal=args.goal)
    cpu_odds, wall_odds, tables = timed(lambda: [target_odds(spec, t) for t in spec.targets])
    battles = sum(len(t) - 1 for t in tables)
    cpu_dp, wall_dp, result = timed(lambda: optimised(spec, tables))
    print(result.to_table())
    print(f"odds of {battles} battles:  {cpu_odds:6.2f} s CPU  {wall_odds:6.2f} s wall")
    print(f"optimiser (DP, {spec.alternatives} runners-up, margins): {cpu_dp:6.2f} s CPU  "
          f"{wall_dp:6.2f} s wall")
    print(f"whole plan:            {cpu_odds + cpu_dp:6.2f} s CPU  {wall_odds + wall_dp:6.2f} s wall")
    if args.one_by_one:
        for target in spec.targets:
            for name, solve in (("lattice", solve_sub_armies), ("one by one", solve_sub_armies_one_by_one)):
                cpu, wall, odds = timed(lambda solve=solve, t=target: solve(t.battle, t.reachable))
                print(f"{target.name:14s} {name:10s} {len(odds):5d} battles {cpu:6.2f} s CPU "
                      f"{wall:6.2f} s wall")


if __name__ == "__main__":
    main()
