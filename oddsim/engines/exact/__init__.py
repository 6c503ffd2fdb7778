"""The exact engine: dynamic programming over casualty states.

Its ``retreat_table`` also gives the Monte Carlo engine its 'below win' and 'aircraft risk'
retreat decisions: for those rules the two engines are not independent."""

from oddsim.engines.exact.best import BestRetreat
from oddsim.engines.exact.solve import RetreatTable, estimate_seconds, estimate_work, retreat_table, solve

__all__ = ["BestRetreat", "RetreatTable", "estimate_seconds", "estimate_work", "retreat_table", "solve"]
