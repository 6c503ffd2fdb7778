"""Purchase sweep jobs (as ``oddsim purchase``): the ``SweepSpec`` built from the request, refused
when it would sweep more purchases than the server allows, and its report and ranked rows."""

from __future__ import annotations

import json

from oddsim.purchase.enumeration import count_purchases
from oddsim.purchase.report import answer
from oddsim.purchase.runner import SweepInterrupted, purchases_of, run_sweep
from oddsim.purchase.spec import SweepSpec
from oddsim.web.limits import MAX_BEST_SWEEP_SECONDS, MAX_PURCHASES, WebError, server_runs
from oddsim.web.request_fields import RULES_FIELDS, Body, refuse_unknown
from oddsim.web.rules_requests import ruleset_of
from oddsim.web.work import Progress, engine_guard

PURCHASE_FIELDS = ("budget", "units", "against", "goal", "existing", "max_counts", "sea",
                   "ool_attacker", "ool_defender", "keep_land", "method", "runs", "seed",
                   "territory_value", "counter_attack", "casualty_goal")


def purchase_spec(body: Body):
    """The ``SweepSpec`` of a purchase request (``SweepSpec.build``'s arguments) and ``top``."""
    refuse_unknown(body, {*PURCHASE_FIELDS, "top", *RULES_FIELDS}, "purchase")
    for name in ("budget", "units", "against"):
        if name not in body:
            raise WebError(f"missing {name}: a purchase sweep needs a budget, units to buy and an "
                           f"army to fight")
    args = {name: body[name] for name in PURCHASE_FIELDS if name in body}
    if args.get("seed") is None:
        args.pop("seed", None)
    args["runs"] = server_runs(args.get("runs"))
    if body.get("unit_values"):  # the purchases pay the edition's prices, whatever the player's values
        args["prices"] = ruleset_of({name: value for name, value in body.items() if name != "unit_values"})
    spec = SweepSpec.build(ruleset_of(body), **args)
    count = count_purchases(spec.costs, spec.caps, spec.budget, stop_after=MAX_PURCHASES + 1)
    if count > MAX_PURCHASES:
        raise WebError(f"more than {MAX_PURCHASES:,} purchases: the server sweeps at most that "
                       f"many; lower the budget, cap units, or use oddsim purchase")
    if spec.best_casualties:  # (the CLI's own cap is larger)
        spec.check_best_size(MAX_BEST_SWEEP_SECONDS)
    top = body.get("top", 10)
    if isinstance(top, bool) or not isinstance(top, int) or not 0 <= top <= MAX_PURCHASES:
        raise WebError(f"top must be a whole number from 0 to {MAX_PURCHASES:,}, not {top!r}")
    return spec, top


def run_purchase_request(body: Body, progress: Progress | None = None) -> str:
    """A purchase sweep (``oddsim purchase``): its text report and its ranked rows as JSON."""
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
