"""Unit-count ranges for sweeps: ``inf=0..20`` (or ``inf=0..20:2``, every second count).

Parsing is kept apart from the unit's edition: ``UnitRange.unit`` is the token as written and
is resolved against the ruleset when the sweep runs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from oddsim.model.forces import MAX_UNITS_PER_SIDE
from oddsim.sweeps.errors import SweepError

_RANGE = re.compile(r"^\s*(?P<unit>[^=]+?)\s*=\s*(?P<low>[+-]?\d+)\s*\.\.\s*(?P<high>[+-]?\d+)"
                    r"\s*(?::\s*(?P<step>[+-]?\d+))?\s*$")
EXAMPLE = "inf=0..20"


@dataclass(frozen=True)
class UnitRange:
    """The counts ``low, low + step, ..., high`` (high included when the steps land on it)."""

    unit: str
    low: int
    high: int
    step: int = 1

    @property
    def counts(self) -> tuple[int, ...]:
        return tuple(range(self.low, self.high + 1, self.step))

    def __str__(self) -> str:
        return f"{self.unit}={self.low}..{self.high}" + (f":{self.step}" if self.step != 1 else "")


def parse_unit_range(text: str | UnitRange, what: str = "--vary") -> UnitRange:
    """A ``UnitRange`` from ``"inf=0..20"`` or ``"inf=0..20:2"``, each part checked."""
    if isinstance(text, UnitRange):
        return check_unit_range(text, what)
    if not isinstance(text, str):
        raise SweepError(f"{what}: expected a range like {EXAMPLE}, not {type(text).__name__}")
    match = _RANGE.match(text)
    if match is None:
        raise SweepError(f"{what} '{text}': write UNIT=LOW..HIGH (or UNIT=LOW..HIGH:STEP), "
                        f"e.g. {EXAMPLE}")
    step = match["step"]
    return check_unit_range(UnitRange(match["unit"], int(match["low"]), int(match["high"]),
                                      1 if step is None else int(step)), what)


def check_unit_range(spec: UnitRange, what: str = "--vary") -> UnitRange:
    """``spec`` itself, once its counts are known to be a sensible non-empty range."""
    for name in ("low", "high", "step"):
        value = getattr(spec, name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise SweepError(f"{what} {spec}: {name} must be a whole number, not {value!r}")
    if not spec.unit.strip():
        raise SweepError(f"{what} '{spec}': name the unit to vary, e.g. {EXAMPLE}")
    if spec.low < 0 or spec.high < 0:
        raise SweepError(f"{what} {spec}: unit counts cannot be negative")
    if spec.low > spec.high:
        raise SweepError(f"{what} {spec}: the low end {spec.low} is above the high end {spec.high}")
    if spec.high > MAX_UNITS_PER_SIDE:
        raise SweepError(f"{what} {spec}: at most {MAX_UNITS_PER_SIDE} units, not {spec.high}")
    if spec.step < 1:
        raise SweepError(f"{what} {spec}: the step must be 1 or more, not {spec.step}")
    return spec
