"""The first hour (issue 35): on a cold kernel cache a small Monte Carlo battle builds its tables
with the kernels interpreted, the same bits as compiled, and compiles only the battles; a program using
the Python API is told at once that the engines compile, and for about how long."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import oddsim
from oddsim._runtime import interpreted, warm
from oddsim.engines.lowering import lower
from oddsim.engines.montecarlo import _model
from oddsim.model.options import battle_of

ROOT = Path(__file__).resolve().parents[2]

PLAIN_BATTLES = [
    dict(rules="1942-2e", attacker="3 inf, 1 art, 1 arm", defender="4 inf, 1 arm"),
    dict(rules="1942-2e", attacker="6 inf, 2 art, 3 arm, 1 ftr", defender="8 inf, 1 arm, 1 aa"),
    dict(rules="1942-2e", attacker="4 inf, 2 arm", defender="5 inf, 1 aa", dice="lowluck"),
    dict(rules="1942-2e", attacker="6 inf, 3 arm", defender="8 inf", retreat={"after_round": 2}),
    dict(rules="1942-2e", attacker="3 inf, 1 arm", defender="3 inf", landed="2 inf", bombard="1 bb"),
    dict(rules="revised", attacker="20 inf, 5 art, 5 arm, 3 ftr", defender="22 inf, 5 arm, 2 ftr"),
]


def _cold(monkeypatch, cold: bool, chosen: list[bool] | None = None) -> None:
    """A cold cache, none of the tables' budget spent (``cold``), or quick starts off."""
    monkeypatch.setattr(interpreted, "cold", lambda: cold)
    monkeypatch.setenv(warm.QUICK_START, "1" if cold else "0")
    monkeypatch.setattr(interpreted, "_tables_spent", 0.0)
    if chosen is not None:
        context = interpreted.interpreting

        def record(on=True):
            chosen.append(on)
            return context(on)
        monkeypatch.setattr(interpreted, "interpreting", record)


@pytest.mark.parametrize("spec", PLAIN_BATTLES, ids=lambda s: f"{s['attacker']} vs {s['defender']}")
def test_monte_carlo_tables_built_interpreted_are_the_compiled_ones_bit_for_bit(spec, monkeypatch):
    battle = battle_of(spec)
    low = lower(battle)
    _cold(monkeypatch, False)
    compiled = _model.KernelModel.build(battle, low).model
    answer = oddsim.simulate(battle, runs=3000, seed=11).to_dict()
    chosen: list[bool] = []
    _cold(monkeypatch, True, chosen)
    by_python = _model.KernelModel.build(battle, low).model
    assert chosen[0] is True  # (the tables were interpreted)
    assert by_python.dtype == compiled.dtype and np.array_equal(by_python, compiled)
    assert oddsim.simulate(battle, runs=3000, seed=11).to_dict() == answer


@pytest.mark.parametrize("spec", PLAIN_BATTLES[:4], ids=lambda s: f"{s['attacker']} vs {s['defender']}")
def test_the_python_apis_exact_answer_on_a_cold_cache_is_the_compiled_one_bit_for_bit(spec, monkeypatch):
    """Its lowering interprets (``tables``), its solve compiles: the same answer, every bit."""
    battle = battle_of(spec)
    _cold(monkeypatch, False)
    compiled = oddsim.solve(battle).to_dict()
    chosen: list[bool] = []
    _cold(monkeypatch, True, chosen)
    assert oddsim.solve(battle).to_dict() == compiled
    assert True in chosen and not interpreted.active()


def test_a_large_battle_uses_the_kernels_that_build_its_tables(monkeypatch):
    units = _model.INTERPRETED_UNITS + 1
    battle = oddsim.Battle(rules="1942-2e", attacker=f"{units} inf", defender="1 inf")
    chosen: list[bool] = []
    _cold(monkeypatch, True, chosen)
    _model.KernelModel.build(battle, lower(battle))
    assert chosen == []  # (nothing interprets)


