"""Battle requests (``POST /api/battle``, ``/api/amphibious``): the ``BattleRequest`` the CLI
builds (``oddsim.stages.request``: one battle, later waves, a counter-attack, an assault), its
``Battle`` or ``Amphibious`` from the request's fields (the value's own), run by the same
function and answered with the result's own ``to_dict``. The server adds its own caps: exact work
(``MAX_EXACT_SECONDS``), Monte Carlo time (``oddsim.web.work.stopper``); a battle asked again is
answered from memory where its answer cannot change, and a small one on the event loop."""

from __future__ import annotations

import json
from collections.abc import Callable

from oddsim._runtime import interpreted
from oddsim.errors import OddsimError, TooLargeError
from oddsim.limits import MethodChoice, check_seed
from oddsim.model.battle import Battle
from oddsim.model.forces import parse_force
from oddsim.model.options import WEB_FIELDS, battle_from
from oddsim.results.battle_result import BattleResult
from oddsim.results.readings import with_readings
from oddsim.stages.aa_split import is_split
from oddsim.stages.amphibious import Amphibious
from oddsim.stages.counter import CounterAttackResult
from oddsim.stages.pipeline import estimate_work
from oddsim.stages.request import Answer, BattleRequest, RequestKind, engine_of, exact_seconds, run_request
from oddsim.stages.runner import DEFAULT_RUNS
from oddsim.stages.wave_plan import wave_of
from oddsim.stages.waves import Wave
from oddsim.web.answers import AnswerCache
from oddsim.web.limits import MAX_EXACT_SECONDS, WebError, server_runs
from oddsim.web.request_fields import RULES_FIELDS, Body, fields_of, refuse_unknown
from oddsim.web.rules_requests import is_builtin, ruleset_of
from oddsim.web.work import Progress, engine_guard, stopper

ENGINE_FIELDS = ("method", "runs", "seed")
"""A battle or assault request's engine options (``BattleRequest``'s)."""
FOLLOW_UPS = ("counter_attack", "waves")
"""What a battle request may ask to follow its battle."""
MAX_WAVES = 20
"""Later waves a web request may ask for (a turn has a handful)."""


def battle_of(body: Body) -> Battle:
    """The ``Battle`` of a battle request: its fields are the battle's own, as the CLI's options
    are; any other field but the engine options and the follow-ups is refused."""
    if "defender" not in body:
        raise WebError("defender: missing: write 'none' for an undefended territory")
    refuse_unknown(body, {"attacker", "defender", *WEB_FIELDS, *ENGINE_FIELDS, *FOLLOW_UPS, *RULES_FIELDS},
                   "battle")
    if "attacker" not in body:
        raise WebError("missing field 'attacker' in the battle request: it needs attacker")
    return battle_from(ruleset_of(body), body["attacker"], body["defender"],
                       {name: body[name] for name in WEB_FIELDS if name in body})


def battle_spec(body: Body) -> BattleRequest:
    """The ``BattleRequest`` of a battle request: its battle, later ``waves`` or a
    ``counter_attack`` (which takes its losses in the battle's ``ool_defender`` order, as with
    ``oddsim battle --counter-attack``), and its engine options, checked as the CLI checks them
    and against the server's caps."""
    battle = battle_of(body)
    return BattleRequest(battle, waves=waves_of(body) if body.get("waves") else None,
                         counter_attack=body.get("counter_attack"), ool_counter=body.get("ool_defender"),
                         **_engine_options(body))


def _engine_options(body: Body) -> dict:
    """A request's ``method`` (default ``auto``), ``runs`` and ``seed``, the server's caps checked."""
    return {"method": body.get("method", MethodChoice.AUTO), "runs": server_runs(body.get("runs")),
            "seed": check_seed(body.get("seed"), WebError)}


def waves_of(body: Body) -> list[Wave]:
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
    request = battle_spec(body)
    key = _answer_key(request)
    text = ANSWERS.get(key) if key is not None else None
    if text is not None:
        return text
    if quick_only and not _is_quick(request):
        return None
    text, keep = _answer(request, stopper(progress, request.runs or DEFAULT_RUNS))
    if keep and key is not None:
        ANSWERS.put(key, text)
    return text


