"""Idle connections against ``oddsim serve``'s server: do real requests still get answered?

Run: python benchmarks/idle_connections.py [--connections 600] [--seconds 30]

Warms the engines and starts the server ``oddsim serve`` runs (``oddsim.web.server.server_for``)
in this process on a free port of 127.0.0.1 (loopback only; nothing else is ever connected to), opens
``--connections`` sockets that send nothing, then sends real requests (``GET /api/rules`` and a
small ``POST /api/battle``) while they are open and checks each is answered with 200 and JSON.
Then it waits for the server to close the idle sockets (it closes a connection that sends no
whole request within ``connections.REQUEST_SECONDS``) and prints how many it closed and when.
Before: about 511 idle sockets made every real request a plain-text 503.

Bounded: at most 2,000 connections and 60 s; the sockets and the server are closed at the end
whatever happens. Exits 1 when a real request is not answered or an idle socket stays open.
"""

from __future__ import annotations

import argparse
import http.client
import json
import select
import socket
import sys
import threading
import time

HOST = "127.0.0.1"
MAX_CONNECTIONS = 2000
MAX_SECONDS = 60.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def start_server(port: int):
    """The server on ``HOST:port`` in a daemon thread, its engines warmed first as ``oddsim
    serve`` warms them; returns it once it listens."""
    from oddsim.web import create_app
    from oddsim.web.server import server_for
    from oddsim.web.warm_up import warm_up

    warm_up(lambda line: None)

    server = server_for(create_app(host=HOST, port=port), host=HOST, port=port)
    server.install_signal_handlers = lambda: None  # (not the main thread's)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise SystemExit("the server did not start")
        time.sleep(0.02)
    return server, thread


def real_requests(port: int, timeout: float) -> list[tuple[str, int, float, bool]]:
    """(request, status, seconds, answer is JSON) of each real request."""
    out = []
    body = json.dumps({"attacker": "2 inf, 1 arm", "defender": "2 inf"})
    for method, path, payload in (("GET", "/api/rules", None), ("POST", "/api/battle", body)):
        connection = http.client.HTTPConnection(HOST, port, timeout=timeout)
        started = time.monotonic()
        try:
            connection.request(method, path, body=payload,
                               headers={"content-type": "application/json"} if payload else {})
            response = connection.getresponse()
            text = response.read()
            try:
                json.loads(text)
                is_json = True
            except ValueError:
                is_json = False
            out.append((f"{method} {path}", response.status, time.monotonic() - started, is_json))
        except OSError as exc:
            out.append((f"{method} {path} ({exc})", 0, time.monotonic() - started, False))
        finally:
            connection.close()
    return out


def wait_closed(idle: list[socket.socket], seconds: float) -> tuple[int, float]:
    """How many of ``idle`` the server closed within ``seconds``, and when the last one was."""
    open_ = set(idle)
    started = time.monotonic()
    last = 0.0
    while open_ and time.monotonic() - started < seconds:
        ready, _, _ = select.select(list(open_)[:1000], [], [], 0.2)
        for sock in ready:
            try:
                data = sock.recv(1024)
            except OSError:
                data = b""
            if not data:
                open_.discard(sock)
                last = time.monotonic() - started
    return len(idle) - len(open_), last


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--connections", type=int, default=600)
    parser.add_argument("--seconds", type=float, default=30.0, help="the longest it runs (at most 60)")
    args = parser.parse_args(argv)
    count = max(1, min(args.connections, MAX_CONNECTIONS))
    seconds = max(1.0, min(args.seconds, MAX_SECONDS))
    began = time.monotonic()
    port = free_port()
    server, thread = start_server(port)
    idle: list[socket.socket] = []
    try:
        for _ in range(count):
            idle.append(socket.create_connection((HOST, port), timeout=5))
        opened = time.monotonic()
        print(f"{len(idle)} idle connections open to {HOST}:{port}")
        answers = real_requests(port, timeout=max(1.0, seconds - (time.monotonic() - began)))
        for request, status, took, is_json in answers:
            print(f"  {request}: {status} in {took * 1000:.0f} ms{'' if is_json else ' (not JSON)'}")
        left = max(0.5, seconds - (time.monotonic() - began))
        waited = time.monotonic()
        closed, last = wait_closed(idle, left)
        print(f"the server closed {closed} of {len(idle)} idle connections, the last "
              f"{waited + last - opened:.1f} s after all were open")
        ok = all(status == 200 and is_json for _, status, _, is_json in answers) and closed == len(idle)
        return 0 if ok else 1
    finally:
        for sock in idle:
            sock.close()
        server.should_exit = True
        thread.join(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
