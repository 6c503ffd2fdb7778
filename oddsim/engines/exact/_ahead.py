"""On a first run, compile the exact engine's DP in a second process while this one compiles the
side tables: the two biggest compiles of a battle, a few seconds each, and Numba compiles one
function at a time in a process. A machine with two cores then takes half the time.

Only where the command line announces compiles (``_first_run``), for a battle whose DP the
placeholders below type (no retreat policy, or one of the rules judged per state: not the best
retreat, not a round limit), and when the kernel cache lacks it. The helper process caches the
DP; this one waits for it before its own call, which then loads it (should this process stop
first, on an error or Ctrl-C, the helper still finishes and caches it, or stops with it at
Ctrl-C in a terminal). Nothing runs ahead under the Python API.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from oddsim._runtime import first_run as _first_run
from oddsim._runtime import interpreted as _interpreted

if TYPE_CHECKING:
    from oddsim.model.battle import RetreatPolicy

HELPER = f"from {__name__} import compile_dp; compile_dp({{retreats}})"
"""The helper process's program."""
_settled = False
"""Whether this process already started (or decided against) its helper."""
_lock = threading.Lock()
_early: subprocess.Popen | None = None
"""The helper ``start_early`` started, until ``wait`` waits for it."""


def start(policy: RetreatPolicy | None) -> subprocess.Popen | None:
    """Start compiling the DP for a battle with the retreat ``policy`` in a helper process when it
    must be compiled and the placeholders type it; None when not."""
    global _settled
    if policy is not None and (policy.best is not None or policy.after_round is not None):
        return None  # other kernels, or other arguments
    with _lock:  # (the web server solves on several threads)
        if _settled or not _first_run.announcing() or _interpreted.active():
            return None  # (interpreted: nothing compiles now, the background warm-up does it)
        _settled = True  # once per process: after this battle the DP is compiled, one way or another
    from oddsim.engines.exact import _kernel as k

    retreats = policy is not None
    if not hasattr(k.solve_kernel, "overloads") or _cached(k.solve_kernel, signature(retreats)):
        return None  # (no ``overloads``: NUMBA_DISABLE_JIT, nothing to compile)
    _first_run.compiling(k.solve_kernel)  # this process may compile nothing itself: say it here
    program = in_this_oddsim(HELPER.format(retreats=retreats))
    try:
        return subprocess.Popen([sys.executable, "-c", program], stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:  # no interpreter to start: this process compiles it all
        return None


def start_early(policy: RetreatPolicy | None) -> None:
    """``start``, from where a battle's layouts are worked out, before their own kernel compiles
    (a second on a first run): the next ``wait`` waits for the helper it started."""
    global _early
    helper = start(policy)
    if helper is not None:
        _early = helper


def started_early() -> bool:
    """Whether a helper ``start_early`` started is still to be waited for."""
    return _early is not None


def in_this_oddsim(code: str) -> str:
    """A ``python -c`` program running ``code`` with this process's oddsim first on the path:
    the helper must compile the very files this process runs (Numba caches per source file), not
    an ``oddsim`` found in its working directory (a checkout beside an installed copy)."""
    path = str(Path(__file__).resolve().parents[3])  # (the folder that holds the oddsim package)
    return f"import sys; sys.path.insert(0, {path!r}); {code}"


def wait(helper: subprocess.Popen | None, meanwhile: tuple[tuple[Any, tuple[Any, ...]], ...] = ()) -> None:
    """Wait for the helper process (if any; None: the one ``start_early`` started, if any) to
    finish: the DP is then in the cache (or, should the helper have failed, this process compiles
    it as usual). ``meanwhile``: (a kernel's twin, arguments of the types it will be called
    with) pairs, compiled here before waiting: the side tables and the sums that
    ``_plain.solve_plain`` calls, which then compiles here with the helper's DP from the cache."""
    global _early
    if helper is None:
        helper, _early = _early, None
    if helper is not None:
        import numba

        for twin, args in meanwhile:
            twin.compile(tuple(numba.typeof(value) for value in args))
        helper.wait()


def signature(retreats: bool = False) -> tuple[Any, ...]:
    """The argument types of ``solve_kernel`` for a battle without a retreat policy, or with one
    (``retreats``) that ``start`` takes."""
    import numba

    return tuple(numba.typeof(value) for value in placeholders(retreats))


def placeholders(retreats: bool = False) -> tuple[Any, ...]:
    """Arguments of the types ``solve._solve`` passes ``solve_kernel`` for a battle without a
    retreat policy, or with one (``retreats``) that ``start`` takes (tests check that such
    battles compile these very signatures)."""
    import numpy as np

    from oddsim.engines.exact import _kernel as k
    from oddsim.engines.exact import _tables as t

    ints, floats = np.zeros(1, dtype=np.int64), np.zeros(1)
    table = np.zeros((1, 1), dtype=np.int64)
    side = t.SideTables(ints, table, ints, table, np.zeros((1, 1, 1)), table, table, table)
    work = k.Work(floats, floats, floats, floats, np.zeros(1, dtype=np.int8), ints, ints)
    retreat = k.RetreatRule(-1, -1.0, 1.0) if retreats else None
    settings = k.DPSettings(False, 0.0, retreats)
    return (side, side, k.Start(ints, floats), work, k.Rules(False, False, False), settings, retreat, ints,
            k.BetweenRounds(ints, ints, floats), None, None)


def _cached(kernel: Any, sig: tuple[Any, ...]) -> bool:
    """Whether ``kernel`` has ``sig`` compiled in this process or in its cache (read from Numba's
    cache index, without loading the code; when that cannot be read: not cached)."""
    if sig in kernel.overloads:
        return True
    try:
        cache = kernel._cache
        return cache._index_key(sig, kernel.targetctx.codegen()) in cache._cache_file._load_index()
    except Exception:  # noqa: BLE001 - a Numba without these internals: compile ahead anyway
        return False


def sums_placeholders(cost: Any) -> tuple[Any, ...]:
    """Arguments of the types ``_plain.solve_plain`` passes ``_outcomes.end_state_sums`` (``cost``:
    the edition's unit costs, read-only)."""
    import numpy as np

    from oddsim.engines.exact import _kernel as k
    from oddsim.engines.exact import _tables as t

    ints, floats, table = np.zeros(1, dtype=np.int64), np.zeros(1), np.zeros((1, 1), dtype=np.int64)
    counts = t.SideCounts(table, table, table, ints)
    terminal = k.Terminal(floats, floats, np.zeros(1, dtype=np.int8))
    return (ints, terminal, 0, table, counts, 0, counts, 0, cost)


def compile_dp(retreats: bool = False) -> None:
    """The helper process's work: compile (and cache) the DP as ``signature`` types it (and with
    it the DP that kernels call, which the kernel of a small plain battle loads from the cache)."""
    from oddsim.engines.exact import _kernel as k

    k.solve_kernel.compile(signature(retreats))
