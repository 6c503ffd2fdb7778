"""How a request's work runs: the lock Monte Carlo holds where Numba's threads need one, and
the callbacks that report progress and stop work when asked or when its time is up."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext

import numba

from oddsim.web.limits import MC_SECONDS, WebError

Progress = Callable[[int, int], bool]
"""``progress(done, total)``: reports work done; True means stop (the client cancelled)."""

ENGINE_LOCK = threading.Lock()
"""Held by Monte Carlo work when Numba's threading layer is not thread-safe (``workqueue``):
then parallel kernels must not run from two threads at once."""


def engine_guard(mc: bool) -> AbstractContextManager:
    """The lock Monte Carlo work holds, or none where Numba's threads are thread-safe."""
    if not mc:
        return nullcontext()
    try:
        if numba.threading_layer() in ("omp", "tbb"):
            return nullcontext()
    except ValueError:  # no parallel kernel has run yet: the layer is not chosen
        pass
    return ENGINE_LOCK


def stopper(progress: Progress | None, total: int) -> Callable[[int], bool]:
    """``on_chunk`` for Monte Carlo: report progress, stop when asked or MC_SECONDS after the
    first chunk (the clock starts there: compiling the kernels the first time does not count)."""
    deadline: list[float] = []

    def on_chunk(done: int) -> bool:
        stop = progress(done, total) if progress is not None else False
        if not deadline:
            deadline.append(time.monotonic() + MC_SECONDS)
        return stop or time.monotonic() >= deadline[0]

    return on_chunk


def within(seconds: float, progress: Progress | None, overdue: Callable[[int, int], str],
           last_step: bool = False) -> Progress:
    """A job's ``(done, total)`` callback: passed on to ``progress``, and ``seconds`` after the
    first report, while work remains, a WebError with ``overdue(done, total)``'s line
    (``last_step``: work remains after all is done, as a plan's search for its best split, asked
    with ``done == total``)."""
    deadline: list[float] = []

    def report(done: int, total: int) -> bool:
        if not deadline:
            deadline.append(time.monotonic() + seconds)
        elif time.monotonic() > deadline[0] and (done < total or last_step):
            raise WebError(overdue(done, total))
        return progress(done, total) if progress is not None else False

    return report
