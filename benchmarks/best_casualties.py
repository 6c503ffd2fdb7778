"""Best casualties' cost and what the default order costs a player.

Run: python benchmarks/best_casualties.py [--costs] [--sea]
The issue's battle (1942-2e, goal take, both sides choosing each loss): 10 inf, 3 art, 3 arm,
2 ftr, 2 bmb against 12 inf, 2 art, 2 arm, 2 ftr: its composition pairs and the seconds of each
part, warm (the kernels compiled by a first run), the fastest of a few runs, as CPU seconds of
this process (time.process_time: on a shared machine wall time swings with the others' load).
Parts: the game (compositions, hit tables, sub-compositions), the backward induction, the
forward pass under both policies (the outcome), the comparison with both sides' fixed orders.
``--costs`` also solves a list of small battles and prints the ones where best play changes the
goal the most against the default order ("what the default order costs you"); ``--sea`` does the
same for sea battles with submarines (goal win), where hits are typed and subs strike first.
"""

from __future__ import annotations

import sys
import time

from oddsim.engines.exact import best_casualties, casualties
from oddsim.model.battle import Battle
from oddsim.model.side import Side

RULES = "1942-2e"
ISSUE = ("10 inf, 3 art, 3 arm, 2 ftr, 2 bmb", "12 inf, 2 art, 2 arm, 2 ftr")

CANDIDATES = [
    ("2 inf, 1 arm, 1 ftr", "2 inf, 1 arm"),
    ("1 inf, 1 ftr", "1 inf"),
    ("1 inf, 2 ftr", "2 inf"),
    ("2 inf, 2 ftr", "3 inf"),
    ("1 inf, 1 arm, 2 ftr", "3 inf"),
    ("1 arm, 1 ftr, 1 bmb", "2 inf"),
    ("2 inf, 1 art, 1 ftr, 1 bmb", "3 inf, 1 arm"),
    ("3 inf, 1 arm, 2 ftr", "4 inf, 1 aa"),
    ("1 inf, 1 art, 2 ftr, 1 bmb", "3 inf, 1 aa"),
    ("2 inf, 1 arm, 1 ftr, 1 bmb", "2 inf, 1 art, 1 ftr"),
    ("1 inf, 3 ftr", "3 inf"),
    ("1 arm, 3 ftr", "3 inf, 1 aa"),
    ("2 arm, 2 ftr", "4 inf"),
    ("4 inf, 1 art, 2 arm, 1 ftr", "4 inf, 1 arm, 1 ftr"),
]

SEA_CANDIDATES = [
    ("2 sub, 1 ftr", "1 sub, 1 dd"),
    ("3 sub, 1 ftr", "1 sub, 1 dd, 1 ftr"),
    ("2 sub, 2 ftr", "1 sub, 1 cruiser, 1 ftr"),
    ("2 sub, 1 dd, 1 ftr", "1 sub, 1 cruiser, 1 ftr, 1 transport"),
    ("1 bb, 1 sub", "2 sub, 1 ftr"),
    ("2 sub, 1 dd", "2 sub, 1 ftr"),
    ("3 sub", "1 dd, 2 transport"),
    ("2 sub, 1 ftr, 1 bmb", "1 sub, 1 dd, 1 carrier, 1 ftr"),
    ("1 sub, 1 dd, 2 ftr", "2 sub, 1 dd"),
    ("1 dd, 2 ftr", "3 sub"),
    ("2 ftr, 1 bmb", "2 sub, 1 dd"),
    ("4 sub", "1 dd, 1 cruiser, 1 carrier, 1 ftr"),
    ("2 sub, 1 dd, 1 cruiser", "2 sub, 1 dd, 1 ftr"),
    ("1 bb, 2 sub, 1 ftr", "1 bb, 1 sub, 1 ftr"),
    ("3 sub, 1 dd", "1 carrier, 2 ftr, 1 dd"),
    ("1 dd, 1 sub, 1 bmb", "1 sub, 1 transport, 1 ftr"),
    ("2 sub, 1 cruiser, 1 ftr", "2 sub, 1 dd, 1 transport"),
    ("1 sub, 2 ftr", "2 sub, 1 dd, 1 transport"),
]


def timed(fn, repeat: int = 3):
    best, out = float("inf"), None
    for _ in range(repeat):
        start = time.process_time()
        out = fn()
        best = min(best, time.process_time() - start)
    return best, out


def issue_benchmark() -> None:
    battle = Battle(RULES, Side(ISSUE[0], order_of_loss="best"), Side(ISSUE[1], order_of_loss="best"))
    best_casualties.solve(Battle(RULES, Side("2 inf, 1 ftr", order_of_loss="best"),
                                 Side("2 inf, 1 arm", order_of_loss="best")))  # compile
    t_game, g = timed(lambda: casualties.game(battle))
    t_solve, solved = timed(lambda: casualties.solve_game(g))
    t_forward, _ = timed(lambda: casualties.forward(solved))
    t_fixed, fixed = timed(lambda: casualties.fixed_value(battle))
    pairs = g.A.counts.shape[0] * g.D.counts.shape[0]
    print(f"{ISSUE[0]} vs {ISSUE[1]} (1942-2e, both best, goal take)")
    print(f"  compositions: attacker {g.A.counts.shape[0]:,}, defender {g.D.counts.shape[0]:,}, "
          f"pairs {pairs:,}, best-loss table {g.entries:,} entries")
    print(f"  takes {100 * solved.value:.2f}% both choosing each loss; "
          f"{100 * fixed:.2f}% by the default orders")
    total = t_game + t_solve + t_forward + t_fixed
    print(f"  CPU s: game {t_game:.3f}, backward {t_solve:.3f}, forward {t_forward:.3f}, "
          f"fixed orders {t_fixed:.3f}; goal alone {t_game + t_solve:.3f}, whole answer {total:.3f}")


def costs(candidates: list[tuple[str, str]] = CANDIDATES, sea: bool = False) -> None:
    rows = []
    for attacker, defender in candidates:
        for who in ("attacker", "defender"):
            a = Side(attacker, order_of_loss="best") if who == "attacker" else attacker
            d = Side(defender, order_of_loss="best") if who == "defender" else defender
            battle = Battle(RULES, a, d, sea=sea)
            best = casualties.solve_game(casualties.game(battle)).value
            fixed = casualties.fixed_value(battle)
            rows.append((abs(best - fixed), attacker, defender, who, fixed, best))
    rows.sort(reverse=True)
    goal = "win, at sea" if sea else "take"
    print(f"what the default order costs you (1942-2e, goal {goal}):")
    for gain, attacker, defender, who, fixed, best in rows[:6]:
        print(f"  {attacker} vs {defender}: {who} best {100 * best:.1f}% vs default order {100 * fixed:.1f}% "
              f"({100 * gain:+.1f} points)")


if __name__ == "__main__":
    if "--sea" in sys.argv:
        costs(SEA_CANDIDATES, sea=True)
        sys.exit()
    issue_benchmark()
    if "--costs" in sys.argv:
        costs()
