"""Load test of ``oddsim serve``: many clients sending small battles to a local server.

Run: python benchmarks/web_load.py [--clients 50] [--seconds 20] [--distinct N]

Starts ``oddsim serve`` on a free loopback port (127.0.0.1 only), waits until its engines are
warm, then runs ``--clients`` concurrent clients (one thread and one keep-alive connection
each) for ``--seconds``, each sending small battles from a fixed list in turn. The server
answers a request it has seen from memory; ``--fresh`` gives every request its own (unused)
seed, so that none is: the engine solves each one. ``--distinct N`` adds N more land battles.
Prints
requests/s and the p50/p95/p99 latency, and checks that every answer equals ``oddsim.solve``
for its battle (``to_dict()``, float for float; after the timed run, so that the check does not
take CPU from the server on a small machine): exits 1 on any wrong answer or error. The
goal in issue 16: p95 under 50 ms for battles that solve in under 5 ms. Bounded: the run
stops after ``--seconds`` (at most 120) and the server is stopped with it.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time

import oddsim
from oddsim._runtime.warm import QUICK_START

BATTLES = [
    {"attacker": "3 inf, 1 art, 2 arm", "defender": "4 inf, 1 arm"},
    {"attacker": "2 inf, 1 art, 1 ftr", "defender": "3 inf"},
    {"attacker": "1 bmb", "defender": "1 bb", "sea": True},
    {"attacker": "2 sub, 1 dd", "defender": "1 dd, 1 cruiser", "sea": True},
    {"attacker": "4 inf, 1 arm", "defender": "3 inf, 1 aa", "rules": "revised"},
    {"attacker": "2 inf, 2 arm", "defender": "2 inf, 1 ftr", "rules": "anniversary"},
    {"attacker": "3 inf, 2 art", "defender": "4 inf", "retreat": {"after_round": 2}},
    {"attacker": "2 ftr, 1 bmb", "defender": "1 dd, 1 transport", "sea": True, "rules": "global-1940-2e"},
]
MAX_SECONDS = 120


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(port: int) -> subprocess.Popen:
    """``oddsim serve`` on loopback; returns once it says it is serving. Quick starts are off
    (``ODDSIM_QUICK_START=0``): on a kernel cache the background warm-up has not marked done,
    the server would answer with interpreted kernels, which agree with the compiled ones to
    1e-12 but not float for float, and this test measures the warm server."""
    server = subprocess.Popen([sys.executable, "-c", "from oddsim.cli import main; main()", "serve",
                               "--host", "127.0.0.1", "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              env={**os.environ, QUICK_START: "0"})
    for line in server.stdout:
        print("  server:", line.rstrip())
        if "serving" in line:
            break
    else:
        raise SystemExit("the server stopped before serving")
    threading.Thread(target=server.stdout.read, daemon=True).start()  # keep its pipe drained
    for _ in range(100):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return server
        except OSError:
            time.sleep(0.05)
    server.terminate()
    raise SystemExit("the server did not open its port")


def more_battles(n: int) -> list[dict]:
    """``n`` distinct small land battles: 1-4 infantry, 0-2 artillery, 0-2 armor, 0-1 fighter
    against 1-5 infantry, 0-2 armor."""
    bodies = []
    for a_inf in range(1, 5):
        for art in range(3):
            for arm in range(3):
                for ftr in range(2):
                    for d_inf in range(1, 6):
                        for d_arm in range(3):
                            bodies.append({"attacker": f"{a_inf} inf, {art} art, {arm} arm, {ftr} ftr",
                                           "defender": f"{d_inf} inf, {d_arm} arm"})
    return bodies[:n]


def expected_answers() -> list[dict]:
    """Each battle's result from the Python API, as JSON would carry it."""
    answers = []
    for body in BATTLES:
        battle = oddsim.Battle(rules=body.get("rules", "1942-2e"), attacker=body["attacker"],
                               defender=body["defender"], sea=body.get("sea", False),
                               retreat=body.get("retreat"))
        answers.append(json.loads(oddsim.solve(battle).to_json()))
    return answers


def client(port: int, start: int, stop_at: float, answers: list[tuple[int, bytes]], latencies: list[float],
           problems: list[str], fresh: bool) -> None:
    """One client: battles in turn until ``stop_at``, each answer kept (``answers``) to be
    checked after the run, so that checking does not take the CPU the server is timed on."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    i = start
    while time.perf_counter() < stop_at:
        k = i % len(BATTLES)
        i += 1
        # exact answers ignore the seed, but the server's memory of answers does not
        payload = json.dumps({**BATTLES[k], "seed": start * 10**9 + i} if fresh else BATTLES[k])
        began = time.perf_counter()
        try:
            connection.request("POST", "/api/battle", payload, {"Content-Type": "application/json"})
            response = connection.getresponse()
            body = response.read()
        except (OSError, http.client.HTTPException) as exc:
            problems.append(f"battle {k}: {type(exc).__name__}: {exc}")
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            continue
        latencies.append(time.perf_counter() - began)
        if response.status != 200:
            problems.append(f"battle {k}: status {response.status}: {body[:200]!r}")
        else:
            answers.append((k, body))
    connection.close()


def check_answers(answers: list[tuple[int, bytes]], expected: list[dict], problems: list[str]) -> None:
    """Every answer against ``oddsim.solve``'s for its battle (after the timed run)."""
    for k, body in answers:
        if json.loads(body) != expected[k]:
            problems.append(f"battle {k}: the answer differs from oddsim.solve")


def percentile(sorted_values: list[float], q: float) -> float:
    index = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[index]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--fresh", action="store_true", help="no request answered from memory")
    parser.add_argument("--distinct", type=int, default=0, help="more distinct battles (at most 1,080)")
    args = parser.parse_args()
    BATTLES.extend(more_battles(args.distinct))
    seconds = min(args.seconds, MAX_SECONDS)
    expected = expected_answers()
    solve_ms = []
    for body in BATTLES:
        battle = oddsim.Battle(rules=body.get("rules", "1942-2e"), attacker=body["attacker"],
                               defender=body["defender"], sea=body.get("sea", False),
                               retreat=body.get("retreat"))
        began = time.perf_counter()
        oddsim.solve(battle)
        solve_ms.append(1000 * (time.perf_counter() - began))
    print(f"battles: {len(BATTLES)}, in-process solve {min(solve_ms):.2f}-{max(solve_ms):.2f} ms each")
    port = free_port()
    server = start_server(port)
    try:
        latencies: list[float] = []
        problems: list[str] = []
        answers: list[tuple[int, bytes]] = []
        stop_at = time.perf_counter() + seconds
        threads = [threading.Thread(target=client, args=(port, c, stop_at, answers, latencies, problems,
                                                           args.fresh))
                   for c in range(args.clients)]
        began = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - began
    finally:
        server.terminate()
        server.wait(timeout=10)
    check_answers(answers, expected, problems)
    ordered = sorted(latencies)
    if not ordered:
        print("no answers at all")
        return 1
    print(f"{args.clients} clients for {elapsed:.1f} s: {len(ordered):,} answers, "
          f"{len(ordered) / elapsed:,.0f} requests/s")
    p50, p95 = (1000 * percentile(ordered, q) for q in (0.50, 0.95))
    print(f"latency: p50 {p50:.1f} ms, p95 {p95:.1f} ms, "
          f"p99 {1000 * percentile(ordered, 0.99):.1f} ms, mean {1000 * statistics.fmean(ordered):.1f} ms")
    print(f"answers equal to oddsim.solve: {len(ordered) - len(problems):,} of {len(ordered):,}")
    for problem in problems[:10]:
        print("  problem:", problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
