"""Battle requests (``POST /api/battle``, ``/api/amphibious``): the same ``Battle`` or
``Amphibious`` the CLI builds, from the request's fields (the value's own), run by the same
engine functions, answered with the result's own ``to_dict``; a battle asked again is answered
from memory where its answer cannot change, and a small one on the event loop."""

from __future__ import annotations

import json
from collections.abc import Callable

from oddsim._runtime import interpreted
from oddsim.api import DEFAULT_RUNS, engine_for, run_amphibious, run_battle, run_counter_attack, run_waves
from oddsim.errors import OddsimError, TooLargeError
from oddsim.model.battle import Battle
from oddsim.model.forces import parse_force
from oddsim.stages.aa_split import is_split
from oddsim.stages.amphibious import Amphibious
from oddsim.stages.counter import land_units_bound
from oddsim.stages.pipeline import estimate_seconds, estimate_work
from oddsim.stages.wave_plan import wave_of
from oddsim.stages.waves import replace_attacker
from oddsim.web.answers import AnswerCache
from oddsim.web.limits import MAX_EXACT_SECONDS, WebError, check_runs, check_seed
from oddsim.web.request_fields import Body, fields_of
from oddsim.web.rules_requests import is_builtin, ruleset_of
from oddsim.web.work import Progress, engine_guard, stopper

BATTLE_ENGINE = ("method", "runs", "seed")


def battle_spec(body: Body):
    """The ``Battle`` of a battle request and its engine options, as the CLI builds them."""
    if "defender" not in body:
        raise WebError("defender: missing: write 'none' for an undefended territory")
    fields = fields_of(body, Battle, (*BATTLE_ENGINE, "counter_attack", "waves"), "battle")
    battle = Battle(rules=ruleset_of(body), **fields)
    method = body.get("method", "auto")
    runs = check_runs(body.get("runs"), None)
    seed = check_seed(body.get("seed"))
    return battle, method, runs, seed


ANSWERS = AnswerCache(shared=is_builtin)
"""Answers to battle requests kept for the same battle asked again (exact, or seeded), by the
parsed battle and its engine options (``oddsim.web.answers``)."""


QUICK_WORK = 1_000_000
"""Estimated exact work (``oddsim.stages.pipeline.estimate_work``, about a nanosecond a unit) under which
the server answers a battle on its event loop instead of handing it to a worker thread."""


def run_battle_request(body: Body, progress: Progress | None = None) -> str:
    """``POST /api/battle``: what ``oddsim battle --json`` prints for the same battle (the same
    ``to_dict``, without the indentation). A battle asked again is answered from memory when
    its answer cannot change: exact, or Monte Carlo with a seed that finished."""
    text = _battle_answer(body, progress, quick_only=False)
    assert text is not None
    return text


def quick_battle_answer(body: Body) -> str | None:
    """The answer to a battle request when it is cheap: remembered, or solved exactly with an
    estimated work under ``QUICK_WORK`` (a millisecond or two, most of it Python). None when it
    is not: then ``run_battle_request`` computes it (in a worker thread, where it can be
    cancelled). The server calls this on its event loop: handing a small battle to a thread
    cost more than solving it. The best retreat (which costs more than ``estimate_work`` says),
    a counter-attack and a battle split by AA outcome (whose estimate alone lowers every part:
    up to a second) always go to a thread. A bad request raises here as it would there."""
    return _battle_answer(body, None, quick_only=True)


def _battle_answer(body: Body, progress: Progress | None, quick_only: bool) -> str | None:
    battle, method, runs, seed = battle_spec(body)
    key = _answer_key(battle, body, method, runs, seed)
    text = ANSWERS.get(key) if key is not None else None
    if text is not None:
        return text
    if quick_only and not _is_quick(battle, body, method, runs):
        return None
    on_chunk = stopper(progress, runs or DEFAULT_RUNS)
    if body.get("waves"):
        return _waves(battle, body, method, runs, seed, on_chunk)
    if body.get("counter_attack") is not None:
        text, keep = _counter_attack(battle, body["counter_attack"], method, runs, seed,
                                     body.get("ool_defender"), on_chunk)
    else:
        if method == "exact":  # "auto" picks exact only well under the cap
            _check_exact_work(battle)
        engine = _engine(battle, method, runs)
        with engine_guard(engine == "mc"):
            result = run_battle(battle, method=method, runs=runs, seed=seed,  # (it picks ``engine`` again)
                                on_chunk=on_chunk)
        text = json.dumps(result.to_dict())
        keep = engine == "exact" or (seed is not None and not result.interrupted)
    if keep and key is not None:
        ANSWERS.put(key, text)
    return text


def _answer_key(battle, body: Body, method: str, runs: int | None, seed: int | None):
    """The key of a battle request's answer: the parsed battle, its engine options and the parsed
    counter-attacking army; None when the counter-attack does not parse (the run says why)."""
    if body.get("waves"):
        return None  # (later waves: computed each time)
    counter = body.get("counter_attack")
    if counter is not None:
        try:
            counter = parse_force(counter, battle.rules, "counter-attack")
        except (OddsimError, TypeError, ValueError):
            return None
    elif seed is not None and method == "auto" and _engine(battle, method, runs) == "exact":
        seed = None  # (the page sends a seed with every "auto" battle: one answer for all of them)
    return battle, method, runs, seed, counter


def _engine(battle, method: str, runs: int | None) -> str:
    return engine_for(battle, method, runs)


