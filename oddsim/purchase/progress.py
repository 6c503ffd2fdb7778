"""A one-line progress display for sweeps: rows done, rate and time left, redrawn on stderr."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO


class SweepProgress:
    """``[#####-----]  120/591 rows  84.2 rows/s  6s left``, drawn in place at most 10 times a second.

    Draws nothing unless ``enabled`` and the stream is a terminal. Rows resumed from a file count
    as done but not in the rate.
    """

    def __init__(self, total: int, already_done: int = 0, enabled: bool = True,
                 stream: TextIO | None = None, width: int = 24,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.total = total
        self.done = already_done
        self.already_done = already_done
        self.stream = sys.stderr if stream is None else stream
        self.enabled = enabled and _is_terminal(self.stream)
        self.width = width
        self.clock = clock
        self.started = clock()
        self.last_draw = float("-inf")
        self.drawn = False

    def advance(self, rows: int = 1) -> None:
        self.done += rows
        now = self.clock()
        if self.enabled and (now - self.last_draw >= 0.1 or self.done >= self.total):
            self.last_draw = now
            self.drawn = True
            self.stream.write("\r" + self.line(now - self.started))
            self.stream.flush()

    def line(self, elapsed: float) -> str:
        fraction = self.done / self.total if self.total else 1.0
        filled = int(round(fraction * self.width))
        fresh = self.done - self.already_done
        rate = fresh / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else 0.0
        return (f"[{'#' * filled}{'-' * (self.width - filled)}] {self.done:,}/{self.total:,} rows  "
                f"{rate:,.1f} rows/s  {_duration(left)} left ")

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
            self.drawn = False


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{seconds:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"


def _is_terminal(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
