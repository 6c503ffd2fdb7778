"""The jit helper: kernels compile once per argument types, cache under a key of their sources,
and a first run says that it compiles."""

import io
import os
import subprocess
import sys
import types
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from oddsim._runtime import cache_key as _cache_key
from oddsim._runtime import first_run as _first_run
from oddsim._runtime.jit import CACHE_DIR, _decorator

ROOT = Path(__file__).resolve().parents[2]
jit = _decorator(cache=False)  # compiled afresh in each run: the signatures are what it compiled


@jit
def _scaled(x, factor):
    return x * factor


@jit
def _twice_and_thrice(x):
    return _scaled(x, 2) + _scaled(x, 3)


@jit
def _pick(pair, i):
    return pair[i]


@jit
def _first_of_mixed(x):
    return _pick((x, np.zeros(2)), 0)  # a tuple of two types: the index must be a constant


def test_a_constant_argument_does_not_compile_a_copy_per_value():
    assert _twice_and_thrice(7) == 35
    assert [str(sig) for sig in _scaled.called.signatures] == ["(int64, int64)"]


def test_a_kernel_that_needs_its_constant_still_gets_it():
    assert _first_of_mixed(5) == 5
    assert [str(sig[1]) for sig in _pick.called.signatures] == ["Literal[int](0)"]


@jit
def _halved(x):
    return x / 2


@jit
def _halved_twice(x):
    return _halved(_halved(x))


def test_a_kernel_called_by_kernels_and_from_python_compiles_a_wrapper_only_for_python():
    """Kernels call a twin compiled without the Python wrapper; a Python call of the same types
    compiles its own version (the twin has no wrapper to run)."""
    assert _halved_twice(8.0) == 2.0
    assert [str(sig) for sig in _halved.called.signatures] == ["(float64,)"]
    assert _halved.signatures == []
    assert _halved(8.0) == 4.0
    assert [str(sig) for sig in _halved.signatures] == ["(float64,)"]
    assert _halved_twice(6.0) == 1.5


def test_kernels_cache_under_this_version_and_source_key():
    assert CACHE_DIR.name == f"oddsim-{_cache_key.package_version()}-{_cache_key.source_key()}"


def _probe(cache: Path) -> subprocess.CompletedProcess:
    """Compile a small kernel, called as the exact engine calls it, in a fresh process."""
    code = ("from oddsim._runtime.first_run import announce_compiles\n"
            "announce_compiles()\n"
            "exec('from oddsim.engines.dice import hit_chance\\nhit_chance(3, 1, False)', "
            "{'__name__': 'oddsim.engines.exact.probe'})\n")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, check=True)


def test_first_run_announces_the_compile_and_a_warm_run_is_silent(tmp_path):
    first = _probe(tmp_path)
    assert first.stderr == "oddsim: compiling the exact engine, first run only...\n"
    keyed = tmp_path / CACHE_DIR.name
    assert [p.name for p in tmp_path.iterdir()] == [keyed.name]
    assert any(p.suffix == ".nbi" for p in keyed.rglob("*"))
    assert _probe(tmp_path).stderr == ""


def test_engine_named_after_the_calling_package():
    assert _first_run.engine_of("oddsim.engines.exact.solve") == "the exact engine"
    assert _first_run.engine_of("oddsim.engines.montecarlo") == "the Monte Carlo engine"
    assert _first_run.engine_of("oddsim.trench.api") == "The Longest Trench engine"
    assert _first_run.engine_of("oddsim.exactly") == _first_run.OTHER


def _announcing(monkeypatch) -> io.StringIO:
    """Compiles announced afresh (nothing announced yet) to the stream returned."""
    stream = io.StringIO()
    monkeypatch.setattr(_first_run, "_announced", set())
    monkeypatch.setattr(_first_run, "_enabled", False)
    monkeypatch.setattr(_first_run, "_stream", None)
    _first_run.announce_compiles(stream)
    return stream


def test_a_compile_on_a_worker_thread_is_named_after_the_kernel(monkeypatch):
    """A kernel first called on a thread of a pool has no oddsim caller on that thread's stack."""
    stream = _announcing(monkeypatch)

    def kernel():
        pass

    kernel.__module__ = "oddsim.engines.montecarlo._kernel"
    theirs = types.SimpleNamespace(py_func=_twice_and_thrice.py_func)  # this test module's
    with ThreadPoolExecutor(1) as pool:
        pool.submit(_first_run.compiling, theirs).result()
        pool.submit(_first_run.compiling, types.SimpleNamespace(py_func=kernel)).result()
        pool.submit(_first_run.compiling, types.SimpleNamespace(py_func=kernel)).result()
    assert stream.getvalue() == "oddsim: compiling the Monte Carlo engine, first run only...\n"


def test_a_shared_helper_compiled_on_a_worker_thread_after_an_engine_adds_no_line(monkeypatch):
    """A first Monte Carlo run compiles ``_splitmix.mix64`` on a worker thread (no oddsim caller
    on its stack) after announcing the Monte Carlo engine: one line, not a second about
    "oddsim's kernels". Alone, a helper's compile is still announced."""
    stream = _announcing(monkeypatch)

    def kernel():
        pass

    def helper():
        pass

    kernel.__module__ = "oddsim.engines.montecarlo._kernel"
    helper.__module__ = "oddsim._runtime.splitmix"
    with ThreadPoolExecutor(1) as pool:
        pool.submit(_first_run.compiling, types.SimpleNamespace(py_func=kernel)).result()
        pool.submit(_first_run.compiling, types.SimpleNamespace(py_func=helper)).result()
    assert stream.getvalue() == "oddsim: compiling the Monte Carlo engine, first run only...\n"
    monkeypatch.setattr(_first_run, "_announced", set())
    with ThreadPoolExecutor(1) as pool:
        pool.submit(_first_run.compiling, types.SimpleNamespace(py_func=helper)).result()
    assert stream.getvalue().endswith("oddsim: compiling oddsim's kernels, first run only...\n")
