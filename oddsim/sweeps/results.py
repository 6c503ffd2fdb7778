"""What a sweep over unit counts returns: a chance per count (``CurveSweep``) or per pair of counts
(``HeatmapSweep``), each point with its standard error and engine. The charts
(``oddsim.plot.sweep_charts``) read these; ``oddsim.sweeps.counts`` computes them.

Metrics, all chances in 0..1: ``win`` the attacker destroys the defender and survives; ``take``
the attacker takes the territory (land only); ``hold`` the defender keeps the territory (land:
it is not taken; sea: the attacker neither wins nor draws).
"""

from __future__ import annotations

from dataclasses import dataclass

METRICS = {"win": "chance the attacker wins", "take": "chance the attacker takes the territory",
           "hold": "chance the defender holds"}
SIDES = ("attacker", "defender")
METHODS = ("auto", "exact", "mc")
DEFAULT_CHART_RUNS = 20_000
"""Monte Carlo runs per point: a standard error under 0.4 points, finer than a chart shows."""
MAX_CURVE_POINTS = 101
MAX_CURVES = 8
MAX_HEATMAP_CELLS = 441
"""At most 21 x 21 cells: more would not be readable at 800 px, and would take long."""


@dataclass(frozen=True)
class SweepPoint:
    """One battle of a sweep: the metric's chance, its standard error and the engine used
    (``"none"`` where the attacker had nothing left to attack with)."""

    value: float
    std_error: float
    method: str


@dataclass(frozen=True)
class Curve:
    """One army's curve: the metric at each count of the varied unit."""

    label: str
    counts: tuple[int, ...]
    points: tuple[SweepPoint, ...]

    @property
    def values(self) -> tuple[float, ...]:
        return tuple(p.value for p in self.points)

    @property
    def std_errors(self) -> tuple[float, ...]:
        return tuple(p.std_error for p in self.points)


@dataclass(frozen=True)
class CurveSweep:
    """Curves of ``metric`` as ``side``'s ``unit`` count varies, one per army given."""

    rules: str
    sea: bool
    metric: str
    side: str
    unit: str
    curves: tuple[Curve, ...]
    against: str
    """What the curves fight: the army of the side that does not vary, when there is one."""


@dataclass(frozen=True)
class HeatmapSweep:
    """``metric`` over two unit counts: ``points[i][j]`` has ``y_counts[i]`` and ``x_counts[j]``."""

    rules: str
    sea: bool
    metric: str
    x_side: str
    x_unit: str
    x_counts: tuple[int, ...]
    y_side: str
    y_unit: str
    y_counts: tuple[int, ...]
    points: tuple[tuple[SweepPoint, ...], ...]
    battle: str
    """The armies, with the two varied units written as X and Y."""

    @property
    def values(self) -> tuple[tuple[float, ...], ...]:
        return tuple(tuple(p.value for p in row) for row in self.points)
