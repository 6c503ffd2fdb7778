"""The error a sweep over unit counts raises on bad input."""

from oddsim.errors import OddsimError


class SweepError(OddsimError):
    """A sweep that cannot be run as asked: a bad range, metric, side, method or battle option."""
