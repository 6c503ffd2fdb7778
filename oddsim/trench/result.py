"""TrenchResult: the one result type both engines return; the CLI and advice only read it.

Both engines count outcomes (out of 6**6 equally likely ordered roll pairs for the exact engine,
out of the runs for Monte Carlo) in a ``TrenchCounts``; every figure is derived from the counts
here, the same way for both, so exact results can be checked as fractions.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import numpy as np

from oddsim.results.estimates import number, percent
from oddsim.trench.model import describe_readings
from oddsim.trench.outcomes import category_of, victory_points

T = TypeVar("T")
SIDES = ("attacker", "defender")
NUMBERS = {2: "two", 3: "three"}


@dataclass(frozen=True)
class PerSide(Generic[T]):
    """One figure for each side."""

    attacker: T
    defender: T

    def to_dict(self) -> dict:
        return {"attacker": _plain(self.attacker), "defender": _plain(self.defender)}


def _plain(value):
    return list(value) if isinstance(value, tuple) else value


@dataclass(frozen=True)
class TrenchCounts:
    """Raw outcome counts. ``joint[i][j]``: attacker won ``i`` fronts and defender ``j``.

    ``destroyed.attacker[f]``: battles in which the attacker's card on front ``f + 1`` was
    destroyed. ``total``: battles counted (46,656 ordered roll pairs when exact).
    """

    joint: tuple[tuple[int, ...], ...]
    destroyed: PerSide[tuple[int, int, int]]
    total: int

    @classmethod
    def of(cls, joint: np.ndarray, attacker_destroyed: np.ndarray,
           defender_destroyed: np.ndarray, total: int) -> TrenchCounts:
        a0, a1, a2 = (int(x) for x in attacker_destroyed)  # one per front
        d0, d1, d2 = (int(x) for x in defender_destroyed)
        return cls(tuple(tuple(int(x) for x in row) for row in joint),
                   PerSide((a0, a1, a2), (d0, d1, d2)), int(total))


@dataclass(frozen=True)
class TrenchResult:
    """Outcome probabilities, fronts won, crushing victories, cards lost and expected points.

    ``draw`` (equal fronts won) counts for the defender, worth exactly 1 point. ``fronts_won``:
    per side, the chance of winning 0, 1, 2, 3 fronts. ``crushing_victory``: chance of winning
    all three fronts (attacker's and defender's). ``cards_destroyed``: per side and front, the
    chance the card there is destroyed (front lost by 4 or more); ``None`` where the side has no
    card. ``support_fleets_destroyed``: likewise for the fleet in a sea battle's support slot
    (destroyed with its front's fleet under ``support_fleet="destroyed"``, else never: 0);
    ``None`` where there is none. ``readings``: the readings the figures were computed under
    (``dice_fronts``, ``tied_front``, ``support_fleet``, ``destroy_margin``).
    ``joint_fronts[i][j]``: attacker won ``i`` fronts and defender ``j``. Monte Carlo
    results carry ``runs`` and a standard error for every figure in ``std_error`` (the same
    keys; exact results: all zero).
    """

    battle: str
    method: str
    play: str
    attacker_win: float
    defender_win: float
    draw: float
    fronts_won: PerSide[tuple[float, float, float, float]]
    crushing_victory: PerSide[float]
    cards_destroyed: PerSide[tuple[float | None, float | None, float | None]]
    expected_points: PerSide[float]
    joint_fronts: tuple[tuple[float, ...], ...]
    counts: TrenchCounts = field(repr=False)
    support_fleets_destroyed: PerSide[tuple[float | None, float | None, float | None]] = \
        PerSide((None, None, None), (None, None, None))
    readings: dict = field(default_factory=dict)
    runs: int | None = None
    std_error: dict = field(default_factory=dict)
    interrupted: bool = False  # Ctrl-C stopped Monte Carlo early: figures from ``runs`` battles

    @classmethod
    def from_counts(cls, counts: TrenchCounts, *, battle: str, method: str, play: str,
                    points: int, has_card: PerSide[tuple[bool, bool, bool]],
                    runs: int | None = None, interrupted: bool = False,
                    support_fleets: PerSide[tuple[bool, bool, bool]] | None = None,
                    fleets_destroyed: bool = False,
                    readings: dict | None = None) -> TrenchResult:
        """All figures from the counts; standard errors when ``runs`` is given (Monte Carlo).
        ``support_fleets``: where each side has a fleet in a sea support slot; with
        ``fleets_destroyed`` it is destroyed with the front's fleet (the same event, counted in
        ``counts.destroyed``)."""
        n = counts.total
        joint = np.array(counts.joint, dtype=np.float64) / n
        fronts = np.arange(4)
        category = category_of(fronts[:, None], fronts[None, :])
        attacker_vp, defender_vp = victory_points(category, points)
        figures: dict[str, Any] = {
            "attacker_win": float(joint[fronts[:, None] > fronts[None, :]].sum()),
            "defender_win": float(joint[fronts[:, None] < fronts[None, :]].sum()),
            "draw": float(np.trace(joint)),
            "fronts_won": PerSide(tuple(float(x) for x in joint.sum(axis=1)),
                                  tuple(float(x) for x in joint.sum(axis=0))),
            "crushing_victory": PerSide(float(joint[3].sum()), float(joint[:, 3].sum())),
            "cards_destroyed": PerSide(*(
                tuple(c / n if card else None for c, card in zip(
                    getattr(counts.destroyed, side), getattr(has_card, side), strict=True))
                for side in SIDES)),
            "expected_points": PerSide(float((joint * attacker_vp).sum()),
                                       float((joint * defender_vp).sum())),
            "support_fleets_destroyed": PerSide(*(
                tuple((c / n if fleets_destroyed else 0.0) if fleet else None
                      for c, fleet in zip(getattr(counts.destroyed, side),
                                          getattr(support_fleets, side), strict=True))
                if support_fleets is not None else (None, None, None) for side in SIDES)),
        }
        std_error = _std_errors(figures, joint, attacker_vp, defender_vp, runs)
        return cls(battle=battle, method=method, play=play, **figures,
                   joint_fronts=tuple(tuple(float(x) for x in row) for row in joint),
                   counts=counts, readings=dict(readings or {}), runs=runs,
                   std_error=std_error, interrupted=interrupted)

    def to_dict(self) -> dict:
        """Plain JSON-ready dict of every figure (counts left out)."""
        data = {"interrupted": self.interrupted, "battle": self.battle, "method": self.method,
                "play": self.play, "readings": dict(self.readings),
                "attacker_win": self.attacker_win, "defender_win": self.defender_win,
                "draw": self.draw}
        for name in ("fronts_won", "crushing_victory", "cards_destroyed",
                     "support_fleets_destroyed", "expected_points"):
            data[name] = getattr(self, name).to_dict()
        data["joint_fronts"] = [list(row) for row in self.joint_fronts]
        data["runs"] = self.runs
        data["std_error"] = self.std_error
        return data

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    def to_table(self) -> str:
        """A readable multi-line summary."""
        err = self.std_error

        def pct(value: float | None, error: float = 0.0) -> str:
            if value is None:
                return "-"
            if not error:
                return f"{100 * value:6.2f}%"
            shown, _, spread = percent(value, error).partition(" ± ")
            return f"{shown:>7s} ± {spread}"

        method = "exact" if self.runs is None else f"Monte Carlo, {self.runs:,} runs"
        if self.interrupted:
            method += " (interrupted: partial result)"
        lines = [self.battle, f"method: {method}; {self.play}"]
        if self.readings:
            lines.append(describe_readings(self.readings))
        rows = [("attacker wins", self.attacker_win, err["attacker_win"]),
                ("defender wins", self.defender_win, err["defender_win"]),
                ("draw (defender scores 1)", self.draw, err["draw"])]
        rows += [(f"{side} crushing victory", getattr(self.crushing_victory, side),
                  err["crushing_victory"][side]) for side in SIDES]
        lines += [f"  {label:26s}{pct(value, error)}" for label, value, error in rows]
        lines.append(f"{'fronts won':12s}" + "".join(f"{n:>9d}" for n in range(4)))
        for side in SIDES:
            lines.append(f"  {side:10s}" + "".join(
                f"{pct(p):>9s}" for p in getattr(self.fronts_won, side)))
        lines.append(f"{'card lost':12s}" + "".join(f"{'front ' + str(f):>9s}"
                                                   for f in range(1, 4)))
        for side in SIDES:
            lines.append(f"  {side:10s}" + "".join(
                f"{pct(p):>9s}" for p in getattr(self.cards_destroyed, side)))
        tables = ["fronts_won", "cards_destroyed"]
        fleets = self.support_fleets_destroyed
        if any(p is not None for side in SIDES for p in getattr(fleets, side)):
            tables.append("support_fleets_destroyed")
            lines.append(f"{'slot fleet':12s}" + "".join(f"{'front ' + str(f):>9s}"
                                                        for f in range(1, 4)))
            for side in SIDES:
                lines.append(f"  {side:10s}" + "".join(
                    f"{pct(p):>9s}" for p in getattr(fleets, side)))
        if self.runs is not None:
            table_errors = [e for name in tables for s in SIDES
                            for e in err[name][s] if e is not None]
            lines.append(f"  (Monte Carlo: each chance in these {NUMBERS[len(tables)]} tables ± at most "
                         f"{percent(max(table_errors, default=0.0))})")
        vp, vp_err = self.expected_points, err["expected_points"]
        lines.append("expected victory points: "
                     f"attacker {number(vp.attacker, vp_err['attacker'] or None, decimals=3)}, "
                     f"defender {number(vp.defender, vp_err['defender'] or None, decimals=3)}")
        return "\n".join(lines)

    def check(self) -> float:
        """How far the three outcome probabilities are from summing to 1."""
        return math.fabs(self.attacker_win + self.defender_win + self.draw - 1.0)


def _proportion_error(p: float | None, runs: int | None) -> float | None:
    if p is None:
        return None
    return 0.0 if runs is None else math.sqrt(max(p * (1.0 - p), 0.0) / runs)


def _mean_error(joint: np.ndarray, values: np.ndarray, runs: int | None) -> float:
    if runs is None:
        return 0.0
    mean = (joint * values).sum()
    variance = max((joint * values**2).sum() - mean**2, 0.0)
    return math.sqrt(variance / runs)


def _std_errors(figures: dict, joint: np.ndarray, attacker_vp: np.ndarray,
                defender_vp: np.ndarray, runs: int | None) -> dict:
    def side(name: str) -> dict:
        value = figures[name]
        return {s: ([_proportion_error(p, runs) for p in getattr(value, s)]
                    if isinstance(getattr(value, s), tuple)
                    else _proportion_error(getattr(value, s), runs)) for s in SIDES}

    return {
        "attacker_win": _proportion_error(figures["attacker_win"], runs),
        "defender_win": _proportion_error(figures["defender_win"], runs),
        "draw": _proportion_error(figures["draw"], runs),
        "fronts_won": side("fronts_won"),
        "crushing_victory": side("crushing_victory"),
        "cards_destroyed": side("cards_destroyed"),
        "support_fleets_destroyed": side("support_fleets_destroyed"),
        "expected_points": {"attacker": _mean_error(joint, attacker_vp, runs),
                            "defender": _mean_error(joint, defender_vp, runs)},
    }
