"""One function per API endpoint: a JSON request in, the CLI's ``--json`` text out.

Each builds the same value the CLI builds (``Battle``, ``Amphibious``, ``Raid``,
``TrenchBattle``, ``SweepSpec``) from the request's fields, which are that value's own fields,
calls the same engine function, and answers with the result's own ``to_json``/``to_dict``: the
server cannot drift from ``oddsim battle --json``. A user's ruleset arrives as TOML text
(``ruleset_toml``); a ``rules`` field only names a built-in edition, never a path.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import json
import threading
import time
from collections.abc import Callable, Mapping
from contextlib import nullcontext
from typing import Any

from oddsim.errors import OddsimError
from oddsim.model.rules import (
    Ruleset,
    builtin_names,
    load_ruleset,
    rule_changes,
    ruleset_from_text,
    text_with_changes,
    with_changes,
)
from oddsim.results.readings import with_readings
from oddsim.web.answers import AnswerCache
from oddsim.web.limits import MAX_EXACT_SECONDS, MC_SECONDS, WebError, check_runs, check_seed

Body = Mapping[str, Any]
Progress = Callable[[int, int], bool]
"""``progress(done, total)``: reports work done; True means stop (the client cancelled)."""

ENGINE_LOCK = threading.Lock()
"""Held by Monte Carlo work when Numba's threading layer is not thread-safe (``workqueue``):
then parallel kernels must not run from two threads at once."""


def engine_guard(mc: bool):
    """The lock Monte Carlo work holds, or none where Numba's threads are thread-safe."""
    if not mc:
        return nullcontext()
    try:
        import numba

        if numba.threading_layer() in ("omp", "tbb"):
            return nullcontext()
    except ValueError:  # no parallel kernel has run yet: the layer is not chosen
        pass
    return ENGINE_LOCK


RULES_FIELDS = ("rules", "ruleset_toml", "rule", "unit_values")
"""A request's fields that choose its ruleset (``ruleset_of``)."""


def ruleset_of(body: Body) -> Ruleset:
    """The request's ruleset: ``ruleset_toml`` (a user's file, as text) or a built-in ``rules``,
    with ``rule`` (``["combat.repair=end_of_turn"]``, as ``--rule``) and ``unit_values``
    (``"ftr=14,bmb=15"``, as ``--unit-values``) applied, as the CLI applies them."""
    text = body.get("ruleset_toml")
    if text is not None:
        if body.get("rules") is not None:
            raise WebError("give rules (an edition's name) or ruleset_toml (a ruleset's text), "
                           "not both")
        base = ruleset_from_text(text, origin="ruleset_toml", what="ruleset_toml")
    else:
        name = body.get("rules", "1942-2e")
        if not isinstance(name, str) or name not in _builtin_names():
            raise WebError(f"unknown edition {name!r}: use one of {', '.join(builtin_names())}, or "
                           f"send your ruleset file's text as ruleset_toml")
        base = _builtin_ruleset(name)
    changes = _rule_changes(body.get("rule"), body.get("unit_values"), base)
    if not changes:
        return base
    if text is not None:
        return text_with_changes(text, changes, origin="ruleset_toml", what="ruleset_toml")
    try:
        return _changed_builtin(name, tuple(changes.items()))
    except TypeError:  # (a change to a list or a table: not kept)
        return with_changes(name, changes)


def _rule_changes(rule: object, unit_values: object, base: Ruleset) -> dict[str, object]:
    """The file keys a request's ``rule`` (a change or a list of them) and ``unit_values`` set."""
    given = [rule] if isinstance(rule, str) else [] if rule is None else rule
    if not isinstance(given, list) or not all(isinstance(change, str) for change in given):
        raise WebError('rule: a list of rule changes like ["combat.repair=end_of_turn"] (as --rule)')
    return rule_changes(given, unit_values, base)  # type: ignore[arg-type]  # (it names a bad one)


@functools.lru_cache(maxsize=64)
def _changed_builtin(name: str, changes: tuple[tuple[str, object], ...]) -> Ruleset:
    """A built-in edition with some of its keys changed (parsing its file again took a few ms)."""
    return with_changes(name, dict(changes))


