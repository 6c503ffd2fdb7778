"""The exact engine: dynamic programming over casualty states."""

from oddsim.exact.solve import RetreatTable, estimate_work, retreat_table, solve

__all__ = ["RetreatTable", "estimate_work", "retreat_table", "solve"]
