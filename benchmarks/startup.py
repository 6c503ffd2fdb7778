"""Start-up times of the ``oddsim`` command, each in a fresh interpreter, against the goals:
the first battle with an empty Numba cache (exact, and ``--method mc``), a warm battle, the
quick paths (``--help``, ``rules list``, a bad input) that load no engine, the eight everyday
first commands of a new installation in all, and a fresh ``oddsim serve``'s first answer.

    python benchmarks/startup.py               # the figures against the goals
    python benchmarks/startup.py --breakdown   # also: which kernels the first runs compile, how long
    python benchmarks/startup.py --first-week-only --quick   # the eight first commands and serve only
    python benchmarks/startup.py --back-to-back --against DIR --rounds 2   # typed back to back,
        # on an empty cache, without waiting for the warm-up; this checkout and DIR alternating

Cold runs use a fresh ``NUMBA_CACHE_DIR`` (a temporary folder), so they compile everything a
new user's first call compiles; the warm battle reuses what the cold one cached.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
BATTLE = ["battle", "-a", "3 inf, 1 art, 1 arm", "-d", "4 inf, 1 arm", "--quiet"]
MONTE_CARLO = [*BATTLE, "--method", "mc", "--runs", "20000", "--seed", "1"]
NOTICE = "oddsim: compiling"
"""The start of the line a command prints when it compiles an engine itself."""
WARM_UP_NOTICE = "oddsim: compiling the other engines in the background"
"""The start of the line a first command prints after its answer: the background warm-up."""


def compiled_itself(stderr: str) -> bool:
    """Whether a command said it compiles an engine itself (not the background warm-up it starts)."""
    return any(line.startswith(NOTICE) and not line.startswith(WARM_UP_NOTICE)
               for line in stderr.splitlines())


FIRST_WEEK = (
    ("battle", BATTLE),
    ("revised battle with AA", ["battle", "--rules", "revised", "-a", "3 inf, 2 ftr, 1 bmb",
                                "-d", "4 inf, 1 aa", "--quiet"]),
    ("retreat after round", ["battle", "-a", "6 inf, 3 arm", "-d", "8 inf", "--retreat-after-round", "2",
                             "--quiet"]),
    ("retreat below win", ["battle", "-a", "6 inf, 3 arm", "-d", "8 inf", "--retreat-below-win", "0.3",
                           "--quiet"]),
    ("best retreat", ["battle", "-a", "6 inf, 3 arm", "-d", "8 inf", "--retreat-best", "tuv", "--quiet"]),
    ("Monte Carlo", MONTE_CARLO),
    ("amphibious", ["amphibious", "--rules", "1942-2e", "--fleet", "1 bb, 1 cru, 2 trn", "--cargo",
                    "2 inf, 1 art, 1 arm", "-d", "4 inf", "--overland", "2 inf", "--air", "1 ftr"]),
    ("trench", ["trench", "--attacker", "5,4,3", "--attacker-support", "2,0,1", "--defender", "4,4,4",
                "--defender-support", "0,0,3", "--year", "1917"]),
)
"""A new user's eight everyday first commands (issue 23), run one after another on one empty cache."""
FIRST_WEEK_GOAL = 15.0
FIRST_WEEK_EACH = 2.0


class Timing(NamedTuple):
    wall: float
    cpu: float
    """Processor seconds: what the run itself needed, whatever else the machine was doing (summed
    over its processes: a first exact battle compiles in two at once, so its wall time on an idle
    machine is below this)."""


