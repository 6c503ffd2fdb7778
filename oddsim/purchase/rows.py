"""One row of a sweep: a purchase and how its battle went; and the flat record it is stored as.

A record is a plain dict whose keys are ``columns(units)``: the row's ``index`` in the
enumeration, one ``buy_UNIT`` count per unit bought, the purchase in words, its ``cost`` and the
``leftover`` IPCs, the ``goal`` and its ``value``, the engine (``method``; ``runs`` for Monte
Carlo, empty for exact), the battle's outcome figures (see ``oddsim.BattleResult``), each
figure's standard error (``value_std_error``, ``attacker_win_std_error``, ...: where Monte Carlo
estimated it, empty where it is exact) and the ``sweep`` fingerprint. Files hold records;
tables and DataFrames are built from them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from oddsim.purchase.goals import PurchaseError

FIGURES = ("attacker_win", "defender_win", "draw", "stalemate", "takes_territory", "attacker_ipc_lost",
           "defender_ipc_lost", "tuv_swing")
"""A row's outcome figures: each has a ``*_std_error`` column too."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The figures of one solved battle that a sweep keeps (no survivor tables: rows stay small)."""

    method: str
    runs: int | None
    attacker_win: float
    defender_win: float
    draw: float
    stalemate: float
    takes_territory: float | None
    attacker_ipc_lost: float
    defender_ipc_lost: float
    objective: float | None = None  # the best retreat's objective (goal value)
    holds: float | None = None  # the chance to take and hold after a counter-attack (hold-after)
    std_error: Mapping[str, float] | None = None  # Monte Carlo figures' errors; None: all exact

    @classmethod
    def from_result(cls, result, holds: float | None = None, holds_std_error: float | None = None,
                    territory_bonus: float = 0.0) -> Outcome:
        """The outcome of a ``BattleResult``; ``holds`` (and its standard error where Monte Carlo
        played a part) from a counter-attack; ``territory_bonus`` is the best retreat's value of
        taking the territory, for its objective's error."""
        outcome = cls(method=result.method, runs=result.runs if result.method == "mc" else None,
                      attacker_win=result.attacker_win, defender_win=result.defender_win,
                      draw=result.draw, stalemate=result.stalemate,
                      takes_territory=result.takes_territory,
                      attacker_ipc_lost=result.attacker_ipc_lost,
                      defender_ipc_lost=result.defender_ipc_lost,
                      objective=getattr(result, "objective", None), holds=holds)
        errors: dict[str, float] = {}
        if result.method == "mc":
            errors = {name: float(result.std_error[name]) for name in FIGURES
                      if name in result.std_error and getattr(outcome, name) is not None}
            if outcome.objective is not None and "tuv_swing" in errors:
                # objective = swing + bonus x takes: the sum of the errors bounds its error, as
                # the swing's bounds the swing's
                takes = errors.get("takes_territory", 0.0)
                errors["objective"] = errors["tuv_swing"] + territory_bonus * takes
        if holds_std_error is not None:
            errors["holds"] = float(holds_std_error)
        return replace(outcome, std_error=errors) if errors else outcome

    def chance_std_error(self, p: float) -> float | None:
        """The standard error of a chance ``p`` counted over this outcome's Monte Carlo runs
        (None when exact)."""
        if self.method != "mc" or not self.runs:
            return None
        return math.sqrt(max(p * (1.0 - p), 0.0) / self.runs)

    @property
    def tuv_swing(self) -> float:
        return self.defender_ipc_lost - self.attacker_ipc_lost


@dataclass(frozen=True, slots=True)
class PurchaseRow:
    """One purchase of a sweep and its battle's outcome, scored by the sweep's goal."""

    index: int
    counts: tuple[int, ...]
    purchase: str
    cost: int
    leftover: int
    goal: str
    value: float
    method: str
    runs: int | None
    attacker_win: float
    defender_win: float
    draw: float
    stalemate: float
    takes_territory: float | None
    attacker_ipc_lost: float
    defender_ipc_lost: float
    tuv_swing: float
    sweep: str
    # standard errors where Monte Carlo estimated the figure (None: exact)
    value_std_error: float | None = None
    attacker_win_std_error: float | None = None
    defender_win_std_error: float | None = None
    draw_std_error: float | None = None
    stalemate_std_error: float | None = None
    takes_territory_std_error: float | None = None
    attacker_ipc_lost_std_error: float | None = None
    defender_ipc_lost_std_error: float | None = None
    tuv_swing_std_error: float | None = None

    def record(self, units: Sequence[str]) -> dict[str, object]:
        """The row as a flat dict, keys in ``columns(units)`` order."""
        data: dict[str, object] = {"index": self.index}
        data.update((f"buy_{name}", n) for name, n in zip(units, self.counts, strict=True))
        for key in _TAIL:
            data[key] = getattr(self, key)
        return data

    @classmethod
    def from_record(cls, record: Mapping[str, object], units: Sequence[str]) -> PurchaseRow:
        """Read a record back (from CSV text or JSON values), checking every field's type."""
        try:
            fields = {key: _convert(record[key], kind) for key, kind in _TAIL.items()}
            counts = tuple(_convert(record[f"buy_{name}"], int) for name in units)
            index = _convert(record["index"], int)
        except KeyError as missing:
            raise PurchaseError(f"a stored row has no field {missing}") from None
        _check_figures(fields, counts)
        return cls(index=index, counts=counts, **fields)


