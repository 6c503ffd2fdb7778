"""A request whose body never comes: answered 408 once its time is up, its slot given back, so
that clients that withhold bodies cannot lock the others out (issue 36: 256 of them gave every
user 503 for as long as they stayed open)."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time

import pytest

pytest.importorskip("uvicorn")

HOST = "127.0.0.1"
WITHHELD = 256  # the server's MAX_REQUESTS: before, each held a request slot until it closed


@pytest.fixture(scope="module")
def server_port():
    from oddsim.web import create_app
    from oddsim.web.server import server_for

    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port = probe.getsockname()[1]
    server = server_for(create_app(host=HOST, port=port), host=HOST, port=port)
    server.install_signal_handlers = lambda: None  # (not the main thread's)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 240
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    yield port
    server.should_exit = True
    thread.join(timeout=10)


def _withhold_body(port: int) -> socket.socket:
    """A connection that sends a battle request's headers, promising a body it never sends."""
    sock = socket.create_connection((HOST, port), timeout=30)
    sock.sendall(f"POST /api/battle HTTP/1.1\r\nHost: {HOST}:{port}\r\nContent-Type: application/json\r\n"
                 f"Content-Length: 100\r\n\r\n".encode())
    return sock


def _rules_status(port: int) -> int:
    connection = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        connection.request("GET", "/api/rules")
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


@pytest.mark.slow
def test_a_body_that_never_comes_is_answered_408_in_one_json_line(server_port):
    from oddsim.web.connections import REQUEST_SECONDS

    sock = _withhold_body(server_port)
    started = time.monotonic()
    try:
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            data = sock.recv(4096)
            if not data:
                break
            answer += data
    finally:
        sock.close()
    assert time.monotonic() - started < REQUEST_SECONDS + 10
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408"), head
    error = json.loads(body)["error"]
    assert "did not arrive" in error and "\n" not in error


@pytest.mark.slow
def test_withheld_bodies_do_not_lock_a_real_user_out(server_port):
    from oddsim.web.connections import REQUEST_SECONDS

    withheld = [_withhold_body(server_port) for _ in range(WITHHELD)]
    try:
        time.sleep(1.0)  # every one of them is in the app, waiting for its body
        # while they wait, a real user may be refused (503: the server is busy) ...
        first = _rules_status(server_port)
        assert first in (200, 503)
        # ... but never for longer than the body's deadline: then every slot is free again
        time.sleep(REQUEST_SECONDS + 1)
        assert _rules_status(server_port) == 200
    finally:
        for sock in withheld:
            sock.close()
