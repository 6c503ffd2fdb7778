"""The error the plotting helpers and ``oddsim chart`` raise on bad input."""

from oddsim.errors import OddsimError


class PlotError(OddsimError):
    """A chart that cannot be drawn or saved as asked: a bad range, metric, file name or path."""
