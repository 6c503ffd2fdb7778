"""The kernel cache's directories: mark the one in use, find the others, remove stale ones.

Every version and every change of the kernel sources compiles into a new directory (see
``_cache_key``), so old ones would pile up after upgrades. A directory in use is marked at each
start (its modification time, at most once a day); when a run creates a new one, the siblings
nobody has used for ``STALE_DAYS`` are removed. Only directories named like ours
(``oddsim-VERSION-KEY``) that hold nothing but Numba's cache files are ever removed, and any
error (a race with another process, a permission) leaves a directory as it is. ``oddsim cache``
lists them and removes them on demand. No Numba import here.
"""

from __future__ import annotations

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
    """One kernel cache directory: where it is, its version, its size and when it was last used."""

    path: Path
    version: str
    size: int  # bytes
    last_used: float  # seconds since the epoch


def kernel_dirs(base: Path) -> list[CacheDir]:
    """The kernel cache directories in ``base`` (ours only: named like ours, holding nothing but
    Numba's cache files; not links), oldest use first."""
    found = []
    try:
        entries = list(os.scandir(base))
    except OSError:
        return []
    for entry in entries:
        match = _NAME.fullmatch(entry.name)
        if match is None:
            continue
        try:
            if not entry.is_dir(follow_symlinks=False):
                continue
            size = _numba_files_size(Path(entry.path))
            last_used = entry.stat(follow_symlinks=False).st_mtime
        except OSError:
            continue
        if size is not None:
            found.append(CacheDir(Path(entry.path), match["version"], size, last_used))
    return sorted(found, key=lambda d: (d.last_used, d.path.name))


def prepare(current: Path, now: float | None = None) -> list[Path]:
    """Before kernels load from or compile into ``current``: mark it used, or, when it is new,
    create it and remove its siblings unused for ``STALE_DAYS``. Returns the removed paths;
    never raises for a file-system error."""
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
    """Remove each directory of ``paths`` (kernel cache directories); those that cannot be
    removed, wholly or in part, are left as they are. Returns the paths now gone."""
    gone = []
    for path in paths:
        shutil.rmtree(path, ignore_errors=True)  # does not follow links inside
        if not os.path.lexists(path):
            gone.append(path)
    return gone


def _numba_files_size(folder: Path) -> int | None:
    """The bytes of the files under ``folder`` when all are Numba's cache files (any depth),
    else None: the directory holds something that is not ours."""
    total = 0
    unreadable: list[OSError] = []
    for root, dirs, files in os.walk(folder, onerror=unreadable.append):
        for name in dirs:
            if os.path.islink(os.path.join(root, name)):
                return None
        for name in files:
            path = os.path.join(root, name)
            if not _NUMBA_FILE.fullmatch(name) or os.path.islink(path):
                return None
            try:
                total += os.lstat(path).st_size
            except OSError:
                pass  # removed meanwhile by Numba (its temporary files) or another process
    return None if unreadable else total  # what cannot be read cannot be told ours