@functools.cache
def _builtin_ruleset(name: str) -> Ruleset:
    """A built-in edition (``load_ruleset`` keeps them too, but lists the package's files first)."""
    return load_ruleset(name)


@functools.cache
def _builtin_names() -> frozenset[str]:
    """The built-in editions' names, read once (listing the package's files on every request
    cost a tenth of a small battle's time)."""
    return frozenset(builtin_names())


@functools.cache
def _field_names(value_type: type) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the init fields of ``value_type`` but ``rules``, those of them without a default), worked
    out once per type."""
    own = tuple(f.name for f in dataclasses.fields(value_type) if f.init and f.name != "rules")
    required = tuple(name for name, parameter in inspect.signature(value_type).parameters.items()
                     if parameter.default is inspect.Parameter.empty and name != "rules")
    return own, required


def _refuse_unknown(body: Body, allowed: set[str], where: str) -> None:
    """Refuse a request with a field none of ``allowed``, naming it and the fields there are."""
    unknown = sorted(set(body) - allowed)
    if unknown:
        raise WebError(f"unknown field '{unknown[0]}' in the {where} request: use "
                       f"{', '.join(sorted(allowed))}")


def _fields(body: Body, value_type: type, engine: tuple[str, ...], where: str) -> dict[str, Any]:
    """The request's fields of ``value_type`` (a dataclass), refusing any unknown field."""
    own, required = _field_names(value_type)
    _refuse_unknown(body, {*own, *engine, *RULES_FIELDS}, where)
    missing = [name for name in required if name not in body]
    if missing:
        raise WebError(f"missing field '{missing[0]}' in the {where} request: it needs "
                       f"{', '.join(required)}")
    return {name: body[name] for name in own if name in body}


def _stopper(progress: Progress | None, total: int) -> Callable[[int], bool]:
    """``on_chunk`` for Monte Carlo: report progress, stop when asked or MC_SECONDS after the
    first chunk (the clock starts there: compiling the kernels the first time does not count)."""
    deadline: list[float] = []

    def on_chunk(done: int) -> bool:
        stop = progress(done, total) if progress is not None else False
        if not deadline:
            deadline.append(time.monotonic() + MC_SECONDS)
        return stop or time.monotonic() >= deadline[0]

    return on_chunk


BATTLE_ENGINE = ("method", "runs", "seed")


def battle_spec(body: Body):
    """The ``Battle`` of a battle request and its engine options, as the CLI builds them."""
    from oddsim.model.battle import Battle

    if "defender" not in body:
        raise WebError("defender: missing: write 'none' for an undefended territory")
    fields = _fields(body, Battle, (*BATTLE_ENGINE, "counter_attack", "waves"), "battle")
    battle = Battle(rules=ruleset_of(body), **fields)
    method = body.get("method", "auto")
    runs = check_runs(body.get("runs"), None)
    seed = check_seed(body.get("seed"))
    return battle, method, runs, seed


ANSWERS = AnswerCache()
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
    from oddsim.api import DEFAULT_RUNS, run_battle

    battle, method, runs, seed = battle_spec(body)
    key = _answer_key(battle, body, method, runs, seed)
    text = ANSWERS.get(key) if key is not None else None
    if text is not None:
        return text
    if quick_only and not _is_quick(battle, body, method, runs):
        return None
    on_chunk = _stopper(progress, runs or DEFAULT_RUNS)
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
        text = json.dumps(with_readings(result.to_dict(), battle.rules))
        keep = engine == "exact" or (seed is not None and not result.interrupted)
    if keep and key is not None:
        ANSWERS.put(key, text)
    return text


def _answer_key(battle, body: Body, method: str, runs: int | None, seed: int | None):
    """The key of a battle request's answer: the parsed battle, its engine options and the parsed
    counter-attacking army; None when the counter-attack does not parse (the run says why)."""
    from oddsim.model.forces import parse_force

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
    from oddsim.api import engine_for

    return engine_for(battle, method, runs)


