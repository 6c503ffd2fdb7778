"""Public names of a package that load on first use (PEP 562), so that importing the package,
or running ``oddsim --help``, does not import NumPy and Numba until an engine is needed."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any


def lazy_names(package: str, modules: Mapping[str, Iterable[str]],
               submodules: Iterable[str] | Mapping[str, str] = (),
               on_use: Callable[[], object] | None = None,
               ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package``: ``modules`` maps each module to the public
    names it defines, ``submodules`` are reachable as ``package.name`` without importing them (a
    mapping: ``package.name`` is the module it names, ``{"rules": "oddsim.model.rules"}``); a name
    is imported the first time it is used, then kept (``on_use`` called first)."""
    namespace = sys.modules[package].__dict__
    homes = {name: module for module, names in modules.items() for name in names}
    children = dict(submodules) if isinstance(submodules, Mapping) else {
        name: f"{package}.{name}" for name in submodules}

    def __getattr__(name: str) -> Any:  # noqa: N807 - the module hook's own name
        if on_use is not None and (name in children or name in homes):
            on_use()
        if name in children:
            value = importlib.import_module(children[name])
        elif name in homes:
            value = getattr(importlib.import_module(homes[name]), name)
        else:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        namespace[name] = value
        return value

    def __dir__() -> list[str]:  # noqa: N807
        return sorted({*namespace, *homes, *children})

    return __getattr__, __dir__
