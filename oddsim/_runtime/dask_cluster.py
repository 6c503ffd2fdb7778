"""A Dask cluster for work that fans out (a purchase sweep's rows, a plan's targets): the option
checks and the client, shared by ``oddsim.purchase`` and ``oddsim.plan``, each naming its own
error class.

Dask is optional (``pip install 'oddsim[dask]'``): ``distributed`` is imported only when a
cluster is asked for (it is not installed everywhere, and takes a second to import).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

from oddsim.errors import OddsimError

INSTALL_HINT = "pip install 'oddsim[dask]'"
LOOPBACK = "127.0.0.1"


def require_distributed(error: type[OddsimError]) -> ModuleType:
    """The ``distributed`` module, or ``error`` with the install hint."""
    try:
        import distributed  # (here: optional, and slow to import)
    except ImportError:
        raise error(f"--workers and --scheduler need Dask, which is not installed: "
                    f"{INSTALL_HINT}") from None
    return distributed


def max_local_workers() -> int:
    """The most worker processes a local cluster may start: twice the cores, so a typo cannot
    start thousands of processes."""
    return 2 * (os.cpu_count() or 1)


def check_options(workers: int | None, scheduler: str | None, error: type[OddsimError]) -> None:
    """Refuse bad or conflicting Dask options, and options given without Dask installed, with
    ``error``."""
    if workers is not None and scheduler is not None:
        raise error("give --workers (a local cluster) or --scheduler (an existing one), not both")
    most = max_local_workers()
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                or not 1 <= workers <= most):
        raise error(f"--workers must be a whole number from 1 to {most} (twice this "
                    f"machine's cores), not {workers!r}")
    if scheduler is not None and (not isinstance(scheduler, str) or "://" not in scheduler):
        raise error(f"--scheduler must be an address like tcp://HOST:PORT, not {scheduler!r}")
    if workers is not None or scheduler is not None:
        require_distributed(error)


@contextmanager
def dask_client(workers: int | None, scheduler: str | None,
                error: type[OddsimError]) -> Iterator[Any]:
    """A Dask client: on a new local cluster of ``workers`` single-threaded worker processes whose
    every port listens on 127.0.0.1 only (no dashboard), or connected to ``scheduler``. The
    cluster is closed on exit; a scheduler that cannot be reached is ``error``."""
    distributed = require_distributed(error)
    if scheduler is not None:
        try:
            client = distributed.Client(scheduler, timeout="10s")
        except Exception as exc:  # noqa: BLE001 - a bad address, refused, timed out: one line each
            detail = " ".join(str(exc).split()) or type(exc).__name__
            raise error(f"cannot reach the Dask scheduler at {scheduler}: {detail}") from None
        with client:
            yield client
        return
    # the scheduler always serves a few HTTP routes: on a free loopback port, with no dashboard
    cluster = distributed.LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, host=LOOPBACK, protocol="tcp",
        dashboard_address=f"{LOOPBACK}:0", scheduler_kwargs={"dashboard": False},
        worker_dashboard_address=None, silence_logs=logging.ERROR)
    with cluster, distributed.Client(cluster) as client:
        yield client
