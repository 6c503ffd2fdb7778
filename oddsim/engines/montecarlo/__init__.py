"""The Monte Carlo engine: a vectorised Numba kernel that fights many battles on unit counts.

It is independent of the exact engine for every rule but one: 'below win' and 'aircraft risk'
retreats play the exact engine's decision table (``oddsim.engines.exact.retreat_table``)."""

from oddsim.engines.montecarlo._model import describe_model
from oddsim.engines.montecarlo.simulate import simulate

__all__ = ["describe_model", "simulate"]
