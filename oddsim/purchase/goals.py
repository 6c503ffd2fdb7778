"""What a purchase is bought for, and how a battle's result scores against that goal.

- ``take``: the buyer attacks; the chance to take the territory (win with a land unit left).
  Land battles only: a sea zone is not taken, so ``take`` with ``sea`` is refused, naming
  ``clear``.
- ``clear``: the buyer attacks; the chance to destroy every defender and survive
  (``attacker_win``). Land or sea.
- ``hold``: the buyer defends; the chance the defender keeps the territory or zone. On land that
  is everything but the attacker taking it (``1 - takes_territory``: a draw, or an attacker left
  with aircraft only, still holds); at sea the defender keeps the zone when it has units left
  (``defender_win + stalemate``).
- ``tuv``: the buyer attacks; the expected TUV swing (defender's IPCs lost minus the attacker's).
- ``value``: the buyer attacks and retreats at best (``RetreatPolicy(best="value")``); the
  expected TUV swing plus the territory's value (``territory_value``) times the chance to take it.
  Land only (at sea ``tuv`` is the same goal without a territory).
- ``hold-after``: the buyer attacks; the chance to take the territory and still hold it after
  the ``counter_attack`` army counter-attacks what took it (``oddsim.stages.counter``). Land only.

Higher is better for every goal.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Protocol

from oddsim.errors import OddsimError
from oddsim.results.estimates import binomial_interval, error_decimals, interval_text, needs_interval


class PurchaseError(OddsimError):
    """A purchase sweep that cannot be run as asked: bad budget, unit, cap, goal or output file."""


class _Outcome(Protocol):
    @property
    def attacker_win(self) -> float: ...
    @property
    def defender_win(self) -> float: ...
    @property
    def stalemate(self) -> float: ...
    @property
    def takes_territory(self) -> float | None: ...
    @property
    def tuv_swing(self) -> float: ...
    @property
    def objective(self) -> float | None: ...
    @property
    def holds(self) -> float | None: ...
    @property
    def std_error(self) -> Mapping[str, float] | None: ...
    def chance_std_error(self, p: float) -> float | None: ...


class Goal(enum.Enum):
    """The goal a sweep ranks purchases by; see the module docstring for each one's meaning."""

    TAKE = "take"
    CLEAR = "clear"
    HOLD = "hold"
    TUV = "tuv"
    VALUE = "value"
    HOLD_AFTER = "hold-after"

    @classmethod
    def parse(cls, text: Goal | str, sea: bool) -> Goal:
        """The goal named ``text``, checked against the kind of battle."""
        if isinstance(text, Goal):
            goal = text
        else:
            try:
                goal = cls(str(text).strip().lower())
            except ValueError:
                names = " | ".join(g.value for g in cls)
                raise PurchaseError(f"unknown goal '{text}': use {names}") from None
        if goal in (Goal.TAKE, Goal.HOLD_AFTER, Goal.VALUE) and sea:
            raise PurchaseError(f"goal '{goal.value}' makes no sense for a sea battle (there is no "
                                f"territory to take): use --goal clear (destroy every defending "
                                f"unit and have one left), hold or tuv")
        return goal

    @property
    def buyer_defends(self) -> bool:
        """Whether the purchase joins the defender (hold) rather than the attacker."""
        return self is Goal.HOLD

    @property
    def is_probability(self) -> bool:
        return self not in (Goal.TUV, Goal.VALUE)

    @property
    def label(self) -> str:
        return {Goal.TAKE: "chance to take", Goal.CLEAR: "chance to clear",
                Goal.HOLD: "chance to hold", Goal.TUV: "expected TUV swing",
                Goal.VALUE: "best-retreat value", Goal.HOLD_AFTER: "chance to take and hold"}[self]

    def casualty_goal(self, sea: bool) -> str:
        """What a side that chooses each loss plays for in this goal's battles, unless told
        (``--casualty-goal``): the same thing, seen from the battle (the battle's goal ``take``
        for ``take``, ``hold`` and ``hold-after`` on land, ``win`` for ``clear`` and for ``hold``
        at sea, ``tuv``, ``value`` with the sweep's territory value)."""
        if self is Goal.CLEAR or self is Goal.HOLD and sea:
            return "win"
        return {Goal.TUV: "tuv", Goal.VALUE: "value"}.get(self, "take")

    def value_of(self, outcome: _Outcome, sea: bool) -> float:
        """The score of one battle's outcome for this goal (higher is better)."""
        if self is Goal.TAKE:
            return float(outcome.takes_territory or 0.0)
        if self is Goal.CLEAR:
            return outcome.attacker_win
        if self is Goal.HOLD:
            if sea:
                return outcome.defender_win + outcome.stalemate
            return 1.0 - float(outcome.takes_territory or 0.0)
        if self is Goal.VALUE:
            return float(outcome.objective or 0.0)  # a value sweep's battles always carry it
        if self is Goal.HOLD_AFTER:
            return float(outcome.holds or 0.0)  # a hold-after sweep's battles always carry it
        return outcome.tuv_swing

    def std_error_of(self, outcome: _Outcome, sea: bool) -> float | None:
        """The standard error of ``value_of`` where Monte Carlo estimated it (None: exact)."""
        errors = outcome.std_error
        if errors is None:
            return None
        if self is Goal.HOLD and sea:  # one chance: the defender has units left
            if "defender_win" not in errors:
                return None
            return outcome.chance_std_error(outcome.defender_win + outcome.stalemate)
        name = {Goal.TAKE: "takes_territory", Goal.CLEAR: "attacker_win", Goal.HOLD: "takes_territory",
                Goal.TUV: "tuv_swing", Goal.VALUE: "objective", Goal.HOLD_AFTER: "holds"}[self]
        return errors.get(name)

    def format(self, value: float) -> str:
        """``"63.21%"`` for a chance, ``"+4.75"`` for a TUV swing."""
        return f"{100 * value:.2f}%" if self.is_probability else f"{value:+.2f}"

    def error_text(self, value: float, error: float | None, runs: int | None) -> str:
        """How a row's value is uncertain: "" where it is exact, ``"± 0.15%"``, or for a chance
        that ``runs`` Monte Carlo runs saw so rarely (or so nearly always) that its ± says
        little, its 95% interval (``"95%: 0 to 0.19%"``, not "± 0.00%" for no run at all)."""
        if error is None:
            return ""
        if self in (Goal.TAKE, Goal.CLEAR, Goal.HOLD) and runs and needs_interval(value, runs):
            return interval_text(binomial_interval(round(value * runs), runs))  # (one chance per run)
        return "± " + self.format_error(error)

    def format_error(self, error: float) -> str:
        """A standard error in the value's unit, two decimals or more to show a significant digit
        (never "0.00"): ``"0.15%"``, ``"0.08"``, ``"0.003%"``."""
        if self.is_probability:
            return f"{100 * error:.{max(2, error_decimals(100 * error))}f}%"
        return f"{error:.{max(2, error_decimals(error))}f}"
