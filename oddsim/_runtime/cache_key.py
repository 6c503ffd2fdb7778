"""Where compiled kernels are cached: one directory per oddsim version and hash of kernel sources.

Numba's cache checks only the source file of the function it compiled, so a kernel whose helper
in another file changed would load stale machine code. The key hashes every module that defines
a kernel (it imports ``oddsim._runtime.jit``) together with every oddsim module those import, directly
or not: a change to any of them, or a new version, compiles afresh into a new directory. Other
edits (the command line, plots) keep the compiled kernels. No Numba import here.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from pathlib import Path

from oddsim._version import PACKAGE, package_version

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
JIT_MODULE = "oddsim._runtime.jit"
KEY_LENGTH = 16


def kernel_sources(root: Path = PACKAGE_ROOT) -> list[Path]:
    """The package's kernel modules and the oddsim modules they import (closed under imports),
    sorted; ``root`` is the package directory."""
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
    """The directory this process's kernels load from and compile into, worked out as the jit
    helper does (from ``NUMBA_CACHE_DIR``, as Numba reads it) without importing Numba, and
    without naming the jit module: code that names it counts as kernel code for the key."""
    return kernel_cache_dir(os.environ.get("NUMBA_CACHE_DIR") or None)


def user_cache_dir() -> Path:
    """oddsim's directory in the user's cache (XDG on Linux, ~/Library/Caches, %LOCALAPPDATA%)."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / PACKAGE


_FROM_IMPORT = re.compile(r"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)", re.MULTILINE)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([\w.]+(?:[ \t]*,[ \t]*[\w.]+)*)", re.MULTILINE)


def _imported_files(path: Path, root: Path) -> list[Path]:
    """Files of the oddsim modules that ``path`` imports (a ``from m import n`` counts ``m.n``
    when that is a module, else ``m``). A scan of the import statements, fast enough to run at
    every start."""
    text = path.read_text(encoding="utf-8")
    parts = path.relative_to(root).with_suffix("").parts
    package = ".".join((PACKAGE, *parts[:-1]))  # the package a relative import starts from
    files = [_module_file(name.strip(), root) for match in _IMPORT.finditer(text)
             for name in match.group(1).split(",")]
    for match in _FROM_IMPORT.finditer(text):
        module, names = match.group(1), match.group(2).strip("() \n")
        dots = len(module) - len(module.lstrip("."))
        if dots:
            parent = package.rsplit(".", dots - 1)[0] if dots > 1 else package
            module = f"{parent}.{module[dots:]}" if module[dots:] else parent
        for item in re.sub(r"#[^\n]*", "", names).split(","):
            if item.split():  # "name" or "name as alias"
                name = item.split()[0]
                files.append(_module_file(f"{module}.{name}", root) or _module_file(module, root))
    return [file for file in files if file is not None]


def _module_file(module: str, root: Path) -> Path | None:
    """The file of oddsim module ``module`` (a package's ``__init__.py``), or None if there is
    none (not oddsim's, or a name inside a module)."""
    parts = module.split(".")
    if parts[0] != PACKAGE:
        return None
    here = root.joinpath(*parts[1:])
    for candidate in (here.with_suffix(".py"), here / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None