def _answer_key(request: BattleRequest):
    """The key of a battle request's answer: the parsed battle, its engine options and the parsed
    counter-attacking army; None for later waves (computed each time), or when the
    counter-attack does not parse (the run says why)."""
    assert isinstance(request.fight, Battle)
    battle, method, runs, seed = request.fight, request.method, request.runs, request.seed
    counter = request.counter_attack
    if request.kind is RequestKind.WAVES:
        return None
    if counter is not None:
        try:
            counter = parse_force(counter, battle.rules, "counter-attack")
        except (OddsimError, TypeError, ValueError):
            return None
    elif seed is not None and method == MethodChoice.AUTO and engine_of(request) == MethodChoice.EXACT:
        seed = None  # (the page sends a seed with every "auto" battle: one answer for all of them)
    return battle, method, runs, seed, counter


def _is_quick(request: BattleRequest) -> bool:
    """Whether the event loop may answer ``request`` itself: one battle, exact, small, and cheap
    to estimate."""
    battle = request.fight
    if interpreted.cold():  # (a first run interprets its kernels: milliseconds, not microseconds)
        return False
    if request.kind is not RequestKind.BATTLE or request.method == MethodChoice.MC:
        return False
    assert isinstance(battle, Battle)
    if is_split(battle) or (battle.retreat is not None and battle.retreat.best is not None):
        return False  # (the best retreat costs more than the estimate says)
    return engine_of(request) == MethodChoice.EXACT and estimate_work(battle)[1] <= QUICK_WORK


EXACT_WORK_INCLUDES = {RequestKind.WAVES: " with the later waves",
                       RequestKind.COUNTER_ATTACK: " with the counter-attacks"}
"""What a request's estimated exact work counts besides its battle, as its refusal says it."""


def _answer(request: BattleRequest, on_chunk: Callable[[int], bool], indent: int | None = None
            ) -> tuple[str, bool]:
    """The JSON answer to ``request``, refused when asked exactly and more than the server gives
    a request (``exact_seconds``); and whether it may be kept (exact, or seeded and finished)."""
    if request.method == MethodChoice.EXACT:  # ("auto" picks exact only well under the cap)
        seconds = exact_seconds(request)
        if seconds > MAX_EXACT_SECONDS:
            raise TooLargeError(f"too large to solve exactly on the server (about {seconds:.2g} s"
                                f"{EXACT_WORK_INCLUDES.get(request.kind, '')}, the limit is "
                                f"{MAX_EXACT_SECONDS:g} s): use method mc or auto, or the CLI")
    engine = engine_of(request)
    with engine_guard(engine != MethodChoice.EXACT):
        answer = run_request(request, on_chunk=on_chunk)
    return (json.dumps(with_readings(answer.to_dict(), request.fight.rules), indent=indent),
            _same_if_asked_again(request, engine, answer))


def _same_if_asked_again(request: BattleRequest, engine: MethodChoice, answer: Answer) -> bool:
    """Whether asking ``request`` again gives ``answer`` again: exact, or seeded and finished."""
    if engine == MethodChoice.EXACT:
        return True
    first = answer.battle if isinstance(answer, CounterAttackResult) else answer
    return request.seed is not None and isinstance(first, BattleResult) and not first.interrupted


def amphibious_spec(body: Body) -> BattleRequest:
    """The ``BattleRequest`` of an amphibious request: its ``Amphibious`` and engine options."""
    fields = fields_of(body, Amphibious, ENGINE_FIELDS, "amphibious")
    return BattleRequest(Amphibious(rules=ruleset_of(body), **fields), **_engine_options(body))


def run_amphibious_request(body: Body, progress: Progress | None = None) -> str:
    """``POST /api/amphibious``: what ``oddsim amphibious --json`` prints."""
    request = amphibious_spec(body)
    return _answer(request, stopper(progress, request.runs or DEFAULT_RUNS), indent=2)[0]
