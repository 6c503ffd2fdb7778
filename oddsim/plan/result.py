"""A plan's answer: the best split (per target the units sent, its odds and IPC figures), the
objective, the runners-up, and each unit type's value at the margin. ``to_dict()`` is the one
JSON form (``oddsim plan --json``, the page); ``to_table()`` the text the command prints."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from oddsim.model.forces import Force
from oddsim.plan.goals import Goal
from oddsim.plan.odds import TargetOdds

FIGURES = ("attacker_win", "defender_win", "draw", "takes_territory", "attacker_ipc_lost",
           "defender_ipc_lost", "tuv_swing", "expected_rounds")
"""The battle figures each target of a split carries (``SubArmyOdds``'s)."""


def _counts(force: Force) -> dict[str, int]:
    return {name: int(n) for name, n in force.counts}


@dataclass(frozen=True)
class TargetPlan:
    """One target of a split: the units sent, the battle's figures, its value and its score
    (what it adds to, or multiplies into, the objective), with the score's standard error where
    the battle was simulated (``score_std_error``; 0 exact)."""

    name: str
    sent: Force
    odds: TargetOdds
    value: float
    score: float
    stands: Force = Force(())
    score_std_error: float = 0.0

    def to_dict(self) -> dict:
        odds = self.odds.odds
        return {"counts": _counts(self.sent), "damaged": _counts(Force(self.sent.damaged)),
                "units": self.sent.describe(), "stands": _counts(self.stands), "fought": self.odds.fought,
                "value": self.value,
                "score": self.score, **{name: float(getattr(odds, name)) for name in FIGURES},
                "holds": self.odds.holds, "method": "exact" if self.odds.runs is None else "mc",
                "runs": self.odds.runs, "std_error": dict(self.odds.std_error),
                "score_std_error": self.score_std_error}


@dataclass(frozen=True)
class Alternative:
    """A runner-up split: its objective (with its standard error where a target was
    simulated) and the units it sends to each target."""

    objective: float
    split: Mapping[str, Force]
    std_error: float = 0.0

    def to_dict(self) -> dict:
        return {"objective": self.objective, "objective_std_error": self.std_error,
                "split": {name: {"counts": _counts(f), "units": f.describe()}
                          for name, f in self.split.items()}}


@dataclass(frozen=True)
class PlanResult:
    """The best split for ``goal``: ``split`` by target name (in the order given),
    ``home`` the units not sent (those kept home and those the best split leaves), the
    ``alternatives`` (the next best splits, best first), and ``marginal``: for each unit type of
    the pool, how much the objective drops with one fewer of it (0 where one is spare).

    Exact, and proven best, unless a target's battle was too large for the exact engine: those
    targets (``simulated``) were run by Monte Carlo, ``runs`` per sub-army, the split is best for
    those estimates, and ``objective_std_error`` is the objective's standard error."""

    goal: Goal
    defend: bool
    objective: float
    split: Mapping[str, TargetPlan]
    home: Force
    alternatives: tuple[Alternative, ...]
    marginal: Mapping[str, float]
    battles: int
    objective_std_error: float = 0.0
    simulated: tuple[str, ...] = ()
    runs: int | None = None
    sea: bool = False  # sea battles: no territory to take, so no chance to take one printed
    choosers: str = ""  # who chooses each loss in the battles, and for what ("": fixed orders)

    @property
    def method(self) -> str:
        """``"exact"``, or ``"mc"`` where any target was simulated."""
        return "mc" if self.simulated else "exact"

    def to_dict(self) -> dict:
        return {"goal": self.goal.name, "defend": self.defend, "objective": self.objective,
                "objective_std_error": self.objective_std_error, "simulated": list(self.simulated),
                "runs": self.runs,
                "split": {name: t.to_dict() for name, t in self.split.items()},
                "home": {"counts": _counts(self.home), "units": self.home.describe()},
                "alternatives": [a.to_dict() for a in self.alternatives],
                "marginal": dict(self.marginal), "battles": self.battles, "method": self.method,
                **({"choosers": self.choosers} if self.choosers else {})}

    def to_table(self) -> str:
        goal = self.goal
        side = "defence" if self.defend else "attack"
        how = (f"exact, {self.battles} battles solved" if not self.simulated else
               f"{self.battles} battles; Monte Carlo for {', '.join(self.simulated)}, too large to solve "
               f"exactly: {self.runs:,} runs per battle, the split best for those estimates")
        if self.choosers:
            how += f"; {self.choosers}"
        lines = [f"best {side} split for {goal.label}: {goal.format(self.objective)}"
                 f"{goal.format_error(self.objective_std_error)} ({how})"]
        for name, t in self.split.items():
            o = t.odds.odds
            taken = (f"holds {100 * (1 - o.takes_territory):6.2f}%" if self.defend
                     else f"takes {100 * o.takes_territory:6.2f}%")
            held = f", takes and holds {100 * t.odds.holds:.2f}%" if t.odds.holds is not None else ""
            taken = "" if self.sea else f"{taken}{held}, "
            fight = (f"{taken}attacker wins {100 * o.attacker_win:.2f}%, IPC lost: attacker "
                     f"{o.attacker_ipc_lost:.2f}, defender {o.defender_ipc_lost:.2f} (TUV swing "
                     f"{o.tuv_swing:+.2f})") if t.odds.fought else "no battle"
            there = f" (with {t.stands.describe()} already there)" if not t.stands.is_empty() else ""
            lines.append(f"  {name}: {t.sent.describe()}{' placed' if self.defend else ''}{there}")
            simulated = (f" (Monte Carlo: score {goal.format(t.score)}{goal.format_error(t.score_std_error)})"
                         if t.odds.runs else "")
            lines.append(f"      {fight}{simulated}")
        lines.append(f"  not {'placed' if self.defend else 'sent'}: {self.home.describe()}")
        if self.alternatives:
            lines.append("runners-up:")
            for alt in self.alternatives:
                where = "; ".join(f"{name}: {f.describe()}" for name, f in alt.split.items())
                lines.append(f"  {goal.format(alt.objective)}{goal.format_error(alt.std_error)}  {where}")
        if self.marginal:
            lines.append("value at the margin (objective lost with one fewer):")
            lines.append("  " + ", ".join(f"{name} {goal.format(v)}" for name, v in self.marginal.items()))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_table()
