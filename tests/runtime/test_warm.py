"""The first week (issue 23): after a new installation's first command, the other engines compile
once in the background, so a later command with a new option does not compile again."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from oddsim._runtime import warm

ROOT = Path(__file__).resolve().parents[2]
NOTICE = "first run only"
WARM_UP_LIMIT_S = 900  # a bound on waiting, never a figure the test checks


def _oddsim(args, cache: Path, switch: str = "1") -> subprocess.CompletedProcess:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), warm.SWITCH: switch}
    return subprocess.run([sys.executable, "-m", "oddsim.cli", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=WARM_UP_LIMIT_S)


def _kernel_dir(cache: Path) -> Path:
    (found,) = [p for p in cache.iterdir() if p.is_dir()]
    return found


@pytest.mark.slow
def test_after_the_first_command_a_new_option_compiles_nothing(tmp_path):
    """Before: each retreat option, Monte Carlo, amphibious and trench compiled again."""
    first = _oddsim(["battle", "-a", "2 inf", "-d", "1 inf", "--quiet"], tmp_path)
    assert first.returncode == 0, first.stderr
    lines = first.stderr.splitlines()
    assert lines[-1] == warm.WARMING and set(lines[:-1]) <= {warm.COMPILING}
    kernels = _kernel_dir(tmp_path)
    deadline = time.monotonic() + WARM_UP_LIMIT_S
    while not warm.done(kernels):
        assert time.monotonic() < deadline, "the background warm-up never finished"
        time.sleep(1)
    assert not warm.running(kernels)
    for args in (["battle", "-a", "6 inf, 3 arm", "-d", "8 inf", "--retreat-below-win", "0.3"],
                 ["battle", "-a", "6 inf, 3 arm", "-d", "8 inf", "--retreat-after-round", "2"],
                 ["battle", "-a", "6 inf, 3 arm", "-d", "8 inf", "--retreat-best", "tuv"],
                 ["battle", "-a", "3 inf", "-d", "2 inf", "--method", "mc", "--runs", "5000"],
                 ["amphibious", "--fleet", "1 bb, 2 trn", "--cargo", "2 inf, 2 arm", "-d", "3 inf"],
                 ["trench", "--attacker", "5,4,3", "--defender", "4,4,4", "--year", "1917"]):
        later = _oddsim(args, tmp_path)
        assert later.returncode == 0, later.stderr
        assert NOTICE not in later.stderr and warm.WARMING not in later.stderr, (args, later.stderr)


def test_a_warm_up_starts_once_per_cache_directory(tmp_path, monkeypatch):
    started = []

    class Popen:
        def __init__(self, *args, **kwargs):
            started.append(args)

    monkeypatch.setenv(warm.SWITCH, "1")
    monkeypatch.setattr(subprocess, "Popen", Popen)
    kernels = tmp_path / "oddsim-0.1.0-0123456789abcdef"
    kernels.mkdir()
    held = warm._lock(kernels)  # a warm-up runs
    assert warm.running(kernels) and warm.start(kernels, announce=False) is None
    held.release()
    assert not warm.running(kernels)
    assert warm.start(kernels, announce=False) is not None and len(started) == 1
    warm._path(kernels, "warm").write_text(warm._identity(kernels))  # it ran to its end
    assert warm.done(kernels) and warm.start(kernels, announce=False) is None
    kernels.rmdir()  # ``oddsim cache clear``: the directory made anew warms again
    kernels.mkdir()
    (kernels / "keep").mkdir()  # (a different inode for the new directory, whatever the file system reuses)
    if not warm.done(kernels):
        assert warm.start(kernels, announce=False) is not None and len(started) == 2
    assert [p.name for p in tmp_path.iterdir() if p.is_dir()] == [kernels.name]  # nothing put inside


@pytest.mark.parametrize("switch", ["0"])
def test_the_switch_turns_it_off(tmp_path, monkeypatch, switch):
    monkeypatch.setenv(warm.SWITCH, switch)
    kernels = tmp_path / "k"
    kernels.mkdir()
    assert warm.start(kernels, announce=False) is None


def test_the_warm_up_finds_the_directory_the_kernels_use():
    """Worked out without importing the jit helper (code that names it is keyed as kernel code)."""
    from oddsim._runtime import jit as _jit
    from oddsim._runtime.kernel_cache import current_kernel_dir

    assert current_kernel_dir() == _jit.CACHE_DIR


def test_a_mark_of_another_installation_is_not_this_ones(tmp_path):
    """Two virtual environments of the same sources share the cache directory's name, but
    Numba files each one's kernels under its own source path: one's warm-up warms nothing of
    the other's."""
    kernels = tmp_path / "kernels"
    kernels.mkdir()
    inode = kernels.stat().st_ino
    warm._path(kernels, "warm").write_text(f"{inode} /elsewhere/site-packages/oddsim\n12.00 s CPU\n")
    assert not warm.done(kernels)
    warm._path(kernels, "warm").write_text(warm._identity(kernels) + "\n12.00 s CPU\n")
    assert warm.done(kernels)

