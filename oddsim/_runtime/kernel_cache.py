"""The kernel cache's directories (one per version and kernel sources: ``cache_key``): mark the one
in use (its modification time, at most once a day), list them, and remove those unused for
``STALE_DAYS`` when a new one is made. Only directories named like ours holding nothing but
Numba's files (told by their names) are ever removed; an error leaves a directory as it is."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from oddsim._runtime.cache_key import KEY_LENGTH
from oddsim._version import PACKAGE

STALE_DAYS = 30
"""A sibling directory unused this long is removed when a new one is created."""
DAY = 86_400.0
_NAME = re.compile(rf"{PACKAGE}-(?P<version>[0-9A-Za-z.+!_-]+)-(?P<key>[0-9a-f]{{{KEY_LENGTH}}})")
# what Numba writes: index (.nbi) and data (.nbc) files, and its temporary files while saving
_NUMBA_FILE = re.compile(r".+\.nb[ic](\.tmp\.[0-9a-f]+)?")


@dataclass(frozen=True)
class CacheDir:
    """One kernel cache directory."""

    path: Path
    version: str
    size: int  # bytes
    last_used: float  # seconds since the epoch


def kernel_dirs(base: Path) -> list[CacheDir]:
    """The kernel cache directories in ``base`` (ours only; not links), oldest use first."""
    found = []
    with contextlib.suppress(OSError):
        for entry in os.scandir(base):
            match = _NAME.fullmatch(entry.name)
            with contextlib.suppress(OSError):
                ours = match and entry.is_dir(follow_symlinks=False)
                size = _numba_files_size(Path(entry.path)) if ours else None
                if match and size is not None:
                    last_used = entry.stat(follow_symlinks=False).st_mtime
                    found.append(CacheDir(Path(entry.path), match["version"], size, last_used))
    return sorted(found, key=lambda d: (d.last_used, d.path.name))


def prepare(current: Path, now: float | None = None) -> list[Path]:
    """Mark ``current`` used, or, when it is new, create it and remove its siblings unused for
    ``STALE_DAYS``. Returns the removed paths; never raises for a file-system error."""
    now = time.time() if now is None else now
    try:
        if current.is_dir():
            if now - current.stat().st_mtime > DAY:
                os.utime(current, (now, now))
            return []
        current.mkdir(parents=True, exist_ok=True)
    except OSError:
        return []
    return remove(d.path for d in kernel_dirs(current.parent)
                  if d.path != current and now - d.last_used > STALE_DAYS * DAY)


def remove(paths) -> list[Path]:
    """Remove each directory of ``paths`` as far as possible; returns the paths now gone."""
    gone = []
    for path in paths:
        shutil.rmtree(path, ignore_errors=True)  # does not follow links inside
        if not os.path.lexists(path):
            gone.append(path)
    return gone


def _numba_files_size(folder: Path) -> int | None:
    """The bytes of the files under ``folder`` when all are Numba's cache files, else None."""
    total, unreadable = 0, list[OSError]()
    for root, dirs, files in os.walk(folder, onerror=unreadable.append):
        for name in dirs + files:
            path = os.path.join(root, name)
            if os.path.islink(path) or name in files and not _NUMBA_FILE.fullmatch(name):
                return None
            with contextlib.suppress(OSError):  # (removed meanwhile: Numba's temporary files)
                total += os.lstat(path).st_size if name in files else 0
    return None if unreadable else total  # what cannot be read cannot be told ours


DAMAGED = "the compiled-kernel cache is damaged (a truncated or empty file): run 'oddsim cache clear'"
"""What the command line and the server say of an error that ``damaged`` recognises (each adds
what to do next)."""


def damaged(exc: BaseException) -> bool:
    """Whether ``exc``, or an exception it came from, was raised while Numba read its cache files
    (a truncated or empty file: ``oddsim cache clear`` mends it)."""
    seen: BaseException | None = exc
    while seen is not None:
        frame = seen.__traceback__
        while frame is not None:
            if Path(frame.tb_frame.f_code.co_filename).parts[-3:] == ("numba", "core", "caching.py"):
                return True
            frame = frame.tb_next
        seen = seen.__cause__ or seen.__context__
    return False
