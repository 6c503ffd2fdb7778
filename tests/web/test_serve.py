"""``oddsim serve`` itself: warms the engines, says so, serves on loopback, stops on a signal."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import urllib.request

import pytest
from click.testing import CliRunner

from oddsim.cli import cli

pytest.importorskip("uvicorn")


def test_serve_warms_up_then_answers_on_loopback():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-c", "from oddsim.cli import main; main()", "serve",
                               "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True)
    try:
        lines = []
        for line in server.stdout:
            lines.append(line)
            if "serving" in line or len(lines) > 30:
                break
        # it serves at once; the engines load meanwhile (tests/web/test_serve_start.py)
        assert f"serving http://127.0.0.1:{port}/" in lines[0] and len(lines) == 1, lines
        assert not any("warning" in line for line in lines)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/rules", timeout=30) as response:
            assert "1942-2e" in [e["name"] for e in json.load(response)["editions"]]
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def test_another_host_than_loopback_is_named_in_a_warning():
    from oddsim.web.server import is_loopback

    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5")


def test_a_bad_port_is_one_line_and_status_2():
    result = CliRunner().invoke(cli, ["serve", "--port", "70000"])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "70000" in result.stderr
