"""Quick starts (issue 23): on a cold kernel cache a small exact battle runs its kernels as Python
instead of compiling them, and answers what the compiled kernels answer."""

from __future__ import annotations

import importlib
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numba
import pytest

import oddsim
from oddsim._runtime import interpreted, warm
from oddsim._runtime.kernel_cache import kernel_cache_dir
from oddsim.engines.exact import _plain, cost
from oddsim.model.options import battle_of

ROOT = Path(__file__).resolve().parents[2]
TOLERANCE = 1e-12
"""Numba's pow/exp/log round differently from the C library's: the last digit or two move."""

BATTLES = [
    dict(rules="1942-2e", attacker="3 inf, 1 art, 1 arm", defender="4 inf, 1 arm"),
    dict(rules="1942-2e", attacker="6 inf, 2 art, 3 arm, 1 ftr", defender="8 inf, 1 arm, 1 aa"),
    dict(rules="revised", attacker="3 inf, 2 ftr, 1 bmb", defender="4 inf, 1 aa"),
    dict(rules="1942-2e", attacker="2 sub, 2 dd, 1 cru, 2 ftr", defender="2 dd, 1 cv, 2 ftr, 1 bb", sea=True),
    dict(rules="1942-2e", attacker="2 sub, 1 ftr", defender="1 dd, 1 cv, 2 ftr", sea=True,
         crash_fighters=True),
    dict(rules="1942-2e", attacker="4 inf, 2 arm", defender="5 inf, 1 aa", dice="lowluck"),
    dict(rules="1942-2e", attacker="6 inf, 3 arm", defender="8 inf", retreat={"after_round": 2}),
    dict(rules="1942-2e", attacker="6 inf, 3 arm", defender="8 inf", retreat={"below_win": 0.3}),
    dict(rules="1942-2e", attacker="6 inf, 3 arm", defender="8 inf", retreat={"best": "tuv"}),
    dict(rules="1942-2e", attacker="3 inf, 1 arm", defender="3 inf", landed="2 inf", bombard="1 bb"),
]


def _close(compiled, interpreted_value, path: str = "") -> None:
    """Every number of two answers within ``TOLERANCE`` (relative to its size), the rest equal."""
    if isinstance(compiled, dict):
        assert compiled.keys() == interpreted_value.keys(), path
        for key in compiled:
            _close(compiled[key], interpreted_value[key], f"{path}.{key}")
    elif isinstance(compiled, list):
        assert len(compiled) == len(interpreted_value), path
        for i, (a, b) in enumerate(zip(compiled, interpreted_value, strict=True)):
            _close(a, b, f"{path}[{i}]")
    elif isinstance(compiled, float):
        assert math.isclose(compiled, interpreted_value, rel_tol=TOLERANCE, abs_tol=TOLERANCE), path
    else:
        assert compiled == interpreted_value, path


@pytest.mark.parametrize("spec", BATTLES, ids=lambda s: f"{s['attacker']} vs {s['defender']}")
def test_interpreted_kernels_answer_what_compiled_ones_do(spec):
    battle = battle_of(spec)
    compiled = oddsim.solve(battle).to_dict()
    with interpreted.interpreting():
        assert interpreted.active()
        by_python = oddsim.solve(battle).to_dict()
    assert not interpreted.active()
    _close(compiled, by_python)


def test_an_interpreted_call_runs_the_kernels_python_functions_and_compiles_nothing():
    """No dispatcher is touched: the copy of the call reads each kernel's ``py_func``."""
    solve = importlib.import_module("oddsim.engines.exact.solve")
    with interpreted.interpreting():
        interpreted.carried(solve._solve)
        copy = interpreted._stand_in(solve._solve)
    assert copy is not solve._solve and copy.__code__ is solve._solve.__code__
    assert copy.__globals__["_plain"].solve_plain is not _plain.solve_plain
    assert copy.__globals__["_plain"].solve_plain.__code__ is _plain.solve_plain.py_func.__code__
    inner = copy.__globals__["_plain"].solve_plain.__globals__
    assert all(not numba.extending.is_jitted(value) for value in inner.values())
    assert interpreted.carried(solve._solve) is solve._solve  # (not interpreting: as it is)


