"""The jit helper: Numba's public ``njit`` with the project's options, a cache keyed by version and
kernel sources, a first run that says it compiles, and caches that cannot be written or are
damaged never a crash (issue 36)."""

import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import pytest

import oddsim
from oddsim._runtime import jit as _jit
from oddsim._runtime import kernel_cache as _kernel_cache
from oddsim._runtime import warm as _warm

ROOT = Path(__file__).resolve().parents[2]


@_jit.jit
def _halved(x):
    return x / 2


@_jit.jit
def _divided(x, y):
    return x / y


def test_kernels_are_numbas_own_dispatchers_with_the_numpy_error_model():
    assert numba.extending.is_jitted(_halved) and _halved.py_func(8.0) == 4.0
    assert _halved(8.0) == 4.0 and [str(sig) for sig in _halved.signatures] == ["(float64,)"]
    assert math.isinf(_divided(1.0, 0.0))  # NumPy's error model: no ZeroDivisionError


@_jit.hot_jit
def _summed(values, i):
    return values[i] + values[0]


def test_the_one_private_option_is_still_numbas():
    """``hot_jit``'s ``_nrt=False`` (Numba pinned to the versions tested): a Numba that drops it
    fails here, not silently in the engines."""
    assert _summed(np.arange(3.0), 2) == 2.0


def test_kernels_cache_under_this_version_and_source_key():
    assert _jit.CACHE_DIR.name == f"oddsim-{_kernel_cache.package_version()}-{_kernel_cache.source_key()}"


def _run(code: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**os.environ, **env},
                          capture_output=True, text=True, timeout=600)


_PROBE = ("import time\n"
          "from oddsim._runtime.warm import front_end\n"
          "front_end()\n"
          "from oddsim.engines.dice import hit_chance\n"
          "hit_chance(3, 1, False, 6)\n"
          "time.sleep(1)\n")
"""Compile a small kernel in a fresh process as the command line runs one, and linger a moment."""


@pytest.mark.slow
def test_first_run_announces_the_compile_and_a_warm_run_is_silent(tmp_path):
    first = _run(_PROBE, {"NUMBA_CACHE_DIR": str(tmp_path)})
    assert first.returncode == 0, first.stderr
    assert first.stderr == _warm.COMPILING + "\n"
    keyed = tmp_path / _jit.CACHE_DIR.name
    assert [p.name for p in tmp_path.iterdir()] == [keyed.name]
    assert any(p.suffix == ".nbi" for p in keyed.rglob("*"))
    assert _run(_PROBE, {"NUMBA_CACHE_DIR": str(tmp_path)}).stderr == ""


_OTHERS_WRITE = ("import sys, time\n"
                 "from oddsim._runtime.kernel_cache import current_kernel_dir\n"
                 "from oddsim._runtime.warm import front_end\n"
                 "front_end()\n"
                 "folder = current_kernel_dir()\n"
                 "folder.mkdir(parents=True, exist_ok=True)\n"
                 "time.sleep(0.5)\n"
                 "(folder / 'other.nbi').write_bytes(b'')  # (as the background warm-up writes)\n"
                 "time.sleep(1)\n"
                 "assert 'numba' not in sys.modules\n")
"""A run that loads no Numba (a bad input, a listing) while another process writes the cache."""


@pytest.mark.slow
def test_files_another_process_writes_are_no_compile_of_this_run(tmp_path):
    """Before: a bad input's one line came after a false compile notice on a fresh install,
    where the warm-up of an earlier command was writing the cache (CI, tests/cli/test_trench_cli)."""
    done = _run(_OTHERS_WRITE, {"NUMBA_CACHE_DIR": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""


_OWN = ("import numba\n"
        "from oddsim._runtime.warm import front_end\n"
        "front_end()\n"
        "import oddsim._runtime.jit\n"
        "numba.njit(lambda x: x + 1)(1)\n")
"""A program's own Numba function compiled where oddsim's jit helper is loaded."""


@pytest.mark.slow
def test_a_programs_own_numba_functions_are_no_compile_of_oddsims(tmp_path):
    done = _run(_OWN, {"NUMBA_CACHE_DIR": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""


@pytest.mark.slow
def test_a_cache_that_cannot_be_written_compiles_elsewhere_and_says_so_once(tmp_path):
    """Before: ``RuntimeError: cannot cache function`` on every computing command."""
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    done = _run("from oddsim.engines.dice import hit_chance\nprint(hit_chance(3, 1, False, 6))\n",
                {"NUMBA_CACHE_DIR": str(blocker / "cache"), "TMPDIR": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert float(done.stdout) == 0.5
    (line,) = done.stderr.splitlines()
    assert "cannot be written" in line and str(blocker / "cache") in line


def test_a_read_only_compiled_cache_is_used_from_a_copy(tmp_path, monkeypatch, capsys):
    wanted = tmp_path / "read-only" / "oddsim-0.1.0-0123456789abcdef"
    (wanted / "kernels").mkdir(parents=True)
    (wanted / "kernels" / "k.nbi").write_bytes(b"compiled")
    monkeypatch.setattr(_jit.tempfile, "tempdir", str(tmp_path / "temp"))
    (tmp_path / "temp").mkdir()
    monkeypatch.setattr(_jit, "_writable", lambda folder, real=_jit._writable: (
        folder != wanted and real(folder)))
    used = _jit._cache_dir(wanted)
    assert used is not None and used.parent == tmp_path / "temp"
    assert (used / "kernels" / "k.nbi").read_bytes() == b"compiled"
    assert capsys.readouterr().err.count("\n") == 1


def test_no_writable_place_compiles_in_memory(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(_jit, "_writable", lambda folder: False)
    assert _jit._cache_dir(tmp_path / "oddsim-0.1.0-0123456789abcdef") is None
    (line,) = capsys.readouterr().err.splitlines()
    assert "compiling in memory" in line


@pytest.mark.slow
def test_a_damaged_cache_is_one_line_naming_cache_clear(tmp_path):
    """Before: ``UnpicklingError`` tracebacks, and for empty files a false ``oddsim: interrupted``."""
    oddsim.solve(oddsim.Battle(rules="1942-2e", attacker="2 inf", defender="1 inf"))  # (compiled here)
    for kind, damage in (("nbi", b""), ("nbi", b"\x80\x05"), ("nbc", b"\x80\x05")):  # empty, truncated
        cache = tmp_path / f"{kind}{damage.hex()}"
        shutil.copytree(_jit.CACHE_DIR, cache / _jit.CACHE_DIR.name)
        for file in cache.rglob(f"*.{kind}"):
            file.write_bytes(damage)
        done = subprocess.run([sys.executable, "-m", "oddsim.cli", "battle", "-a", "2 inf", "-d", "1 inf"],
                              cwd=ROOT, env={**os.environ, "NUMBA_CACHE_DIR": str(cache)},
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 1
        (line,) = done.stderr.splitlines()
        assert "oddsim cache clear" in line and "damaged" in line


def test_no_module_reaches_into_numba_or_swaps_a_class():
    """Numba through its public API only (issue 31): no ``numba.core`` but its documented event
    API (numba.readthedocs.io, developer/event_api: "for applications to register callbacks"),
    no class swaps."""
    package = Path(oddsim.__file__).parent
    for path in package.rglob("*.py"):
        text = path.read_text(encoding="utf-8").replace("numba.core import event", "")
        assert "numba.core" not in text and ".__class__ = " not in text, path
