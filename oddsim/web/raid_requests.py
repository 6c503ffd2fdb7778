"""Strategic bombing raid requests (``POST /api/raid``): the CLI's ``Raid``, run as
``oddsim raid --json`` runs it."""

from __future__ import annotations

import json

from oddsim.limits import EXACT_OR_MC, check_seed
from oddsim.raid import DEFAULT_RAID_RUNS, Raid, run_raid
from oddsim.results.readings import with_readings
from oddsim.web.limits import WebError, server_runs
from oddsim.web.request_fields import Body, fields_of
from oddsim.web.rules_requests import ruleset_of
from oddsim.web.work import Progress, stopper

RAID_ENGINE = ("method", "runs", "seed")


def raid_spec(body: Body):
    """The ``Raid`` of a raid request and its engine options."""
    fields = fields_of(body, Raid, RAID_ENGINE, "raid")
    raid = Raid(rules=ruleset_of(body), **fields)
    method = body.get("method", "exact")
    if method not in EXACT_OR_MC:
        raise WebError(f"unknown method {method!r}: use exact or mc")
    return raid, method, server_runs(body.get("runs")), check_seed(body.get("seed"), WebError)


def run_raid_request(body: Body, progress: Progress | None = None) -> str:
    """``POST /api/raid``: what ``oddsim raid --json`` prints (exact unless ``method: mc``)."""
    raid, method, runs, seed = raid_spec(body)

    result = run_raid(raid, method=method, runs=runs, seed=seed,  # (as the CLI runs it)
                      on_chunk=stopper(progress, runs or DEFAULT_RAID_RUNS))
    return json.dumps(with_readings(result.to_dict(), raid.rules), indent=2)