def _is_quick(battle, body: Body, method: str, runs: int | None) -> bool:
    """Whether the event loop may solve ``battle`` itself: exact, small, and cheap to estimate."""
    if interpreted.cold():  # (a first run interprets its kernels: milliseconds, not microseconds)
        return False
    if method == "mc" or body.get("counter_attack") is not None or body.get("waves") or is_split(battle):
        return False
    if battle.retreat is not None and battle.retreat.best is not None:  # (costs more than the
        return False  # estimate says)
    return _engine(battle, method, runs) == "exact" and estimate_work(battle)[1] <= QUICK_WORK


def _counter_attack(battle, counter, method: str, runs: int | None, seed: int | None, ool_counter,
                    on_chunk: Callable[[int], bool]) -> tuple[str, bool]:
    """``oddsim battle --counter-attack --json``: the battle, then ``counter`` against each
    composition the attacker may take the territory with; and whether that answer may be kept.
    Exact work is bounded by the first battle plus, for each possible composition of the
    attacker's land units, the counter-attack on all of them."""
    if method == "exact":
        land, compositions = land_units_bound(battle)
        _check_exact_work(battle)
        if land is not None:
            whole = Battle(rules=battle.rules, attacker=counter, defender=land,
                           attacker_tech=battle.defender_tech, defender_tech=battle.attacker_tech,
                           dice=battle.dice)
            seconds = estimate_seconds(battle) + compositions * estimate_seconds(whole)
            if seconds > MAX_EXACT_SECONDS:
                raise TooLargeError(f"too large to solve exactly on the server (about {seconds:.2g} s "
                                    f"with the counter-attacks, the limit is {MAX_EXACT_SECONDS:g} s): use "
                                    f"method mc or auto, or the CLI")
    with engine_guard(method != "exact"):
        outcome = run_counter_attack(battle, counter, method=method, runs=runs, seed=seed,
                                     ool_counter=ool_counter, on_chunk=on_chunk)
    keep = method == "exact" or (seed is not None and not outcome.battle.interrupted)
    return json.dumps(outcome.to_dict()), keep


MAX_WAVES = 20
"""Later waves a web request may ask for (a turn has a handful)."""


def waves_of(body: Body) -> list:
    """The later waves of a battle request (``waves``: a list of armies, or of wave tables as a
    plan file writes them), each checked as a plan's wave. A wave that gives no order of loss or
    ``keep_land`` takes the first battle's, as ``oddsim battle --wave`` does."""
    waves = body["waves"]
    if not isinstance(waves, list) or len(waves) > MAX_WAVES:
        raise WebError(f"waves is a list of at most {MAX_WAVES} later waves (armies like \"3 arm\", "
                       f"or tables with an attacker), not {str(waves)[:60]}")
    inherited = {name: body[name] for name in ("ool_attacker", "keep_land") if body.get(name) is not None}
    return [wave_of({**inherited, **(entry if isinstance(entry, dict) else {"attacker": entry})},
                    f"waves[{number}]") for number, entry in enumerate(waves)]


def _waves(battle, body: Body, method: str, runs: int | None, seed: int | None,
           on_chunk: Callable[[int], bool]) -> str:
    """``oddsim battle --wave ... --json``: the battle, then each later wave against what the
    defender has left. Exact work is bounded by each wave against the whole first defending army
    once for every composition of it (reinforcements not counted)."""
    if body.get("counter_attack") is not None:
        raise WebError("counter_attack follows one battle: drop waves, or fight the waves first and "
                       "counter-attack their result as a separate battle")
    waves = waves_of(body)
    if method == "exact":
        compositions = 1
        for _, count in battle.defender.counts:
            compositions *= count + 1
        later = [replace_attacker(battle, wave) for wave in waves]
        seconds = estimate_seconds(battle) + compositions * sum(estimate_seconds(b) for b in later)
        if seconds > MAX_EXACT_SECONDS:
            raise TooLargeError(f"too large to solve exactly on the server (about {seconds:.2g} s "
                                f"with the later waves, the limit is {MAX_EXACT_SECONDS:g} s): use "
                                f"method mc or auto, or the CLI")
    with engine_guard(method != "exact"):
        total = run_waves(battle, waves, method=method, runs=runs, seed=seed, on_chunk=on_chunk)
    return json.dumps(total.to_dict())


def _check_exact_work(*battles) -> None:
    seconds = sum(estimate_seconds(b) for b in battles if b is not None)
    if seconds > MAX_EXACT_SECONDS:
        raise TooLargeError(f"too large to solve exactly on the server (about {seconds:.2g} s, the "
                            f"limit is {MAX_EXACT_SECONDS:g} s): use method mc or auto, or the CLI")


def amphibious_spec(body: Body):
    """The ``Amphibious`` of an amphibious request and its engine options."""
    fields = fields_of(body, Amphibious, BATTLE_ENGINE, "amphibious")
    assault = Amphibious(rules=ruleset_of(body), **fields)
    return (assault, body.get("method", "auto"), check_runs(body.get("runs"), None),
            check_seed(body.get("seed")))


def run_amphibious_request(body: Body, progress: Progress | None = None) -> str:
    """``POST /api/amphibious``: what ``oddsim amphibious --json`` prints."""
    assault, method, runs, seed = amphibious_spec(body)
    if method == "exact":
        stages = [assault.land_battle(n) for n in range(len(assault.loads) + 1)]
        _check_exact_work(assault.sea_stage() if assault.has_sea_battle else None, *stages)
    with engine_guard(method != "exact"):
        result = run_amphibious(assault, method=method, runs=runs, seed=seed,
                                on_chunk=stopper(progress, runs or DEFAULT_RUNS))
    return json.dumps(result.to_dict(), indent=2)
