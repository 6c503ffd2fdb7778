"""What one request may ask of the server: body size, Monte Carlo runs, exact work, time.

The CLI's own checks still apply (every request builds the same ``Battle`` and calls the same
engines); these are the tighter caps of a server that must keep answering other requests.
"""

from __future__ import annotations

from oddsim import limits
from oddsim.errors import OddsimError

MAX_BODY_BYTES = 256 * 1024
"""A request body (a ruleset's TOML text included) is at most this long."""
MAX_FIELD_CHARS = 4 * 1024
"""A text in a request (an army, an order of loss, a plan's target, a rule change) is at most
this long, refused before anything is parsed (``check_field_sizes``): the largest army a board
holds is a few dozen characters, and parsing a 246 KiB one held the event loop for a second."""
MAX_RULESET_CHARS = 64 * 1024
"""``ruleset_toml`` is at most this long (the built-in editions' files are under 6 KB)."""
MAX_RULESET_ALIASES = 512
"""Aliases a ruleset sent with a request may give all its units together (the built-in
editions give fewer than 60): a kept answer keeps its ruleset, and 24,000 aliases were 1.66 MB."""
MAX_RUNS = 5_000_000
"""Monte Carlo runs per request (the CLI allows more: run those there)."""
MAX_EXACT_SECONDS = 2.0
"""Seconds of exact solving a request may ask for, as ``oddsim.stages.pipeline.estimate_seconds`` predicts
them (fitted to measured solves); ``method: auto`` already switches to Monte Carlo above half."""
MC_SECONDS = 30.0
"""A Monte Carlo run stops this long after its first chunk and answers what it has
(``interrupted: true``)."""
ADVICE_SECONDS = 60.0
"""A Longest Trench advice job stops with an error this long after its search began (a 7-card
hand against a 6-card one takes 8 CPU seconds or more; the CLI has no such cap)."""
MAX_ADVICE_TOP = 20
"""Ranked commitments an advice job may ask for (each is solved again in full for its answer)."""
PLAN_SECONDS = 120.0
"""A plan job stops with an error this long after its first target's battles began (checked
between targets and between the optimiser's steps; the issue example's 4,222 battles take about
a second, compiled)."""
MAX_PLAN_SECONDS = 30.0
"""Seconds of exact solving a plan may ask for, as ``oddsim.stages.pipeline.estimate_seconds``
predicts each target's battle with every unit that may go there: once for a plain battle (all
its sub-armies in one sweep), once per sub-army with a retreat or ``hold-after``."""
PLAN_SOLVE_SECONDS = 0.002
"""What a plan solved one sub-army at a time pays per battle besides the solve (the issue
example with ``--retreat-best value`` took 7.4 CPU s for 4,222 battles the cost model puts at
3.5 s)."""
PLAN_SUB_ARMY_SECONDS = 0.0002
"""What a plan pays per target and sub-army that may go there besides the battles, an empty
target (``NAME=none``) too: each sub-army's odds kept, then scored on the lattice (measured:
0.1 to 0.4 ms on a loaded 2-core machine; 5,000 empty targets were accepted as free)."""
MAX_COUNTED_SUB_ARMIES = {3: 3_000}
"""Sub-armies of a pool a ``take-at-least:K`` (``hold-at-least:K``) plan with 1 < K < the
number of targets may have on the server, by that number (``MAX_COUNTED_SUB_ARMIES_MORE`` past
those listed): its optimiser keeps every partial split no other beats in every count, and they
grow with the targets. Measured (CPU seconds, odds and optimiser, no reach limits): 3 targets
of the issue's 2,600 sub-armies 3.6 s; 4 targets of 528 sub-armies 2.1 s (K=3), of 975 16 s;
5 targets of 528 9.7 s, of 975 75 s."""
MAX_COUNTED_SUB_ARMIES_MORE = 600
"""``MAX_COUNTED_SUB_ARMIES`` for four targets or more."""
MAX_PLAN_TARGETS = 16
"""Targets (or threatened territories) in one plan job, empty ones (``NAME=none``) included."""
MAX_PLAN_BYTES = 256 * 1024 * 1024
"""What a plan job may hold while it solves (``plan_requests.plan_bytes``: each target's odds
for every sub-army it may be sent, and the optimiser's best values per lattice point, target
and runner-up): one request of 5,000 targets grew the server 18 MB a target."""
MAX_PURCHASES = 20_000
"""Purchases in one sweep job."""
MAX_BEST_SWEEP_SECONDS = 30.0
"""Seconds of best-casualties solves a purchase sweep job may ask for (a side with order of loss
``best``: every purchase's battle a game), as ``oddsim.stages.best_size`` predicts them; the
same as a plan's ``MAX_PLAN_SECONDS``."""
JOB_WORKERS = 2
"""Jobs (purchase sweeps, long Monte Carlo) running at once; the rest wait in line."""
MAX_JOBS_WAITING = 8
"""Jobs running or waiting in all; one more is refused until one ends."""
JOBS_PER_ADDRESS = 4
"""Jobs running or waiting from one client address, whatever its ``X-Oddsim-Client`` says (on
loopback every local client has the same address: they share these)."""
FINISHED_SECONDS = 600.0
"""A finished job's result is kept this long after it ends ..."""
FETCHED_SECONDS = 60.0
"""... or this long after its result was first read, whichever comes first."""
FINISHED_BYTES = 64 * 1024 * 1024
"""All finished jobs' results together are at most this long: the oldest are dropped first."""
SYNC_THREADS = 8
"""Requests computed at once outside jobs (exact battles are single-threaded)."""
ABANDONED_SECONDS = 30.0
"""A job nobody has asked about for this long is cancelled: its client went away."""


class WebError(OddsimError):
    """A request the server refuses; ``status`` is its HTTP status (4xx)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def check_field_sizes(body: object) -> None:
    """Refuse (413) a request whose text fields are longer than the server takes
    (``MAX_FIELD_CHARS``; ``ruleset_toml``: ``MAX_RULESET_CHARS``), before any of it is parsed."""
    for where, text in _texts(body, ""):
        most = MAX_RULESET_CHARS if where == "ruleset_toml" else MAX_FIELD_CHARS
        if len(text) > most:
            raise WebError(f"{where or 'the request'} is {len(text):,} characters, more than the "
                           f"{most:,} the server takes: send a shorter one, or use the CLI", status=413)


def _texts(body: object, where: str):
    """Every string in a request's JSON (keys included), with the field it is in (a loop, not
    recursion: the JSON may be nested as deep as the decoder allows)."""
    todo = [(where, body)]
    while todo:
        where, value = todo.pop()
        if isinstance(value, str):
            yield where, value
        elif isinstance(value, dict):
            for key, item in value.items():
                inner = f"{where}.{key}" if where else str(key)
                yield inner[:80], key
                todo.append((inner[:80], item))
        elif isinstance(value, list):
            todo.extend((f"{where}[{number}]"[:80], item) for number, item in enumerate(value))


def server_runs(runs: object) -> int | None:
    """A request's ``runs`` (``None``: the CLI's default), checked as the CLI checks them
    (``oddsim.limits.check_runs``) and refused above the server's cap, ``MAX_RUNS``; a seed is
    checked as the CLI checks it (``oddsim.limits.check_seed(seed, WebError)``)."""
    if runs is None:
        return None
    count = limits.check_runs(runs, WebError)
    if count > MAX_RUNS:
        raise WebError(f"runs must be at most {MAX_RUNS:,} on the server, not {count:,}: run more from "
                       f"the command line")
    return count

