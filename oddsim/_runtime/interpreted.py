"""A first run answers with the kernels as plain Python while Numba has compiled nothing yet.

On an empty kernel cache the first exact battle spent some 12 s compiling (20 s of processor time
on two cores) to solve a battle that the same kernels, run as Python and NumPy, solve in a few
milliseconds to a few tenths of a second. So while the cache is cold (the background warm-up of
``oddsim._runtime.warm`` has not finished for this cache directory) a battle whose interpreted
solve is estimated under ``BUDGET_SECONDS`` runs its kernels interpreted (each dispatcher's
``py_func``: the jit helper's dispatchers read ``active``), and the warm-up compiles them in the
background for every later command. Larger battles compile as before.

Interpreted and compiled kernels agree to the last digit or two: Numba's ``pow``, ``exp`` and
``log`` round differently from the C library's, so the figures agree to 1e-12, not bit for bit.
Only the front ends use it (the ``oddsim`` command and ``oddsim serve`` call ``enable``): the
Python API, notebooks and benchmarks always run compiled kernels. ``ODDSIM_QUICK_START=0`` turns
it off there too (the test suite sets it, so that its answers never depend on the cache; the
warm-up process runs with it too). The choice is made per call on one thread
and carried into the worker thread that runs the call (``carried``).
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterator
from typing import TypeVar

from oddsim._runtime import warm

T = TypeVar("T")

SWITCH = warm.QUICK_START
"""Environment variable: ``0`` never runs kernels interpreted."""
SLOWDOWN = 150.0
"""Interpreted seconds per second of the compiled estimate (``estimate_seconds``): measured 12-146
over battles of 9 to 100 units on a quiet two-core machine, 16-280 with five processes on it
(``benchmarks/startup.py --interpreted``); the tiniest battles' fixed cost (20 ms) reads higher."""
BUDGET_SECONDS = 1.5
"""The interpreted solving, estimated, worth running instead of compiling (a first compile: 10-20 s),
in all for a process: a sweep of many small battles, or a cache that never gets warm (background
warm-ups turned off), turns to compiling once this is spent."""
RECHECK_SECONDS = 1.0
"""How long a 'cold' verdict stands before the warm-up's mark is looked for again (a server runs
on for hours: it turns to the compiled kernels once the warm-up has cached them)."""

_local = threading.local()
_verdict: tuple[float, bool] | None = None  # (when, cold) last worked out
_used = False
_spent = 0.0  # interpreted seconds granted so far, estimated
_enabled = False
_granting = threading.Lock()


def enable() -> None:
    """Let this process answer small battles interpreted while the cache is cold (a front end)."""
    global _enabled
    _enabled = True


def active() -> bool:
    """Whether kernels called on this thread now run interpreted (read by every kernel call)."""
    return getattr(_local, "on", False)


def used() -> bool:
    """Whether this process ran any call interpreted: a first run, whose background warm-up
    (``oddsim._runtime.warm``) should then start."""
    return _used


def cold() -> bool:
    """Whether the kernel cache is cold: quick starts are on (``enable``, no ``SWITCH=0``) and the
    background warm-up has not yet finished for this process's cache directory."""
    global _verdict
    if not _enabled or os.environ.get(SWITCH) == "0":
        return False
    now = time.monotonic()
    if _verdict is not None and (not _verdict[1] or now - _verdict[0] < RECHECK_SECONDS):
        return _verdict[1]  # (once warm, warm for good)
    from oddsim._runtime.cache_key import current_kernel_dir

    is_cold = not warm.done(current_kernel_dir())
    _verdict = (now, is_cold)
    return is_cold


def worth_it(compiled_seconds: float) -> bool:
    """Whether a call estimated at ``compiled_seconds`` compiled should run interpreted: the cache
    is cold and its interpreted estimate fits in what is left of the process's budget (or this
    thread interprets already); a yes counts against the budget."""
    global _spent
    if active():
        return True
    if not _enabled:  # (the Python API: never, and no lock taken)
        return False
    seconds = compiled_seconds * SLOWDOWN
    with _granting:
        if _spent + seconds > BUDGET_SECONDS or not cold():
            return False
        _spent += seconds
        return True


_AS_THEY_ARE = contextlib.nullcontext()
"""``interpreting``'s block where nothing changes (a generator's context manager, made on every
solve, cost some 2 us of a small one)."""


def interpreting(on: bool = True) -> contextlib.AbstractContextManager[None]:
    """Run the kernels called on this thread inside the block interpreted when ``on``."""
    if not on or active():
        return _AS_THEY_ARE
    return _interpreting()


@contextlib.contextmanager
def _interpreting() -> Iterator[None]:
    global _used
    _used = True
    _local.on = True
    try:
        yield
    finally:
        _local.on = False


def carried(function: Callable[..., T]) -> Callable[..., T]:
    """``function``, interpreting its kernels on whichever thread runs it when this thread
    interprets now (``oddsim._runtime.interrupt`` runs long calls on a worker thread)."""
    if not active():
        return function

    def run(*args: object) -> T:
        with interpreting():
            return function(*args)

    return run
