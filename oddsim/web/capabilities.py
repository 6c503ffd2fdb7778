"""What the server can do: per kind of request, the function that answers it (a JSON request in,
the CLI's ``--json`` text out) and the one that checks it before a job is queued.

Each kind's module builds the same value the CLI builds (``Battle``, ``Amphibious``, ``Raid``,
``TrenchBattle``, ``SweepSpec``, ``PlanSpec``) from the request's fields, which are that value's
own fields, calls the same engine function, and answers with the result's own
``to_json``/``to_dict``: the server cannot drift from ``oddsim battle --json``. A user's ruleset
arrives as TOML text (``ruleset_toml``); a ``rules`` field only names a built-in edition, never
a path (``rules_requests``).
"""

from __future__ import annotations

from collections.abc import Callable

from oddsim.web.battle_requests import (
    amphibious_spec,
    battle_spec,
    run_amphibious_request,
    run_battle_request,
)
from oddsim.web.plan_requests import plan_spec, run_plan_request
from oddsim.web.purchase_requests import purchase_spec, run_purchase_request
from oddsim.web.raid_requests import raid_spec, run_raid_request
from oddsim.web.request_fields import Body
from oddsim.web.trench_requests import advise_spec, run_advise_request, run_trench_request, trench_spec
from oddsim.web.work import Progress

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
