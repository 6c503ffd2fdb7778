"""The line a first run prints while Numba compiles, so that it does not look hung: Numba's public
API says nothing when it compiles rather than loads, but a compile writes the kernel's files into
the cache. So while the cache is cold (``warm`` not done), the command line watches it, and the
first file written there after the command started prints the line, once."""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path
from typing import TextIO

NOTICE = "oddsim: compiling the engines, first run only..."
POLL_SECONDS = 0.2

_enabled = False


def announce_compiles(stream: TextIO | None = None) -> None:
    """Print ``NOTICE`` on ``stream`` (stderr when None) once kernels compile on a cold cache."""
    global _enabled
    from oddsim._runtime import warm
    from oddsim._runtime.cache_key import current_kernel_dir

    _enabled = True
    folder = current_kernel_dir()
    if warm.done(folder):
        return
    def watch() -> None:
        # only a process that has loaded Numba compiles: files written before (a bad input's run,
        # the background warm-up of an earlier command writing meanwhile) are not this run's
        while "numba" not in sys.modules:
            time.sleep(POLL_SECONDS)
        loaded = time.time() - POLL_SECONDS
        while not _written_since(folder, loaded):
            time.sleep(POLL_SECONDS)
        print(NOTICE, file=stream or sys.stderr, flush=True)

    threading.Thread(target=watch, name="oddsim-compile-notice", daemon=True).start()


def announcing() -> bool:
    """Whether this is the command line's run, which announces compiles (``announce_compiles``)."""
    return _enabled


def used_kernels() -> bool:
    """Whether this process loaded Numba (ran kernels, compiled or interpreted): then the
    background warm-up (``warm``) should run, if it has not."""
    return "numba" in sys.modules


def _written_since(folder: Path, since: float) -> bool:
    for root, _, files in os.walk(folder):
        for name in files:
            try:
                if os.stat(os.path.join(root, name)).st_mtime >= since:
                    return True
            except OSError:
                continue
    return False
