"""Quick starts: while the kernel cache is cold, a front end's small exact battle runs its kernels
as Python (milliseconds, where a first compile takes 10-20 s) if its interpreted solve fits in what
is left of ``BUDGET_SECONDS``. Interpreted, a call runs a copy of its Python function (``carried``)
whose globals hold each kernel's ``py_func`` (itself so copied) and a copy or view of each oddsim
function or module, built once (Numba's public ``is_jitted`` and ``py_func``): figures agree with
the compiled ones to 1e-12. Tables whose interpreted values are the compiled ones (``tables``)
interpret for any caller. ``ODDSIM_QUICK_START=0`` turns both off (the tests, the warm-up)."""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
import threading
import time
import types
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from oddsim._runtime import warm
from oddsim._runtime.kernel_cache import current_kernel_dir

T = TypeVar("T")

SLOWDOWN = 150.0
"""Interpreted seconds per compiled second as ``cost.seconds`` estimates them: 12-146 measured over
battles of 9 to 100 units on a quiet two-core machine (``benchmarks/startup.py --interpreted``)."""
BUDGET_SECONDS = 1.5
"""Interpreted seconds (estimated) a process may spend in all before it compiles instead."""
RECHECK_SECONDS = 1.0
"""How long a 'cold' verdict stands before the warm-up's mark is looked for again (a server)."""

_local = threading.local()
_verdict: tuple[float, bool] | None = None  # (when, cold) last worked out
_spent = 0.0
_granting = threading.Lock()


def active() -> bool:
    """Whether calls made on this thread now run interpreted (``interpreting``)."""
    return getattr(_local, "on", False)


def cold() -> bool:
    """Whether the warm-up has not finished for this process's cache directory (and no
    ``ODDSIM_QUICK_START=0``): kernels may then be interpreted (front ends: ``worth_it``)."""
    global _verdict
    if os.environ.get(warm.QUICK_START) == "0":
        return False
    now = time.monotonic()
    if _verdict is not None and (not _verdict[1] or now - _verdict[0] < RECHECK_SECONDS):
        return _verdict[1]  # (once warm, warm for good)
    _verdict = (now, not warm.done(current_kernel_dir()))
    return _verdict[1]


def worth_it(compiled_seconds: float) -> bool:
    """Whether a call estimated at ``compiled_seconds`` compiled should run interpreted (this
    thread interprets already, or the cache is cold and the budget holds it); a yes is spent."""
    global _spent
    if active():
        return True
    if not warm.is_front_end():  # (the Python API: never, and no lock taken)
        return False
    with _granting:
        if _spent + compiled_seconds * SLOWDOWN > BUDGET_SECONDS or not cold():
            return False
        _spent += compiled_seconds * SLOWDOWN
        return True


_AS_THEY_ARE = contextlib.nullcontext()  # (made once: a small solve's microseconds)
TABLES_BUDGET_SECONDS = 1.0
"""Processor seconds a process may spend in ``tables`` blocks before it uses their kernels (not the
clock's: on a busy machine that would stop a first run's quick start halfway)."""
_tables_spent = 0.0


def tables(on: bool = True) -> contextlib.AbstractContextManager[None]:
    """Calls through ``carried`` in the block run interpreted when ``on``, the cache is ``cold`` (for
    any caller: the Python API too) and this process has spent under ``TABLES_BUDGET_SECONDS`` so:
    tables a battle's kernels read, the same values in milliseconds where compiling the kernels that
    build them takes seconds (the exact engine's lowering: 1 ms, Monte Carlo's plain battles: 5 ms for
    10 units); a caller may also ask ``active()`` and use NumPy instead (plain battles, the trench)."""
    if not on or active() or _tables_spent >= TABLES_BUDGET_SECONDS or not cold():
        return _AS_THEY_ARE
    return _interpreting(timed=True)


def interpreting(on: bool = True) -> contextlib.AbstractContextManager[None]:
    """Calls routed through ``carried`` inside the block run interpreted when ``on``."""
    return _interpreting() if on and not active() else _AS_THEY_ARE


@contextlib.contextmanager
def _interpreting(timed: bool = False) -> Iterator[None]:
    global _tables_spent
    _local.on, started = True, time.thread_time()
    try:
        yield
    finally:
        _local.on = False
        if timed:  # (``tables``: its processor time counted)
            with _granting:
                _tables_spent += time.thread_time() - started


def carried(function: Callable[..., T]) -> Callable[..., T]:
    """``function``, or when this thread interprets now its interpreted copy, run interpreting on
    whichever thread runs it (``interrupt`` runs long calls on a worker thread)."""
    if not active():
        return function
    with _copying:
        copy = _stand_in(function)

    def run(*args: Any, **kwargs: Any) -> T:
        with interpreting():
            return copy(*args, **kwargs)

    return run


_copying = threading.RLock()
_copies: dict[int, tuple[Any, Any]] = {}  # id(original) -> (original, its stand-in)
_namespaces: dict[str, dict[str, Any]] = {}  # module name -> its copies' globals


def _stand_in(value: Any) -> Any:
    """What interpreted code sees in place of ``value``: a kernel's Python function, an oddsim
    function or module over interpreted globals; anything else as it is."""
    kept = _copies.get(id(value))
    if kept is not None and kept[0] is value:
        return kept[1]
    if "numba" in sys.modules and importlib.import_module("numba.extending").is_jitted(value):
        made = _stand_in(value.py_func)
    elif isinstance(value, types.FunctionType) and _ours(value.__module__):
        made = types.FunctionType(value.__code__, _namespace(value.__module__), value.__name__,
                                  value.__defaults__, value.__closure__)
        made.__kwdefaults__ = value.__kwdefaults__
    elif isinstance(value, types.ModuleType) and _ours(value.__name__):
        made = _View(value)
    else:
        return value
    _copies[id(value)] = (value, made)
    return made


def _ours(module: str | None) -> bool:  # (not the plumbing's: it runs as it is, its state never copied)
    return module is not None and module.startswith("oddsim.") and not module.startswith("oddsim._runtime.")


def _namespace(module: str) -> dict[str, Any]:
    """The globals of ``module``'s copies (built once; a cycle finds it half-filled, then full)."""
    namespace = _namespaces.get(module)
    if namespace is None:
        namespace = _namespaces[module] = {}
        namespace.update({name: _stand_in(value)
                          for name, value in vars(importlib.import_module(module)).items()})
    return namespace


class _View:
    """An oddsim module as interpreted code reads it (``_kernel.solve_kernel``: its Python copy)."""

    def __init__(self, module: types.ModuleType) -> None:
        self._module = module

    def __getattr__(self, name: str) -> Any:
        with _copying:
            value = _stand_in(getattr(self._module, name))
        setattr(self, name, value)
        return value
