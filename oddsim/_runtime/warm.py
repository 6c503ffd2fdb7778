"""Compile, once and in the background, every engine a new installation's everyday commands need.

Numba compiles a kernel the first time a command uses it, so a new user met "compiling ... first
run only" again at every new option (a retreat rule, Monte Carlo, an amphibious assault, the
Longest Trench): seconds each. After the first command that compiled anything has printed its
answer, ``start`` launches one background process (``python -m oddsim.cli.warm``, at a low CPU
priority, detached from the terminal) that runs ``COMMANDS``, small battles that between them
use every kernel, into the kernel cache; later commands then load what they need. ``oddsim
serve`` starts it at once and answers meanwhile with what it compiles itself.

One warm-up at a time per cache directory (a lock file held while it runs); once done it leaves
a mark, so it never runs again for that directory (``oddsim cache clear`` makes a new one, which
warms again); ``ODDSIM_BACKGROUND_WARM=0`` turns it off. The lock and the mark sit beside the
cache directory, never in it (``oddsim cache`` removes only directories holding nothing but
Numba's files).
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

COMMANDS: tuple[tuple[str, ...], ...] = (
    ("battle", "-a", "2 inf, 1 arm", "-d", "2 inf", "--method", "mc", "--runs", "2000", "--seed", "1"),
    ("battle", "-a", "2 inf, 1 arm", "-d", "2 inf", "--retreat-after-round", "1"),
    ("battle", "-a", "2 inf, 1 arm", "-d", "2 inf", "--retreat-below-win", "0.3"),
    ("battle", "-a", "2 inf, 1 ftr", "-d", "2 inf", "--retreat-aircraft-risk", "0.5"),
    ("battle", "-a", "2 inf, 1 arm", "-d", "2 inf", "--retreat-best", "tuv"),
    ("amphibious", "--fleet", "1 bb, 1 trn", "--cargo", "1 inf, 1 arm", "-d", "2 inf"),
    ("trench", "--attacker", "5,4,3", "--defender", "4,4,4", "--year", "1917"),
    ("battle", "--rules", "revised", "-a", "2 inf, 1 ftr", "-d", "2 inf, 1 aa"),
    ("battle", "--sea", "-a", "1 sub, 1 ftr", "-d", "1 dd"),
    ("battle", "--sea", "-a", "1 sub, 1 ftr", "-d", "1 dd", "--method", "mc", "--runs", "2000"),
    ("battle", "-a", "2 inf, 1 arm", "-d", "2 inf, 1 aa", "--dice", "lowluck"),
    ("trench", "--attacker", "5,4,3", "--defender", "4,4,4", "--year", "1917", "--method", "mc",
     "--runs", "1000", "--seed", "1"),
    ("raid", "--bombers", "1", "--territory-value", "3"),
    # the sub-army lattice (plans and purchase sweeps) and the at-least-K optimiser
    ("plan", "--pool", "2 inf, 1 arm", "--target", "A=1 inf", "--target", "B=1 inf", "--target", "C=1 inf",
     "--goal", "take-at-least:2"),
)
"""Small ``oddsim`` commands that between them use every kernel of the everyday commands, the
likeliest next ones first."""
NOTICE = ("oddsim: compiling the other engines in the background (first run only), so that "
          "later commands start at once")
"""The one line a first command adds after its answer when it starts the warm-up."""
SWITCH = "ODDSIM_BACKGROUND_WARM"
"""Environment variable: ``0`` starts no background warm-up (the test suite sets it, so that its
commands on fresh caches leave nothing running)."""
NICENESS = 10
"""The warm-up's CPU priority: below the user's own commands, which compile what they need first."""


QUICK_START = "ODDSIM_QUICK_START"
"""Environment variable: ``0`` turns off quick starts (``oddsim._runtime.interpreted``), as in the
warm-up process, which compiles."""

WARM_UP = "oddsim.cli.warm"
"""The module the background process runs (``run`` with the ``oddsim`` command's group)."""


def start(cache_dir: Path, announce: bool = True) -> subprocess.Popen | None:
    """Start the background warm-up for ``cache_dir`` (the kernel cache directory) unless it
    ran to its end already or runs now; says so on stderr when ``announce``. Never raises for
    a file-system error or a missing interpreter: the commands then compile as they always did."""
    if os.environ.get(SWITCH) == "0" or _done(cache_dir) or _running(cache_dir):
        return None
    try:
        process = subprocess.Popen([sys.executable, "-m", WARM_UP], stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   start_new_session=True, cwd=_package_parent(),
                                   env={**os.environ, "PYTHONPATH": _python_path(),
                                     QUICK_START: "0"})  # (it compiles, never interprets)
    except OSError:
        return None
    if announce:
        print(NOTICE, file=sys.stderr, flush=True)
    return process


def running(cache_dir: Path) -> bool:
    """Whether a warm-up of ``cache_dir`` runs now."""
    return _running(cache_dir)


def done(cache_dir: Path) -> bool:
    """Whether the warm-up of ``cache_dir`` ran to its end."""
    return _done(cache_dir)


def holder(cache_dir: Path) -> int | None:
    """The process id of the warm-up of ``cache_dir`` running now, if any."""
    if not _running(cache_dir):
        return None
    try:
        return int(_lock_path(cache_dir).read_text().split()[0])
    except (OSError, IndexError, ValueError):
        return None


def run(command: Callable[[list[str]], object]) -> None:
    """The background process: take the lock (or leave, another warm-up runs), run every
    command of ``COMMANDS`` with ``command`` (the ``oddsim`` command's group: ``oddsim.cli.warm``),
    its output dropped, then mark the cache directory warm."""
    from oddsim._runtime.cache_key import current_kernel_dir

    cache_dir = current_kernel_dir()
    with contextlib.suppress(OSError, AttributeError):  # (no os.nice on Windows)
        os.nice(NICENESS)
    lock = _lock(cache_dir)
    if lock is None:
        return
    with contextlib.suppress(OSError):
        lock.truncate(0)
        lock.write(f"{os.getpid()}\n")  # who holds it (``holder``)
        lock.flush()
    for args in COMMANDS:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            try:
                command(list(args))
            except BaseException:  # noqa: BLE001, S110 - each command exits; one that fails is skipped
                pass
    with contextlib.suppress(OSError):
        times = os.times()
        _mark(cache_dir).write_text(f"{_identity(cache_dir)}\n{times.user + times.system:.2f} s CPU\n")
    lock.close()


def _mark(cache_dir: Path) -> Path:
    return cache_dir.parent / f"{cache_dir.name}.warm"


def _lock_path(cache_dir: Path) -> Path:
    return cache_dir.parent / f"{cache_dir.name}.warming"


def _identity(cache_dir: Path) -> str:
    """What tells this cache directory from one made anew at the same path (its inode), and
    this installation from another of the same sources: Numba keeps each source file's kernels
    apart by its path, so a second virtual environment finds none of the first's, and its
    first commands must be quick starts again, not 20 s of compiling behind a mark."""
    return f"{cache_dir.stat().st_ino} {Path(__file__).resolve().parents[1]}"


def _done(cache_dir: Path) -> bool:
    try:
        return _mark(cache_dir).read_text().split("\n")[0] == _identity(cache_dir)
    except OSError:
        return False


def cpu_seconds(cache_dir: Path) -> float | None:
    """The processor seconds the finished warm-up of ``cache_dir`` took (its mark says)."""
    try:
        return float(_mark(cache_dir).read_text().split("\n")[1].split()[0])
    except (OSError, IndexError, ValueError):
        return None


def _lock(cache_dir: Path):
    """The lock file, held (an exclusive ``flock`` for as long as it is open), or None when
    another process holds it (or locks are not to be had: no warm-up then)."""
    try:
        import fcntl

        handle = open(_lock_path(cache_dir), "a")  # noqa: SIM115 - held open while it runs
    except (ImportError, OSError):
        return None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        return None
    return handle


def _running(cache_dir: Path) -> bool:
    lock = _lock(cache_dir)
    if lock is None:
        return _lock_path(cache_dir).exists()  # held by a warm-up (or no locks: start none)
    lock.close()
    return False


def _package_parent() -> str:
    """The folder holding this oddsim package: the warm-up compiles these very files."""
    return str(Path(__file__).resolve().parents[2])


def _python_path() -> str:
    return os.pathsep.join(p for p in (_package_parent(), os.environ.get("PYTHONPATH", "")) if p)
