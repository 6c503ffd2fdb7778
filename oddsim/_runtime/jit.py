"""The one place that sets how every Numba kernel is compiled (numba-stats' ``_jit`` habit):
``numba.njit`` with the disk cache, NumPy's error model and no GIL, through public options only,
cached in a directory per oddsim version and kernel sources (``kernel_cache``). A cache that
cannot be written is never a crash: a read-only one is copied to the temporary folder and used
from there; with no writable place, kernels compile in memory; either is said once."""

from __future__ import annotations

import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numba

from oddsim._runtime import kernel_cache, warm

_UID = getattr(os, "getuid", int)()  # (0 on Windows, as its files' st_uid)


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def _cache_dir(wanted: Path, posix: bool = os.name == "posix") -> Path | None:
    """Where the kernels cache: ``wanted``, or a private writable copy of it in the temporary
    folder (a read-only cache), or None: nowhere (compiled in memory). Says so when not ``wanted``."""
    kernel_cache.prepare(wanted)  # (marks it used; a new one removes its long-unused siblings)
    if _writable(wanted):
        return wanted
    copy = Path(tempfile.gettempdir()) / f"{wanted.name}-{_UID}"
    try:
        mode = copy.lstat() if _writable(copy) else None  # (only this user's: no one else's code)
        # (POSIX only: Windows says st_uid 0, mode 0o777 of any folder; its temp folder is the user's own)
        if mode and stat.S_ISDIR(mode.st_mode) and (
                not posix or (not mode.st_mode & 0o022 and mode.st_uid == _UID)):
            if wanted.is_dir():
                shutil.copytree(wanted, copy, dirs_exist_ok=True)
            print(f"oddsim: the kernel cache {wanted} cannot be written: using a copy, {copy}",
                  file=sys.stderr)
            return copy
    except (OSError, shutil.Error):
        pass
    print(f"oddsim: no writable kernel cache ({wanted}): compiling in memory, every run compiles "
          f"again (set NUMBA_CACHE_DIR to a writable folder)", file=sys.stderr)
    return None


CACHE_DIR = _cache_dir(kernel_cache.current_kernel_dir())
"""Where this version's kernels are cached (``kernel_cache``; None: compiled in memory)."""
if CACHE_DIR is not None:  # (compiled in memory, every run compiles: said once above instead)
    warm.listen()


def _jit(**options: Any) -> Callable[[Callable[..., Any]], Any]:
    """A decorator compiling with ``options`` besides the project's own (``numba.njit``'s)."""
    options = {"cache": CACHE_DIR is not None, "error_model": "numpy", "nogil": True, **options}

    def decorate(func: Callable[..., Any]) -> Any:
        # Numba reads ``numba.config.CACHE_DIR`` (``NUMBA_CACHE_DIR``) when it decorates: ours for ours
        outer = getattr(numba.config, "CACHE_DIR", "")
        setattr(numba.config, "CACHE_DIR", str(CACHE_DIR or ""))  # noqa: B010 - set at run time
        try:
            return numba.njit(**options)(func)
        finally:
            setattr(numba.config, "CACHE_DIR", outer)  # noqa: B010

    return decorate


jit = _jit()
"""Decorator for serial kernels."""
inline_jit = _jit(inline="always")
"""Decorator for helpers only other kernels call: Numba inlines them into their callers (its IR)."""
parallel_jit = _jit(parallel=True)
"""Decorator for kernels that split work over threads with ``numba.prange``."""
