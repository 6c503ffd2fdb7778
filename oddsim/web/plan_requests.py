"""Plan jobs (as ``oddsim plan``): the ``PlanSpec`` parsed from the request, refused when its
battles or its optimiser would cost more than the server gives a job, and the best split."""

from __future__ import annotations

import json

from oddsim.errors import TooLargeError
from oddsim.plan import solve_plan
from oddsim.plan.goals import Combine
from oddsim.plan.odds import too_large_to_solve
from oddsim.plan.spec import BATTLE_OPTIONS, check_best_size, parse_plan, plan_entries, sub_army_count
from oddsim.results.readings import with_readings
from oddsim.stages.pipeline import estimate_seconds
from oddsim.web.limits import (
    MAX_COUNTED_SUB_ARMIES,
    MAX_COUNTED_SUB_ARMIES_MORE,
    MAX_PLAN_BYTES,
    MAX_PLAN_SECONDS,
    MAX_PLAN_TARGETS,
    PLAN_SECONDS,
    PLAN_SOLVE_SECONDS,
    PLAN_SUB_ARMY_SECONDS,
    WebError,
)
from oddsim.web.request_fields import RULES_FIELDS, Body, refuse_unknown
from oddsim.web.rules_requests import ruleset_of
from oddsim.web.work import Progress, within

PLAN_FIELDS = ("pool", "targets", "threats", "defend", "stands", "values", "reach", "goal",
               "counter_attack", "keep_home", "alternatives", "retreat")
"""A plan request's fields: ``oddsim plan``'s options (a repeatable one a list of its
``NAME=...`` texts, or a mapping), and the battle options a plan applies to every target
(``oddsim.plan.spec.BATTLE_OPTIONS``)."""


def plan_spec(body: Body):
    """The ``PlanSpec`` of a plan request, parsed as ``oddsim plan`` parses its options
    (``oddsim.plan.parse_plan``), and refused when its battles or its optimiser would cost more
    than the server gives a job (``limits.MAX_PLAN_SECONDS``, ``MAX_COUNTED_SUB_ARMIES``)."""
    refuse_unknown(body, {*PLAN_FIELDS, *BATTLE_OPTIONS, *RULES_FIELDS}, "plan")
    if "pool" not in body:
        raise WebError("missing pool: a plan needs the units to split, e.g. \"6 inf, 2 arm\"")
    defend = body.get("defend", False)
    if not isinstance(defend, bool):
        raise WebError(f"defend must be true or false, not {defend!r}")
    entries = plan_entries(defend, body.get("targets"), body.get("threats"))
    if isinstance(entries, (list, dict)):  # (refused before any is parsed)
        _check_target_count(len(entries))
    options = {name: body[name] for name in BATTLE_OPTIONS if body.get(name) is not None}
    spec = parse_plan(ruleset_of(body), body["pool"], entries, body.get("goal") or
                      ("hold-all" if defend else "value"), body.get("values"), body.get("reach"),
                      body.get("keep_home"), body.get("counter_attack"), body.get("stands"), defend,
                      body.get("alternatives", 3), body.get("retreat"), options)
    _check_plan_cost(spec)
    return spec


LATTICE_POINT_BYTES = 24
"""What the optimiser keeps per lattice point, target and split it ranks (a value and where it
came from: ``oddsim.plan.optimise._scalar``), besides the target's scores and their errors."""
ODDS_BYTES = 1_000
"""What a target's odds for one sub-army take (``TargetOdds``, its figures and its key)."""


def plan_bytes(spec) -> int:
    """What a plan holds while it solves: each target's odds for every sub-army that may go
    there, its scores on the pool's lattice (and their errors), and the optimiser's best values
    per lattice point and ranked split; an empty target (``NAME=none``) holds its lattice too."""
    points, keep = sub_army_count(spec.pool), spec.alternatives + 1
    per_target = points * (LATTICE_POINT_BYTES * keep + 16)
    return sum(per_target + ODDS_BYTES * (sub_army_count(t.reachable) if t.battle is not None else 1)
               for t in spec.targets)


