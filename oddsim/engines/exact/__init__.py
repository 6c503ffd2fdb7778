"""The exact engine: dynamic programming over casualty states, one plain battle at a time
(``size`` it, ``solve`` it; ``oddsim.solve`` is the whole answer, ``oddsim.stages.pipeline``).

Its ``retreat_table`` also gives the Monte Carlo engine its 'below win' and 'aircraft risk'
retreat decisions: for those rules the two engines are not independent."""

from oddsim.engines.exact.best import BestRetreat
from oddsim.engines.exact.solve import RetreatTable, Sized, check_size, retreat_table, size, solve

__all__ = ["BestRetreat", "RetreatTable", "Sized", "check_size", "retreat_table", "size", "solve"]
