"""Each target's odds for every sub-army the plan may send there.

Plain battles come from ``oddsim.stages.sub_armies.solve_sub_armies`` (all sub-armies of
the target's reachable pool together). A battle with a retreat rule, or a target whose goal
needs the counter-attack (``hold-after``), is solved one full solve per sub-army (the retreat's
decisions, the counter-attack on each composition that takes the territory), all exact.

A target whose battle with the whole reachable pool is too large for the exact engine (as
``method="auto"`` judges it) is simulated instead, every sub-army with the plan's ``runs`` and one
seed per target (common random numbers: sub-armies of one target are compared on the same dice
streams, which makes their differences far surer than their errors), its figures with their
standard errors.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from oddsim.api import run_counter_attack
from oddsim.errors import TooLargeError
from oddsim.limits import sub_seed
from oddsim.model.forces import Force
from oddsim.plan.spec import MAX_MONTE_CARLO_RUNS, PlanSpec, Target, sub_army_count
from oddsim.results.battle_result import BattleResult
from oddsim.stages.counter import counter_order, fight_counter_attack
from oddsim.stages.pipeline import exact_size, simulate, solve
from oddsim.stages.runner import exact_is_cheap
from oddsim.stages.sub_armies import SubArmyOdds, joined, solve_sub_armies, sub_armies


@dataclass(frozen=True)
class TargetOdds:
    """One target's battle for one sub-army: its figures, and the chance to take it and hold it
    after its counter-attack (``holds``; the chance to take it where it has no counter-attack;
    None where the goal does not need it). ``fought`` is False where no battle is fought (an
    attack that sends nothing). ``runs``: the Monte Carlo runs of a simulated battle (None:
    exact), ``std_error`` the standard errors of its figures (``SubArmyOdds``'s names, and
    ``holds``)."""

    odds: SubArmyOdds
    holds: float | None
    fought: bool = True
    runs: int | None = None
    std_error: Mapping[str, float] = field(default_factory=dict)


NOTHING_SENT = TargetOdds(SubArmyOdds(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0), 0.0, fought=False)
"""An attack that sends nothing: no battle, nothing taken, nothing lost."""


def target_odds(spec: PlanSpec, target: Target) -> dict[Force, TargetOdds]:
    """The odds of ``target`` for every sub-army of its reachable pool (the empty one
    included), keyed by the sub-army."""
    battle = target.battle
    if battle is None:
        return {Force(()): NOTHING_SENT}
    runs, seed = _monte_carlo(spec, target) if too_large_to_solve(target) else (None, None)
    side = spec.side
    base = target.stands if spec.defend else None
    needs_holds = spec.goal.needs_holds
    out: dict[Force, TargetOdds] = {}
    if runs is None and battle.retreat is None and not (needs_holds and target.counter is not None):
        for army, odds in solve_sub_armies(battle, target.reachable, side, base).items():
            out[army] = TargetOdds(odds, odds.takes_territory if needs_holds else None)
    else:
        solved: dict[Force, BattleResult] = {}  # each counter-attack once, for every sub-army it follows
        for army in sub_armies(target.reachable):
            force = joined(base, army)
            if force.is_empty():
                continue
            out[army] = _one(battle.with_armies(**{side: force}), target, needs_holds, runs=runs, seed=seed,
                             solved=solved)
    if spec.defend and Force(()) not in out:  # the threat against what stands there: nothing
        empty = battle.with_armies(defender=Force(()))
        out[Force(())] = TargetOdds(SubArmyOdds.of(solve(empty)), None)
    out.setdefault(Force(()), NOTHING_SENT)
    return out


def too_large_to_solve(target: Target) -> bool:
    """Whether ``target``'s battle with every unit that may go there is too large for the exact
    engine (as ``method="auto"`` judges a battle): then each sub-army is simulated
    (``target_odds``), and a server, which plans exactly, refuses it. A battle whose side chooses
    each loss is always solved (Monte Carlo would solve its game first anyway): the plan was
    sized for it when parsed (``spec.check_best_size``)."""
    battle = target.battle
    return battle is not None and not battle.best_losses and not exact_is_cheap(exact_size(battle))


def _monte_carlo(spec: PlanSpec, target: Target) -> tuple[int, int]:
    """The runs and seed of a target simulated for every sub-army (its battle too large to solve
    exactly for each): the plan's runs, the target's own seed; refused before any run when the
    runs would pass ``MAX_MONTE_CARLO_RUNS``."""
    battle = target.battle
    assert battle is not None
    armies = sub_army_count(target.reachable)
    runs = armies * spec.runs * (2 if spec.goal.needs_holds and target.counter is not None else 1)
    if runs > MAX_MONTE_CARLO_RUNS:
        raise TooLargeError(f"target {target.name}: its battle ({battle.describe()}) is too large to "
                            f"solve exactly, and {armies:,} sub-armies of {spec.runs:,} Monte Carlo "
                            f"runs each pass the {MAX_MONTE_CARLO_RUNS:,} runs a target may have: "
                            f"keep some units home, limit --reach or lower --runs")
    return spec.runs, sub_seed(spec.seed, 1 + spec.targets.index(target))


def _one(battle, target: Target, needs_holds: bool, runs: int | None = None,
         seed: int | None = None, solved: dict[Force, BattleResult] | None = None) -> TargetOdds:
    """One full solve (and the counter-attack where the goal needs it, those in ``solved`` not
    fought again); with ``runs``, Monte Carlo with ``seed`` instead, its figures' standard errors
    kept."""
    if needs_holds and target.counter is not None:
        if runs is None:
            both = fight_counter_attack(battle, target.counter, lambda b, share: solve(b),
                                        ool_counter=counter_order(battle), solved=solved)
            return TargetOdds(SubArmyOdds.of(both.battle), float(both.holds))
        both = run_counter_attack(battle, target.counter, method="mc", runs=runs, seed=seed,
                                  ool_counter=counter_order(battle))
        return TargetOdds(SubArmyOdds.of(both.battle), float(both.holds), runs=runs,
                          std_error={**_errors(both.battle.std_error), **both.std_error})
    result = solve(battle) if runs is None else simulate(battle, runs=runs, seed=seed)
    odds = SubArmyOdds.of(result)
    errors = _errors(result.std_error)
    if needs_holds and "takes_territory" in errors:
        errors["holds"] = errors["takes_territory"]
    return TargetOdds(odds, odds.takes_territory if needs_holds else None, runs=runs, std_error=errors)


def _errors(std_error: Mapping[str, float]) -> dict[str, float]:
    """A battle's standard errors under ``SubArmyOdds``'s names (empty for an exact battle)."""
    return {name: float(std_error[name]) for name in SubArmyOdds.__dataclass_fields__ if name in std_error}