def run_oddsim(args: list[str], cache: str, check: bool = True, env: dict[str, str] | None = None,
               root: Path = ROOT) -> tuple[Timing, str]:
    """Time ``oddsim ARGS`` in a fresh interpreter (the oddsim of checkout ``root``, this one
    unless told); and its stderr. No background warm-up unless ``env`` asks for one (it would run
    into the next timing)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache, "ODDSIM_BACKGROUND_WARM": "0", **(env or {})}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "oddsim.cli", *args], cwd=root, env=env,
                          capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if check and done.returncode != 0:
        raise SystemExit(f"oddsim {' '.join(args)} failed: {done.stderr.strip()}")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return Timing(wall, cpu), done.stderr


def best(repeats: int, args: list[str], cache: str, check: bool = True,
         env: dict[str, str] | None = None) -> Timing:
    return min((run_oddsim(args, cache, check, env)[0] for _ in range(repeats)), key=lambda t: t.wall)


def report(name: str, timing: Timing, goal: float, note: str = "") -> None:
    """One line: wall time against the goal; "CPU met" where only a busy machine's clock missed
    it (the run needed less processor time than the goal)."""
    verdict = "met" if timing.wall < goal else "CPU met" if timing.cpu < goal else "MISSED"
    print(f"  {name:<40} {timing.wall:7.2f} s  ({timing.cpu:6.2f} s CPU)  goal < {goal:<4} s  "
          f"{verdict:<7} {note}")


def figures(repeats: int) -> None:
    print(f"oddsim start-up, {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.1f} (figures on a loaded machine are high)\n")
    with tempfile.TemporaryDirectory() as exact_cache, tempfile.TemporaryDirectory() as mc_cache:
        cold, err = run_oddsim(BATTLE, exact_cache)
        report("first battle, exact, empty Numba cache", cold, 10.0,
               "(said it compiles)" if compiled_itself(err) else "(interpreted: compiled nothing)")
        compiled, err = run_oddsim(BATTLE, exact_cache, env={QUICK_START: "0"})  # (cold still)
        report("first battle, exact, empty cache, compiling", compiled, 10.0,
               "(said it compiles)" if compiled_itself(err) else "(NO compile notice)")
        cold_mc, err = run_oddsim(MONTE_CARLO, mc_cache)
        report("first battle, --method mc, empty cache", cold_mc, 10.0,
               "(said it compiles)" if compiled_itself(err) else "(NO compile notice)")
        loaded = {QUICK_START: "0"}  # (warm: the kernels load from the cache, marked warm or not)
        warm, err = run_oddsim(BATTLE, exact_cache, env=loaded)
        if repeats > 1:
            warm = min(warm, best(repeats - 1, BATTLE, exact_cache, env=loaded), key=lambda t: t.wall)
        report("battle, warm cache", warm, 1.0,
               "(silent)" if not compiled_itself(err) else "(NOTICE on a warm run)")
        report("battle --method mc, warm cache", best(repeats, MONTE_CARLO, mc_cache, env=loaded), 1.0,
               "(for reference)")
        report("oddsim --help", best(repeats, ["--help"], exact_cache), 0.4)
        report("oddsim rules list", best(repeats, ["rules", "list"], exact_cache), 0.4)
        report("bad input (unknown unit)",
               best(repeats, ["battle", "-a", "3 foo", "-d", "1 inf"], exact_cache, check=False), 0.4)


QUICK_START = "ODDSIM_QUICK_START"
"""``0``: a first command compiles what it needs rather than interpreting a small battle."""
INTERPRETED_BATTLES = (
    ("1942-2e", "3 inf, 1 art, 1 arm", "4 inf, 1 arm", False),
    ("1942-2e", "6 inf, 2 art, 3 arm, 1 ftr", "8 inf, 1 arm, 1 aa", False),
    ("1942-2e", "10 inf, 4 art, 4 arm, 2 ftr, 1 bmb", "12 inf, 2 arm, 1 ftr, 1 aa", False),
    ("1942-2e", "20 inf, 5 art, 5 arm, 3 ftr", "22 inf, 5 arm, 2 ftr", False),
    ("1942-2e", "30 inf, 8 art, 8 arm, 4 ftr", "32 inf, 6 arm, 3 ftr", False),
    ("revised", "3 inf, 2 ftr, 1 bmb", "4 inf, 1 aa", False),
    ("revised", "8 inf, 3 arm, 3 ftr, 1 bmb", "9 inf, 1 arm, 1 aa", False),
    ("1942-2e", "2 sub, 2 dd, 1 cru, 2 ftr", "2 dd, 1 cv, 2 ftr, 1 bb", True),
    ("1942-2e", "4 sub, 3 dd, 2 cru, 1 cv, 2 ftr, 2 bb", "3 dd, 2 cv, 4 ftr, 2 bb, 2 sub", True),
)
"""Battles of 9 to 100 units, timed interpreted and compiled (``interpreted_slowdown``)."""


def interpreted_slowdown() -> None:
    """Each of ``INTERPRETED_BATTLES`` solved with its kernels interpreted and compiled (warm, best
    of 3), against the compiled estimate: the interpreted/estimate ratio is what
    ``oddsim._runtime.interpreted.SLOWDOWN`` must bound for a quick start to stay within its budget."""
    import warnings

    os.environ[QUICK_START] = "0"  # (the compiled figures: compiled, whatever the cache)
    sys.path.insert(0, str(ROOT))
    from timing import best_of

    import oddsim
    from oddsim._runtime import interpreted
    from oddsim.stages.pipeline import estimate_seconds

    warnings.simplefilter("ignore")
    print(f"\n{'battle':<70} {'estimate':>9} {'compiled':>9} {'interpreted':>11} {'ratio':>6}  quick start")
    for rules, attacker, defender, sea in INTERPRETED_BATTLES:
        battle = oddsim.Battle(rules=rules, attacker=attacker, defender=defender, sea=sea)
        oddsim.solve(battle)  # (warm: compiled)
        compiled = best_of(3, lambda b=battle: oddsim.solve(b))
        with interpreted.interpreting():
            oddsim.solve(battle)  # (warm: the interpreted code's own first call)
            by_python = best_of(1, lambda b=battle: oddsim.solve(b))
        estimate = estimate_seconds(battle)
        quick = estimate * interpreted.SLOWDOWN <= interpreted.BUDGET_SECONDS
        name = f"{rules} {attacker} vs {defender}"
        print(f"{name:<70} {estimate * 1e3:7.2f}ms {compiled * 1e3:7.2f}ms {by_python * 1e3:9.1f}ms "
              f"{by_python / estimate:6.1f}  {'interpreted' if quick else 'compiles'}")


def first_week(wait_for_warm_up: bool, root: Path = ROOT, warm_up: bool = True) -> list[Timing]:
    """The eight everyday first commands one after another on one empty cache (checkout ``root``):
    each one's time and whether it said it compiles; the total against the goal; returns each
    one's timing. ``wait_for_warm_up``: as in a user's first week, the background warm-up the
    first command starts (``oddsim._runtime.warm``) finishes before the next command (its own time
    is shown apart); else the commands follow at once, typed back to back while it runs (not
    ``warm_up``: none runs, each command compiles what it needs itself, whatever the load)."""
    how = "the warm-up finished before the second" if wait_for_warm_up else "back to back"
    how += "" if warm_up else ", no background warm-up"
    where = "" if root == ROOT else f" ({root})"
    print(f"\nthe first week: eight everyday first commands, one empty cache, {how}{where}")
    timings = []
    with tempfile.TemporaryDirectory() as cache:
        try:
            for number, (name, args) in enumerate(FIRST_WEEK):
                timing, err = run_oddsim(args, cache, env={"ODDSIM_BACKGROUND_WARM": str(int(warm_up))},
                                         root=root)
                timings.append(timing)
                print(f"  {name:<40} {timing.wall:7.2f} s  ({timing.cpu:6.2f} s CPU)  goal < "
                      f"{FIRST_WEEK_EACH} s  {'met' if timing.wall < FIRST_WEEK_EACH else 'MISSED':<7}"
                      f"{'(said it compiles)' if compiled_itself(err) else ''}")
                if number == 0 and wait_for_warm_up:
                    waited = wait_for_warm_up_of(Path(cache))
                    print(f"    (background warm-up: {waited:.1f} s after the answer, "
                          f"{_warm_cpu(Path(cache))} CPU at low priority)")
        finally:
            _stop_warm_up(Path(cache))
    report("the eight, in all", Timing(sum(t.wall for t in timings), sum(t.cpu for t in timings)),
           FIRST_WEEK_GOAL)
    return timings


def back_to_back(rounds: int, against: Path | None, warm_up: bool = True) -> None:
    """``first_week`` back to back, ``rounds`` times; with ``against`` (another checkout, run with
    this interpreter) alternating with it, this one first; then each command's range per checkout.
    On a busy machine the warm-up gets far while each command waits: ``warm_up=False`` shows what
    each compiles itself."""
    roots = [ROOT] if against is None else [ROOT, against.resolve()]
    seen: dict[Path, list[list[Timing]]] = {root: [] for root in roots}
    for _ in range(rounds):
        for root in roots:
            seen[root].append(first_week(wait_for_warm_up=False, root=root, warm_up=warm_up))
    print(f"\nback to back, {rounds} rounds, wall seconds min-max (CPU seconds min-max)")
    print(f"  {'':<28}" + "".join(f"{str(root)[-24:]:>34}" for root in roots))
    for i, (name, _) in enumerate([*FIRST_WEEK, ("the eight, in all", None)]):
        cells = []
        for root in roots:
            runs = [r[i] if i < len(FIRST_WEEK) else Timing(sum(t.wall for t in r), sum(t.cpu for t in r))
                    for r in seen[root]]
            cells.append(f"{min(t.wall for t in runs):6.2f}-{max(t.wall for t in runs):<6.2f}"
                         f"({min(t.cpu for t in runs):6.2f}-{max(t.cpu for t in runs):<6.2f})")
        print(f"  {name:<28}" + "".join(f"{cell:>34}" for cell in cells))


SERVE_GOAL = 10.0
SERVE_BATTLE = {"attacker": "3 inf, 1 art, 1 arm", "defender": "4 inf, 1 arm"}  # method auto


def serve_first_answer() -> Timing:
    """A fresh ``oddsim serve`` on an empty cache: seconds from its start to its first answer (a
    small battle, ``method`` auto), and the processor seconds its process (and its helpers) had
    used by then; then it is stopped, its background warm-up too."""
    import signal
    import socket
    import urllib.error
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "ODDSIM_BACKGROUND_WARM": "1"}
        start = time.perf_counter()
        server = subprocess.Popen([sys.executable, "-m", "oddsim.cli", "serve", "--port", str(port)],
                                  cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/battle", data=json.dumps(SERVE_BATTLE).encode(), method="POST",
            headers={"Content-Type": "application/json", "Origin": f"http://127.0.0.1:{port}"})
        try:
            while True:
                try:
                    with urllib.request.urlopen(request, timeout=600) as response:
                        response.read()
                    break
                except (urllib.error.URLError, ConnectionError):
                    if server.poll() is not None or time.perf_counter() - start > 600:
                        raise SystemExit("oddsim serve never answered") from None
                    time.sleep(0.05)
            wall = time.perf_counter() - start
            cpu = _cpu_of_tree(server.pid)
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(60)
            _stop_warm_up(Path(cache))
    timing = Timing(wall, cpu)
    report("fresh oddsim serve: its first answer", timing, SERVE_GOAL, "(empty cache)")
    return timing


def _cpu_of_tree(pid: int) -> float:
    """Processor seconds of process ``pid`` and its children now, those it waited for included,
    the background warm-up left out (Linux ``/proc``; 0 elsewhere)."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    total = 0.0
    try:
        entries = os.listdir("/proc")
    except OSError:
        return 0.0
    for entry in (e for e in entries if e.isdigit()):
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(entry) == pid:
            total += sum(int(f) for f in fields[11:15]) / tick  # its own and its waited-for children's
        elif int(fields[1]) == pid and b"oddsim.cli.warm" not in _cmdline(entry):  # (fields[1]: the parent)
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def _cmdline(pid: str) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _stop_warm_up(cache: Path) -> None:
    sys.path.insert(0, str(ROOT))
    import signal

    try:
        from oddsim._runtime import warm
    except ImportError:  # an oddsim from before the background warm-up: none to stop
        return

    for kernels in (p for p in cache.iterdir() if p.is_dir()):
        pid = warm.holder(kernels)
        if pid is not None:
            os.kill(pid, signal.SIGTERM)