def _is_quick(battle, body: Body, method: str, runs: int | None) -> bool:
    """Whether the event loop may solve ``battle`` itself: exact, small, and cheap to estimate."""
    from oddsim._runtime import interpreted
    from oddsim.stages.aa_split import is_split
    from oddsim.stages.pipeline import estimate_work

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
    from oddsim.api import run_counter_attack
    from oddsim.model.battle import Battle
    from oddsim.stages.counter import land_units_bound

    if method == "exact":
        land, compositions = land_units_bound(battle)
        _check_exact_work(battle)
        if land is not None:
            from oddsim.stages.pipeline import estimate_seconds

            whole = Battle(rules=battle.rules, attacker=counter, defender=land,
                           attacker_tech=battle.defender_tech, defender_tech=battle.attacker_tech,
                           dice=battle.dice)
            seconds = estimate_seconds(battle) + compositions * estimate_seconds(whole)
            if seconds > MAX_EXACT_SECONDS:
                from oddsim.errors import TooLargeError

                raise TooLargeError(f"too large to solve exactly on the server (about {seconds:.2g} s "
                                    f"with the counter-attacks, the limit is {MAX_EXACT_SECONDS:g} s): use "
                                    f"method mc or auto, or the CLI")
    with engine_guard(method != "exact"):
        outcome = run_counter_attack(battle, counter, method=method, runs=runs, seed=seed,
                                     ool_counter=ool_counter, on_chunk=on_chunk)
    keep = method == "exact" or (seed is not None and not outcome.battle.interrupted)
    return json.dumps(with_readings(outcome.to_dict(), battle.rules)), keep


MAX_WAVES = 20
"""Later waves a web request may ask for (a turn has a handful)."""


def waves_of(body: Body) -> list:
    """The later waves of a battle request (``waves``: a list of armies, or of wave tables as a
    plan file writes them), each checked as a plan's wave. A wave that gives no order of loss or
    ``keep_land`` takes the first battle's, as ``oddsim battle --wave`` does."""
    from oddsim.stages.wave_plan import wave_of

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
    from oddsim.api import run_waves
    from oddsim.stages.waves import replace_attacker

    if body.get("counter_attack") is not None:
        raise WebError("counter_attack follows one battle: drop waves, or fight the waves first and "
                       "counter-attack their result as a separate battle")
    waves = waves_of(body)
    if method == "exact":
        compositions = 1
        for _, count in battle.defender.counts:
            compositions *= count + 1
        later = [replace_attacker(battle, wave) for wave in waves]
        from oddsim.stages.pipeline import estimate_seconds

        seconds = estimate_seconds(battle) + compositions * sum(estimate_seconds(b) for b in later)
        if seconds > MAX_EXACT_SECONDS:
            from oddsim.errors import TooLargeError

            raise TooLargeError(f"too large to solve exactly on the server (about {seconds:.2g} s "
                                f"with the later waves, the limit is {MAX_EXACT_SECONDS:g} s): use "
                                f"method mc or auto, or the CLI")
    with engine_guard(method != "exact"):
        total = run_waves(battle, waves, method=method, runs=runs, seed=seed, on_chunk=on_chunk)
    return json.dumps(with_readings(total.to_dict(), battle.rules))


def _check_exact_work(*battles) -> None:
    from oddsim.errors import TooLargeError
    from oddsim.stages.pipeline import estimate_seconds

    seconds = sum(estimate_seconds(b) for b in battles if b is not None)
    if seconds > MAX_EXACT_SECONDS:
        raise TooLargeError(f"too large to solve exactly on the server (about {seconds:.2g} s, the "
                            f"limit is {MAX_EXACT_SECONDS:g} s): use method mc or auto, or the CLI")


def amphibious_spec(body: Body):
    """The ``Amphibious`` of an amphibious request and its engine options."""
    from oddsim.stages.amphibious import Amphibious

    fields = _fields(body, Amphibious, BATTLE_ENGINE, "amphibious")
    assault = Amphibious(rules=ruleset_of(body), **fields)
    return (assault, body.get("method", "auto"), check_runs(body.get("runs"), None),
            check_seed(body.get("seed")))


