"""A damaged kernel cache: the server answers one line naming ``oddsim cache clear`` (503: no
fault of the request's), not a 500 with an ``UnpicklingError`` (issue 36)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import oddsim
from oddsim._runtime import jit

pytest.importorskip("uvicorn")

ROOT = Path(__file__).resolve().parents[2]
ASK = """
import json
from starlette.testclient import TestClient
from oddsim.web import create_app
with TestClient(create_app(), base_url="http://127.0.0.1", raise_server_exceptions=False) as client:
    answer = client.post("/api/battle", json={"attacker": "2 inf", "defender": "1 inf", "method": "exact"})
print(json.dumps([answer.status_code, answer.json()]))
"""


@pytest.mark.slow
def test_a_damaged_cache_is_a_503_naming_cache_clear(tmp_path):
    oddsim.solve(oddsim.Battle(rules="1942-2e", attacker="2 inf", defender="1 inf"))  # (compiled here)
    cache = tmp_path / "damaged"
    shutil.copytree(jit.CACHE_DIR, cache / jit.CACHE_DIR.name)
    for file in cache.rglob("*.nbc"):
        file.write_bytes(b"\x80\x05")  # truncated
    done = subprocess.run([sys.executable, "-c", ASK], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "NUMBA_CACHE_DIR": str(cache), "ODDSIM_QUICK_START": "0",
                               "ODDSIM_BACKGROUND_WARM": "0"}, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    status, body = json.loads(done.stdout.splitlines()[-1])
    assert status == 503, body
    assert "oddsim cache clear" in body["error"] and "damaged" in body["error"]
    assert "\n" not in body["error"]
