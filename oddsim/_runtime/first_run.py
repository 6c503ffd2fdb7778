"""The line a first run prints while Numba compiles, so that it does not look hung. Numba's
documented event API says when this very process compiles (``numba:compile``, sent on a cache
miss only; ``listen``, which ``jit`` calls): its first compile prints the line, once. Nothing
watches the cache, so files another process writes there (a warm-up) are never this run's compile,
and a program that compiles nothing pays nothing. A program using the Python API then starts the
background warm-up too (the command line does after its answer)."""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any

NOTICE = "oddsim: compiling the engines, first run only..."
PYTHON_NOTICE = ("oddsim: compiling the engines, once per installation: about 20 s for a first "
                 "battle, the other engines in the background (a minute or two); later runs load them")
"""What a program using the Python API (a notebook) is told when its first call compiles."""

_words: str | None = None  # what this process's first compile says (None: nothing)
_said = _enabled = False


def front_end() -> None:
    """Mark this process a front end (the command line, the server it runs): it says ``NOTICE``
    when it first compiles, and answers small battles with its kernels interpreted while the cache
    is cold (``interpreted``)."""
    global _enabled, _words
    _enabled, _words = True, NOTICE


def announce_for_python() -> None:
    """The Python API's first use (``import oddsim``'s names): ``PYTHON_NOTICE`` on stderr when
    this process first compiles, then the background warm-up; not where a front end announces
    (the command line, the server), in a worker process, nor with ``ODDSIM_QUICK_START=0`` (the
    test suite, the warm-up itself)."""
    global _words
    import multiprocessing

    from oddsim._runtime.warm import QUICK_START

    if _words is None and os.environ.get(QUICK_START) != "0" and not multiprocessing.parent_process():
        _words = PYTHON_NOTICE


def is_front_end() -> bool:
    """Whether this process is a front end (``front_end``)."""
    return _enabled


def listen() -> None:
    """Have Numba call ``_compiling`` whenever this process starts compiling a kernel."""
    from numba.core import event

    class Compiles(event.Listener):  # type: ignore[misc]
        def on_start(self, _: Any) -> None:
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
    if not _enabled:  # (the Python API: the other engines compile in the background meanwhile)
        from oddsim._runtime import warm
        from oddsim._runtime.kernel_cache import current_kernel_dir

        warm.start(current_kernel_dir(), announce=False)