_TAIL: dict[str, object] = {  # field -> its type (a class, or a class | None)
    "purchase": str, "cost": int, "leftover": int, "goal": str, "value": float, "method": str,
    "runs": int | None, "attacker_win": float, "defender_win": float, "draw": float,
    "stalemate": float, "takes_territory": float | None, "attacker_ipc_lost": float,
    "defender_ipc_lost": float, "tuv_swing": float,
    "value_std_error": float | None, **{f"{name}_std_error": float | None for name in FIGURES},
    "sweep": str,
}
_BEFORE_STD_ERRORS = [key for key in _TAIL if not key.endswith("_std_error")]


CHANCES = ("attacker_win", "defender_win", "draw", "stalemate", "takes_territory")
"""A row's figures that are chances: each from 0 to 1, and the first four add up to at most 1
(the rest is the chance to retreat, which a row does not keep)."""
ROUNDING = 1e-9
"""How far a stored figure may stray from what it must be: rows are written with every digit."""


def _check_figures(fields: Mapping[str, Any], counts: Sequence[int]) -> None:
    """Refuse a stored row whose figures cannot be (a chance of 750%, an infinite or NaN figure, a
    negative loss or count, a swing that is not the losses' difference): ``--resume`` would rank
    such a row first, or drop it from the table, without a word."""
    def impossible(name: str, value: object) -> PurchaseError:
        return PurchaseError(f"a stored row has an impossible {name} {value!r}: the file is damaged; "
                             f"choose another --out")

    for name, value in fields.items():
        if isinstance(value, float) and not math.isfinite(value):
            raise impossible(name, value)
        if name.endswith("_std_error") and value is not None and value < 0:
            raise impossible(name, value)
    for name in CHANCES:
        value = fields[name]
        if value is not None and not -ROUNDING <= value <= 1 + ROUNDING:
            raise impossible(name, value)
    if sum(fields[name] for name in CHANCES[:4]) > 1 + ROUNDING:
        raise impossible("sum of chances", sum(fields[name] for name in CHANCES[:4]))
    for name in ("attacker_ipc_lost", "defender_ipc_lost", "cost", "leftover"):
        if fields[name] < 0:
            raise impossible(name, fields[name])
    if any(n < 0 for n in counts):
        raise impossible("unit count", min(counts))
    if fields["runs"] is not None and fields["runs"] < 1:
        raise impossible("runs", fields["runs"])
    swing = fields["defender_ipc_lost"] - fields["attacker_ipc_lost"]
    if abs(fields["tuv_swing"] - swing) > ROUNDING * max(1.0, abs(swing)):
        raise impossible("tuv_swing", fields["tuv_swing"])


def columns(units: Sequence[str]) -> list[str]:
    """The record keys, in order, of a sweep buying ``units``."""
    return ["index", *(f"buy_{name}" for name in units), *_TAIL]


def columns_before_std_errors(units: Sequence[str]) -> list[str]:
    """The record keys of files written before rows had standard errors (read to upgrade them)."""
    return ["index", *(f"buy_{name}" for name in units), *_BEFORE_STD_ERRORS]


def _convert(value: Any, kind: object) -> Any:
    """``value`` (a CSV string or a JSON value) as ``kind``; '' or None is None where allowed."""
    optional = kind in (int | None, float | None)
    base = int if kind in (int, int | None) else float if kind in (float, float | None) else str
    if value is None or value == "":
        if optional:
            return None
        if base is str and value == "":
            return ""
        raise PurchaseError(f"a stored row has an empty value where a {base.__name__} belongs")
    try:
        if base is int:
            if isinstance(value, float) or isinstance(value, bool):
                raise ValueError
            return int(value)
        if base is float:
            if isinstance(value, bool):
                raise ValueError
            return float(value)
        return str(value)
    except (TypeError, ValueError):
        raise PurchaseError(f"a stored row has {value!r} where a {base.__name__} belongs") from None
