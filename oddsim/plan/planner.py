"""Make a plan: each target's odds for every sub-army, each sub-army's score for the goal, the
optimiser's best splits, and the answer (``PlanResult``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from oddsim._runtime.dask_cluster import check_options, dask_client
from oddsim.model.forces import Force, parse_force
from oddsim.model.names import unit_label
from oddsim.model.side import choosers_text
from oddsim.plan.goals import Combine, Goal, GoalKind, PlanError
from oddsim.plan.odds import TargetOdds, target_odds
from oddsim.plan.optimise import Point, Split, Stop, best_splits, check_stop, shrunk
from oddsim.plan.result import Alternative, PlanResult, TargetPlan
from oddsim.plan.spec import PlanSpec, Target
from oddsim.stages.sub_armies import joined


@dataclass(frozen=True)
class Axis:
    """One axis of the pool's lattice: a unit type's whole units, or its damaged ones."""

    unit: str
    damaged: bool
    size: int

    @property
    def label(self) -> str:
        return f"damaged {unit_label(self.unit)}" if self.damaged else unit_label(self.unit)


def axes_of(pool: Force) -> tuple[Axis, ...]:
    """The lattice's axes: each unit type of the pool (its damaged units on an axis of their own)."""
    out = []
    for name, n in pool.counts:
        hurt = pool.damaged_count(name)
        if n - hurt:
            out.append(Axis(name, False, n - hurt))
        if hurt:
            out.append(Axis(name, True, hurt))
    return tuple(out)


def force_at(axes: Sequence[Axis], point: Point) -> Force:
    """The sub-army at ``point`` (as ``lattice.sub_armies`` writes it)."""
    counts: dict[str, int] = {}
    damaged: dict[str, int] = {}
    for axis, n in zip(axes, point, strict=True):
        if n:
            counts[axis.unit] = counts.get(axis.unit, 0) + n
            if axis.damaged:
                damaged[axis.unit] = n
    return Force(tuple(counts.items()), tuple(damaged.items()))


def score(goal: Goal, defend: bool, target: Target, odds: TargetOdds) -> float:
    """What one target's battle adds to (or multiplies into, or counts toward) the objective."""
    o = odds.odds
    if defend:
        holds = 1.0 - o.takes_territory
        if goal.kind is GoalKind.VALUE:
            return target.value * holds - o.tuv_swing
        return holds
    if goal.kind is GoalKind.VALUE:
        return o.tuv_swing + target.value * o.takes_territory
    if goal.kind is GoalKind.TUV:
        return o.tuv_swing
    if goal.kind is GoalKind.HOLD_AFTER:
        return float(odds.holds or 0.0)
    return o.takes_territory


def score_std_error(goal: Goal, defend: bool, target: Target, odds: TargetOdds) -> float:
    """The standard error of ``score`` where the battle was simulated (0 where exact). A value
    goal adds the swing's error and the value times the take chance's: a bound, as the runs'
    covariance of the two is not kept."""
    errors = odds.std_error
    if not errors:
        return 0.0
    takes, swing = errors.get("takes_territory", 0.0), errors.get("tuv_swing", 0.0)
    if goal.kind is GoalKind.VALUE:
        return swing + target.value * takes
    if goal.kind is GoalKind.TUV:
        return swing
    if goal.kind is GoalKind.HOLD_AFTER:
        return errors.get("holds", takes)
    return takes


def objective_of(goal: Goal, scores: Sequence[float]) -> float:
    """The objective of one split from its targets' scores: their sum, their product, or the
    chance that at least K of them come true."""
    combine = goal.combine
    if combine is Combine.ADD:
        return float(sum(scores))
    if combine is Combine.MULTIPLY:
        return float(np.prod(scores))
    counts = np.zeros(len(scores) + 1)  # the distribution of the number that come true
    counts[0] = 1.0
    for p in scores:
        counts[1:] = counts[1:] * (1 - p) + counts[:-1] * p
        counts[0] *= 1 - p
    return float(counts[goal.k:].sum())


def objective_std_error(goal: Goal, scores: Sequence[float], errors: Sequence[float]) -> float:
    """The standard error of a split's objective from its targets' score errors (the targets'
    battles are simulated on seeds of their own, so independent). The objective is linear in
    each score on its own (a sum, a product, a count of independent chances), so its slope in
    score i is its value with score i at 1 minus with it at 0 (1 for a sum)."""
    if not any(errors):
        return 0.0
    total = 0.0
    for i, error in enumerate(errors):
        if error:
            slope = 1.0 if goal.combine is Combine.ADD else (
                objective_of(goal, [*scores[:i], 1.0, *scores[i + 1:]])
                - objective_of(goal, [*scores[:i], 0.0, *scores[i + 1:]]))
            total += (slope * error) ** 2
    return float(np.sqrt(total))


Progress = Callable[[int, int], bool]
"""``on_target(done, total)``: targets solved of all; True stops the plan (PlanError)."""


