"""The line a first run prints while Numba compiles an engine, so that it does not look hung.

``_jit`` calls ``compiling`` whenever Numba really compiles (a kernel loaded from the cache
fires nothing), and the command line turns the notice on with ``announce_compiles``. The engine
is named after the oddsim module that called the kernel (or, on a worker thread, the one that
defines it); each engine is announced once, and a shared helper module's compile (no engine's
code on the stack: a Monte Carlo worker thread compiling ``_splitmix``) only when no engine was.
"""

from __future__ import annotations

import sys
from types import FrameType
from typing import Any, TextIO

ENGINES = {
    "oddsim.engines.exact": "the exact engine",
    "oddsim.engines.montecarlo": "the Monte Carlo engine",
    "oddsim.trench": "The Longest Trench engine",
}
"""Engine named in the notice, by the package of the Python code that called the kernel."""
OTHER = "oddsim's kernels"

_enabled = False
_stream: TextIO | None = None
_announced: set[str] = set()


def announce_compiles(stream: TextIO | None = None) -> None:
    """Print one line on ``stream`` (stderr when None) whenever an engine must be compiled."""
    global _enabled, _stream
    _enabled, _stream = True, stream


def announcing() -> bool:
    """Whether compiles are announced: the command line's run, where a first run is worth
    speeding up by compiling in a second process (``oddsim.engines.exact._ahead``)."""
    return _enabled


def compiled_any() -> bool:
    """Whether this process announced a compile: a first run, which starts the background
    warm-up of the other engines (``oddsim._runtime.warm``) once it has answered."""
    return bool(_announced)


def engine_of(module: str) -> str:
    """The engine that Python code in ``module`` belongs to, in words."""
    for package, name in ENGINES.items():
        if module == package or module.startswith(package + "."):
            return name
    return OTHER


def compiling(dispatcher: Any) -> None:
    """Numba is about to compile ``dispatcher``: announce the engine calling it, once."""
    if not _enabled:
        return
    caller = _oddsim_caller() or getattr(dispatcher.py_func, "__module__", None) or ""
    if not caller.startswith("oddsim."):  # somebody else's Numba code
        return
    engine = engine_of(caller)
    if engine in _announced or (engine == OTHER and _announced):
        return  # a shared helper (``_splitmix``, ``dice``) compiled for an engine already announced
    _announced.add(engine)
    print(f"oddsim: compiling {engine}, first run only...", file=_stream or sys.stderr, flush=True)


_HELPERS = ("oddsim._runtime.jit", "oddsim._runtime.first_run")
"""The jit helpers, never named as the caller of a kernel."""


def _oddsim_caller() -> str | None:
    """The innermost oddsim module (other than the jit helpers) on this thread's Python stack."""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if module.startswith("oddsim.") and module not in _HELPERS:
            return module
        frame = frame.f_back
    return None
