"""What a sweep returns: over unit counts, a chance per count (``CurveSweep``) or per pair of
counts (``HeatmapSweep``), each point with its standard error and engine; over Monte Carlo run
counts, one estimate per count (``ConvergencePoint``). The charts (``oddsim.plot``) read these;
``oddsim.sweeps.counts`` and ``oddsim.sweeps.runs`` compute them.

Metrics, all chances in 0..1: ``win`` the attacker destroys the defender and survives; ``take``
the attacker takes the territory (land only); ``hold`` the defender keeps the territory (land:
it is not taken; sea: the attacker neither wins nor draws).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from oddsim.errors import OddsimError

METRICS = {"win": "chance the attacker wins", "take": "chance the attacker takes the territory",
           "hold": "chance the defender holds"}
SIDES = ("attacker", "defender")
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


CONVERGENCE_RUNS = (1_000, 3_000, 10_000, 30_000, 100_000)
"""The run counts ``convergence_points`` simulates a battle at by default."""
PROBABILITIES = {"attacker_win": "chance the attacker wins",
                 "defender_win": "chance the defender wins", "draw": "chance of a draw",
                 "stalemate": "chance of a stalemate",
                 "takes_territory": "chance the attacker takes the territory"}
MEANS = {"attacker_ipc_lost": "attacker's expected IPC loss (IPCs)",
         "defender_ipc_lost": "defender's expected IPC loss (IPCs)",
         "expected_rounds": "expected number of rounds (rounds)"}
"""The figures a convergence sweep may follow: chances, and means (with their units)."""


def check_convergence_metric(metric: object, error: type[OddsimError]) -> str:
    """``metric`` itself when a convergence sweep can follow it, else ``error`` naming those it can."""
    if not isinstance(metric, str) or metric not in PROBABILITIES and metric not in MEANS:
        names = ", ".join([*PROBABILITIES, *MEANS])
        raise error(f"unknown metric '{metric}': use one of {names}")
    return metric


@dataclass(frozen=True)
class ConvergencePoint:
    """One Monte Carlo estimate: how many runs, the estimate and its standard error; ``battle``
    (from a result) names the battle, the chart's default title."""

    runs: int
    estimate: float
    std_error: float
    battle: str | None = None

    @classmethod
    def of(cls, result: Any, metric: str) -> ConvergencePoint:
        """The point of a Monte Carlo result with runs and a value of ``metric``."""
        battle = getattr(result, "battle", None)
        return cls(int(result.runs), float(getattr(result, metric)),
                   float(result.std_error.get(metric, 0.0)), battle if isinstance(battle, str) else None)
