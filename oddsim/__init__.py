"""oddsim: combat odds for Axis & Allies-style dice battles, exact and Monte Carlo.

Names load on first use, so ``import oddsim`` (and the ``oddsim`` command's help, listings and
error messages) does not pay for importing NumPy and Numba until an engine is needed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from oddsim._runtime.lazy import lazy_names
from oddsim._runtime.warm import announce_for_python

if TYPE_CHECKING:
    from oddsim.errors import (
        BattleError,
        ForceError,
        OddsimError,
        OrderOfLossError,
        RulesetError,
        TooLargeError,
    )
    from oddsim.model.battle import Battle, RetreatPolicy, Side
    from oddsim.model.forces import Force, parse_force
    from oddsim.model.rules import Ruleset, builtin_names, load_ruleset
    from oddsim.results.battle_result import BattleResult, Survivors
    from oddsim.stages.amphibious import Amphibious
    from oddsim.stages.pipeline import simulate, solve

_HOMES = {
    "oddsim.stages.amphibious": ("Amphibious",),
    "oddsim.model.battle": ("Battle", "RetreatPolicy", "Side"),
    "oddsim.errors": ("BattleError", "ForceError", "OddsimError", "OrderOfLossError", "RulesetError",
                      "TooLargeError"),
    "oddsim.stages.pipeline": ("simulate", "solve"),
    "oddsim.model.forces": ("Force", "parse_force"),
    "oddsim.results.battle_result": ("BattleResult", "Survivors"),
    "oddsim.model.rules": ("Ruleset", "builtin_names", "load_ruleset"),
    "oddsim._version": ("__version__",),
}
"""The public names of each module (and the version): they load on first use."""

__all__ = [
    "Amphibious",
    "Battle",
    "BattleError",
    "BattleResult",
    "Force",
    "ForceError",
    "OddsimError",
    "OrderOfLossError",
    "RetreatPolicy",
    "Ruleset",
    "RulesetError",
    "Side",
    "Survivors",
    "TooLargeError",
    "builtin_names",
    "load_ruleset",
    "parse_force",
    "simulate",
    "solve",
]

_SUBMODULES = {
    "api": "oddsim.api", "plot": "oddsim.plot", "purchase": "oddsim.purchase", "plan": "oddsim.plan",
    "raid": "oddsim.raid", "sweeps": "oddsim.sweeps",
    "trench": "oddsim.trench", "waves": "oddsim.stages.waves", "amphibious": "oddsim.stages.amphibious",
    "estimates": "oddsim.results.estimates", "names": "oddsim.model.names",
    "result": "oddsim.results.battle_result", "rules": "oddsim.model.rules",
    "forces": "oddsim.model.forces", "battle": "oddsim.model.battle",
}
"""Modules reachable as ``oddsim.<name>`` after a bare ``import oddsim`` (``oddsim.rules.with_changes``),
each the module it names; each is imported on first use, so ``import oddsim`` does not import
matplotlib or Dask."""

__getattr__, __dir__ = lazy_names(__name__, _HOMES, _SUBMODULES, announce_for_python)
"""(A program's first use of a name: its first compile, on a new installation, is announced.)"""
