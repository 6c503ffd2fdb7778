"""Old kernel cache directories: only ours are listed and removed, a new directory removes its
long-unused siblings, file-system errors are tolerated, and ``oddsim cache`` removes on demand."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from oddsim._runtime import kernel_cache as _kernel_cache
from oddsim.cli import cli

DAY = 86_400
ROOT = Path(__file__).resolve().parents[2]


def kernels(base: Path, name: str, age_days: float = 0, files=("exact_1/_kernel.f-3.py311.nbi",
                                                               "exact_1/_kernel.f-3.py311.1.nbc")) -> Path:
    """A kernel directory as Numba fills it, last used ``age_days`` ago."""
    folder = base / name
    for file in files:
        (folder / file).parent.mkdir(parents=True, exist_ok=True)
        (folder / file).write_bytes(b"12345")
    used = time.time() - age_days * DAY
    os.utime(folder, (used, used))
    return folder


def names(dirs):
    return sorted(d.path.name for d in dirs)


def test_only_directories_named_and_filled_like_ours_are_listed(tmp_path):
    ours = kernels(tmp_path, "oddsim-0.1.0-0123456789abcdef")
    kernels(tmp_path, "oddsim-0.2.0+local-fedcba9876543210", files=("a.nbi", "x/y/b.py311.2.nbc",
                                                                    "c.nbi.tmp.9f3a"))
    kernels(tmp_path, "oddsim-0.1.0-1111111111111111", files=("a.nbi", "notes.txt"))  # a user's file
    kernels(tmp_path, "oddsim-0.1.0-2222222222222222", files=("a.nbi",)).joinpath("link").symlink_to(ours)
    (tmp_path / "oddsim-0.1.0-3333333333333333").symlink_to(ours)  # a link named like ours
    kernels(tmp_path, "oddsim-0.1.0-short", files=("a.nbi",))
    kernels(tmp_path, "numba-stuff", files=("a.nbi",))
    (tmp_path / "oddsim-0.1.0-4444444444444444").write_text("a file")
    found = _kernel_cache.kernel_dirs(tmp_path)
    assert names(found) == ["oddsim-0.1.0-0123456789abcdef", "oddsim-0.2.0+local-fedcba9876543210"]
    assert [d.size for d in sorted(found, key=lambda d: d.path.name)] == [10, 15]


def test_a_new_directory_removes_the_siblings_unused_for_30_days(tmp_path):
    old = kernels(tmp_path, "oddsim-0.0.9-0123456789abcdef", age_days=31)
    recent = kernels(tmp_path, "oddsim-0.1.0-1111111111111111", age_days=29)  # another install, say
    foreign = kernels(tmp_path, "oddsim-0.0.8-2222222222222222", age_days=400, files=("a.nbi", "keep.txt"))
    unrelated = kernels(tmp_path, "somebody-else", age_days=400, files=("a.nbi",))
    current = tmp_path / "oddsim-0.2.0-3333333333333333"
    assert _kernel_cache.prepare(current) == [old]
    assert current.is_dir() and not old.exists()
    assert recent.is_dir() and foreign.joinpath("keep.txt").is_file() and unrelated.is_dir()


def test_a_directory_in_use_is_marked_and_removes_nothing(tmp_path):
    old = kernels(tmp_path, "oddsim-0.0.9-0123456789abcdef", age_days=31)
    current = kernels(tmp_path, "oddsim-0.2.0-3333333333333333", age_days=3)
    now = time.time()
    assert _kernel_cache.prepare(current, now=now) == []
    assert old.is_dir() and current.stat().st_mtime == pytest.approx(now, abs=1)
    used = now - DAY / 2  # used within a day: not written again
    os.utime(current, (used, used))
    _kernel_cache.prepare(current, now=now)
    assert current.stat().st_mtime == pytest.approx(used, abs=1)


def test_file_system_errors_are_tolerated(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    assert _kernel_cache.prepare(blocker / "oddsim-0.2.0-3333333333333333") == []  # cannot mkdir
    old = kernels(tmp_path, "oddsim-0.0.9-0123456789abcdef", age_days=31)
    monkeypatch.setattr(_kernel_cache.shutil, "rmtree", lambda path, ignore_errors: None)  # cannot remove
    assert _kernel_cache.prepare(tmp_path / "oddsim-0.2.0-3333333333333333") == []
    assert old.is_dir()
    assert _kernel_cache.remove([tmp_path / "oddsim-0.0.1-4444444444444444"]) == [
        tmp_path / "oddsim-0.0.1-4444444444444444"]  # removed meanwhile by another process: gone


@pytest.mark.slow
def test_the_engines_prepare_their_directory_when_they_load(tmp_path):
    old = kernels(tmp_path, "oddsim-0.0.9-0123456789abcdef", age_days=31)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    subprocess.run([sys.executable, "-c", "import oddsim._runtime.jit"], cwd=ROOT, env=env, check=True)
    assert not old.exists()
    assert (tmp_path / _kernel_cache.kernel_cache_dir(str(tmp_path)).name).is_dir()


def invoke(tmp_path, *args):
    return CliRunner().invoke(cli, ["cache", *args], env={"NUMBA_CACHE_DIR": str(tmp_path)})


def test_the_cache_command_lists_and_removes_on_demand(tmp_path):
    current = kernels(tmp_path, _kernel_cache.kernel_cache_dir(str(tmp_path)).name)
    week = kernels(tmp_path, "oddsim-0.0.9-0123456789abcdef", age_days=8)
    day = kernels(tmp_path, "oddsim-0.0.8-1111111111111111", age_days=1)
    foreign = kernels(tmp_path, "oddsim-0.0.7-2222222222222222", age_days=90, files=("keep.txt",))
    shown = invoke(tmp_path, "info")
    assert shown.exit_code == 0, shown.output
    assert f"this version: {current.name}, 0.0 MB, used today" in shown.output
    assert "2 other directories" in shown.output and week.name in shown.output
    assert "last used 8 days ago" in shown.output and foreign.name not in shown.output
    pruned = invoke(tmp_path, "prune", "--unused-for", "7")
    assert pruned.exit_code == 0 and pruned.output == "removed 1 kernel directory (0.0 MB)\n"
    assert not week.exists() and day.is_dir()
    assert invoke(tmp_path, "prune").exit_code == 0
    assert not day.exists() and current.is_dir()
    cleared = invoke(tmp_path, "clear")
    assert cleared.exit_code == 0 and "the next run compiles the engines again" in cleared.output
    assert not current.exists() and foreign.joinpath("keep.txt").is_file()


def test_a_bad_age_is_one_line(tmp_path):
    bad = invoke(tmp_path, "prune", "--unused-for", "-1")
    assert bad.exit_code == 2 and bad.output.count("\n") == 1


def test_an_age_past_any_date_removes_nothing(tmp_path):
    """--unused-for with more days than a float holds (before: an OverflowError traceback): no
    directory has been unused that long, so nothing goes."""
    old = kernels(tmp_path, "oddsim-0.0.9-0123456789abcdef", age_days=400)
    pruned = invoke(tmp_path, "prune", "--unused-for", "1" + "0" * 400)
    assert pruned.exit_code == 0, pruned.output
    assert pruned.output == "removed 0 kernel directories (0.0 MB)\n" and old.is_dir()
