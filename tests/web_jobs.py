"""Waiting for a web job to end, for the API tests of purchase and advice jobs."""

from __future__ import annotations

import time

import pytest


def wait_for(client, job_id: str, seconds: float = 120) -> dict:
    """The job's JSON once it is neither waiting nor running (a test failure after ``seconds``)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        job = client.get(f"/api/jobs/{job_id}").json()
        if job["state"] not in ("waiting", "running"):
            return job
        time.sleep(0.05)
    pytest.fail(f"job {job_id} did not finish")