def wait_for_warm_up_of(cache: Path) -> float:
    """Seconds until the background warm-up of the kernel cache under ``cache`` is done."""
    sys.path.insert(0, str(ROOT))
    from oddsim._runtime import warm

    start = time.perf_counter()
    while True:
        kernels = [p for p in cache.iterdir() if p.is_dir()]
        if kernels and warm.done(kernels[0]):
            return time.perf_counter() - start
        if time.perf_counter() - start > 1800:
            raise SystemExit("the background warm-up did not finish in 30 minutes")
        time.sleep(0.2)


def _warm_cpu(cache: Path) -> str:
    from oddsim._runtime import warm

    kernels = [p for p in cache.iterdir() if p.is_dir()]
    seconds = warm.cpu_seconds(kernels[0]) if kernels else None
    return "?" if seconds is None else f"{seconds:.1f} s"


def breakdown() -> None:
    """Where the first runs' compile time goes: each kernel's own compile time (its callees'
    compiles subtracted) and how many specialisations of it were compiled; for the eight first
    commands in turn on one cache (what each compiles that the ones before it did not)."""
    with tempfile.TemporaryDirectory() as cache:
        for name, args in FIRST_WEEK:
            env = {**os.environ, "NUMBA_CACHE_DIR": cache, QUICK_START: "0"}  # (compile, to time it)
            out = subprocess.run([sys.executable, __file__, "--compile-log", *args], cwd=ROOT,
                                 env=env, capture_output=True, text=True, check=True).stdout
            _print_compiles(name, json.loads(out))


