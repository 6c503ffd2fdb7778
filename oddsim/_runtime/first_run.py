"""The line a first run prints while Numba compiles, so that it does not look hung: Numba's public
API says nothing when it compiles rather than loads, but a compile writes the kernel's files into
the cache. So while the cache is cold (``warm`` not done) the command line, or a program using
the Python API, watches it: the first file written there after it loaded Numba prints the line,
once; a program then starts the background warm-up too (the command line does after its answer)."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

NOTICE = "oddsim: compiling the engines, first run only..."
PYTHON_NOTICE = ("oddsim: compiling the engines, once per installation: about 20 s for a first "
                 "battle, the other engines in the background (a minute or two); later runs load them")
"""What a program using the Python API (a notebook) is told when its first call compiles."""
POLL_SECONDS = 0.2

_enabled = _python = False


def announce_compiles(stream: TextIO | None = None) -> None:
    """Print ``NOTICE`` on ``stream`` (stderr when None) once kernels compile on a cold cache."""
    global _enabled
    _enabled = True
    _watch(NOTICE, stream)


def announce_for_python() -> None:
    """The Python API's first use (``import oddsim``'s names): ``PYTHON_NOTICE`` on stderr once
    kernels compile on a cold cache, then the background warm-up; not where a front end announces
    (the command line, the server), in a worker process, nor with ``ODDSIM_QUICK_START=0`` (the
    test suite, the warm-up itself)."""
    global _python
    import multiprocessing

    from oddsim._runtime import warm

    if _enabled or _python or os.environ.get(warm.QUICK_START) == "0" or multiprocessing.parent_process():
        return
    _python = True
    _watch(PYTHON_NOTICE, None, lambda folder: warm.start(folder, announce=False))


def _watch(words: str, stream: TextIO | None, then: Callable[[Path], object] | None = None) -> None:
    from oddsim._runtime import warm
    from oddsim._runtime.cache_key import current_kernel_dir

    folder = current_kernel_dir()
    if warm.done(folder):
        return

    def watch() -> None:
        # only a process that has loaded Numba compiles: files written before (a bad input's run,
        # the background warm-up of an earlier command writing meanwhile) are not this run's
        while "numba" not in sys.modules:
            time.sleep(POLL_SECONDS)
        loaded, wait = time.time() - POLL_SECONDS, POLL_SECONDS
        while not _written_since(folder, loaded):
            time.sleep(wait)
            wait = min(1.1 * wait, 5.0)  # (a long-lived program that compiles nothing: less often)
        if then is None or not _enabled:  # (a front end begun meanwhile says its own words)
            print(words, file=stream or sys.stderr, flush=True)
            if then is not None:
                then(folder)

    threading.Thread(target=watch, name="oddsim-compile-notice", daemon=True).start()


def announcing() -> bool:
    """Whether this is the command line's run, which announces compiles (``announce_compiles``)."""
    return _enabled


def used_kernels() -> bool:
    """Whether this process loaded Numba (ran kernels, compiled or interpreted): then the
    background warm-up (``warm``) should run, if it has not."""
    return "numba" in sys.modules


def _written_since(folder: Path, since: float) -> bool:
    return any(_mtime(os.path.join(root, name)) >= since for root, _, files in os.walk(folder)
               for name in files)


def _mtime(path: str) -> float:
    try:
        return os.stat(path).st_mtime
    except OSError:  # (removed meanwhile: Numba's temporary files)
        return 0.0
