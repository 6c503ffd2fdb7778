"""A new installation's first runs. A process says when it compiles, so that it does not look hung:
Numba's documented event API (``numba:compile``, sent on a cache miss in this very process;
``listen``, which ``jit`` calls) prints ``COMPILING`` (a front end) or ``COMPILING_FOR_PYTHON`` at
its first compile; files another process writes into the cache are never this run's. Then every
engine the everyday commands need compiles once, in the background: ``start`` launches one detached
process (``python -m oddsim.cli.warm``, at a low CPU priority) that runs ``COMMANDS`` into the kernel
cache, after a command's answer, at a program's first compile, or at once for ``oddsim serve``. One
warm-up at a time per cache directory (a ``filelock`` lock, on every platform); once done, a mark
beside the directory says so and it never runs again for it (``oddsim cache clear`` makes a new
one, which warms again); ``ODDSIM_BACKGROUND_WARM=0`` turns it off."""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from oddsim._runtime.exits import EXIT_INTERRUPTED

if TYPE_CHECKING:
    import subprocess

COMMANDS: tuple[tuple[str, ...], ...] = (
    ("battle", "-a", "2 inf, 1 arm", "-d", "2 inf", "--method", "mc", "--runs", "2000", "--seed", "1"),
    ("trench", "--attacker", "5,4,3", "--defender", "4,4,4", "--year", "1917"),
    ("battle", "-a", "2 inf, 1 arm", "-d", "2 inf", "--retreat-after-round", "1"),
    ("battle", "-a", "2 inf, 1 arm", "-d", "2 inf", "--retreat-below-win", "0.3"),
    ("battle", "-a", "2 inf, 1 ftr", "-d", "2 inf", "--retreat-aircraft-risk", "0.5"),
    ("battle", "-a", "2 inf, 1 arm", "-d", "2 inf", "--retreat-best", "tuv"),
    ("amphibious", "--fleet", "1 bb, 1 trn", "--cargo", "1 inf, 1 arm", "-d", "2 inf"),
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
"""Small commands that between them use every kernel of the everyday ones: Monte Carlo's and the
trench's first (a cold cache answers them with NumPy only within a budget), then likeliest first."""
COMPILING = "oddsim: compiling the engines, first run only..."
COMPILING_FOR_PYTHON = ("oddsim: compiling the engines, once per installation: about 20 s for a first "
                        "battle, the other engines in the background (a minute or two); later runs load them")
"""What a program using the Python API (a notebook) is told when its first call compiles."""
WARMING = ("oddsim: compiling the other engines in the background (first run only), so that "
           "later commands start at once")
"""The one line a first command adds after its answer when it starts the warm-up."""
SWITCH = "ODDSIM_BACKGROUND_WARM"
"""Environment variable: ``0`` starts no background warm-up (the test suite sets it)."""
QUICK_START = "ODDSIM_QUICK_START"
"""Environment variable: ``0`` turns off quick starts (``interpreted``), as in the warm-up process."""

_words: str | None = None  # what this process's first compile says (None: nothing)
_said = _front_end = False


def front_end() -> None:
    """Mark this process a front end (the command line, the server it runs): it says ``COMPILING``
    at its first compile, and answers small battles interpreted on a cold cache (``interpreted``)."""
    global _front_end, _words
    _front_end, _words = True, COMPILING


def is_front_end() -> bool:
    """Whether this process is a front end (``front_end``)."""
    return _front_end


def announce_for_python() -> None:
    """The Python API's first use (``import oddsim``'s names): ``COMPILING_FOR_PYTHON`` when this
    process first compiles, then the background warm-up; not in a front end, in a worker process,
    nor with ``ODDSIM_QUICK_START=0`` (the test suite, the warm-up itself)."""
    global _words
    import multiprocessing

    if _words is None and os.environ.get(QUICK_START) != "0" and not multiprocessing.parent_process():
        _words = COMPILING_FOR_PYTHON


def listen() -> None:
    """Have Numba call ``_compiling`` as this process starts compiling one of oddsim's kernels."""
    from numba.core import event

    class Compiles(event.Listener):  # type: ignore[misc]
        def on_start(self, started: Any) -> None:
            if getattr(started.data["dispatcher"].py_func, "__module__", "").startswith("oddsim."):
                _compiling()

        def on_end(self, _: Any) -> None:
            pass

    event.register("numba:compile", Compiles())


def _compiling() -> None:
    """Say the words asked for, on the first compile only (Numba compiles under its own lock)."""
    global _said
    if _said or _words is None:
        return
    _said = True
    with contextlib.suppress(OSError, ValueError):  # (a closed stream: a compile never fails for it)
        print(_words, file=sys.stderr, flush=True)
    if not _front_end:  # (the Python API: the other engines compile in the background meanwhile)
        from oddsim._runtime.kernel_cache import current_kernel_dir

        start(current_kernel_dir(), announce=False)


def start(cache_dir: Path, announce: bool = True) -> subprocess.Popen | None:
    """Start the warm-up of ``cache_dir`` unless it ran to its end or runs now; says so on stderr
    when ``announce``. Never raises for a file-system error or a missing interpreter."""
    import subprocess  # (here: ``import oddsim`` need not load it)

    if os.environ.get(SWITCH) == "0" or done(cache_dir) or running(cache_dir):
        return None
    package_parent = str(Path(__file__).resolve().parents[2])  # it compiles these very files
    path = os.pathsep.join(p for p in (package_parent, os.environ.get("PYTHONPATH", "")) if p)
    try:  # (``oddsim.cli.warm`` runs ``run`` with the ``oddsim`` group)
        process = subprocess.Popen([sys.executable, "-m", "oddsim.cli.warm"], stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   start_new_session=True, cwd=package_parent,
                                   env={**os.environ, "PYTHONPATH": path, QUICK_START: "0"})
    except OSError:
        return None
    if announce:
        print(WARMING, file=sys.stderr, flush=True)
    return process


def running(cache_dir: Path) -> bool:
    """Whether a warm-up of ``cache_dir`` runs now (holds the lock, or none can be had)."""
    lock = _lock(cache_dir)
    if lock is not None:
        lock.release()
    return lock is None


def done(cache_dir: Path) -> bool:
    """Whether the warm-up of ``cache_dir`` ran to its end (for this directory and installation)."""
    try:
        return _path(cache_dir, "warm").read_text().split("\n")[0] == _identity(cache_dir)
    except OSError:
        return False


def holder(cache_dir: Path) -> int | None:
    """The process id of the warm-up of ``cache_dir`` running now, if any."""
    try:
        return int(_path(cache_dir, "warming.pid").read_text().split()[0]) if running(cache_dir) else None
    except (OSError, IndexError, ValueError):
        return None


def cpu_seconds(cache_dir: Path) -> float | None:
    """The processor seconds the finished warm-up of ``cache_dir`` took (its mark says)."""
    try:
        return float(_path(cache_dir, "warm").read_text().split("\n")[1].split()[0])
    except (OSError, IndexError, ValueError):
        return None


def run(command: Callable[[list[str]], object]) -> None:
    """The background process: take the lock (or leave: another warm-up runs), run each of
    ``COMMANDS`` with ``command`` (the ``oddsim`` group), output dropped, then mark the cache warm."""
    from oddsim._runtime.kernel_cache import current_kernel_dir

    cache_dir = current_kernel_dir()
    with contextlib.suppress(OSError, AttributeError):  # (no os.nice on Windows)
        os.nice(10)  # (below the user's own commands)
    lock = _lock(cache_dir)
    if lock is None:
        return
    with contextlib.suppress(OSError):
        _path(cache_dir, "warming.pid").write_text(f"{os.getpid()}\n")
    for args in COMMANDS:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            try:
                command(list(args))
            except SystemExit as stop:  # (each command exits)
                if stop.code == EXIT_INTERRUPTED:
                    return  # SIGTERM or Ctrl-C: stop here, the cache not marked warm
            except Exception:  # noqa: BLE001, S110 - a command that fails is skipped
                pass
    with contextlib.suppress(OSError):
        cpu = os.times().user + os.times().system
        _path(cache_dir, "warm").write_text(f"{_identity(cache_dir)}\n{cpu:.2f} s CPU\n")
    lock.release()


def _path(cache_dir: Path, suffix: str) -> Path:
    return cache_dir.parent / f"{cache_dir.name}.{suffix}"


def _identity(cache_dir: Path) -> str:
    """This cache directory (its inode: one made anew at the same path is another) and this
    installation (Numba files kernels by source path: another virtual environment has none)."""
    return f"{cache_dir.stat().st_ino} {Path(__file__).resolve().parents[1]}"


def _lock(cache_dir: Path) -> Any:
    """The warm-up's lock, held, or None when another process holds it (or none can be had)."""
    from filelock import FileLock, Timeout

    lock = FileLock(_path(cache_dir, "warming"), thread_local=False)
    try:
        lock.acquire(timeout=0)
    except (Timeout, OSError):
        return None
    return lock
