"""Timing helper shared by the benchmark scripts (run from this folder: it is on sys.path)."""

from __future__ import annotations

import time


def best_of(repeats: int, step) -> float:
    """The fastest of ``repeats`` calls of ``step()``, in seconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    return min(times)
