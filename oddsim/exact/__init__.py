"""The exact engine: dynamic programming over casualty states."""

from oddsim.exact.solve import estimate_work, solve

__all__ = ["estimate_work", "solve"]
