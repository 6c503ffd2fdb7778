"""The jit helper: Numba's public ``njit`` with the project's options, a cache keyed by version and
kernel sources, a first run that says it compiles, and caches that cannot be written or are
damaged never a crash (issue 36)."""

import math
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import numba
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


def _read_only_cache(tmp_path, monkeypatch) -> Path:
    """A compiled kernel cache that cannot be written, and an empty temporary folder for its copy."""
    wanted = tmp_path / "read-only" / "oddsim-0.1.0-0123456789abcdef"
    (wanted / "kernels").mkdir(parents=True)
    (wanted / "kernels" / "k.nbi").write_bytes(b"compiled")
    monkeypatch.setattr(_jit.tempfile, "tempdir", str(tmp_path / "temp"))
    (tmp_path / "temp").mkdir()
    monkeypatch.setattr(_jit, "_writable", lambda folder, real=_jit._writable: (
        folder != wanted and real(folder)))
    return wanted


def test_a_read_only_compiled_cache_is_used_from_a_copy(tmp_path, monkeypatch, capsys):
    used = _jit._cache_dir(_read_only_cache(tmp_path, monkeypatch))
    assert used is not None and used.parent == tmp_path / "temp"
    assert (used / "kernels" / "k.nbi").read_bytes() == b"compiled"
    assert capsys.readouterr().err.count("\n") == 1


@pytest.mark.skipif(os.name != "posix", reason="POSIX owners and mode bits")
@pytest.mark.parametrize("whose", ["writable by others", "another user's"])
def test_on_posix_a_copy_someone_else_could_have_written_is_not_used(tmp_path, monkeypatch, capsys, whose):
    """Its kernels would be someone else's code run as this user: compiled in memory instead."""
    wanted = _read_only_cache(tmp_path, monkeypatch)
    if whose == "another user's":
        monkeypatch.setattr(_jit, "_UID", os.getuid() + 1)  # (the copy made below is then not ours)
    planted = tmp_path / "temp" / f"{wanted.name}-{_jit._UID}"
    planted.mkdir()
    planted.chmod(0o777 if whose == "writable by others" else 0o700)
    assert _jit._cache_dir(wanted, posix=True) is None
    assert "compiling in memory" in capsys.readouterr().err
    assert not (planted / "kernels").exists()


def test_on_windows_the_copy_is_used_whatever_its_mode_bits_say(tmp_path, monkeypatch, capsys):
    """Windows' lstat gives every folder st_uid 0 and mode 0o777 (ACLs, not bits, keep its
    temporary folder the user's own): the POSIX test would refuse every copy, compiling in
    memory on every run; the same stat on POSIX is refused."""
    wanted = _read_only_cache(tmp_path, monkeypatch)
    monkeypatch.setattr(_jit, "_UID", 0)  # (os.getuid is missing on Windows: 0)
    copy = tmp_path / "temp" / f"{wanted.name}-0"
    as_windows = os.stat_result((stat.S_IFDIR | 0o777, 0, 0, 1, 0, 0, 0, 0, 0, 0))
    monkeypatch.setattr(Path, "lstat", lambda self, real=Path.lstat: (
        as_windows if self == copy else real(self)))
    assert _jit._cache_dir(wanted, posix=True) is None
    used = _jit._cache_dir(wanted, posix=False)
    assert used == copy and (used / "kernels" / "k.nbi").read_bytes() == b"compiled"
    assert "using a copy" in capsys.readouterr().err


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
    no class swaps, no private compile option (``_nrt=False``, the last, went in session 14)."""
    package = Path(oddsim.__file__).parent
    for path in package.rglob("*.py"):
        text = path.read_text(encoding="utf-8").replace("numba.core import event", "")
        assert "numba.core" not in text and ".__class__ = " not in text and "_nrt" not in text, path