def solve_plan(spec: PlanSpec, workers: int | None = None, scheduler: str | None = None,
               on_target: Progress | None = None) -> PlanResult:
    """The best split of ``spec``'s pool over its targets, its runners-up and margins: exact,
    or best for the Monte Carlo estimates of a target too large to solve exactly.
    ``workers`` (a new local Dask cluster) or ``scheduler`` (an existing one, ``tcp://HOST:PORT``)
    solve the targets' battles there, one task per target, as purchase sweeps do
    (``oddsim._runtime.dask_cluster``); the answer is the same. ``on_target`` (here, not on Dask)
    is told each target solved, before the first and after each (the web's progress and cancel),
    then asked (all targets solved of all) between the optimiser's steps."""
    if workers is None and scheduler is None:
        tables: list[dict[Force, TargetOdds]] = []
        total = len(spec.targets)
        for target in spec.targets:
            _report(on_target, len(tables), total)
            tables.append(target_odds(spec, target))
        _report(on_target, len(tables), total)
        return optimised(spec, tables, None if on_target is None else lambda: on_target(total, total))
    check_options(workers, scheduler, PlanError)
    with dask_client(workers, scheduler, PlanError) as client:
        tables = client.gather([client.submit(target_odds, spec, t, pure=False) for t in spec.targets])
    return optimised(spec, tables)


def _report(on_target: Progress | None, done: int, total: int) -> None:
    if on_target is not None and on_target(done, total):
        raise PlanError(f"plan stopped after {done} of {total} targets solved")


def optimised(spec: PlanSpec, tables: Sequence[dict[Force, TargetOdds]], stop: Stop = None) -> PlanResult:
    """The plan from each target's odds for every sub-army (``target_odds``): the scores on the
    pool's lattice, the optimiser's best splits, the margins; ``stop`` asked between steps (True:
    PlanError)."""
    axes = axes_of(spec.pool)
    shape = tuple(a.size + 1 for a in axes)
    points = list(np.ndindex(shape)) if axes else [()]
    forces = [force_at(axes, p) for p in points]
    scores, errors = [], []
    for target, table in zip(spec.targets, tables, strict=True):
        check_stop(stop)
        grid, error = np.full(shape, np.nan), np.zeros(shape)
        for point, force in zip(points, forces, strict=True):
            odds = table.get(force)
            if odds is not None:
                grid[point] = score(spec.goal, spec.defend, target, odds)
                error[point] = score_std_error(spec.goal, spec.defend, target, odds)
        scores.append(grid)
        errors.append(error)

    def split_error(split: Split) -> float:
        return objective_std_error(spec.goal, [float(g[p]) for g, p in zip(scores, split.sent, strict=True)],
                                   [float(e[p]) for e, p in zip(errors, split.sent, strict=True)])

    combine, keep = spec.goal.combine, spec.alternatives + 1
    splits = best_splits(scores, combine, keep, spec.goal.k, stop)
    best = splits[0]
    marginal = {}
    for i, axis in enumerate(axes):
        fewer = best_splits(shrunk(scores, i), combine, 1, spec.goal.k, stop)
        marginal[axis.label] = best.objective - fewer[0].objective
    split = {t.name: TargetPlan(t.name, force_at(axes, p), tables[i][force_at(axes, p)], t.value,
                                float(scores[i][p]), t.stands, float(errors[i][p]))
             for i, (t, p) in enumerate(zip(spec.targets, best.sent, strict=True))}
    simulated = tuple(t.name for t, table in zip(spec.targets, tables, strict=True)
                      if any(o.runs for o in table.values()))
    return PlanResult(goal=spec.goal, defend=spec.defend, objective=best.objective, split=split,
                      home=parse_force(joined(spec.home, force_at(axes, _left(shape, best))), spec.rules),
                      alternatives=tuple(_alternative(spec, axes, s, split_error(s)) for s in splits[1:]),
                      marginal=marginal,
                      battles=sum(sum(1 for o in table.values() if o.fought) for table in tables),
                      objective_std_error=split_error(best), simulated=simulated,
                      runs=spec.runs if simulated else None,
                      sea=any(t.battle is not None and t.battle.sea for t in spec.targets),
                      choosers=_choosers(spec))


def _choosers(spec: PlanSpec) -> str:
    """Who chooses each loss in the plan's battles, and for what ("": both follow their orders)."""
    battle = next((t.battle for t in spec.targets if t.battle is not None and t.battle.best_losses), None)
    if battle is None:
        return ""
    return choosers_text(battle.attacker.best_losses, battle.defender.best_losses, battle.casualty_goal)


def _left(shape: tuple[int, ...], split: Split) -> Point:
    """The point of what the split does not send."""
    return tuple(n - 1 - sum(s[i] for s in split.sent) for i, n in enumerate(shape))


def _alternative(spec: PlanSpec, axes: Sequence[Axis], split: Split, std_error: float) -> Alternative:
    return Alternative(split.objective, {t.name: force_at(axes, p) for t, p in zip(spec.targets, split.sent,
                                                                                     strict=True)},
                       std_error)


__all__ = ["Axis", "Combine", "axes_of", "force_at", "objective_of", "objective_std_error", "optimised",
           "score", "score_std_error", "solve_plan"]
