"""One row of a sweep: a purchase and how its battle went; and the flat record it is stored as.

A record is a plain dict whose keys are ``columns(units)``: the row's ``index`` in the
enumeration, one ``buy_UNIT`` count per unit bought, the purchase in words, its ``cost`` and the
``leftover`` IPCs, the ``goal`` and its ``value``, the engine (``method``; ``runs`` for Monte
Carlo, empty for exact), the battle's outcome figures (see ``oddsim.BattleResult``) and the
``sweep`` fingerprint. Files hold records; tables and DataFrames are built from them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from oddsim.purchase.goals import PurchaseError


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

    @classmethod
    def from_result(cls, result, holds: float | None = None) -> Outcome:
        return cls(method=result.method, runs=result.runs if result.method == "mc" else None,
                   attacker_win=result.attacker_win, defender_win=result.defender_win,
                   draw=result.draw, stalemate=result.stalemate,
                   takes_territory=result.takes_territory,
                   attacker_ipc_lost=result.attacker_ipc_lost,
                   defender_ipc_lost=result.defender_ipc_lost,
                   objective=getattr(result, "objective", None), holds=holds)

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
        return cls(index=index, counts=counts, **fields)


_TAIL: dict[str, object] = {  # field -> its type (a class, or a class | None)
    "purchase": str, "cost": int, "leftover": int, "goal": str, "value": float, "method": str,
    "runs": int | None, "attacker_win": float, "defender_win": float, "draw": float,
    "stalemate": float, "takes_territory": float | None, "attacker_ipc_lost": float,
    "defender_ipc_lost": float, "tuv_swing": float, "sweep": str,
}


def columns(units: Sequence[str]) -> list[str]:
    """The record keys, in order, of a sweep buying ``units``."""
    return ["index", *(f"buy_{name}" for name in units), *_TAIL]


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
