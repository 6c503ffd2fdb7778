"""The exact engine: dynamic programming over casualty states."""

from oddsim.exact.solve import estimate_states, solve

__all__ = ["estimate_states", "solve"]
