"""Longest Trench requests: a battle (``POST /api/trench``, as ``oddsim trench``) and an
advice job (as ``oddsim trench advise``), each checked as the CLI checks it."""

from __future__ import annotations

import dataclasses
import functools
import inspect

from oddsim.limits import MethodChoice, check_seed
from oddsim.trench.advice import prepare_advice
from oddsim.trench.advice_input import advice_sides
from oddsim.trench.api import run_trench
from oddsim.trench.model import TrenchBattle
from oddsim.trench.montecarlo import DEFAULT_RUNS
from oddsim.web.limits import ADVICE_SECONDS, MAX_ADVICE_TOP, WebError, server_runs
from oddsim.web.request_fields import Body, refuse_unknown
from oddsim.web.work import Progress, engine_guard, stopper, within


def trench_spec(body: Body):
    """The ``TrenchBattle`` of a trench request, its engine options and its play options
    (``run_trench``'s ``policy``, ``roll_order`` ...)."""
    play = _trench_play_options()
    battle_fields = [f.name for f in dataclasses.fields(TrenchBattle) if f.init]
    refuse_unknown(body, {*battle_fields, *play, "method", "runs", "seed"}, "trench")
    for name in ("attacker", "defender", "year"):
        if name not in body:
            raise WebError(f"missing {name}: a battle needs both sides' cards and its year")
    battle = TrenchBattle(**{name: body[name] for name in battle_fields if name in body})
    options = {name: body[name] for name in play if name in body}
    return (battle, body.get("method", "exact"), server_runs(body.get("runs")),
            check_seed(body.get("seed"), WebError), options)


@functools.cache
def _trench_play_options() -> tuple[str, ...]:
    return tuple(name for name in inspect.signature(run_trench).parameters
                 if name not in ("battle", "method", "runs", "seed", "on_chunk"))


def run_trench_request(body: Body, progress: Progress | None = None) -> str:
    """``POST /api/trench``: what ``oddsim trench --json`` prints. Fields: the ``TrenchBattle``
    fields, ``method``, ``runs``, ``seed`` and ``run_trench``'s play options (``policy``,
    ``roll_order`` ...)."""
    battle, method, runs, seed, options = trench_spec(body)
    with engine_guard(method == MethodChoice.MC):
        result = run_trench(battle, method=method, runs=runs, seed=seed, **options,
                            on_chunk=stopper(progress, runs or DEFAULT_RUNS))
    return result.to_json()


ADVICE_SIDES = ("attacker_hand", "attacker_hand_support", "defender", "defender_support",
                "defender_hand", "defender_hand_support", "year")


def advise_spec(body: Body):
    """An advice request (``oddsim trench advise``'s options, ``_`` for ``-``) checked as the
    CLI checks it, every refusal the search could make before it starts raised here, so that a
    bad request is refused when it is sent, not when its job runs: the prepared search."""
    play = _advice_play_options()
    refuse_unknown(body, {*ADVICE_SIDES, *play}, "advice")
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
    return tuple(name for name in inspect.signature(prepare_advice).parameters
                 if name not in ("attacker", "defender"))


def run_advise_request(body: Body, progress: Progress | None = None) -> str:
    """A Longest Trench advice job: what ``oddsim trench advise --json`` prints. Fields:
    ``attacker_hand``, ``defender`` or ``defender_hand`` (each with its ``_support``),
    ``year``, and ``advise``'s options (``points``, ``objective``, ``top``, ``policy`` ...).
    The search reports commitments searched of all, and stops when cancelled or
    ``ADVICE_SECONDS`` after it began."""
    search = advise_spec(body)
    on_progress = within(ADVICE_SECONDS, progress, lambda done, total: (
        f"the advice took more than {ADVICE_SECONDS:g} s on the server ({done:,} of {total:,} "
        f"commitments searched): give fewer cards, or run oddsim trench advise"))
    return search.run(on_progress).to_json()