def test_the_thread_that_runs_a_call_interprets_as_its_caller_chose():
    seen = []
    with interpreted.interpreting():
        run = interpreted.carried(lambda: seen.append(interpreted.active()))
    run()  # (as a worker thread runs it: outside the block)
    assert seen == [True]
    interpreted.carried(lambda: seen.append(interpreted.active()))()
    assert seen == [True, False]


@pytest.fixture
def cold_cache(tmp_path, monkeypatch):
    """A fresh kernel cache directory with quick starts on; the verdict worked out afresh."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv(warm.QUICK_START, "1")
    monkeypatch.setattr(interpreted, "_verdict", None)
    monkeypatch.setattr(warm, "_front_end", True)  # (as the front ends have it)
    directory = kernel_cache_dir(str(tmp_path))
    directory.mkdir(parents=True, exist_ok=True)
    return directory


def test_a_cold_cache_interprets_small_battles_only(cold_cache, monkeypatch):
    assert interpreted.cold()
    assert interpreted.worth_it(interpreted.BUDGET_SECONDS / interpreted.SLOWDOWN)
    assert not interpreted.worth_it(2 * interpreted.BUDGET_SECONDS / interpreted.SLOWDOWN)
    monkeypatch.setenv(warm.QUICK_START, "0")
    assert not interpreted.cold() and not interpreted.worth_it(0.0)
    monkeypatch.setenv(warm.QUICK_START, "1")
    monkeypatch.setattr(warm, "_front_end", False)  # the Python API: always compiled
    assert interpreted.cold() and not interpreted.worth_it(0.0)


def test_once_the_warm_up_is_done_the_cache_is_warm(cold_cache, monkeypatch):
    assert interpreted.cold()
    warm._path(cold_cache, "warm").write_text(f"{warm._identity(cold_cache)}\n1.0 s CPU\n")
    monkeypatch.setattr(interpreted, "_verdict", (interpreted._verdict[0] - 2 * interpreted.RECHECK_SECONDS,
                                                  True))  # (the last look was over a second ago)
    assert not interpreted.cold()


def test_a_large_battle_on_a_cold_cache_still_compiles(cold_cache, monkeypatch):
    chosen = []
    monkeypatch.setattr(interpreted, "interpreting", _recording(interpreted.interpreting, chosen))
    monkeypatch.setattr(cost, "seconds", lambda work: 1.0)  # (a second compiled)
    oddsim.solve(oddsim.Battle(rules="1942-2e", attacker="3 inf", defender="2 inf"))
    assert chosen[-1] is False  # the solve itself (the lowering before it interprets: True)


def _recording(context, chosen):
    def record(on=True):
        chosen.append(on)
        return context(on)
    return record


@pytest.mark.slow
def test_a_first_command_answers_without_compiling(tmp_path):
    """Before: the first battle on an empty cache said "compiling the exact engine" and took 12 s
    (21 s of processor time) on two cores; now nothing compiles and the answer is the same."""
    args = ["battle", "--rules", "revised", "-a", "3 inf, 2 ftr, 1 bmb", "-d", "4 inf, 1 aa", "--json"]
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), warm.QUICK_START: "1", warm.SWITCH: "0"}
    first = subprocess.run([sys.executable, "-m", "oddsim.cli", *args], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    assert first.stderr == ""  # no "compiling ..., first run only"
    assert not list(tmp_path.rglob("*.nbi"))  # and nothing was compiled into the cache
    compiled = oddsim.solve(oddsim.Battle(rules="revised", attacker="3 inf, 2 ftr, 1 bmb",
                                          defender="4 inf, 1 aa")).to_dict()
    # (the command line's JSON adds the readings of the rules: none for an edition as shipped)
    _close(json.loads(json.dumps({**compiled, "readings": {}})), json.loads(first.stdout))
