"""Plan the turn: the best split of a pool of units over several attacks (``attack``), or of a
defence over threatened territories (``defend``), proven best for the goal (a target too large
for the exact engine is simulated instead, with ``runs`` and ``seed``, and its errors given).

``attack(rules, pool, targets, goal="value", values=..., reach=..., keep_home=...,
counter_attack=..., **battle_options)`` and ``defend(rules, pool, threats, goal="hold-all",
stands=..., ...)`` return a ``PlanResult`` with ``.split`` (per target: the units sent, the
battle's odds and IPC figures), ``.objective``, ``.alternatives`` (the runners-up),
``.marginal`` (each unit type's value at the margin) and ``.to_dict()``.

The modules: ``spec`` (the input, parsed and checked), ``goals`` (what each goal counts),
``odds`` (each target's odds for every sub-army), ``optimise`` (the dynamic programme over the
targets), ``planner`` (the pieces together), ``result`` (the answer).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from oddsim.model.battle import RetreatPolicy
from oddsim.model.forces import Force
from oddsim.model.rules import Ruleset, load_ruleset
from oddsim.plan.goals import Goal, GoalKind, PlanError
from oddsim.plan.planner import solve_plan as solve
from oddsim.plan.result import Alternative, PlanResult, TargetPlan
from oddsim.plan.spec import Entries, PlanSpec, parse_plan

__all__ = ["Alternative", "Goal", "GoalKind", "PlanError", "PlanResult", "PlanSpec", "TargetPlan", "attack",
           "defend", "parse_plan", "solve_plan"]

Army = str | Mapping[str, int] | Force


def solve_plan(spec: PlanSpec, workers: int | None = None, scheduler: str | None = None,
               on_target: Callable[[int, int], bool] | None = None) -> PlanResult:
    """The exact best split of a parsed plan (``parse_plan``); ``workers``/``scheduler``: its
    battles solved on Dask; ``on_target(done, total)``: told each target solved, True stops
    (``oddsim.plan.planner.solve_plan``)."""
    return solve(spec, workers, scheduler, on_target)


def attack(rules: Ruleset | str, pool: Army, targets: Entries, goal: Goal | str = "value",
           values: Entries = None, reach: Entries = None, keep_home: Army | None = None,
           counter_attack: Entries = None, alternatives: int = 3,
           retreat: RetreatPolicy | Mapping[str, object] | None = None, workers: int | None = None,
           scheduler: str | None = None, runs: int | None = None, seed: int | None = 0,
           **battle_options: object) -> PlanResult:
    """The best split of ``pool`` over the attacks on ``targets`` (``["Ukraine=6 inf, 2 arm",
    ...]`` or ``{"Ukraine": "6 inf, 2 arm"}``) for ``goal`` (``value``, ``tuv``, ``take-all``,
    ``take-at-least:K``, ``hold-after``; see ``oddsim.plan.goals``). ``values``: each target's
    worth in IPCs (default 0); ``reach``: ``["ftr=Ukraine,Belarus"]``, where a unit type may go
    (default anywhere); ``keep_home``: units that stay; ``counter_attack``: per target, the army
    that counter-attacks what takes it (``hold-after``); ``battle_options``: ``Battle``'s (order
    of loss, ``keep_land``, ``dice``, techs, ``sea``) and ``retreat`` for every target, where
    ``best="value"`` counts each target's own value; an order of loss ``"best"`` solves every
    battle with that side choosing each loss, for ``casualty_goal`` (default: the plan's goal,
    ``value`` counting each target's own value); ``workers``/``scheduler``: the battles solved
    on a Dask cluster (the same answer); ``runs``/``seed``: the Monte Carlo battles of a target
    too large to solve exactly for every sub-army."""
    spec = parse_plan(load_ruleset(rules), pool, targets, goal, values, reach, keep_home, counter_attack,
                      alternatives=alternatives, retreat=retreat, battle_options=battle_options,
                      runs=runs, seed=seed)
    return solve_plan(spec, workers, scheduler)


def defend(rules: Ruleset | str, pool: Army, threats: Entries, goal: Goal | str = "hold-all",
           values: Entries = None, reach: Entries = None, keep_home: Army | None = None,
           stands: Entries = None, alternatives: int = 3,
           retreat: RetreatPolicy | Mapping[str, object] | None = None, workers: int | None = None,
           scheduler: str | None = None, runs: int | None = None, seed: int | None = 0,
           **battle_options: object) -> PlanResult:
    """The best placement of the defender's ``pool`` on the territories ``threats`` names, each
    facing its attack (``["Karelia=6 inf, 3 arm, 2 ftr", ...]``), with ``stands`` already there
    (``["Karelia=2 inf"]``), for ``goal`` (``hold-all``, ``hold-at-least:K``, ``value``). The
    other arguments as ``attack``'s; ``retreat`` is the attacker's."""
    spec = parse_plan(load_ruleset(rules), pool, threats, goal, values, reach, keep_home, stands=stands,
                      defend=True, alternatives=alternatives, retreat=retreat,
                      battle_options=battle_options, runs=runs, seed=seed)
    return solve_plan(spec, workers, scheduler)
