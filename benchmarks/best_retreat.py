"""The best retreat's cost: a solve with RetreatPolicy(best="tuv") against a plain exact solve of
the same battle (the issue's bound: at most 2x), warm, best of a few runs.

Run: python benchmarks/best_retreat.py
Times are CPU seconds of this process (time.process_time), the fastest of interleaved runs: on
a shared machine wall time swings by 2x with the other processes' load.
The best retreat is one backward sweep (the policy) and the forward solve under it, reading the
round moves the first sweep recorded. A land battle (rolled dice, no landed units) solves every
joint state in that backward sweep; elsewhere (at sea, Low Luck, landed units) a forward sweep
first finds the states the battle reaches and records their moves, and only those are solved;
with landed units a further forward sweep finds where the plan retreats.
Three columns of each: the solve alone ("solve"); the solve and its text as ``oddsim battle``
prints it ("text": the plain battle's survivors, the best retreat's also its plan's count and
ten most likely rows); the solve and its whole JSON (``to_dict``: every survivor row and, for the
best retreat, every plan row, which are made only when read).
"""

from __future__ import annotations

import time

import oddsim
from oddsim.results.text import battle_text

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


def solve_and_print(battle) -> None:
    battle_text(oddsim.solve(battle))


def solve_and_dump(battle) -> None:
    oddsim.solve(battle).to_dict()


STEPS = {"solve": oddsim.solve, "text": solve_and_print, "json": solve_and_dump}


def main() -> None:
    head = "".join(f" {'plain':>7s} {'best':>7s} {'ratio':>5s} |" for _ in STEPS)
    print(f"{'':18s}" + "".join(f" {name + ' (ms)':^21s}|" for name in STEPS))
    print(f"{'battle':18s}{head}  objective")
    for name, spec in BATTLES:
        plain = oddsim.Battle(**spec)
        best = oddsim.Battle(**spec, retreat={"best": "tuv"})
        oddsim.solve(plain)  # compile / load the cache
        result = oddsim.solve(best)
        cells = []
        for step in STEPS.values():
            t_plain = t_best = float("inf")
            for _ in range(15):  # interleaved, so a busy machine slows both alike
                t_plain = min(t_plain, cpu_seconds(step, plain))
                t_best = min(t_best, cpu_seconds(step, best))
            cells.append(f" {1e3 * t_plain:7.2f} {1e3 * t_best:7.2f} {t_best / t_plain:5.2f} |")
        print(f"{name:18s}{''.join(cells)}  {result.objective:+.2f} "
              f"(plain TUV swing {oddsim.solve(plain).tuv_swing:+.2f})")


if __name__ == "__main__":
    main()
