"""A fresh ``oddsim serve`` (issue 23): on an empty kernel cache it answers at once with what it
compiles for the request, and warms the other engines in the background; before, it compiled
every engine (35 s) before it served anything."""

from __future__ import annotations

import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from fractions import Fraction
from pathlib import Path

import pytest

from oddsim._runtime import warm

ROOT = Path(__file__).resolve().parents[2]
LIMIT_S = 600  # bounds on waiting, never figures the test checks


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.slow
@pytest.mark.parametrize("quick_start", ["1", "0"], ids=["interpreted first", "compiled first"])
def test_a_fresh_server_answers_before_its_engines_are_all_warm(tmp_path, quick_start):
    """With quick starts (the default) the first answer runs the engine as Python; without, the
    server compiles what the request needs, the warm-up compiling the rest meanwhile."""
    port = _free_port()
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), warm.SWITCH: "1", warm.QUICK_START: quick_start}
    server = subprocess.Popen([sys.executable, "-m", "oddsim.cli", "serve", "--port", str(port)],
                              cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in server.stdout], daemon=True).start()
    said: list[str] = []
    try:
        deadline = time.monotonic() + LIMIT_S
        while not any("serving" in line for line in said):
            assert time.monotonic() < deadline and server.poll() is None, said
            said.append(lines.get(timeout=LIMIT_S))
        body = json.dumps({"attacker": "1 bmb", "defender": "1 bb", "sea": True, "method": "exact"})
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/battle", data=body.encode(), method="POST",
            headers={"Content-Type": "application/json", "Origin": f"http://127.0.0.1:{port}"})
        with urllib.request.urlopen(request, timeout=LIMIT_S) as response:
            answer = json.load(response)
        while not lines.empty():
            said.append(lines.get())
        # DESIGN.md's golden values: 1 bomber vs 1 battleship, 1/16 : 13/16 : 2/16
        assert Fraction(answer["attacker_win"]).limit_denominator(1000) == Fraction(1, 16)
        assert Fraction(answer["defender_win"]).limit_denominator(1000) == Fraction(13, 16)
        # answered before any engine was said ready (before: every engine was, then it served)
        assert not any("ready" in line for line in said), said
        kernels = [p for p in tmp_path.iterdir() if p.is_dir()]
        assert kernels
        # the server started its background warm-up (an interpreted answer may come back before
        # that process, still importing, has taken its lock)
        while not (warm.running(kernels[0]) or warm.done(kernels[0])):
            assert time.monotonic() < deadline and server.poll() is None, "no background warm-up"
            time.sleep(0.1)
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
        for kernels in (p for p in tmp_path.iterdir() if p.is_dir()):
            pid = warm.holder(kernels)
            if pid is not None:  # leave nothing compiling for a cache that is about to go
                os.kill(pid, signal.SIGTERM)
