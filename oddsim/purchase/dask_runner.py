"""Run a sweep's rows on Dask: a local cluster bound to 127.0.0.1, or an existing scheduler
(``oddsim._runtime.dask_cluster``, which plans use too).

Dask is optional (``pip install 'oddsim[dask]'``). Rows are sent in batches, a bounded number at a
time, each batch solved by ``evaluate_batch`` in a worker process with that process's own cache;
results are handed back in enumeration order, so the rows are the same, in the same order, as
an in-process run (Monte Carlo seeds come from the battles, not from the worker). Workers of an
existing cluster need the same oddsim installed.
"""

from __future__ import annotations

import uuid
from collections.abc import Generator, Sequence
from typing import Any

from oddsim._runtime import dask_cluster as cluster
from oddsim.errors import OddsimError
from oddsim.purchase.evaluate import Evaluated
from oddsim.purchase.goals import PurchaseError
from oddsim.purchase.spec import SweepSpec
from oddsim.purchase.swept import evaluate_batch

MAX_BATCH_ROWS = 64
TASKS_IN_FLIGHT_PER_THREAD = 4


def check_options(workers: int | None, scheduler: str | None) -> None:
    """Refuse bad or conflicting Dask options with a ``PurchaseError`` (``dask_cluster``)."""
    cluster.check_options(workers, scheduler, PurchaseError)


def dask_client(workers: int | None = None, scheduler: str | None = None):
    """A Dask client on a local cluster or ``scheduler`` (``oddsim._runtime.dask_cluster``), its
    errors ``PurchaseError``s."""
    return cluster.dask_client(workers, scheduler, PurchaseError)


def dask_rows(spec: SweepSpec, todo: Sequence[tuple[int, tuple[int, ...]]], client,
              batch_rows: int | None = None) -> Generator[Evaluated, None, None]:
    """Evaluate ``todo`` on the cluster behind ``client``; yield the rows in ``todo`` order.

    At most a few batches per worker thread are queued at once, so memory and the rows lost to
    a Ctrl-C (finished out of order, not yet handed back) stay small.
    """
    distributed = cluster.require_distributed(PurchaseError)
    threads = max(1, sum(client.nthreads().values()))
    if batch_rows is None:
        batch_rows = max(1, min(MAX_BATCH_ROWS, len(todo) // (8 * threads)))
    batches = [list(todo[i:i + batch_rows]) for i in range(0, len(todo), batch_rows)]
    if not batches:
        return
    spec_future = client.scatter(spec, broadcast=True, hash=False)
    run = uuid.uuid4().hex[:8]
    number_of: dict[Any, int] = {}  # Dask future -> its batch's number
    completed = distributed.as_completed()
    submitted = 0

    def submit_next() -> None:
        nonlocal submitted
        future = client.submit(evaluate_batch, spec_future, batches[submitted], pure=False,
                               key=f"oddsim-purchase-{run}-{submitted}")
        number_of[future] = submitted
        completed.add(future)
        submitted += 1

    try:
        while submitted < min(len(batches), TASKS_IN_FLIGHT_PER_THREAD * threads):
            submit_next()
        finished: dict[int, list[Evaluated]] = {}
        next_out = 0
        for future in completed:
            finished[number_of.pop(future)] = _batch_result(future)
            if submitted < len(batches):
                submit_next()
            while next_out in finished:
                yield from finished.pop(next_out)
                next_out += 1
    finally:
        for future in list(number_of):
            try:
                future.cancel()
            except Exception:  # noqa: BLE001 - the cluster may already be gone
                pass


def _batch_result(future) -> list[Evaluated]:
    """A finished batch's rows; a batch lost with its worker (killed, cancelled, unreachable)
    is one ``PurchaseError`` line, and the rows already handed back stay written."""
    try:
        return future.result()
    except OddsimError:
        raise
    except Exception as exc:  # noqa: BLE001 - every Dask failure reads the same to the user
        detail = " ".join(str(exc).split())[:120] or "no detail"
        raise PurchaseError(f"the Dask cluster lost a batch of rows ({type(exc).__name__}: {detail}); "
                            f"the rows finished so far are kept: rerun with --resume, or without "
                            f"--workers/--scheduler to solve in-process") from None