def run_amphibious_request(body: Body, progress: Progress | None = None) -> str:
    """``POST /api/amphibious``: what ``oddsim amphibious --json`` prints."""
    from oddsim.api import DEFAULT_RUNS, run_amphibious

    assault, method, runs, seed = amphibious_spec(body)
    if method == "exact":
        stages = [assault.land_battle(n) for n in range(len(assault.loads) + 1)]
        _check_exact_work(assault.sea_stage() if assault.has_sea_battle else None, *stages)
    with engine_guard(method != "exact"):
        result = run_amphibious(assault, method=method, runs=runs, seed=seed,
                                on_chunk=_stopper(progress, runs or DEFAULT_RUNS))
    return json.dumps(with_readings(result.to_dict(), assault.rules), indent=2)


RAID_ENGINE = ("method", "runs", "seed")


def raid_spec(body: Body):
    """The ``Raid`` of a raid request and its engine options."""
    from oddsim.raid import Raid

    fields = _fields(body, Raid, RAID_ENGINE, "raid")
    raid = Raid(rules=ruleset_of(body), **fields)
    method = body.get("method", "exact")
    if method not in ("exact", "mc"):
        raise WebError(f"unknown method {method!r}: use exact or mc")
    return raid, method, check_runs(body.get("runs"), None), check_seed(body.get("seed"))


def run_raid_request(body: Body, progress: Progress | None = None) -> str:
    """``POST /api/raid``: what ``oddsim raid --json`` prints (exact unless ``method: mc``)."""
    from oddsim.raid import DEFAULT_RAID_RUNS, run_raid

    raid, method, runs, seed = raid_spec(body)

    result = run_raid(raid, method=method, runs=runs, seed=seed,  # (as the CLI runs it)
                      on_chunk=_stopper(progress, runs or DEFAULT_RAID_RUNS))
    return json.dumps(with_readings(result.to_dict(), raid.rules), indent=2)


def trench_spec(body: Body):
    """The ``TrenchBattle`` of a trench request, its engine options and its play options
    (``run_trench``'s ``policy``, ``roll_order`` ...)."""
    from oddsim.trench.model import TrenchBattle

    play = _trench_play_options()
    battle_fields = [f.name for f in dataclasses.fields(TrenchBattle) if f.init]
    _refuse_unknown(body, {*battle_fields, *play, "method", "runs", "seed"}, "trench")
    for name in ("attacker", "defender", "year"):
        if name not in body:
            raise WebError(f"missing {name}: a battle needs both sides' cards and its year")
    battle = TrenchBattle(**{name: body[name] for name in battle_fields if name in body})
    options = {name: body[name] for name in play if name in body}
    return (battle, body.get("method", "exact"), check_runs(body.get("runs"), None),
            check_seed(body.get("seed")), options)


@functools.cache
def _trench_play_options() -> tuple[str, ...]:
    from oddsim.trench.api import run_trench

    return tuple(name for name in inspect.signature(run_trench).parameters
                 if name not in ("battle", "method", "runs", "seed", "on_chunk"))


def run_trench_request(body: Body, progress: Progress | None = None) -> str:
    """``POST /api/trench``: what ``oddsim trench --json`` prints. Fields: the ``TrenchBattle``
    fields, ``method``, ``runs``, ``seed`` and ``run_trench``'s play options (``policy``,
    ``roll_order`` ...)."""
    from oddsim.trench.api import run_trench
    from oddsim.trench.montecarlo import DEFAULT_RUNS

    battle, method, runs, seed, options = trench_spec(body)
    with engine_guard(method == "mc"):
        result = run_trench(battle, method=method, runs=runs, seed=seed, **options,
                            on_chunk=_stopper(progress, runs or DEFAULT_RUNS))
    return result.to_json()


ADVICE_SIDES = ("attacker_hand", "attacker_hand_support", "defender", "defender_support",
                "defender_hand", "defender_hand_support", "year")