def _print_compiles(name: str, rows: list[dict]) -> None:
    total = sum(row["own"] for row in rows)
    by_kernel: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])
    for row in rows:
        by_kernel[row["kernel"]][0] += row["own"]
        by_kernel[row["kernel"]][1] += 1
    print(f"\n{name}: {total:.1f} s CPU compiling, {len(rows)} compiles")
    print(f"  {'seconds':>7}  {'versions':>8}  kernel")
    numba_own = sum(t for kernel, (t, _) in by_kernel.items() if not kernel.startswith("oddsim."))
    for kernel, (seconds, count) in sorted(by_kernel.items(), key=lambda kv: -kv[1][0]):
        if kernel.startswith("oddsim.") and seconds >= 0.05:
            print(f"  {seconds:7.2f}  {count:8d}  {kernel}")
    print(f"  {numba_own:7.2f}  {'':8s}  Numba's own library functions (np.zeros, error messages...)")


def compile_log(args: list[str]) -> None:
    """Run ``oddsim ARGS`` in this process and print every compile as JSON: kernel, own processor
    seconds (Numba compiles on the calling thread; processor time is steadier than the clock on a
    busy machine)."""
    from numba.core import event

    stack: list[list[float]] = []
    rows: list[dict] = []

    class Recorder(event.Listener):
        def on_start(self, ev):
            stack.append([time.thread_time(), 0.0])

        def on_end(self, ev):
            start, children = stack.pop()
            seconds = time.thread_time() - start
            if stack:
                stack[-1][1] += seconds
            func = ev.data["dispatcher"].py_func
            rows.append({"kernel": f"{func.__module__}.{func.__qualname__}", "own": seconds - children,
                         "args": str(ev.data["args"])})

    event.register("numba:compile", Recorder())
    sys.path.insert(0, str(ROOT))
    from oddsim.cli import cli

    with open(os.devnull, "w") as quiet:
        stdout, sys.stdout = sys.stdout, quiet
        try:
            cli.main(args, prog_name="oddsim")
        except SystemExit:
            pass
        finally:
            sys.stdout = stdout
    print(json.dumps(rows))


