"""What hostile requests make ``oddsim serve`` hold or do (issue 36): measured on a real server.

Run: python benchmarks/request_bounds.py FIGURE [--checkout DIR] [options]

FIGURE is one of
- ``rss``: the server's resident memory before and after ``--requests`` battles (default 1,000),
  each with its own ruleset of ``--aliases`` aliases (default 24,000) sent as ``ruleset_toml``;
  also counts the answers refused;
- ``latency``: a real user's small battle, its median and worst time over ``--seconds``, alone
  and beside ``--clients`` clients (default 4) sending 246 KiB army texts as fast as they can;
- ``plan-cancel``: how long a plan job whose search for the best split is long (a 20,000
  sub-army pool over two targets) still runs after ``DELETE`` (given up after ``--seconds``);
- ``largest-plan``: the most ``NAME=none`` targets a plan on the issue's pool is accepted with
  (202), tried 1, 2, 4, ... up to 5,000 (each accepted job cancelled at once).

The server is ``oddsim serve`` of ``--checkout`` (default: this one; give an older checkout for
the "before" figure) run as a child process on a free port of 127.0.0.1 (loopback only; nothing
else is connected to) and stopped at the end whatever happens. Bounded: at most 1,000 requests,
16 clients and 300 s of measuring per figure.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

HOST = "127.0.0.1"
HERE = Path(__file__).resolve().parents[1]
RULESET = HERE / "oddsim" / "rulesets" / "1942-2e.toml"
SMALL = {"attacker": "2 inf, 1 arm", "defender": "2 inf"}
"""A real user's small battle (answered on the event loop)."""
MAX_REQUESTS = 1000
MAX_CLIENTS = 16
MAX_SECONDS = 300.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