def advise_spec(body: Body):
    """An advice request (``oddsim trench advise``'s options, ``_`` for ``-``) checked as the
    CLI checks it, every refusal the search could make before it starts raised here, so that a
    bad request is refused when it is sent, not when its job runs: the prepared search."""
    from oddsim.trench.advice import prepare_advice
    from oddsim.trench.advice_input import advice_sides
    from oddsim.web.limits import MAX_ADVICE_TOP

    play = _advice_play_options()
    _refuse_unknown(body, {*ADVICE_SIDES, *play}, "advice")
    hand, against = advice_sides(body.get("attacker_hand"), body.get("attacker_hand_support"),
                                 **{name: body.get(name) for name in ADVICE_SIDES[2:]})
    top = body.get("top", 5)
    if isinstance(top, bool) or not isinstance(top, int) or not 1 <= top <= MAX_ADVICE_TOP:
        raise WebError(f"top must be a whole number from 1 to {MAX_ADVICE_TOP} on the server, "
                       f"not {top!r}")
    options = {name: body[name] for name in play if name in body}
    return prepare_advice(hand, against, **{"top": top, **options})


@functools.cache
def _advice_play_options() -> tuple[str, ...]:
    from oddsim.trench.advice import prepare_advice

    return tuple(name for name in inspect.signature(prepare_advice).parameters
                 if name not in ("attacker", "defender"))


def run_advise_request(body: Body, progress: Progress | None = None) -> str:
    """A Longest Trench advice job: what ``oddsim trench advise --json`` prints. Fields:
    ``attacker_hand``, ``defender`` or ``defender_hand`` (each with its ``_support``),
    ``year``, and ``advise``'s options (``points``, ``objective``, ``top``, ``policy`` ...).
    The search reports commitments searched of all, and stops when cancelled or
    ``ADVICE_SECONDS`` after it began."""
    from oddsim.web.limits import ADVICE_SECONDS

    search = advise_spec(body)
    on_progress = _within(ADVICE_SECONDS, progress, lambda done, total: (
        f"the advice took more than {ADVICE_SECONDS:g} s on the server ({done:,} of {total:,} "
        f"commitments searched): give fewer cards, or run oddsim trench advise"))
    return search.run(on_progress).to_json()


def _within(seconds: float, progress: Progress | None, overdue: Callable[[int, int], str]) -> Progress:
    """A job's ``(done, total)`` callback: passed on to ``progress``, and ``seconds`` after the
    first report, while work remains, a WebError with ``overdue(done, total)``'s line."""
    deadline: list[float] = []

    def report(done: int, total: int) -> bool:
        if not deadline:
            deadline.append(time.monotonic() + seconds)
        elif time.monotonic() > deadline[0] and done < total:
            raise WebError(overdue(done, total))
        return progress(done, total) if progress is not None else False

    return report


PURCHASE_FIELDS = ("budget", "units", "against", "goal", "existing", "max_counts", "sea",
                   "ool_attacker", "ool_defender", "keep_land", "method", "runs", "seed",
                   "territory_value", "counter_attack")


def purchase_spec(body: Body):
    """The ``SweepSpec`` of a purchase request (``SweepSpec.build``'s arguments) and ``top``."""
    from oddsim.purchase.enumeration import count_purchases
    from oddsim.purchase.spec import SweepSpec
    from oddsim.web.limits import MAX_PURCHASES

    _refuse_unknown(body, {*PURCHASE_FIELDS, "top", *RULES_FIELDS}, "purchase")
    for name in ("budget", "units", "against"):
        if name not in body:
            raise WebError(f"missing {name}: a purchase sweep needs a budget, units to buy and an "
                           f"army to fight")
    args = {name: body[name] for name in PURCHASE_FIELDS if name in body}
    if args.get("seed") is None:
        args.pop("seed", None)
    args["runs"] = check_runs(args.get("runs"), None)
    if body.get("unit_values"):  # the purchases pay the edition's prices, whatever the player's values
        args["prices"] = ruleset_of({name: value for name, value in body.items() if name != "unit_values"})
    spec = SweepSpec.build(ruleset_of(body), **args)
    count = count_purchases(spec.costs, spec.caps, spec.budget, stop_after=MAX_PURCHASES + 1)
    if count > MAX_PURCHASES:
        raise WebError(f"more than {MAX_PURCHASES:,} purchases: the server sweeps at most that "
                       f"many; lower the budget, cap units, or use oddsim purchase")
    top = body.get("top", 10)
    if isinstance(top, bool) or not isinstance(top, int) or not 0 <= top <= MAX_PURCHASES:
        raise WebError(f"top must be a whole number from 0 to {MAX_PURCHASES:,}, not {top!r}")
    return spec, top


