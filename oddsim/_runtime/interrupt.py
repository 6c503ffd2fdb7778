"""Ctrl-C during long computations: stop at the next safe point, never inside a Numba call.

Python runs a signal handler in the main thread between bytecodes; if it raises while a Numba
kernel is returning, the kernel's result comes out as a ``SystemError``. So the handlers here
only take note, and the Python loops around the kernels act on the note:

- ``stop_on_interrupt`` turns the first Ctrl-C into a flag that Monte Carlo loops check between
  chunks (they then return what they have, marked interrupted); nested uses share one flag, so
  one Ctrl-C stops every stage of a multi-battle computation. A second Ctrl-C raises
  ``KeyboardInterrupt`` as usual.
- ``call_interruptibly`` runs a computation that cannot stop halfway (an exact solve) so that
  Ctrl-C either waits for the kernel to return (short calls) or leaves it running in a
  background thread and raises ``KeyboardInterrupt`` at once (long calls).
- ``signals_held`` holds Ctrl-C (and SIGTERM) back while a block runs, then acts on them.
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # the C functions under ``signal``, no enum wrappers
import os
import queue
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")


_active: threading.Event | None = None
"""The flag of the ``stop_on_interrupt`` block in force, if any."""


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextmanager
def stop_on_interrupt() -> Iterator[threading.Event]:
    """Yield a flag that the first Ctrl-C sets (a second one raises ``KeyboardInterrupt``).

    Only in the main thread and where nobody installed their own SIGINT handler (a caller's
    handler, e.g. the purchase sweep's, keeps its own meaning); elsewhere the flag is never set.
    """
    global _active
    if _active is not None:
        yield _active
        return
    stop = threading.Event()
    if not _in_main_thread() or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield stop
        return

    def on_interrupt(signum, frame):
        stop.set()
        signal.signal(signal.SIGINT, signal.default_int_handler)

    signal.signal(signal.SIGINT, on_interrupt)
    _active = stop
    try:
        yield stop
    finally:
        _active = None
        signal.signal(signal.SIGINT, signal.default_int_handler)


def interrupt_requested() -> bool:
    """Whether a Ctrl-C reached the ``stop_on_interrupt`` block in force."""
    return _active is not None and _active.is_set()


def call_interruptibly(function: Callable[..., T], *args: object, background: bool = False) -> T:
    """``function(*args)``, with Ctrl-C handled outside any Numba call.

    With ``background`` (for long calls) it runs in a daemon thread (``_Worker``) while the main
    thread waits, so Ctrl-C raises ``KeyboardInterrupt`` at once and the abandoned call finishes
    unseen. Without, Ctrl-C is held back until ``function`` returns and then handled as it would
    have been.
    """
    if not _in_main_thread():
        return function(*args)
    if not background:  # (``signals_held`` without its context manager: 2-8 us less a call)
        previous, caught = _hold(_SIGINT_ONLY)
        try:
            return function(*args)
        finally:
            _release(previous, caught)
    outcome: dict[str, object] = {}
    done = threading.Event()

    def job() -> None:
        try:
            outcome["value"] = function(*args)
        except BaseException as exc:  # handed to the caller's thread below
            outcome["error"] = exc
        finally:
            done.set()

    _Worker.take().run(job)
    while True:
        if interrupt_requested():  # a Ctrl-C taken as a flag by an enclosing computation
            raise KeyboardInterrupt
        if done.wait(0.05):
            break
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["value"]  # type: ignore[return-value]


WORKER_IDLE_S = 1.0
"""How long the background thread waits for the next call before it ends. Calls in a row (a
sweep, waves, a benchmark) reuse it: a new thread took 0.1 ms to start and, on a busy machine,
often some milliseconds more before it ran (a large exact solve: 26 ms instead of 22)."""


class _Worker:
    """A daemon thread that runs background calls one at a time. One idle worker is kept
    (``_idle``) for the next call; a call made while another, abandoned at Ctrl-C, still runs
    gets a worker of its own."""

    _idle: _Worker | None = None
    _lock = threading.Lock()

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        threading.Thread(target=self._serve, name="oddsim-solve", daemon=True).start()

    @classmethod
    def take(cls) -> _Worker:
        """The idle worker, or a new one."""
        with cls._lock:
            worker, cls._idle = cls._idle, None
        return worker or cls()

    def run(self, job: Callable[[], None]) -> None:
        self._jobs.put(job)

    def _serve(self) -> None:
        cls = type(self)
        while True:
            try:
                job = self._jobs.get(timeout=WORKER_IDLE_S)
            except queue.Empty:
                with cls._lock:
                    if cls._idle is self:  # idle and not taken meanwhile: end
                        cls._idle = None
                        return
                continue  # taken: its call is on the way
            job()
            del job  # (nothing of the call stays alive here)
            with cls._lock:
                if cls._idle is not None:  # another worker waits already
                    return
                cls._idle = self

    @classmethod
    def forget(cls) -> None:
        """In a forked child: the parent's threads are not there."""
        cls._idle = None
        cls._lock = threading.Lock()


os.register_at_fork(after_in_child=_Worker.forget)


@contextmanager
def signals_held(signums: tuple[int, ...] = (signal.SIGINT, signal.SIGTERM)) -> Iterator[None]:
    """Hold back the signals ``signums`` until the block ends, then act on them as before.

    Python runs signal handlers in the main thread whichever thread the signal reached, so the
    handlers are swapped for ones that only take note (masking the signal with pthread_sigmask
    is not enough: with other threads alive, such as Numba's or BLAS's, the process still
    receives it and Python raises mid-block).
    """
    if not _in_main_thread():
        yield
        return
    previous, caught = _hold(signums)
    try:
        yield
    finally:
        _release(previous, caught)


_SIGINT_ONLY = (signal.SIGINT,)


def _hold(signums: tuple[int, ...]) -> tuple[dict[int, object], list[int]]:
    """Swap the handlers of ``signums`` for ones that note the signal; returns the handlers
    swapped out and the list of signals noted (``_release`` acts on them)."""
    caught: list[int] = []
    # ``_signal.signal``, not ``signal.signal``: it swaps the same handlers, but without
    # ``signal``'s conversions to and from enums (5 us a call, a tenth of a small exact solve)
    previous = {signum: _signal.signal(signum, lambda number, frame: caught.append(number))
                for signum in signums}
    return previous, caught


def _release(previous: dict[int, object], caught: list[int]) -> None:
    """Put the handlers ``previous`` back, then act on the first signal ``caught`` meanwhile."""
    for signum, handler in previous.items():
        _signal.signal(signum, handler)
    if caught:
        handler = previous[caught[0]]
        if callable(handler):
            handler(caught[0], None)
        elif handler == signal.SIG_DFL:
            os.kill(os.getpid(), caught[0])
