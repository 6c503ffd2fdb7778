"""Each target's odds for every sub-army the plan may send there.

Plain battles come from ``oddsim.stages.sub_armies.solve_sub_armies`` (all sub-armies of
the target's reachable pool together). A battle with a retreat rule, or a target whose goal
needs the counter-attack (``hold-after``), is solved one full solve per sub-army (the retreat's
decisions, the counter-attack on each composition that takes the territory), all exact.
"""

from __future__ import annotations

from dataclasses import dataclass

from oddsim.errors import TooLargeError
from oddsim.model.forces import Force
from oddsim.plan.spec import PlanSpec, Target
from oddsim.stages.pipeline import exact_size, solve
from oddsim.stages.runner import exact_is_cheap
from oddsim.stages.sub_armies import SubArmyOdds, joined, solve_sub_armies, sub_armies


@dataclass(frozen=True)
class TargetOdds:
    """One target's battle for one sub-army: its figures, and the chance to take it and hold it
    after its counter-attack (``holds``; the chance to take it where it has no counter-attack;
    None where the goal does not need it). ``fought`` is False where no battle is fought (an
    attack that sends nothing)."""

    odds: SubArmyOdds
    holds: float | None
    fought: bool = True


NOTHING_SENT = TargetOdds(SubArmyOdds(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0), 0.0, fought=False)
"""An attack that sends nothing: no battle, nothing taken, nothing lost."""


def target_odds(spec: PlanSpec, target: Target) -> dict[Force, TargetOdds]:
    """The odds of ``target`` for every sub-army of its reachable pool (the empty one
    included), keyed by the sub-army."""
    battle = target.battle
    if battle is None:
        return {Force(()): NOTHING_SENT}
    check_size(target)
    side = spec.side
    base = target.stands if spec.defend else None
    needs_holds = spec.goal.needs_holds
    out: dict[Force, TargetOdds] = {}
    if battle.retreat is None and not needs_holds:
        for army, odds in solve_sub_armies(battle, target.reachable, side, base).items():
            out[army] = TargetOdds(odds, None)
    else:
        for army in sub_armies(target.reachable):
            force = joined(base, army)
            if force.is_empty():
                continue
            out[army] = _one(battle.with_armies(**{side: force}), target, needs_holds)
    if spec.defend and Force(()) not in out:  # the threat against what stands there: nothing
        empty = battle.with_armies(defender=Force(()))
        out[Force(())] = TargetOdds(SubArmyOdds.of(solve(empty)), None)
    out.setdefault(Force(()), NOTHING_SENT)
    return out


def check_size(target: Target) -> None:
    """Refuse (TooLargeError) a target whose battle with every unit that may go there is too
    large to solve exactly for each sub-army; the plan checks it before any battle."""
    battle = target.battle
    if battle is not None and not exact_is_cheap(exact_size(battle)):
        raise TooLargeError(f"target {target.name}: its battle with every unit that may go there "
                            f"({battle.describe()}) is too large to solve exactly for each sub-army: "
                            f"keep some units home or limit --reach")


def _one(battle, target: Target, needs_holds: bool) -> TargetOdds:
    """One full solve (and the counter-attack where the goal needs it)."""
    if needs_holds and target.counter is not None:
        from oddsim.api import run_counter_attack

        both = run_counter_attack(battle, target.counter, method="exact", ool_counter=battle.ool_defender)
        return TargetOdds(SubArmyOdds.of(both.battle), float(both.holds))
    odds = SubArmyOdds.of(solve(battle))
    return TargetOdds(odds, odds.takes_territory if needs_holds else None)
