"""Exact-engine speed: warm solve times of battles of growing size, side by side with aacalc2.

Run: python benchmarks/exact.py [--rounds N] [--aacalc2 PATH] [--stages]

aacalc2 (https://github.com/mshih01/aacalc2, TypeScript, the fastest exact calculator we know)
is measured in the same run, on the same battles, when a built checkout is found at ``--aacalc2``
or ``$AACALC2_DIR``; build it outside this repository (it needs Node 18 or newer):

    git clone https://github.com/mshih01/aacalc2 ~/aacalc2
    cd ~/aacalc2 && npm install && npx tsc
    AACALC2_DIR=~/aacalc2 python benchmarks/exact.py

Without it those columns are left out. aacalc2 is timed in one Node process: each battle is
solved for a second (at least 30 times) before the median of 31 solves is taken, so that V8 has
compiled its hot code to the top tier (with 3 warm-up solves, as first written, its small battles
took 2 to 4 times longer: 1.27 instead of 0.80 ms on land 20 vs 18, 2.3 instead of 0.7 ms on
naval 7 vs 6). Ours are warmed the same way, then the median of 31 solves of one ``Battle``. The
"fresh" column
is the median of 31 solves each of a new, equal ``Battle`` (made outside the timer): what remembers
a battle between calls (a size handed from ``exact_size`` to the ``solve`` that follows it)
cannot serve it, only what every battle of the edition shares (its unit and technology
tables); no result is ever kept. The ratios are taken on it. With ``--rounds N`` the two are
run alternately N times and every ratio is printed (the machine's load changes between runs).
``--cpu`` times processor time instead of the clock, ours (``time.process_time``) and aacalc2's
(``process.cpuUsage``): on a machine other processes load, the clock counts the time they take
the core away, which made the ratios swing from 1.5x to 3.2x between two rounds of one run.
aacalc2 runs with its prune threshold of 1e-12 (its tests' setting); ours cuts far less (hit
tails under 1e-17, moves under 1e-18).

``--stages`` splits each fresh solve into where its time goes (medians of 31, each stage on its
own): lowering the ``Battle`` to arrays and class layouts, preparing the side tables and the
start mass, the DP kernel (of which the call itself, its records handed over by
``_kernel.solve_kernel``, is about what a 1 vs 1 battle's kernel takes), and building the result;
with aacalc2, next to a tenth of its time (what ten times its speed allows). A small plain
battle is solved without the separate prepare and DP calls: its side tables, DP and the
result's sums run in one kernel call (``one call``, from ``oddsim.engines.exact._plain``), and
``prepare`` and ``kernel`` then say what those stages take on their own. ``fixed`` is the solve
less the DP's own work (``kernel`` less ``call``): lowering, side tables, calls and the result.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import oddsim
from oddsim.engines.exact import _kernel, _plain
from oddsim.model.order_of_loss import LossKind
from oddsim.stages.pipeline import estimate_work

# the exact engine's module (``oddsim.engines.exact.solve`` names its function): ``--stages`` times its parts
exact_solve = importlib.import_module("oddsim.engines.exact.solve")


@dataclass(frozen=True)
class Case:
    name: str
    rules: str
    attacker: str
    defender: str
    sea: bool
    peer: bool  # aacalc2 plays this one too (1942-2e rules, its unit set)


CASES = [
    Case("land 5 vs 5", "1942-2e", "3 inf, 1 art, 1 arm", "4 inf, 1 arm", False, True),
    Case("land 20 vs 18", "1942-2e", "10 inf, 4 art, 3 arm, 2 ftr, 1 bmb", "12 inf, 2 art, 2 arm, 2 ftr",
         False, True),
    Case("land 66 vs 61", "1942-2e", "30 inf, 10 art, 15 arm, 8 ftr, 3 bmb", "40 inf, 5 art, 10 arm, 6 ftr",
         False, True),
    Case("land 150 vs 150", "1942-2e", "80 inf, 30 art, 30 arm, 10 ftr", "100 inf, 30 arm, 20 ftr", False,
         False),
    Case("naval 7 vs 6", "1942-2e", "2 sub, 2 dd, 1 cru, 2 ftr", "1 bb, 1 cv, 2 ftr, 2 sub", True, True),
    Case("naval 24 vs 17", "1942-2e", "8 sub, 4 dd, 2 cru, 6 ftr, 4 bmb", "2 bb, 2 cv, 4 ftr, 6 sub, 3 dd",
         True, True),
    Case("naval 40 vs 27 (G40)", "global-1940-2e", "12 sub, 8 dd, 4 cru, 10 ftr, 6 tac",
         "4 bb, 3 cv, 6 ftr, 8 sub, 6 dd", True, False),
]

# our 1942-2e unit names -> aacalc2's unit identifiers
PEER_UNITS = {"infantry": "inf", "artillery": "art", "armor": "arm", "fighter": "fig", "bomber": "bom",
              "submarine": "sub", "destroyer": "des", "cruiser": "cru", "carrier": "acc",
              "battleship": "bat", "aa_gun": "aa", "transport": "tra"}

# times aacalc2's multiwaveExternal in one Node process; reads the warm-up and [{name, input}] on stdin
NODE_DRIVER = """
import { pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
const { multiwaveExternal } = await import(pathToFileURL(process.argv[2] + '/dist/index.js').href);
const given = JSON.parse(readFileSync(0, 'utf8'));
const { warm_up_seconds: warmSeconds, warm_up_solves: warmSolves, cpu, jobs } = given;
// the clock, in ns: the wall clock, or with ``cpu`` the process's processor time (user + system)
const clock = cpu ? () => { const used = process.cpuUsage(); return (used.user + used.system) * 1000; }
                  : () => Number(process.hrtime.bigint());
for (const job of jobs) {
  let out;
  const start = process.hrtime.bigint();
  for (let n = 0; n < warmSolves || Number(process.hrtime.bigint() - start) < warmSeconds * 1e9; n++) {
    out = multiwaveExternal(job.input);
  }
  const times = [];
  for (let i = 0; i < 31; i++) {
    const t = clock();
    multiwaveExternal(job.input);
    times.push((clock() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  console.log(JSON.stringify({ name: job.name, ms: times[15], attacker_survives: out.attack.survives[0] }));
}
"""

WARM_UP_SECONDS = 1.0
"""How long each side solves a battle before it is timed (at least ``WARM_UP_SOLVES`` times)."""
WARM_UP_SOLVES = 30
clock = time.perf_counter
"""What the solves are timed by: the wall clock, or with ``--cpu`` the process's processor time
(``time.process_time``; aacalc2's likewise, ``process.cpuUsage``), steadier on a loaded machine."""


def battle_of(case: Case) -> oddsim.Battle:
    return oddsim.Battle(rules=case.rules, attacker=case.attacker, defender=case.defender, sea=case.sea)


def peer_input(battle: oddsim.Battle, sea: bool) -> dict:
    """aacalc2's input for the same battle, with the same orders of loss."""
    def group(force, steps) -> dict:
        ool = []
        for step in steps:
            if step.kind is LossKind.KILL and PEER_UNITS[step.unit] not in ool:
                ool.append(PEER_UNITS[step.unit])
        units = {PEER_UNITS[name]: n for name, n in force.counts}
        return {"units": units, "ool": ool, "takes": 0, "aaLast": False}

    wave = {"attack": group(battle.attacker.army, battle.attacker.steps),
            "defense": group(battle.defender.army, battle.defender.steps),
            "att_submerge": False, "def_submerge": False, "att_dest_last": False,
            "def_dest_last": False, "is_crash_fighters": False, "rounds": 100, "retreat_threshold": 0}
    return {"wave_info": [wave], "debug": False, "prune_threshold": 1e-12,
            "report_prune_threshold": 1e-12, "is_naval": sea, "in_progress": False, "num_runs": 1,
            "verbose_level": 0, "diceMode": "standard", "sortMode": "unit_count", "retreat_round_zero": True}


def peer_times(checkout: Path, cases: list[Case]) -> dict[str, dict]:
    """aacalc2's median warm time (ms) and attacker survival per battle, one Node process."""
    jobs = {"warm_up_seconds": WARM_UP_SECONDS, "warm_up_solves": WARM_UP_SOLVES,
            "cpu": clock is not time.perf_counter,
            "jobs": [{"name": c.name, "input": peer_input(battle_of(c), c.sea)} for c in cases]}
    with tempfile.TemporaryDirectory() as tmp:
        driver = Path(tmp) / "driver.mjs"
        driver.write_text(NODE_DRIVER)
        done = subprocess.run(["node", str(driver), str(checkout)], input=json.dumps(jobs), text=True,
                              capture_output=True, check=True)
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return {row["name"]: row for row in rows}


def our_ms(case: Case, repeat: int = 31, fresh: bool = False) -> float:
    """Median of ``repeat`` warm solves of the case's battle, in ms; ``fresh``: each of a new
    ``Battle`` (made outside the timer), else all of one."""
    battle = battle_of(case)
    start, solves = time.perf_counter(), 0
    while solves < WARM_UP_SOLVES or time.perf_counter() - start < WARM_UP_SECONDS:  # as aacalc2's
        oddsim.solve(battle_of(case) if fresh else battle)
        solves += 1
    times = []
    for _ in range(repeat):
        if fresh:
            battle = battle_of(case)
        start = clock()
        oddsim.solve(battle)
        times.append(clock() - start)
    return statistics.median(times) * 1000


def median_us(step, battles: list[oddsim.Battle]) -> float:
    """Median time of ``step(battle)`` over ``battles`` (each a new, equal one), in us."""
    times = []
    for battle in battles:
        start = clock()
        step(battle)
        times.append(clock() - start)
    return statistics.median(times) * 1e6


def kernel_and_result_us(battles: list[oddsim.Battle]) -> tuple[float, float]:
    """Medians of the exact DP kernel and of building the result from its arrays, each battle
    prepared outside the timers, in us."""
    kernel, result = [], []
    for battle in battles:
        prepared = exact_solve.prepare(battle)
        work = prepared.work(prepared.end)
        args = (prepared.A, prepared.D, _kernel.Start(prepared.start_idx, prepared.start_val), work,
                prepared.rules, prepared.settings(), prepared.retreat, prepared.air_alive, prepared.between(),
                None, None)
        start = clock()
        ends, rounds, pruned = _kernel.solve_kernel(*args)
        kernel.append(clock() - start)
        start = clock()
        exact_solve._result(battle, prepared, ends, work.x1, work.outcome, work.w1, rounds, pruned)
        result.append(clock() - start)
        prepared.done(work, ends)
    return statistics.median(kernel) * 1e6, statistics.median(result) * 1e6


STAGES = ("solve", "lower", "prepare", "kernel", "call", "one call", "result", "fixed")
"""``stages_us``'s keys: the whole solve, its stages, the kernel's fixed cost (``call``), the
one kernel call of a small plain battle (``one call``: side tables, DP and sums; 0 where the
battle takes ``prepare``), and the solve's fixed cost (``fixed``: all but the DP's own work)."""


def one_call_us(battles: list[oddsim.Battle]) -> float:
    """Median of the one kernel call that solves a small plain battle (``_plain.solve_plain``),
    each battle lowered outside the timer, in us; 0 for battles ``prepare`` takes."""
    times = []
    for battle in battles:
        low, a, d = exact_solve.size(battle).lowered
        if not exact_solve._is_plain(battle, low, a, d):
            return 0.0
        args = exact_solve.plain_inputs(low, a, d)
        start = clock()
        _plain.solve_plain(*args)
        times.append(clock() - start)
    return statistics.median(times) * 1e6


def stages_us(case: Case, repeat: int = 31) -> dict[str, float]:
    """Where a fresh solve of the case's battle goes: each stage's median, timed on its own
    (``STAGES``); ``call`` is the kernel's time on a 1 vs 1 battle of the same kind."""
    def fresh(of: Case = case) -> list[oddsim.Battle]:
        return [battle_of(of) for _ in range(repeat)]

    our_ms(case, repeat=1, fresh=True)  # warm
    one = Case("1 vs 1", case.rules, "1 dd" if case.sea else "1 inf", "1 dd" if case.sea else "1 inf",
               case.sea, False)
    lower = median_us(exact_solve.size, fresh())
    kernel, result = kernel_and_result_us(fresh())
    prepare = median_us(lambda b: exact_solve.prepare(b, exact_solve.size(b).lowered), fresh()) - lower
    solve, call = median_us(oddsim.solve, fresh()), kernel_and_result_us(fresh(one))[0]
    return {"solve": solve, "lower": lower, "prepare": prepare, "kernel": kernel, "call": call,
            "one call": one_call_us(fresh()), "result": result, "fixed": solve - (kernel - call)}


def print_stages(cases: list[Case], peer: dict[str, dict]) -> None:
    """``--stages``: each battle's fresh solve by stage, in us, and a tenth of aacalc2's time."""
    print("where a fresh solve goes (us; medians, each stage timed on its own; 'call': the kernel on 1 vs 1)")
    print(f"{'battle':22s} " + " ".join(f"{name:>8s}" for name in STAGES) + f" {'aacalc2/10':>10s}")
    for case in cases:
        times = stages_us(case)
        tenth = f"{peer[case.name]['ms'] * 100:10.1f}" if case.name in peer else ""
        print(f"{case.name:22s} " + " ".join(f"{times[name]:8.1f}" for name in STAGES) + f" {tenth}")


def cold_cli_seconds(repeat: int = 3) -> float:
    """Wall time of a whole `oddsim battle` process, Numba cache already filled."""
    args = [sys.executable, "-m", "oddsim.cli", "battle", "--rules", "1942-2e",
            "-a", "3 inf, 1 art, 2 arm", "-d", "4 inf, 1 arm"]
    subprocess.run(args, check=True, capture_output=True)  # fill the cache
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(args, check=True, capture_output=True, env=dict(os.environ))
        best = min(best, time.perf_counter() - start)
    return best


def find_checkout(given: str | None) -> Path | None:
    path = given or os.environ.get("AACALC2_DIR")
    if path and (Path(path).expanduser() / "dist" / "index.js").is_file():
        return Path(path).expanduser()
    if path:
        print(f"no built aacalc2 at {path} (run `npm install && npx tsc` there); skipping it")
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--aacalc2", help="a built aacalc2 checkout (default: $AACALC2_DIR)")
    parser.add_argument("--rounds", type=int, default=1, help="alternate ours and aacalc2 this many times")
    parser.add_argument("--no-cli", action="store_true", help="skip the cold CLI call")
    parser.add_argument("--stages", action="store_true", help="also split each fresh solve into its stages")
    parser.add_argument("--cpu", action="store_true", help="time processor time, not the wall clock")
    args = parser.parse_args()
    if args.cpu:
        global clock
        clock = time.process_time
    checkout = find_checkout(args.aacalc2)
    peers = [c for c in CASES if c.peer] if checkout else []
    ratios: dict[str, list[float]] = {c.name: [] for c in peers}
    peer: dict[str, dict] = {}
    for round_no in range(args.rounds):
        if args.rounds > 1:
            print(f"-- round {round_no + 1} of {args.rounds}")
        peer = peer_times(checkout, peers) if checkout else {}
        print(f"{'battle':22s} {'states':>9s} {'ours ms':>9s} {'fresh ms':>9s} {'aacalc2 ms':>11s}"
              f" {'ratio':>7s}  {'att. survives':>13s} {'aacalc2 survives':>16s}")
        for case in CASES:
            battle = battle_of(case)
            same_ms = our_ms(case)
            ms = our_ms(case, fresh=True)
            states, _ = estimate_work(battle)
            result = oddsim.solve(battle)
            # aacalc2's "survives" is the chance the attacker has units left: wins and stalemates
            survives = result.attacker_win + result.stalemate
            line = f"{case.name:22s} {states:9,d} {same_ms:9.3f} {ms:9.3f}"
            if case.name in peer:
                theirs = peer[case.name]
                ratios[case.name].append(theirs["ms"] / ms)
                line += (f" {theirs['ms']:11.3f} {theirs['ms'] / ms:6.1f}x  {survives:13.6f}"
                         f" {theirs['attacker_survives']:16.6f}")
            else:
                line += f" {'':11s} {'':7s}  {survives:13.6f}"
            print(line)
    if args.rounds > 1 and peers:
        print("ratios (aacalc2 / ours) per round:")
        for name, values in ratios.items():
            print(f"  {name:22s} " + " ".join(f"{v:5.1f}x" for v in values)
                  + f"   median {statistics.median(values):.1f}x")
    if args.stages:
        print_stages([c for c in CASES if c.peer], peer)
    if not args.no_cli:
        print(f"cold `oddsim battle` call, cache filled: {cold_cli_seconds():.2f} s")


if __name__ == "__main__":
    main()
