"""The best retreat's cost: a solve with RetreatPolicy(best="tuv") against a plain exact solve of
the same battle (the issue's bound: at most 2x), warm, best of a few runs.

Run: python benchmarks/best_retreat.py
Times are CPU seconds of this process (time.process_time), the fastest of interleaved runs: on
a shared machine wall time swings by 2x with the other processes' load.
The best retreat is one backward sweep (the policy) and the forward solve under it, reading the
round moves the first sweep recorded. A land battle (rolled dice, no landed units) solves every
joint state in that backward sweep; elsewhere (at sea, Low Luck, landed units) a forward sweep
first finds the states the battle reaches and records their moves, and only those are solved;
with landed units a further forward sweep finds where the plan retreats. The plan's rows
(``result.retreat_plan``) are built when first read: "best ms" is the solve, "+ plan ms" the
solve and reading the plan (as the CLI, JSON and web output do).
"""

from __future__ import annotations

import time

import oddsim

BATTLES = [
    ("land 5 vs 5", dict(rules="1942-2e", attacker="3 inf, 1 art, 1 arm", defender="4 inf, 1 arm")),
    ("land 20 vs 20", dict(rules="1942-2e", attacker="10 inf, 4 art, 4 arm, 2 ftr",
                           defender="14 inf, 3 arm, 2 ftr, 1 aa")),
    ("land 66 vs 61", dict(rules="1942-2e", attacker="30 inf, 10 art, 15 arm, 8 ftr, 3 bmb",
                           defender="40 inf, 5 art, 10 arm, 6 ftr")),
    ("naval 24 vs 17", dict(rules="1942-2e", attacker="8 sub, 4 dd, 2 cru, 6 ftr, 4 bmb",
                            defender="2 bb, 2 cv, 4 ftr, 6 sub, 3 dd", sea=True)),
]


def cpu_seconds(step, *args) -> float:
    start = time.process_time()
    step(*args)
    return time.process_time() - start


def solve_and_read_plan(battle) -> None:
    len(oddsim.solve(battle).retreat_plan)


def main() -> None:
    print(f"{'battle':18s} {'plain ms':>9s} {'best ms':>9s} {'ratio':>6s} {'+ plan ms':>9s} {'ratio':>6s}  "
          "objective")
    for name, spec in BATTLES:
        plain = oddsim.Battle(**spec)
        best = oddsim.Battle(**spec, retreat={"best": "tuv"})
        oddsim.solve(plain)  # compile / load the cache
        result = oddsim.solve(best)
        t_plain = t_best = t_plan = float("inf")
        for _ in range(15):  # interleaved, so a busy machine slows all alike
            t_plain = min(t_plain, cpu_seconds(oddsim.solve, plain))
            t_best = min(t_best, cpu_seconds(oddsim.solve, best))
            t_plan = min(t_plan, cpu_seconds(solve_and_read_plan, best))
        print(f"{name:18s} {1e3 * t_plain:9.1f} {1e3 * t_best:9.1f} {t_best / t_plain:6.2f} "
              f"{1e3 * t_plan:9.1f} {t_plan / t_plain:6.2f}  "
              f"{result.objective:+.2f} (plain TUV swing {oddsim.solve(plain).tuv_swing:+.2f})")


if __name__ == "__main__":
    main()
