"""Benchmark of the real-battle options: submerging subs, landed units with a retreat, shore
bombardment and an amphibious assault. Run: python benchmarks/real_battles.py

For each battle: its joint casualty states (the layers for units that leave the battle early
included), the exact solve time and the Monte Carlo rate on all threads, each the best of a few
repeats after a first call that loads the Numba kernels. The same battle without the options is
shown next to the first one for the cost of the layers.
"""

from __future__ import annotations

from timing import best_of

import oddsim
from oddsim.api import run_amphibious
from oddsim.stages.pipeline import estimate_work

NAVAL = ("1942-2e", "8 sub, 4 dd, 2 cru, 6 ftr, 4 bmb", "2 bb, 2 cv, 4 ftr, 6 sub, 3 dd")
BATTLES = {
    "naval 24 vs 17, no submerging": oddsim.Battle(*NAVAL, sea=True),
    "naval 24 vs 17, both sides' subs dive when alone": oddsim.Battle(
        NAVAL[0], oddsim.Side(NAVAL[1], submerge="alone"), oddsim.Side(NAVAL[2], submerge="alone"), sea=True),
    "land 20 vs 16, landed + bombard + retreat below 40%": oddsim.Battle(
        "1942-2e", oddsim.Side("8 inf, 4 art, 4 arm, 2 ftr, 2 bmb", landed="6 inf, 2 art", bombard="2 bb"),
        "12 inf, 2 art, 2 arm", retreat={"below_win": 0.4}),
}
ASSAULT = oddsim.Amphibious("1942-2e", fleet="1 bb, 1 cru, 2 trn", cargo="2 inf, 1 art, 1 arm",
                            defender="4 inf, 1 arm", overland="1 inf", air="1 ftr",
                            sea_defender="1 dd, 1 sub")
RUNS = 1_000_000


def warm_best_of(repeats: int, step) -> float:
    step()  # loads the kernels
    return best_of(repeats, step)


def main() -> None:
    print(f"{'battle':52s} {'states':>9s} {'exact ms':>9s} {'MC M/s':>7s}")
    for name, battle in BATTLES.items():
        states, _ = estimate_work(battle)
        exact = warm_best_of(5, lambda b=battle: oddsim.solve(b))
        sampled = warm_best_of(2, lambda b=battle: oddsim.simulate(b, runs=RUNS, seed=1))
        print(f"{name:52s} {states:9,d} {1e3 * exact:9.2f} {RUNS / sampled / 1e6:7.2f}")
    assault = warm_best_of(5, lambda: run_amphibious(ASSAULT, method="exact"))
    print(f"amphibious assault, sea battle then 3 land battles, exact: {1e3 * assault:.2f} ms")


if __name__ == "__main__":
    main()
