"""A corpus of answers that a change of structure must not move: 300+ varied battles (every
edition, land and sea, exact and seeded Monte Carlo, retreats, Low Luck, tech, orders of loss),
waves, counter-attacks, amphibious assaults, raids, Longest Trench battles and purchase rows,
each as its JSON. ``tests/test_answer_corpus.py`` compares a fresh corpus with the stored one
byte for byte.

    python benchmarks/answer_corpus.py            # print the corpus (one JSON line per answer)
    python benchmarks/answer_corpus.py --write    # store it as tests/data/answer_corpus.jsonl

Regenerate the stored file only for a change that is meant to move answers, and say so.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Iterator
from pathlib import Path

from oddsim.model.options import battle_of

STORED = Path(__file__).resolve().parents[1] / "tests" / "data" / "answer_corpus.jsonl"

LAND = {
    "1942-2e": ["inf", "art", "arm", "ftr", "bmb"],
    "global-1940-2e": ["inf", "art", "mech", "arm", "ftr", "tac", "bmb"],
    "revised": ["inf", "art", "arm", "ftr", "bmb"],
    "anniversary": ["inf", "art", "arm", "ftr", "bmb"],
    "europe-1999": ["inf", "art", "arm", "ftr", "bmb"],
}
SEA = {
    "1942-2e": ["sub", "dd", "cru", "cv", "bb", "ftr"],
    "global-1940-2e": ["sub", "dd", "cru", "cv", "bb", "ftr"],
    "revised": ["sub", "dd", "cv", "bb", "ftr"],
    "anniversary": ["sub", "dd", "cru", "cv", "bb", "ftr"],
    "europe-1999": ["sub", "dd", "cv", "bb", "ftr"],
}
DEFENDER_EXTRA = {"1942-2e": "aa", "global-1940-2e": "aa", "revised": "aa", "anniversary": "aa",
                  "europe-1999": "aa"}


def _army(rng: random.Random, units: list[str], most: int, can_attack: bool = True) -> str:
    chosen = rng.sample(units, rng.randint(1, min(3, len(units))))
    return ", ".join(f"{rng.randint(1, most)} {unit}" for unit in chosen)


def _battles(rng: random.Random, count: int) -> Iterator[tuple[dict, dict]]:
    """(the Battle's options, how to run it) for ``count`` battles."""
    editions = sorted(LAND)
    for n in range(count):
        rules = editions[n % len(editions)]
        sea = n % 3 == 2
        units = SEA[rules] if sea else LAND[rules]
        attacker = _army(rng, units, 4)
        defender = _army(rng, [u for u in units if u != "bmb"] or units, 4)
        if not sea and rng.random() < 0.3:
            defender += f", 1 {DEFENDER_EXTRA[rules]}"
        options: dict = {"rules": rules, "attacker": attacker, "defender": defender, "sea": sea}
        roll = rng.random()
        if roll < 0.15:
            options["retreat"] = {"after_round": rng.randint(1, 3)}
        elif roll < 0.25:
            options["retreat"] = {"best": "tuv"}
        elif roll < 0.3:
            options["retreat"] = {"units_left": 1}
        if rng.random() < 0.15:
            options["dice"] = "lowluck"
        if not sea and rng.random() < 0.2:
            options["keep_land"] = 1
        if rng.random() < 0.1:
            options["ool_attacker"] = ",".join(reversed(units[:3]))
        if sea and rng.random() < 0.3:
            options["defender_submerge"] = "alone"
        run = {"method": "mc", "runs": 3000, "seed": n} if rng.random() < 0.25 else {"method": "exact"}
        yield options, run


def corpus() -> Iterator[str]:
    """Every answer of the corpus, as one line of JSON (keys sorted)."""
    import oddsim
    from oddsim.api import run_amphibious, run_battle, run_counter_attack, run_waves
    from oddsim.purchase import sweep
    from oddsim.raid import Raid, run_raid
    from oddsim.stages.amphibious import Amphibious
    from oddsim.stages.waves import Wave
    from oddsim.trench import TrenchBattle, run_trench

    def line(kind: str, given: dict, answer: dict) -> str:
        return json.dumps({"kind": kind, "given": given, "answer": answer}, sort_keys=True)

    def answer(make) -> dict:
        """The answer's JSON, or the error a bad combination gets (errors must not move either)."""
        try:
            return make().to_dict()
        except oddsim.OddsimError as error:
            return {"error": str(error)}

    rng = random.Random(2026)
    for options, run in _battles(rng, 240):
        yield line("battle", {**options, **run},
                   answer(lambda o=options, r=run: run_battle(battle_of(o), **r)))
    for n in range(20):
        rules = sorted(LAND)[n % 5]
        first = {"rules": rules, "attacker": _army(rng, LAND[rules], 3),
                 "defender": _army(rng, LAND[rules], 4)}
        later = [_army(rng, LAND[rules], 3)]
        run = {"method": "mc", "runs": 2000, "seed": n} if n % 4 == 3 else {"method": "exact"}
        waves = [Wave(attacker=w, defender_reinforcements="1 inf" if n % 2 else None) for w in later]
        yield line("waves", {**first, "waves": later, **run},
                   answer(lambda f=first, w=waves, r=run: run_waves(battle_of(f), w, **r)))
    for n in range(10):
        rules = sorted(LAND)[n % 5]
        first = {"rules": rules, "attacker": _army(rng, LAND[rules], 4),
                 "defender": _army(rng, ["inf", "art"], 3)}
        counter = _army(rng, ["inf", "arm"], 3)
        yield line("counter", {**first, "counter": counter},
                   answer(lambda f=first, c=counter:
                          run_counter_attack(battle_of(f), c, method="exact")))
    for n in range(12):
        rules = sorted(LAND)[n % 5]
        given = {"rules": rules, "fleet": "1 bb, 2 trn" if n % 2 else "1 dd, 1 trn",
                 "cargo": "2 inf, 1 arm" if n % 2 else "1 inf, 1 art",
                 "defender": _army(rng, ["inf", "arm"], 3),
                 "sea_defender": None if n % 3 else "1 dd", "air": "1 ftr" if n % 4 == 1 else None}
        yield line("amphibious", given,
                   answer(lambda g=given: run_amphibious(Amphibious(**g), method="exact")))
    for n in range(10):
        rules = sorted(LAND)[n % 5]
        given = {"rules": rules, "bombers": 1 + n % 3, "territory_value": 4 + n}
        if rules == "global-1940-2e":
            given = {"rules": rules, "bombers": 1 + n % 3, "facility": "major", "escorts": n % 2,
                     "interceptors": 1}
        yield line("raid", given, answer(lambda g=given: run_raid(Raid(**g), method="exact")))
    for n in range(8):
        given = {"attacker": "5,4,3" if n % 2 else "6,-,4", "defender": "4,4,4" if n % 3 else "5,3,-",
                 "year": 1916 + n % 3, "attacker_support": "2,0,1" if n % 2 else "1,0,0",
                 "defender_support": "0,0,3" if n % 3 else "1,0,0", "points": 1 + n % 3}
        yield line("trench", given, answer(lambda g=given: run_trench(TrenchBattle(**g), method="exact")))
    for goal in ("take", "hold", "tuv"):
        given = {"rules": "1942-2e", "budget": 18, "units": "inf,art,arm,ftr",
                 "against": "3 inf, 1 arm", "goal": goal}
        table = sweep(**given)
        for row in table.records():
            yield line("purchase", given, row)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"store the corpus as {STORED}")
    args = parser.parse_args()
    lines = list(corpus())
    if args.write:
        STORED.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"wrote {len(lines)} answers to {STORED}")
    else:
        print("\n".join(lines))


if __name__ == "__main__":
    main()