def run_purchase_request(body: Body, progress: Progress | None = None) -> str:
    """A purchase sweep (``oddsim purchase``): its text report and its ranked rows as JSON."""
    from oddsim.purchase.report import answer
    from oddsim.purchase.runner import SweepInterrupted, purchases_of, run_sweep

    spec, top = purchase_spec(body)
    total = len(purchases_of(spec))
    done = 0

    def stop_requested() -> bool:  # asked once after every row
        nonlocal done
        done += 1
        return progress(done, total) if progress is not None else False

    if progress is not None:
        progress(0, total)
    with engine_guard(spec.method != "exact"):
        try:
            table = run_sweep(spec, stop_requested=stop_requested)
        except SweepInterrupted as stop:
            raise WebError(f"cancelled: {stop}", status=409) from None
    return json.dumps(answer(table, spec, top), indent=2)


PLAN_FIELDS = ("pool", "targets", "threats", "defend", "stands", "values", "reach", "goal",
               "counter_attack", "keep_home", "alternatives", "retreat")
"""A plan request's fields: ``oddsim plan``'s options (a repeatable one a list of its
``NAME=...`` texts, or a mapping), and ``PLAN_BATTLE_FIELDS``."""
PLAN_BATTLE_FIELDS = ("sea", "ool_attacker", "ool_defender", "keep_land", "dice", "attacker_tech",
                      "defender_tech")
"""The battle options a plan applies to every target (``Battle``'s)."""


def plan_spec(body: Body):
    """The ``PlanSpec`` of a plan request, parsed as ``oddsim plan`` parses its options
    (``oddsim.plan.parse_plan``), and refused when its battles or its optimiser would cost more
    than the server gives a job (``limits.MAX_PLAN_SECONDS``, ``MAX_COUNTED_SUB_ARMIES``)."""
    from oddsim.plan.spec import parse_plan, plan_entries

    _refuse_unknown(body, {*PLAN_FIELDS, *PLAN_BATTLE_FIELDS, *RULES_FIELDS}, "plan")
    if "pool" not in body:
        raise WebError("missing pool: a plan needs the units to split, e.g. \"6 inf, 2 arm\"")
    defend = body.get("defend", False)
    if not isinstance(defend, bool):
        raise WebError(f"defend must be true or false, not {defend!r}")
    entries = plan_entries(defend, body.get("targets"), body.get("threats"))
    options = {name: body[name] for name in PLAN_BATTLE_FIELDS if body.get(name) is not None}
    spec = parse_plan(ruleset_of(body), body["pool"], entries, body.get("goal") or
                      ("hold-all" if defend else "value"), body.get("values"), body.get("reach"),
                      body.get("keep_home"), body.get("counter_attack"), body.get("stands"), defend,
                      body.get("alternatives", 3), body.get("retreat"), options)
    _check_plan_cost(spec)
    return spec


