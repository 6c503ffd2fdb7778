"""What each wave leaves: the units of its attacker and of the defender when its battle ends.

A player asks "what is left of my army after wave 2, and what defends against wave 3". The wave
engine knows both exactly: each battle's survivor rows, weighed by the chance of the defender
composition it was fought against, mix into the wave's expected units left by type; the defender
compositions still standing after the wave are the distribution the next wave meets. Nothing
here is sampled again: with Monte Carlo the figures are mixed from the battles' own estimates,
and their standard errors spread as the paths through the waves do (``results.mixing``).

A wave that does not reach the battle (the defender is already gone) keeps its whole army:
that is where the unconditional figure counts it, as its IPC lost counts 0 there.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from oddsim.model.forces import Force
from oddsim.model.rules import Ruleset
from oddsim.results.mixing import chance_error, spread_error

ROUNDING = 64 * sys.float_info.epsilon
"""A spread this small against the second moment is the rounding of the sums it comes from (2
armor on every path, their chances summing to 1 - 1e-16, would print "± 0.0000000005")."""


@dataclass
class UnitMoments:
    """The expected number of each unit type over weighted end states, and its second moment
    (for a Monte Carlo standard error)."""

    mean: dict[str, float] = field(default_factory=dict)
    square: dict[str, float] = field(default_factory=dict)

    def add(self, counts: Iterable[tuple[str, int]], weight: float) -> None:
        """Count an end state with these units, of chance ``weight``."""
        for name, n in counts:
            if n > 0:
                self.mean[name] = self.mean.get(name, 0.0) + weight * n
                self.square[name] = self.square.get(name, 0.0) + weight * n * n

    def plus(self, other: UnitMoments) -> UnitMoments:
        """Both tallies together."""
        both = UnitMoments(dict(self.mean), dict(self.square))
        for name, m in other.mean.items():
            both.mean[name] = both.mean.get(name, 0.0) + m
            both.square[name] = both.square.get(name, 0.0) + other.square[name]
        return both

    def expected(self, rules: Ruleset, over: float = 1.0) -> dict[str, float]:
        """Expected units by type in the edition's order, divided by ``over`` (the chance they are
        conditioned on; 0: none)."""
        return {name: (self.mean[name] / over if over > 0 else 0.0) for name in _ordered(self.mean, rules)}

    def errors(self, rules: Ruleset, runs: float, over: float = 1.0) -> dict[str, float]:
        """The standard errors of ``expected(rules, over)`` with ``runs`` paths in all (the
        conditioned figure: over the ``over x runs`` paths that reach it)."""
        if over <= 0:
            return dict.fromkeys(_ordered(self.mean, rules), 0.0)
        errors = {}
        for name in _ordered(self.mean, rules):
            mean, square = self.mean[name] / over, self.square[name] / over
            if square - mean * mean <= ROUNDING * square:  # a count the same on every path: no spread
                mean, square = 0.0, 0.0
            errors[name] = spread_error(mean, square, over * runs)
        return errors


@dataclass
class WaveUnits:
    """One wave's units left, tallied battle by battle as the wave engine fights them (units
    named in ``rules``' order)."""

    rules: Ruleset
    fought: UnitMoments = field(default_factory=UnitMoments)  # the attacker, where it fought
    walked: UnitMoments = field(default_factory=UnitMoments)  # the attacker, where it did not
    defender: UnitMoments = field(default_factory=UnitMoments)  # the defender standing after it
    rows: list[dict] = field(default_factory=list)  # the defender after it (``defender_rows``)

    def battle(self, weight: float, attacker_rows: Iterable) -> None:
        """The attacker's survivor rows of one battle, reached with chance ``weight``."""
        for row in attacker_rows:
            self.fought.add(row.counts.items(), weight * row.probability)

    def walk_in(self, army: Force, chance: float) -> None:
        """The wave did not fight with ``chance``: its whole army is left."""
        if chance > 0:
            self.walked.add(army.counts, chance)

    def end(self, after: Mapping[Force, float], gone: float) -> None:
        """The defender compositions standing after the wave, with their chances, and the
        chance ``gone`` that it is destroyed by now."""
        for force, p in after.items():
            self.defender.add(force.counts, p)
        self.rows = defender_rows(after, gone)

    def figures(self, reached: float) -> tuple[dict, dict]:
        """The wave's JSON fields: expected units left of both sides unconditional and the
        defender's compositions after it; and the expected units given the wave reaches the
        battle (for ``given_it_fights``)."""
        return ({"attacker_units_left": self.fought.plus(self.walked).expected(self.rules),
                 "defender_units_left": self.defender.expected(self.rules),
                 "defender_survivors": self.rows},
                {"attacker_units_left": self.fought.expected(self.rules, reached),
                 "defender_units_left": self.defender.expected(self.rules, reached)})

    def errors(self, reached: float, runs: int) -> tuple[dict, dict]:
        """The standard errors of ``figures`` with ``runs`` paths through the waves (a row's
        chance: its binomial error, in ``std_error`` of each row)."""
        return ({"attacker_units_left": self.fought.plus(self.walked).errors(self.rules, runs),
                 "defender_units_left": self.defender.errors(self.rules, runs)},
                {"attacker_units_left": self.fought.errors(self.rules, runs, reached),
                 "defender_units_left": self.defender.errors(self.rules, runs, reached)})


def defender_rows(after: Mapping[Force, float], gone: float) -> list[dict]:
    """The defender after a wave, a row per composition still standing and one, "none", for the
    chance ``gone`` it is destroyed by now (where it is above 0); most likely first (rows of equal
    chance in the engine's order). ``gone`` is passed, not 1 less the rows: a sum of the paths
    that destroyed it carries no rounding left over from the others."""
    rows = [{"label": force.describe(), "counts": dict(force.counts), "damaged": dict(force.damaged),
             "probability": float(p)} for force, p in after.items()]
    if gone > 0.0:
        rows.append({"label": "none", "counts": {}, "damaged": {}, "probability": float(gone)})
    return sorted(rows, key=lambda row: -row["probability"])


def row_errors(rows: list[dict], runs: int) -> list[dict]:
    """The rows with each chance's standard error with ``runs`` paths."""
    return [{**row, "std_error": chance_error(row["probability"], runs)} for row in rows]


def _ordered(names: Iterable[str], rules: Ruleset) -> list[str]:
    """The unit names in the edition's order."""
    return sorted(names, key=rules.unit_index)