def _check_target_count(count: int) -> None:
    if count > MAX_PLAN_TARGETS:
        raise TooLargeError(f"the plan has {count:,} targets, more than the {MAX_PLAN_TARGETS} the "
                            f"server plans at once: plan the others apart, or run oddsim plan")


def _check_plan_cost(spec) -> None:
    """Refuse (TooLargeError) a plan too large for the server, before any battle."""
    goal, count, targets = spec.goal, sub_army_count(spec.pool), len(spec.targets)
    _check_target_count(targets)
    held = plan_bytes(spec)
    if held > MAX_PLAN_BYTES:
        raise TooLargeError(f"the plan would hold about {held / 2**20:,.0f} MiB on the server (its "
                            f"pool's {count:,} sub-armies for each of {targets} targets), more than "
                            f"the {MAX_PLAN_BYTES // 2**20} MiB it gives a plan: keep some units home, "
                            f"plan fewer targets, or run oddsim plan")
    most = MAX_COUNTED_SUB_ARMIES.get(targets, MAX_COUNTED_SUB_ARMIES_MORE)
    if goal.combine is Combine.AT_LEAST and 1 < goal.k < targets and count > most:
        raise TooLargeError(f"goal {goal.name}: the pool {spec.pool.describe()} has {count:,} sub-armies, "
                            f"more than the {most:,} the server plans for a goal of at least K of "
                            f"{targets} targets: keep some units home, use K = 1 or K = "
                            f"{targets}, or run oddsim plan")
    seconds = 0.0
    for target in spec.targets:
        if too_large_to_solve(target):  # the CLI simulates it; the server plans exactly
            raise TooLargeError(f"target {target.name}: its battle with every unit that may go there "
                                f"({target.battle.describe()}) is too large to solve exactly on the server: "
                                f"keep some units home or limit reach, or run oddsim plan (it simulates it)")
        if target.battle is not None and target.battle.best_losses:  # (its games: check_best_size below)
            seconds += PLAN_SUB_ARMY_SECONDS * sub_army_count(target.reachable)
        elif target.battle is not None:
            one_by_one = target.battle.retreat is not None or goal.needs_holds
            one = estimate_seconds(target.battle)
            armies = sub_army_count(target.reachable)
            seconds += (one + PLAN_SOLVE_SECONDS) * armies if one_by_one else one
            seconds += PLAN_SUB_ARMY_SECONDS * armies
    if any(t.battle is not None and t.battle.best_losses for t in spec.targets):
        seconds += check_best_size(spec, MAX_PLAN_SECONDS)
    if seconds > MAX_PLAN_SECONDS:
        raise TooLargeError(f"the plan's battles are too large to solve on the server (about "
                            f"{seconds:.3g} s, the limit is {MAX_PLAN_SECONDS:g} s): keep some units home, "
                            f"limit reach, or run oddsim plan")


def run_plan_request(body: Body, progress: Progress | None = None) -> str:
    """A plan job: what ``oddsim plan --json`` prints (the best split, the objective, the
    runners-up and the margins). Fields: ``oddsim plan``'s options (``pool``, ``targets`` or,
    with ``defend``, ``threats`` and ``stands``, ``values``, ``reach``, ``goal`` ...). It reports
    targets solved of all, and stops when cancelled or ``PLAN_SECONDS`` after it began, between
    targets and between the optimiser's steps."""
    spec = plan_spec(body)
    on_target = within(PLAN_SECONDS, progress, lambda done, total: (
        f"the plan took more than {PLAN_SECONDS:g} s on the server "
        f"({f'{done} of {total} targets solved' if done < total else 'the best split not yet found'}): "
        f"plan with fewer units, or run oddsim plan"), last_step=True)
    return json.dumps(with_readings(solve_plan(spec, on_target=on_target).to_dict(), spec.rules),
                      indent=2)
