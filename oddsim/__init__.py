"""oddsim: combat odds for Axis & Allies-style dice battles, exact and Monte Carlo."""

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
from oddsim.exact import solve
from oddsim.forces import Force, parse_force
from oddsim.montecarlo import simulate
from oddsim.result import BattleResult, Survivors
from oddsim.rules import Ruleset, builtin_names, load_ruleset

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
__version__ = "0.1.0"

_SUBMODULES = frozenset({"api", "plot", "purchase", "raid", "trench", "waves", "amphibious",
                         "estimates", "names", "result", "rules", "forces", "battle"})
"""Submodules reachable as ``oddsim.<name>`` after a bare ``import oddsim``; each is imported on
first use, so ``import oddsim`` does not import matplotlib or Dask."""


def __getattr__(name: str):
    if name in _SUBMODULES:
        import importlib

        module = importlib.import_module(f"oddsim.{name}")
        globals()[name] = module
        return module
    raise AttributeError(f"module 'oddsim' has no attribute '{name}'")
