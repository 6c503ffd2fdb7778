"""Where compiled kernels are cached: one directory per oddsim version and hash of kernel sources.

Numba checks only the file of the function it compiled, so a kernel whose helper in another file
changed would load stale code. The key hashes every module that imports ``oddsim._runtime.jit``
and every oddsim module those import: a change to any of them, or a new version, compiles into a
new directory; other edits (the command line, plots) keep the kernels. No Numba import here."""

from __future__ import annotations

import functools
import hashlib
import os
import re
from pathlib import Path

import platformdirs

from oddsim._version import PACKAGE, package_version

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
JIT_MODULE = "oddsim._runtime.jit"
KEY_LENGTH = 16


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
    ``NUMBA_CACHE_DIR``) when given, else under the user's cache directory."""
    name = f"{PACKAGE}-{package_version()}-{source_key(root)}"
    base = Path(numba_cache_dir) if numba_cache_dir else user_cache_dir() / "kernels"
    return base / name


def current_kernel_dir() -> Path:
    """The directory this process's kernels load from and compile into (under ``NUMBA_CACHE_DIR``
    when it is set), worked out without importing Numba, once (its key reads every module)."""
    return _kernel_dir_under(os.environ.get("NUMBA_CACHE_DIR") or None)


@functools.cache
def _kernel_dir_under(numba_cache_dir: str | None) -> Path:
    return kernel_cache_dir(numba_cache_dir)


def user_cache_dir() -> Path:
    """oddsim's directory in the user's cache (platformdirs': XDG, ~/Library/Caches, %LOCALAPPDATA%)."""
    return Path(platformdirs.user_cache_dir(PACKAGE, appauthor=False))


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