def byte_compile(root: Path) -> None:
    """Write the bytecode of checkout ``root``'s package, as installing it does: without it (a
    checkout under ``PYTHONDONTWRITEBYTECODE``) every run compiles each module's source again."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(root / "oddsim")], check=True,
                   stdout=subprocess.DEVNULL, env={**os.environ, "PYTHONDONTWRITEBYTECODE": ""})


def main() -> None:
    if sys.argv[1:2] == ["--compile-log"]:
        compile_log(sys.argv[2:])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="warm runs: best of this many")
    parser.add_argument("--breakdown", action="store_true", help="also time each kernel's compile")
    parser.add_argument("--serve-only", action="store_true", help="only the fresh server's first answer")
    parser.add_argument("--breakdown-only", action="store_true", help="only the compile breakdown")
    parser.add_argument("--quick", action="store_true", help="the first week only as a user has it "
                        "(not also back to back)")
    parser.add_argument("--first-week-only", action="store_true", help="only the eight first commands")
    parser.add_argument("--back-to-back", action="store_true", help="only the eight first commands "
                        "typed back to back on an empty cache, the warm-up they start still running")
    parser.add_argument("--against", type=Path, help="with --back-to-back: another checkout too, "
                        "alternating with this one (e.g. a 'git worktree add' of an older commit)")
    parser.add_argument("--rounds", type=int, default=1, help="with --back-to-back: rounds of each")
    parser.add_argument("--no-warm-up", action="store_true", help="with --back-to-back: no background "
                        "warm-up (each command compiles what it needs itself)")
    parser.add_argument("--interpreted", action="store_true",
                        help="only the interpreted kernels' slowdown against the estimate")
    options = parser.parse_args()
    for root in (ROOT, options.against):
        if root is not None:
            byte_compile(root)
    if options.back_to_back:
        back_to_back(options.rounds, options.against, warm_up=not options.no_warm_up)
        return
    if options.interpreted:
        interpreted_slowdown()
        return
    if options.breakdown_only:
        breakdown()
        return
    if options.serve_only:
        serve_first_answer()
        return
    if not options.first_week_only:
        figures(options.repeats)
    first_week(wait_for_warm_up=True)
    if not options.quick:
        first_week(wait_for_warm_up=False)
    serve_first_answer()
    if options.breakdown:
        breakdown()


if __name__ == "__main__":
    main()