def _check_plan_cost(spec) -> None:
    """Refuse (TooLargeError) a plan too large for the server, before any battle."""
    from oddsim.errors import TooLargeError
    from oddsim.plan.goals import Combine
    from oddsim.plan.odds import too_large_to_solve
    from oddsim.plan.spec import sub_army_count
    from oddsim.stages.pipeline import estimate_seconds
    from oddsim.web.limits import (
        MAX_COUNTED_SUB_ARMIES,
        MAX_COUNTED_SUB_ARMIES_MORE,
        MAX_PLAN_SECONDS,
        PLAN_SOLVE_SECONDS,
    )

    goal, count, targets = spec.goal, sub_army_count(spec.pool), len(spec.targets)
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
        if target.battle is not None:
            one_by_one = target.battle.retreat is not None or goal.needs_holds
            one = estimate_seconds(target.battle)
            seconds += (one + PLAN_SOLVE_SECONDS) * sub_army_count(target.reachable) if one_by_one else one
    if seconds > MAX_PLAN_SECONDS:
        raise TooLargeError(f"the plan's battles are too large to solve on the server (about "
                            f"{seconds:.3g} s, the limit is {MAX_PLAN_SECONDS:g} s): keep some units home, "
                            f"limit reach, or run oddsim plan")


def run_plan_request(body: Body, progress: Progress | None = None) -> str:
    """A plan job: what ``oddsim plan --json`` prints (the best split, the objective, the
    runners-up and the margins). Fields: ``oddsim plan``'s options (``pool``, ``targets`` or,
    with ``defend``, ``threats`` and ``stands``, ``values``, ``reach``, ``goal`` ...). It reports
    targets solved of all, and stops when cancelled or ``PLAN_SECONDS`` after it began."""
    from oddsim.plan import solve_plan
    from oddsim.web.limits import PLAN_SECONDS

    spec = plan_spec(body)
    on_target = _within(PLAN_SECONDS, progress, lambda done, total: (
        f"the plan took more than {PLAN_SECONDS:g} s on the server ({done} of {total} targets "
        f"solved): plan with fewer units, or run oddsim plan"))
    return json.dumps(with_readings(solve_plan(spec, on_target=on_target).to_dict(), spec.rules),
                      indent=2)


def ruleset_json(rules: Ruleset) -> dict:
    """An edition as plain data: units (numbers and roles), technologies, special rules, and
    each side's default order of loss: what the page builds its pickers from."""
    from oddsim.model.order_of_loss import DEFAULT_ORDER_PRINCIPLE, default_order

    def plain(value):
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        return getattr(value, "value", value)  # enums

    data = plain(dataclasses.asdict(rules))
    data["technologies"] = [t.name for t in rules.tech]
    data["order_of_loss"] = {"attacker": default_order(rules, True),
                             "defender": default_order(rules, False),
                             "principle": DEFAULT_ORDER_PRINCIPLE}
    return data


def rules_request(body: Body, progress: Progress | None = None) -> str:
    """``POST /api/rules``: a user's ruleset (TOML text), or an edition with rule changes and
    unit values (``ruleset_of``), checked and described like an edition."""
    unknown = sorted(set(body) - set(RULES_FIELDS))
    if unknown or ("ruleset_toml" not in body and "rules" not in body):
        raise WebError("send {\"ruleset_toml\": \"<the text of a ruleset file>\"} or "
                       "{\"rules\": \"<an edition>\", "
                       "\"unit_values\": \"ftr=14\", \"rule\": [\"KEY=VALUE\"]}")
    return json.dumps(ruleset_json(ruleset_of(body)))


CAPABILITIES: dict[str, Callable[[Body, Progress | None], str]] = {
    "battle": run_battle_request,
    "amphibious": run_amphibious_request,
    "raid": run_raid_request,
    "trench": run_trench_request,
    "purchase": run_purchase_request,
    "advise": run_advise_request,
    "plan": run_plan_request,
}
"""What a job of that kind runs, and ``POST /api/{name}`` but for ``JOB_ONLY``."""
JOB_ONLY = frozenset({"purchase", "advise", "plan"})
"""Kinds answered only as jobs (``POST /api/jobs/{kind}``): they may run for many seconds."""
SPECS: dict[str, Callable[[Body], object]] = {
    "battle": battle_spec,
    "amphibious": amphibious_spec,
    "raid": raid_spec,
    "trench": trench_spec,
    "purchase": purchase_spec,
    "advise": advise_spec,
    "plan": plan_spec,
}
"""Per job kind, what checks its request (raising as the run would) before it is queued."""