def test_a_warm_cache_uses_the_kernels_that_build_tables(monkeypatch):
    battle = oddsim.Battle(rules="1942-2e", attacker="3 inf", defender="2 inf")
    chosen: list[bool] = []
    _cold(monkeypatch, True, chosen)
    monkeypatch.setattr(interpreted, "cold", lambda: False)
    _model.KernelModel.build(battle, lower(battle))
    assert chosen == []


def test_once_its_budget_is_spent_a_process_uses_the_kernels_that_build_tables(monkeypatch):
    """(A sweep of many small battles: the kernels, loaded or compiled once, are then faster.)"""
    battle = oddsim.Battle(rules="1942-2e", attacker="3 inf", defender="2 inf")
    chosen: list[bool] = []
    _cold(monkeypatch, True, chosen)
    _model.KernelModel.build(battle, lower(battle))
    assert chosen and 0.0 < interpreted._tables_spent < interpreted.TABLES_BUDGET_SECONDS
    monkeypatch.setattr(interpreted, "_tables_spent", interpreted.TABLES_BUDGET_SECONDS)
    chosen.clear()
    _model.KernelModel.build(battle, lower(battle))
    assert chosen == []


_TEN_LINES = ("import oddsim\n"
              "b = oddsim.Battle(rules='1942-2e', attacker='1 sub, 1 ftr', defender='1 dd', sea=True)\n"
              "print('answer', oddsim.simulate(b, runs=2000, seed=7).attacker_win, flush=True)\n")
"""The README's "Python in ten lines", as a notebook's first cell runs them (Monte Carlo of a
battle with submarines: its battles are what compiles on a cold cache; a plain battle's are
fought with NumPy, see the next test)."""


@pytest.mark.slow
def test_a_plain_monte_carlo_battles_first_run_compiles_nothing(tmp_path):
    """Before: its battle loop compiled, 3 s of CPU (``engines.montecarlo._numpy_plain``)."""
    plain = _TEN_LINES.replace("'1 sub, 1 ftr', defender='1 dd', sea=True",
                               "'2 inf, 1 arm', defender='2 inf'")
    done = _python(plain, tmp_path)
    assert done.returncode == 0, done.stdout
    assert [line.split()[0] for line in done.stdout.splitlines()] == ["answer"]  # (no notice)
    assert not list(tmp_path.rglob("*.nbi"))  # (nothing was compiled into the cache)


def _python(code: str, cache: Path, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=600,
                          env={**os.environ, "NUMBA_CACHE_DIR": str(cache), warm.SWITCH: "0",
                               warm.QUICK_START: "1", **env})


@pytest.mark.slow
def test_the_python_api_says_it_compiles_before_its_first_answer_and_then_no_more(tmp_path):
    """Before: the README's lines on an empty cache were a silent 28 s of CPU."""
    first = _python(_TEN_LINES, tmp_path)
    assert first.returncode == 0, first.stdout
    lines = first.stdout.splitlines()
    assert lines[0] == warm.COMPILING_FOR_PYTHON
    assert "about 20 s" in lines[0] and "once per installation" in lines[0]
    assert [line.split()[0] for line in lines[1:]] == ["answer"]
    again = _python(_TEN_LINES, tmp_path)  # (the kernels load from the cache: nothing to say)
    assert again.stdout.splitlines()[0].split()[0] == "answer" and len(again.stdout.splitlines()) == 1


@pytest.mark.slow
def test_a_machines_run_of_the_python_api_says_nothing(tmp_path):
    """The test suite and the warm-up process (``ODDSIM_QUICK_START=0``) print no notice."""
    done = _python(_TEN_LINES, tmp_path, **{warm.QUICK_START: "0"})
    assert done.returncode == 0, done.stdout
    assert [line.split()[0] for line in done.stdout.splitlines()] == ["answer"]
