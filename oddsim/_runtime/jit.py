"""One place that sets how every Numba kernel is compiled: cached on disk, NumPy error model.

Compiled kernels are cached in a directory of their own per oddsim version and per hash of the
kernel sources (see ``_cache_key``): Numba's own cache only notices a change to the file that
holds a function, not to a helper it calls in another file, so an upgrade in place could run
old compiled code. A kernel is compiled once per argument *types*: a constant argument at a call
site (``_hit(state, 0)``) does not compile a copy of its callee for that value (Numba's default),
which cut seconds of a first run's compile.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import numba
from numba.core import config, errors, event, sigutils, types
from numba.core.cpu import CPUTargetOptions
from numba.core.registry import CPUDispatcher

from oddsim._runtime import cache_key as _cache_key
from oddsim._runtime import first_run as _first_run
from oddsim._runtime import interpreted as _interpreted
from oddsim._runtime import kernel_cache as _kernel_cache

CACHE_DIR = _cache_key.kernel_cache_dir(getattr(config, "CACHE_DIR", None) or None)
"""Where this version's kernels are cached (under ``NUMBA_CACHE_DIR`` when it is set)."""
CALLED_DIR = "called"
"""Subdirectory of ``CACHE_DIR`` for the kernels' twins that other kernels call (``_Kernel``)."""
_kernel_cache.prepare(CACHE_DIR)  # marks it used; a new one removes its long-unused siblings


class _Typed(CPUDispatcher):
    """A dispatcher that compiles a kernel called from another kernel for its arguments' types,
    not for the values of those given as constants. A kernel that needs a constant to type
    (an index into a tuple of different types) still gets one, as Numba would compile it.
    Called from Python while the thread interprets (``_interpreted``), it runs its Python function."""

    def __call__(self, *args, **kws):
        if _interpreted.active():
            return self.py_func(*args, **kws)
        return super().__call__(*args, **kws)

    def get_call_template(self, args, kws):
        plain_args = tuple(types.unliteral(a) for a in args)
        plain_kws = {name: types.unliteral(t) for name, t in kws.items()}
        if plain_args == tuple(args) and plain_kws == kws:
            return super().get_call_template(args, kws)
        try:
            return super().get_call_template(plain_args, plain_kws)
        except errors.TypingError:
            return super().get_call_template(args, kws)


class _Kernel(_Typed):
    """A kernel as Python calls it. Other kernels call its twin ``called``, the same function
    compiled without the Python wrapper (the code that unpacks Python arguments: a tenth of a
    second per kernel that takes named tuples of arrays, seconds over a first run's helpers,
    wasted on a helper that only kernels call). The twin is cached in a directory of its own:
    Numba's cache does not tell the two apart, and the twin must never answer a Python call."""

    twin_options: dict[str, Any]
    _twin: Any = None  # the twin once made (``called``)

    @property
    def called(self) -> _Typed:
        """The twin, made when a kernel that calls this one is first compiled (never on a run
        that loads its kernels from the cache)."""
        if self._twin is None:
            twin = _compile_with(self.twin_options, CACHE_DIR / CALLED_DIR, self.py_func)
            twin.__class__ = _Typed
            self._twin = twin
        return cast(_Typed, self._twin)

    def get_call_template(self, args, kws):
        return self.called.get_call_template(args, kws)

    def get_overload(self, sig):
        """The compiled function a calling kernel links to (Numba looks it up here)."""
        args, _ = sigutils.normalize_signature(sig)
        if self._twin is not None and tuple(args) in self._twin.overloads:
            return self._twin.get_overload(sig)
        return super().get_overload(sig)


def _compile_with(options: dict[str, Any], cache_dir: Path, func: Callable[..., Any]) -> Any:
    """``func`` decorated by Numba with ``options``, cached in ``cache_dir``."""
    # Numba reads its cache directory when a function is decorated: ours for our kernels only
    outer = getattr(config, "CACHE_DIR", "")
    setattr(config, "CACHE_DIR", str(cache_dir))  # noqa: B010 - set at run time by Numba
    try:
        return numba.njit(**options)(func)
    finally:
        setattr(config, "CACHE_DIR", outer)  # noqa: B010


def _decorator(cache: bool = True, **options: Any) -> Callable[[Callable[..., Any]], Any]:
    options = {"cache": cache, "error_model": "numpy", "nogil": True, **options}

    def decorate(func: Callable[..., Any]) -> Any:
        kernel = _compile_with(options, CACHE_DIR, func)
        if type(kernel) is not CPUDispatcher:  # with NUMBA_DISABLE_JIT, where it is ``func``
            return kernel
        if options.get("inline") == "always":  # inlined into its callers, never compiled for them
            kernel.__class__ = _Typed
            return kernel
        kernel.__class__ = _Kernel
        cast(_Kernel, kernel).twin_options = {**options, "no_cpython_wrapper": True, "no_cfunc_wrapper": True}
        return kernel

    return decorate


jit = _decorator()
"""Decorator for serial kernels."""

if hasattr(CPUTargetOptions, "_nrt"):
    hot_jit = _decorator(_nrt=False)
    """Decorator for hot helpers that never allocate. They are compiled without Numba's runtime
    (its private ``_nrt`` option), so passing them arrays costs no atomic reference counting,
    which otherwise dominates small helpers (a call: 12 ns with it, under 1 ns without)."""
    hot_inline_jit = _decorator(_nrt=False, inline="always")
    """Decorator for hot helpers inlined into their callers (Numba IR): a call passing the side
    tables, dozens of array fields, costs more than a short helper's work. Each call site
    compiles its own copy, so keep them few."""
else:  # a Numba without the option: the same results, only slower
    hot_jit = jit
    hot_inline_jit = _decorator(inline="always")

inline_jit = _decorator(inline="always")
"""Decorator for helpers only other kernels call: Numba inlines them into their callers, which
spares compiling each one on its own (a fraction of a second each on a first run)."""

parallel_jit = _decorator(parallel=True)
"""Decorator for kernels that split work over threads with ``numba.prange``."""


class _CompileNotice(event.Listener):
    """Passes each real compile (not a load from the cache) on to ``_first_run``."""

    def on_start(self, event: event.Event) -> None:
        _first_run.compiling(event.data["dispatcher"])

    def on_end(self, event: event.Event) -> None:
        pass


event.register("numba:compile", _CompileNotice())
