"""The exact engine: dynamic programming over casualty states."""

from oddsim.exact.best import BestRetreat
from oddsim.exact.solve import RetreatTable, estimate_work, retreat_table, solve

__all__ = ["BestRetreat", "RetreatTable", "estimate_work", "retreat_table", "solve"]
