"""What a plan is for, and how one target's battle scores against it.

Attack goals (the pool attacks every target):

- ``value`` (the default): the sum over targets of the expected TUV swing (defender's IPCs lost
  minus the attacker's) plus the target's value V times the chance to take it.
- ``tuv``: the sum of the expected TUV swings.
- ``take-all``: the chance to take every target (the battles are independent: the product of
  each target's chance).
- ``take-at-least:K``: the chance to take K targets or more (the distribution of the number
  taken, target by target).
- ``hold-after``: the chance to take every target and still hold it after its counter-attack
  (``--counter-attack NAME=ARMY``; a target without one is held when taken): the product of each
  target's chance to take and hold.

Defence goals (the pool is placed on territories, each facing a threat):

- ``hold-all``: the chance to hold every territory (the threat does not take it).
- ``hold-at-least:K``: the chance to hold K territories or more.
- ``value``: the sum over territories of V times the chance to hold it plus the attacker's
  expected IPCs lost minus the defender's (value kept minus the IPCs the defence loses, net):
  the attack goal ``value`` seen from the other side.

A target the plan sends nothing to scores 0 (``value``, ``tuv``), is not taken, and (defence)
is fought by its threat against what already stands there.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from oddsim.errors import OddsimError


class PlanError(OddsimError):
    """A plan that cannot be made as asked: a bad target, value, reach, pool or goal."""


class Combine(enum.Enum):
    """How the targets' scores make the objective: added, multiplied (independent chances that
    must all come true), or counted (at least K of independent chances)."""

    ADD = "add"
    MULTIPLY = "multiply"
    AT_LEAST = "at-least"


class GoalKind(enum.Enum):
    VALUE = "value"
    TUV = "tuv"
    TAKE_ALL = "take-all"
    TAKE_AT_LEAST = "take-at-least"
    HOLD_AFTER = "hold-after"
    HOLD_ALL = "hold-all"
    HOLD_AT_LEAST = "hold-at-least"


ATTACK_GOALS = (GoalKind.VALUE, GoalKind.TUV, GoalKind.TAKE_ALL, GoalKind.TAKE_AT_LEAST, GoalKind.HOLD_AFTER)
DEFEND_GOALS = (GoalKind.VALUE, GoalKind.HOLD_ALL, GoalKind.HOLD_AT_LEAST)
_NEEDS_K = (GoalKind.TAKE_AT_LEAST, GoalKind.HOLD_AT_LEAST)


@dataclass(frozen=True)
class Goal:
    """A goal and, for the ``...-at-least:K`` goals, its K."""

    kind: GoalKind
    k: int = 0

    @property
    def name(self) -> str:
        return f"{self.kind.value}:{self.k}" if self.kind in _NEEDS_K else self.kind.value

    @property
    def combine(self) -> Combine:
        if self.kind in (GoalKind.VALUE, GoalKind.TUV):
            return Combine.ADD
        if self.kind in _NEEDS_K:
            return Combine.AT_LEAST
        return Combine.MULTIPLY

    @property
    def is_probability(self) -> bool:
        return self.combine is not Combine.ADD

    @property
    def needs_holds(self) -> bool:
        """Whether each target's score needs its counter-attack (full solves)."""
        return self.kind is GoalKind.HOLD_AFTER

    def format(self, value: float) -> str:
        """``"63.21%"`` for a chance, ``"+4.75"`` for IPCs."""
        return f"{100 * value:.2f}%" if self.is_probability else f"{value:+.2f}"

    def format_error(self, std_error: float) -> str:
        """``" ± 0.31%"`` (a chance) or ``" ± 0.12"`` (IPCs) for a simulated objective; ``""``
        for an exact one."""
        if not std_error:
            return ""
        return f" ± {100 * std_error:.2f}%" if self.is_probability else f" ± {std_error:.2f}"

    @property
    def label(self) -> str:
        return {GoalKind.VALUE: "expected value (TUV swing + value x chance)",
                GoalKind.TUV: "expected TUV swing", GoalKind.TAKE_ALL: "chance to take every target",
                GoalKind.TAKE_AT_LEAST: f"chance to take at least {self.k} of the targets",
                GoalKind.HOLD_AFTER: "chance to take and hold every target",
                GoalKind.HOLD_ALL: "chance to hold every territory",
                GoalKind.HOLD_AT_LEAST: f"chance to hold at least {self.k} of the territories"}[self.kind]


def parse_goal(text: Goal | str, targets: int, defend: bool) -> Goal:
    """The goal named ``text`` (``"take-at-least:2"``), checked against the number of targets
    and the side (attack or defence); raises PlanError naming the fix."""
    if isinstance(text, Goal):
        goal = text
    else:
        if not isinstance(text, str):
            raise PlanError(f"goal must be a name like 'value' or 'take-at-least:2', not {text!r}")
        name, sep, raw_k = text.strip().lower().partition(":")
        try:
            kind = GoalKind(name)
        except ValueError:
            kind = None
        allowed = DEFEND_GOALS if defend else ATTACK_GOALS
        if kind is None or kind not in allowed:
            names = " | ".join(g.value + (":K" if g in _NEEDS_K else "") for g in allowed)
            raise PlanError(f"unknown {'defence' if defend else 'attack'} goal '{text}': use {names}")
        if kind in _NEEDS_K:
            if not sep or not raw_k.strip().isdecimal() or len(raw_k.strip()) > 6:
                raise PlanError(f"goal '{text}' needs its number of targets: write {kind.value}:K, "
                                f"e.g. {kind.value}:2")
            goal = Goal(kind, int(raw_k))
        elif sep:
            raise PlanError(f"goal '{name}' takes no number: drop ':{raw_k}'")
        else:
            goal = Goal(kind)
    if goal.kind in _NEEDS_K and (isinstance(goal.k, bool) or not isinstance(goal.k, int)
                                  or not 1 <= goal.k <= targets):
        raise PlanError(f"goal {goal.name}: K must be from 1 to the {targets} "
                        f"{'territories' if defend else 'targets'} named")
    return goal
