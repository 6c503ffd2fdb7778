"""A real user's answers while 256 clients send a request's headers and withhold its body (issue 36):
the server answers 503 while every request slot waits for a body, and once each body's deadline
(``oddsim.web.connections.REQUEST_SECONDS`` after its headers) has passed, 200 again.

    python benchmarks/withheld_bodies.py                 # this checkout
    python benchmarks/withheld_bodies.py --checkout DIR  # another one (a folder holding oddsim/)

Everything stays on loopback; the run is bounded (256 sockets, ``--seconds`` of requests).
"""

from __future__ import annotations

import argparse
import http.client
import socket
import statistics
import sys
import threading
import time

HOST = "127.0.0.1"
WITHHELD = 256


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", default=None, help="a folder holding the oddsim package to time")
    parser.add_argument("--seconds", type=float, default=12.0, help="how long the user keeps asking")
    args = parser.parse_args(argv)
    if args.checkout:
        sys.path.insert(0, args.checkout)
    from oddsim.web import create_app
    from oddsim.web.server import server_for

    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port = probe.getsockname()[1]
    server = server_for(create_app(host=HOST, port=port), host=HOST, port=port)
    server.install_signal_handlers = lambda: None  # (not the main thread's)
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)

    def ask() -> tuple[int, float]:
        connection = http.client.HTTPConnection(HOST, port, timeout=30)
        started = time.monotonic()
        connection.request("GET", "/api/rules")
        response = connection.getresponse()
        response.read()
        connection.close()
        return response.status, time.monotonic() - started

    print(f"alone: {ask()[1] * 1000:.1f} ms")
    withheld = []
    for _ in range(WITHHELD):
        sock = socket.create_connection((HOST, port))
        sock.sendall(f"POST /api/battle HTTP/1.1\r\nHost: {HOST}:{port}\r\nContent-Type: application/json"
                     f"\r\nContent-Length: 100\r\n\r\n".encode())
        withheld.append(sock)
    started = time.monotonic()
    answers = []
    while time.monotonic() - started < args.seconds:
        status, seconds = ask()
        answers.append((time.monotonic() - started, status, seconds))
        time.sleep(0.25)
    for sock in withheld:
        sock.close()
    served = [seconds * 1000 for _, status, seconds in answers if status == 200]
    first = next((at for at, status, _ in answers if status == 200), None)
    print(f"beside {WITHHELD} withheld bodies: {len(answers)} requests, {len(served)} answered 200, "
          f"{sum(status == 503 for _, status, _ in answers)} refused 503")
    print("first 200 after " + (f"{first:.1f} s" if first is not None else "never"))
    if served:
        print(f"median latency of the answered: {statistics.median(served):.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
