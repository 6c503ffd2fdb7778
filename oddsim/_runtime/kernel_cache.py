"""The compiled-kernel cache: a directory per oddsim version and hash of kernel sources (no Numba
import). Numba checks only the file of the function it compiled, so the key hashes every module
that imports ``oddsim._runtime.jit`` and every oddsim module those import; other edits (the command
line, plots) keep the kernels. The directory in use is marked (its modification time, at most once
a day); a new one removes its siblings unused for ``STALE_DAYS``. Only directories named like ours
holding nothing but Numba's files are ever removed; an error leaves one as it is."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import re
import shutil
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from oddsim._version import PACKAGE, package_version

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
JIT_MODULE = "oddsim._runtime.jit"
KEY_LENGTH = 16
STALE_DAYS = 30
"""A sibling directory unused this long is removed when a new one is created."""
DAY = 86_400.0
_NAME = re.compile(rf"{PACKAGE}-[0-9A-Za-z.+!_-]+-[0-9a-f]{{{KEY_LENGTH}}}")  # version, key
# what Numba writes: index (.nbi) and data (.nbc) files, and its temporary files while saving
_NUMBA_FILE = re.compile(r".+\.nb[ic](\.tmp\.[0-9a-f]+)?")


def kernel_sources(root: Path = PACKAGE_ROOT) -> list[Path]:
    """The kernel modules under package directory ``root`` and what they import, sorted."""
    todo = [path for path in sorted(root.rglob("*.py")) if JIT_MODULE in path.read_text(encoding="utf-8")]
    todo.append(root / "_runtime" / "jit.py")
    seen: set[Path] = set()
    while todo:
        path = todo.pop()
        if path in seen or not path.is_file():
            continue
        seen.add(path)
        todo.extend(_imported_files(path, root))
    return sorted(seen)


def source_key(root: Path = PACKAGE_ROOT) -> str:
    """A short hash of the kernel sources (their paths in the package and their bytes)."""
    digest = hashlib.sha256()
    for path in kernel_sources(root):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:KEY_LENGTH]


def kernel_cache_dir(numba_cache_dir: str | None = None, root: Path = PACKAGE_ROOT) -> Path:
    """The directory for this version's compiled kernels: under ``numba_cache_dir`` (the user's
    ``NUMBA_CACHE_DIR``) when given, else in the user's cache directory (platformdirs')."""
    name = f"{PACKAGE}-{package_version()}-{source_key(root)}"
    base = numba_cache_dir or Path(platformdirs.user_cache_dir(PACKAGE, appauthor=False)) / "kernels"
    return Path(base) / name


def current_kernel_dir() -> Path:
    """The directory this process's kernels load from and compile into (under ``NUMBA_CACHE_DIR``
    when it is set), worked out once (its key reads every kernel module)."""
    return _kernel_dir_under(os.environ.get("NUMBA_CACHE_DIR") or None)


_kernel_dir_under = functools.cache(kernel_cache_dir)
_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+(oddsim[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)"
                     r"|import[ \t]+(oddsim[\w.]*))", re.MULTILINE)


def _imported_files(path: Path, root: Path) -> list[Path]:
    """Files of the oddsim modules that ``path`` imports (``from m import n`` counts ``m.n`` when
    that is a module, else ``m``; oddsim uses no relative imports): a scan, fast at every start."""
    files = []
    for match in _IMPORT.finditer(path.read_text(encoding="utf-8")):
        module, names = match[1] or match[3], re.sub(r"#[^\n]*", "", match[2] or "").strip("() \n")
        for name in [n.split()[0] for n in names.split(",") if n.split()] or [""]:
            files.append(name and _module_file(f"{module}.{name}", root) or _module_file(module, root))
    return [file for file in files if file is not None]


def _module_file(module: str, root: Path) -> Path | None:
    """The file of oddsim module ``module`` (a package's ``__init__.py``), or None."""
    here = root.joinpath(*module.split(".")[1:])
    return next((c for c in (here.with_suffix(".py"), here / "__init__.py") if c.is_file()), None)


@dataclass(frozen=True)
class CacheDir:
    """One kernel cache directory."""

    path: Path
    size: int  # bytes
    last_used: float  # seconds since the epoch


def kernel_dirs(base: Path) -> list[CacheDir]:
    """The kernel cache directories in ``base`` (ours only; not links), oldest use first."""
    found = []
    with contextlib.suppress(OSError):
        for entry in os.scandir(base):
            with contextlib.suppress(OSError):
                ours = _NAME.fullmatch(entry.name) and entry.is_dir(follow_symlinks=False)
                size = _numba_files_size(Path(entry.path)) if ours else None
                if size is not None:
                    last_used = entry.stat(follow_symlinks=False).st_mtime
                    found.append(CacheDir(Path(entry.path), size, last_used))
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
    paths = list(paths)
    for path in paths:
        shutil.rmtree(path, ignore_errors=True)  # does not follow links inside
    return [path for path in paths if not os.path.lexists(path)]


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
"""What the command line and the server say of an error ``damaged`` recognises, each adding what next."""


def damaged(exc: BaseException | None) -> bool:
    """Whether ``exc``, or an exception it came from, was raised while Numba read its cache files
    (a truncated or empty file: ``oddsim cache clear`` mends it)."""
    while exc is not None:
        if any(Path(frame.f_code.co_filename).parts[-3:] == ("numba", "core", "caching.py")
               for frame, _ in traceback.walk_tb(exc.__traceback__)):
            return True
        exc = exc.__cause__ or exc.__context__
    return False
