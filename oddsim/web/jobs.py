"""Heavy work as jobs: a bounded pool, one job per client, progress by polling, cancel.

A job is created by ``POST /api/jobs/{kind}``, polled with ``GET /api/jobs/{id}`` (state, work
done of total, and the result or error when it ends) and cancelled by ``DELETE``. A job nobody
polls for ``ABANDONED_SECONDS`` is cancelled too: its client went away. The work checks the
cancel flag between rows (purchase) or Monte Carlo chunks (battles, raids, The Longest Trench).
"""

from __future__ import annotations

import itertools
import json
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from oddsim.errors import OddsimError, one_line
from oddsim.web.limits import ABANDONED_SECONDS, JOB_WORKERS, MAX_JOBS_WAITING, WebError

FINISHED_KEPT = 64
"""Finished jobs kept for their clients to read."""

Work = Callable[[Callable[[int, int], bool]], str]


@dataclass
class Job:
    """One job's state, read by the polling client and written by the worker thread."""

    id: str
    kind: str
    client: str
    state: str = "waiting"  # waiting, running, done, failed, cancelled
    done: int = 0
    total: int = 0
    result: str | None = None  # the JSON text, as the synchronous endpoint answers it
    error: str | None = None
    status: int = 200
    cancel: threading.Event = field(default_factory=threading.Event)
    last_seen: float = field(default_factory=time.monotonic)
    order: int = 0

    @property
    def active(self) -> bool:
        return self.state in ("waiting", "running")

    def progress(self, done: int, total: int) -> bool:
        """Called by the work: records progress; True when it should stop."""
        self.done, self.total = done, total
        if time.monotonic() - self.last_seen > ABANDONED_SECONDS:
            self.cancel.set()
        return self.cancel.is_set()

    def to_json(self) -> str:
        head = {"id": self.id, "kind": self.kind, "state": self.state, "done": self.done,
                "total": self.total, "error": self.error}
        text = json.dumps(head)
        result = self.result if self.result is not None else "null"
        return text[:-1] + f', "result": {result}}}'


class JobBoard:
    """The jobs of one server: at most ``JOB_WORKERS`` run, ``MAX_JOBS_WAITING`` exist unfinished,
    and a client has at most one unfinished job."""

    def __init__(self, workers: int = JOB_WORKERS, max_waiting: int = MAX_JOBS_WAITING) -> None:
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="oddsim-job")
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._max_waiting = max_waiting
        self._counter = itertools.count()

    def submit(self, kind: str, client: str, work: Work) -> Job:
        with self._lock:
            active = [job for job in self._jobs.values() if job.active]
            mine = [job for job in active if job.client == client]
            if mine:
                raise WebError(f"your {mine[0].kind} job {mine[0].id} is still running: wait for it "
                               f"or cancel it (DELETE /api/jobs/{mine[0].id})", status=429)
            if len(active) >= self._max_waiting:
                raise WebError(f"the server is busy ({len(active)} jobs): try again when one ends",
                               status=503)
            job = Job(id=secrets.token_hex(8), kind=kind, client=client, order=next(self._counter))
            self._jobs[job.id] = job
            self._forget_old()
        self._pool.submit(self._run, job, work)
        return job

    def _run(self, job: Job, work: Work) -> None:
        if job.cancel.is_set():
            job.state = "cancelled"
            return
        job.state = "running"
        try:
            job.result = work(job.progress)
            job.state = "cancelled" if job.cancel.is_set() else "done"
        except OddsimError as exc:
            job.error = one_line(str(exc))
            job.status = getattr(exc, "status", 400)
            job.state = "cancelled" if job.cancel.is_set() else "failed"
        except Exception as exc:  # noqa: BLE001 - a bug: the client reads it, the server lives
            job.error = one_line(f"internal error: {type(exc).__name__}: {exc}")
            job.status = 500
            job.state = "failed"

    def get(self, job_id: str) -> Job:
        job = self._jobs.get(job_id)
        if job is None:
            raise WebError(f"no job {job_id!r}: it finished long ago or never existed", status=404)
        job.last_seen = time.monotonic()
        return job

    def cancel(self, job_id: str) -> Job:
        job = self.get(job_id)
        job.cancel.set()
        if job.state == "waiting":
            job.state = "cancelled"
        return job

    def _forget_old(self) -> None:
        finished = sorted((job for job in self._jobs.values() if not job.active),
                          key=lambda job: job.order)
        for job in finished[:max(0, len(finished) - FINISHED_KEPT)]:
            del self._jobs[job.id]

    def shutdown(self) -> None:
        for job in self._jobs.values():
            job.cancel.set()
        self._pool.shutdown(wait=False, cancel_futures=True)
