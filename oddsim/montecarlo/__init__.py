"""The Monte Carlo engine: a vectorised Numba kernel that fights many battles on unit counts."""

from oddsim.montecarlo._model import describe_model
from oddsim.montecarlo.simulate import simulate

__all__ = ["describe_model", "simulate"]
