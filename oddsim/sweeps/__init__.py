"""Sweeps over unit counts: the odds of a battle at each count of one unit type
(``curve_sweep``), or at each pair of counts of two (``heatmap_sweep``), and a Monte Carlo
estimate at several run counts (``convergence_points``), as values the charts only read
(``oddsim.plot.odds_curve_chart``, ``heatmap_chart``, ``convergence_chart``).

    >>> import oddsim.sweeps, oddsim.plot
    >>> curves = oddsim.sweeps.curve_sweep("1942-2e", ["2 arm", "1 art"], "3 inf", "inf=0..4")
    >>> fig = oddsim.plot.odds_curve_chart(curves)  # doctest: +SKIP

The modules: ``ranges`` (``inf=0..20``), ``results`` (what a sweep returns), ``counts`` and
``runs`` (the battles fought). Names load on first use, so the ``oddsim`` command's help does not import the
engines.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from oddsim._runtime.lazy import lazy_names

if TYPE_CHECKING:
    from oddsim.sweeps.counts import curve_sweep, heatmap_sweep, point_of
    from oddsim.sweeps.errors import SweepError
    from oddsim.sweeps.ranges import UnitRange, parse_unit_range
    from oddsim.sweeps.results import ConvergencePoint, Curve, CurveSweep, HeatmapSweep, SweepPoint
    from oddsim.sweeps.runs import convergence_points

_HOMES = {
    "oddsim.sweeps.counts": ("curve_sweep", "heatmap_sweep", "point_of"),
    "oddsim.sweeps.errors": ("SweepError",),
    "oddsim.sweeps.ranges": ("UnitRange", "parse_unit_range"),
    "oddsim.sweeps.results": ("ConvergencePoint", "Curve", "CurveSweep", "HeatmapSweep", "SweepPoint"),
    "oddsim.sweeps.runs": ("convergence_points",),
}

__all__ = ["ConvergencePoint", "Curve", "CurveSweep", "HeatmapSweep", "SweepError", "SweepPoint",
           "UnitRange", "convergence_points", "curve_sweep", "heatmap_sweep", "parse_unit_range",
           "point_of"]

__getattr__, __dir__ = lazy_names(__name__, _HOMES)
