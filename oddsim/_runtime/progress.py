"""One-line progress bars on stderr, redrawn in place: Monte Carlo runs and purchase sweeps."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO


class ProgressBar:
    """``[#####-----]  45.0%  450/1,000 runs  3s left``, at most ten redraws a second.

    It draws nothing unless ``enabled`` and the stream is a terminal, nor while the whole job is
    on course to take less than ``min_seconds``. ``show_percent`` and ``show_rate`` (units per
    second) pick the fields; work already done before the bar started (``already_done``, e.g.
    rows resumed from a file) counts as done but not in the rate or the time left.
    """

    def __init__(self, total: int, unit: str = "runs", already_done: int = 0, enabled: bool = True,
                 stream: TextIO | None = None, min_seconds: float = 0.0, width: int = 30,
                 show_percent: bool = True, show_rate: bool = False,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.total = total
        self.unit = unit
        self.done = already_done
        self.already_done = already_done
        self.stream = sys.stderr if stream is None else stream
        self.enabled = enabled and _is_terminal(self.stream)
        self.min_seconds = min_seconds
        self.width = width
        self.show_percent = show_percent
        self.show_rate = show_rate
        self.clock = clock
        self.started = clock()
        self.drawn = False
        self.last_draw = float("-inf")

    def advance(self, amount: int = 1) -> None:
        """Record ``amount`` more units done."""
        self.update(self.done + amount)

    def update(self, done: int) -> None:
        """Record that ``done`` units are finished and redraw when it is worth it."""
        self.done = done
        if not self.enabled:
            return
        now = self.clock()
        elapsed = now - self.started
        fresh = done - self.already_done
        if fresh <= 0:
            return
        if not self.drawn and elapsed * (self.total - self.already_done) / fresh < self.min_seconds:
            return
        if done < self.total and now - self.last_draw < 0.1:
            return
        self.last_draw = now
        self.drawn = True
        self.stream.write("\r" + self.line(elapsed))
        self.stream.flush()

    def line(self, elapsed: float) -> str:
        """The bar as text."""
        fraction = min(1.0, self.done / self.total) if self.total else 1.0
        filled = int(round(fraction * self.width))
        fresh = self.done - self.already_done
        rate = fresh / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else 0.0
        parts = [f"[{'#' * filled}{'-' * (self.width - filled)}]"]
        if self.show_percent:
            parts.append(f"{100 * fraction:5.1f}%")
        parts.append(f"{self.done:,}/{self.total:,} {self.unit}")
        if self.show_rate:
            parts.append(f"{rate:,.1f} {self.unit}/s")
        parts.append(f"{_duration(left)} left ")
        return "  ".join(parts[:1]) + " " + "  ".join(parts[1:])

    def close(self) -> None:
        """End the line the bar was drawn on, if any."""
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
