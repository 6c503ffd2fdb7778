"""Heavy work as jobs: a bounded pool, limits per client and per address, progress, cancel.

A job is created by ``POST /api/jobs/{kind}``, polled with ``GET /api/jobs/{id}`` (state, work
done of total, and the result or error when it ends) and cancelled by ``DELETE``. Its id is
unguessable (``secrets.token_urlsafe``) and is told only to the client that created it: holding
the id is what lets a client read or cancel it. A job nobody polls for ``ABANDONED_SECONDS`` is
cancelled too: its client went away. The work checks the cancel flag between rows (purchase)
or Monte Carlo chunks (battles, raids, The Longest Trench, amphibious assaults, counter-attacks).

A client (its ``X-Oddsim-Client`` header, else its address and port) has one unfinished job;
a client address (whatever the header says) has at most ``JOBS_PER_ADDRESS``. A finished job's
result is kept ``FINISHED_SECONDS`` after it ends, or ``FETCHED_SECONDS`` after its result was
first read, and all finished results together are at most ``FINISHED_BYTES`` (the oldest go
first; the newest is kept until it expires).
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
from oddsim.web.limits import (
    ABANDONED_SECONDS,
    FETCHED_SECONDS,
    FINISHED_BYTES,
    FINISHED_SECONDS,
    JOB_WORKERS,
    JOBS_PER_ADDRESS,
    MAX_JOBS_WAITING,
    WebError,
)

FINISHED_KEPT = 64
"""Finished jobs kept for their clients to read, at most (and ``FINISHED_BYTES``)."""

Work = Callable[[Callable[[int, int], bool]], str]


@dataclass
class Job:
    """One job's state, read by the polling client and written by the worker thread."""

    id: str
    kind: str
    client: str
    address: str
    state: str = "waiting"  # waiting, running, done, failed, cancelled
    done: int = 0
    total: int = 0
    result: str | None = None  # the JSON text, as the synchronous endpoint answers it
    error: str | None = None
    status: int = 200
    cancel: threading.Event = field(default_factory=threading.Event)
    last_seen: float = field(default_factory=time.monotonic)
    order: int = 0
    ended: float | None = None  # when it finished (the board's clock)
    fetched: float | None = None  # when its result was first read

    @property
    def size(self) -> int:
        """The bytes its result and error hold."""
        return len(self.result or "") + len(self.error or "")

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
    """The jobs of one server: at most ``workers`` run and ``max_waiting`` exist unfinished, a
    client has at most one unfinished job and an address ``per_address``; finished results are
    kept as the module docstring says (``clock``: the time, for tests)."""

    def __init__(self, workers: int = JOB_WORKERS, max_waiting: int = MAX_JOBS_WAITING,
                 per_address: int = JOBS_PER_ADDRESS, finished_bytes: int = FINISHED_BYTES,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="oddsim-job")
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._max_waiting = max_waiting
        self._per_address = per_address
        self._finished_bytes = finished_bytes
        self._clock = clock
        self._counter = itertools.count()

    def submit(self, kind: str, client: str, address: str, work: Work) -> Job:
        with self._lock:
            self._forget_old()
            active = [job for job in self._jobs.values() if job.active]
            if any(job.client == client for job in active):
                raise WebError("you have a job still running: wait for it or cancel it "
                               "(DELETE /api/jobs/{its id})", status=429)
            if sum(job.address == address for job in active) >= self._per_address:
                raise WebError(f"your address has {self._per_address} jobs running or waiting, the "
                               f"most one address may have: wait for one to end", status=429)
            if len(active) >= self._max_waiting:
                raise WebError(f"the server is busy ({len(active)} jobs): try again when one ends",
                               status=503)
            job = Job(id=secrets.token_urlsafe(16), kind=kind, client=client, address=address,
                      order=next(self._counter))
            self._jobs[job.id] = job
        self._pool.submit(self._run, job, work)
        return job

    def _run(self, job: Job, work: Work) -> None:
        try:
            if job.cancel.is_set():
                job.state = "cancelled"
                return
            job.state = "running"
            self._work(job, work)
        finally:
            job.ended = self._clock()

    @staticmethod
    def _work(job: Job, work: Work) -> None:
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
        """The job of id ``job_id`` (the caller holds its id), marked as seen and, once ended,
        as read."""
        with self._lock:
            self._forget_old()
            job = self._jobs.get(job_id)
        if job is None:
            raise WebError(f"no job {job_id!r}: it never existed, or it ended more than "
                           f"{FINISHED_SECONDS / 60:g} minutes ago (or was read more than "
                           f"{FETCHED_SECONDS:g} s ago)", status=404)
        job.last_seen = time.monotonic()  # (abandonment is real time; expiry the board's clock)
        if job.ended is not None and job.fetched is None:
            job.fetched = self._clock()
        return job

    def cancel(self, job_id: str) -> Job:
        job = self.get(job_id)
        job.cancel.set()
        if job.state == "waiting":
            job.state = "cancelled"
        return job

    def _forget_old(self) -> None:
        """Drop the finished jobs that expired, then the oldest while they hold too much
        (caller holds the lock)."""
        now = self._clock()
        for job in list(self._jobs.values()):
            if job.ended is None or job.active:
                continue
            if now - job.ended > FINISHED_SECONDS or (job.fetched is not None
                                                      and now - job.fetched > FETCHED_SECONDS):
                del self._jobs[job.id]
        finished = sorted((job for job in self._jobs.values() if job.ended is not None and not job.active),
                          key=lambda job: job.order)
        held = sum(job.size for job in finished)
        while len(finished) > 1 and (held > self._finished_bytes or len(finished) > FINISHED_KEPT):
            oldest = finished.pop(0)
            held -= oldest.size
            del self._jobs[oldest.id]

    def cancel_all(self) -> None:
        """Every job stops at its next chunk or row (the server is stopping)."""
        for job in list(self._jobs.values()):
            job.cancel.set()

    def shutdown(self) -> None:
        self.cancel_all()
        self._pool.shutdown(wait=False, cancel_futures=True)
