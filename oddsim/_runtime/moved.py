"""Module paths that moved when the package took its layered shape: importing an old one still
works for one release, with a ``DeprecationWarning`` that names the new one.

``import oddsim.battle`` (or ``oddsim.exact.solve``, or any module under a moved one) is answered
by the module at its new path itself, not a copy: its classes, functions and module state are the
new module's, so ``oddsim.battle is oddsim.model.battle``. An old package path (``oddsim.exact``)
is a thin view of the new package instead, so that importing its old submodules does not
overwrite the names the new package exports (``oddsim.engines.exact.solve``, the function). One
finder on ``sys.meta_path`` does it, so no stub files crowd the folders. ``oddsim.rules``, ``oddsim.battle``
and the other modules a bare ``import oddsim`` reaches as attributes stay silent there
(``oddsim.rules.with_changes``): only the old import path warns.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec

MOVED = {
    "oddsim.battle": "oddsim.model.battle",
    "oddsim.rules": "oddsim.model.rules",
    "oddsim.forces": "oddsim.model.forces",
    "oddsim.names": "oddsim.model.names",
    "oddsim.order_of_loss": "oddsim.model.order_of_loss",
    "oddsim.result": "oddsim.results.battle_result",
    "oddsim.result_text": "oddsim.results.text",
    "oddsim.estimates": "oddsim.results.estimates",
    "oddsim.exact": "oddsim.engines.exact",
    "oddsim.montecarlo": "oddsim.engines.montecarlo",
    "oddsim.lowering": "oddsim.engines.lowering",
    "oddsim.dice": "oddsim.engines.dice",
    "oddsim.aa_casualties": "oddsim.stages.aa_split",
    "oddsim.crash": "oddsim.stages.crash",
    "oddsim.holding_units": "oddsim.stages.holding_units",
    "oddsim.engines.aa_casualties": "oddsim.stages.aa_split",
    "oddsim.engines.crash": "oddsim.stages.crash",
    "oddsim.engines.holding_units": "oddsim.stages.holding_units",
    "oddsim.waves": "oddsim.stages.waves",
    "oddsim.wave_plan": "oddsim.stages.wave_plan",
    "oddsim.counter": "oddsim.stages.counter",
    "oddsim.amphibious": "oddsim.stages.amphibious",
    "oddsim.interrupt": "oddsim._runtime.interrupt",
    "oddsim.progress": "oddsim._runtime.progress",
    "oddsim.strict_json": "oddsim._runtime.strict_json",
    "oddsim.warm": "oddsim._runtime.warm",
    "oddsim.cache_cli": "oddsim.cli.cache",
    "oddsim.plot.cli": "oddsim.cli.chart",
    "oddsim.purchase.cli": "oddsim.cli.purchase",
    "oddsim.trench.cli": "oddsim.cli.trench",
}
"""Each old module path and its new one (a module under an old path moved with it)."""

MOVED_NAMES = {
    "oddsim.exact": dict.fromkeys(("solve", "estimate_work", "estimate_seconds"), "oddsim.stages.pipeline"),
    "oddsim.montecarlo": {"simulate": "oddsim.stages.pipeline"},
}
"""Names of an old package path that answer from a module other than its new package: the old
engine packages' ``solve``, ``simulate`` and estimates answered the whole battle (its AA split,
crashed fighters, ...), which ``oddsim.stages.pipeline`` makes now; the engines' own fight one
plain battle."""


def new_path(name: str) -> str | None:
    """The module path that ``name`` moved to, or None if it did not move."""
    for old, new in MOVED.items():
        if name == old or name.startswith(old + "."):
            return new + name[len(old):]
    return None


class _Package(ModuleType):
    """An old package path: every name is the new package's (``_moved_to``); the import system's
    binding of an old submodule never hides a name the new package has."""

    def __getattr__(self, name: str):
        home = MOVED_NAMES.get(self.__name__, {}).get(name, self.__dict__["_moved_to"])
        return getattr(importlib.import_module(home), name)

    def __setattr__(self, name: str, value) -> None:
        if not hasattr(importlib.import_module(self.__dict__["_moved_to"]), name):
            super().__setattr__(name, value)


class _Moved:
    """Finds an old module path and loads it as the module at its new path (a meta path finder
    and its loader; the ``importlib.abc`` bases left out, which cost ``import oddsim`` 7 ms)."""

    def __init__(self) -> None:
        self._specs: dict[str, ModuleSpec | None] = {}

    def find_spec(self, fullname: str, path=None, target=None) -> ModuleSpec | None:
        new = new_path(fullname)
        if new is None:
            return None
        warnings.warn(f"{fullname} moved to {new}; the old path goes in the next release",
                      DeprecationWarning, stacklevel=2)  # (warnings skips importlib's own frames)
        module = importlib.import_module(new)
        from importlib.util import spec_from_loader

        loader: Any = self  # (a loader by its create_module and exec_module, without the abc base)
        return spec_from_loader(fullname, loader, is_package=hasattr(module, "__path__"))

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        new = str(new_path(spec.name))
        module = importlib.import_module(new)
        if hasattr(module, "__path__"):
            view = _Package(spec.name, module.__doc__)
            view.__dict__["_moved_to"] = new
            return view
        self._specs[spec.name] = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        if not isinstance(module, _Package):  # the import system stamped the old path's spec on it
            module.__spec__ = self._specs.pop(module.__spec__.name if module.__spec__ else "", None)


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once)."""
    if not any(isinstance(finder, _Moved) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Moved())