class Server:
    """``oddsim serve`` of a checkout, as a child process on a free loopback port."""

    def __init__(self, checkout: Path) -> None:
        self.port = free_port()
        env = {**os.environ, "PYTHONPATH": str(checkout)}
        code = "import sys; from oddsim.cli import cli; cli(sys.argv[1:])"
        self.process = subprocess.Popen([sys.executable, "-c", code, "serve", "--port", str(self.port)],
                                        cwd=checkout, env=env, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 300
        while True:
            try:
                if request(self.port, "GET", "/api/rules", timeout=5)[0] == 200:
                    return
            except OSError:
                pass
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.stop()
                raise SystemExit("the server did not start")
            time.sleep(0.2)

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def request(port: int, method: str, path: str, body: object = None, client: str = "bench",
            timeout: float = 120) -> tuple[int, dict]:
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        payload = None if body is None else json.dumps(body)
        connection.request(method, path, payload, {"Content-Type": "application/json",
                                                   "X-Oddsim-Client": client})
        response = connection.getresponse()
        text = response.read()
        try:
            return response.status, json.loads(text)
        except ValueError:
            return response.status, {"text": text[:200].decode(errors="replace")}
    finally:
        connection.close()


def alias_ruleset(number: int, aliases: int) -> str:
    """The 1942-2e file with ``aliases`` more infantry aliases, the first named for request
    ``number`` (each request's ruleset differs), the others as short as they can be (``y0``,
    ``y1``, ... ``yijf``: 24,000 of them fit the server's 256 KiB body)."""
    extra = ", ".join([f'"q{number}"'] + [f'"y{base36(n)}"' for n in range(aliases - 1)])
    return RULESET.read_text().replace('aliases = ["inf"]', f'aliases = ["inf", {extra}]', 1)


def base36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = digits[n % 36]
    while n >= 36:
        n //= 36
        out = digits[n % 36] + out
    return out


def warm(server: Server) -> None:
    """Until a small battle is answered in under 50 ms (a first battle may load or compile the
    kernels: the memory and time that takes are not the requests')."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        began = time.monotonic()
        assert request(server.port, "POST", "/api/battle", SMALL)[0] == 200
        if time.monotonic() - began < 0.05:
            return


def rss(server: Server, args) -> None:
    count = min(args.requests, MAX_REQUESTS)
    warm(server)
    time.sleep(2.0)
    before = server.rss_mb()
    started = time.monotonic()
    statuses: dict[int, int] = {}
    sent = 0
    for number in range(count):
        if time.monotonic() - started > MAX_SECONDS:
            break
        status, _ = request(server.port, "POST", "/api/battle", {
            "ruleset_toml": alias_ruleset(number, args.aliases), "attacker": "2 inf", "defender": "1 inf"})
        statuses[status] = statuses.get(status, 0) + 1
        sent += 1
    print(f"RSS {before:,.0f} MB -> {server.rss_mb():,.0f} MB after {sent:,} battles with rulesets of "
          f"{args.aliases:,} aliases (answers: {statuses}; {time.monotonic() - started:.0f} s)")


def latency(server: Server, args) -> None:
    seconds = min(args.seconds, MAX_SECONDS)

    def user_once() -> float:
        began = time.monotonic()
        status, _ = request(server.port, "POST", "/api/battle", SMALL)
        assert status == 200, status
        return time.monotonic() - began

    def user() -> list[float]:
        times = []
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            times.append(user_once())
            time.sleep(0.01)
        return times

    def hostile(stop: threading.Event, refused: list[int]) -> None:
        body = {"attacker": "1 inf, " * 36_000, "defender": "1 inf"}  # 246 KiB
        while not stop.is_set():
            refused.append(request(server.port, "POST", "/api/battle", body)[0])

    warm(server)
    alone = user()
    stop = threading.Event()
    refused: list[int] = []
    threads = [threading.Thread(target=hostile, args=(stop, refused), daemon=True)
               for _ in range(min(args.clients, MAX_CLIENTS))]
    for thread in threads:
        thread.start()
    try:
        beside = user()
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
    for name, times in (("alone", alone), (f"beside {len(threads)} clients sending 246 KiB armies", beside)):
        print(f"a user's battle {name}: median {statistics.median(times) * 1000:.1f} ms, worst "
              f"{max(times) * 1000:.0f} ms ({len(times)} requests)")
    print(f"the oversized requests: {len(refused)} answered, statuses {sorted(set(refused))}")


def plan_cancel(server: Server, args) -> None:
    body = {"pool": "24 inf, 7 art, 9 arm, 9 ftr", "targets": ["A=1 inf", "B=1 inf"]}
    status, job = request(server.port, "POST", "/api/jobs/plan", body, client="bench-plan")
    if status != 202:
        print(f"the plan was refused ({status}): {job.get('error')}")
        return
    path = f"/api/jobs/{job['id']}"
    while job["state"] == "waiting" or job["done"] < job["total"] or job["total"] == 0:
        time.sleep(0.1)  # until its battles are solved: the search is what is measured
        job = request(server.port, "GET", path, client="bench-plan")[1]
        if job["state"] not in ("waiting", "running"):
            print(f"the plan ended before its search: {job['state']} {job.get('error')}")
            return
    time.sleep(1.0)
    request(server.port, "DELETE", path, client="bench-plan")
    cancelled = time.monotonic()
    while job["state"] in ("waiting", "running"):
        if time.monotonic() - cancelled > min(args.seconds, MAX_SECONDS):
            print(f"a cancelled plan still ran {time.monotonic() - cancelled:.0f} s after DELETE (given up)")
            return
        time.sleep(0.1)
        job = request(server.port, "GET", path, client="bench-plan")[1]
    print(f"a cancelled plan stopped {time.monotonic() - cancelled:.1f} s after DELETE ({job['state']}: "
          f"{job.get('error')})")


def largest_plan(server: Server, args) -> None:
    accepted, count = 0, 1
    while count <= 5000:
        body = {"pool": "12 inf, 4 art, 4 arm, 3 ftr, 1 bmb", "targets": [f"T{n}=none" for n in range(count)]}
        status, job = request(server.port, "POST", "/api/jobs/plan", body, client="bench-largest")
        if status == 202:
            accepted = count
            request(server.port, "DELETE", f"/api/jobs/{job['id']}", client="bench-largest")
            while request(server.port, "GET", f"/api/jobs/{job['id']}",
                          client="bench-largest")[1]["state"] in ("waiting", "running"):
                time.sleep(0.1)
        else:
            print(f"{count:,} empty targets: {status} {job.get('error')}")
        count = count * 2 if count < 4096 else 5000 if count < 5000 else 5001
    print(f"the largest plan accepted (tried 1, 2, 4, ... 4,096, 5,000 empty targets): {accepted:,} targets")


FIGURES = {"rss": rss, "latency": latency, "plan-cancel": plan_cancel, "largest-plan": largest_plan}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("figure", choices=FIGURES)
    parser.add_argument("--checkout", type=Path, default=HERE)
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--aliases", type=int, default=24_000)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args(argv)
    server = Server(args.checkout.resolve())
    try:
        FIGURES[args.figure](server, args)
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
