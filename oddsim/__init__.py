"""oddsim: combat odds for Axis & Allies-style dice battles, exact and Monte Carlo.

Names load on first use, so ``import oddsim`` (and the ``oddsim`` command's help, listings and
error messages) does not pay for importing NumPy and Numba until an engine is needed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from oddsim._lazy import lazy_names

if TYPE_CHECKING:
    from oddsim.amphibious import Amphibious
    from oddsim.battle import Battle, RetreatPolicy
    from oddsim.errors import (
        BattleError,
        ForceError,
        OddsimError,
        OrderOfLossError,
        RulesetError,
        TooLargeError,
    )
    from oddsim.exact import solve  # type: ignore[no-redef]  # (mypy: the function, not the module)
    from oddsim.forces import Force, parse_force
    from oddsim.montecarlo import simulate  # type: ignore[no-redef]
    from oddsim.result import BattleResult, Survivors
    from oddsim.rules import Ruleset, builtin_names, load_ruleset

_HOMES = {
    "oddsim.amphibious": ("Amphibious",),
    "oddsim.battle": ("Battle", "RetreatPolicy"),
    "oddsim.errors": ("BattleError", "ForceError", "OddsimError", "OrderOfLossError", "RulesetError",
                      "TooLargeError"),
    "oddsim.exact": ("solve",),
    "oddsim.forces": ("Force", "parse_force"),
    "oddsim.montecarlo": ("simulate",),
    "oddsim.result": ("BattleResult", "Survivors"),
    "oddsim.rules": ("Ruleset", "builtin_names", "load_ruleset"),
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
    "Survivors",
    "TooLargeError",
    "builtin_names",
    "load_ruleset",
    "parse_force",
    "simulate",
    "solve",
]

_SUBMODULES = ("api", "plot", "purchase", "raid", "trench", "waves", "amphibious", "estimates", "names",
               "result", "rules", "forces", "battle")
"""Submodules reachable as ``oddsim.<name>`` after a bare ``import oddsim``; each is imported on
first use, so ``import oddsim`` does not import matplotlib or Dask."""

__getattr__, __dir__ = lazy_names(__name__, _HOMES, _SUBMODULES)
