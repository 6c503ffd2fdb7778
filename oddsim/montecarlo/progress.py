"""A one-line text progress bar for long Monte Carlo runs, drawn on stderr between chunks."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO


class ProgressBar:
    """Shows ``done / total`` runs with a bar and the time left, redrawn in place.

    It draws nothing unless ``enabled``, the stream is a terminal, and the run is expected to
    take longer than ``min_seconds`` (judged from the speed so far), so short runs stay quiet.
    """

    def __init__(self, total: int, enabled: bool = True, stream: TextIO | None = None,
                 min_seconds: float = 2.0, width: int = 30,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.total = total
        self.stream = sys.stderr if stream is None else stream
        self.enabled = enabled and _is_terminal(self.stream)
        self.min_seconds = min_seconds
        self.width = width
        self.clock = clock
        self.started = clock()
        self.drawn = False
        self.last_draw = float("-inf")

    def update(self, done: int) -> None:
        """Record that ``done`` runs are finished and redraw when it is worth it."""
        if not self.enabled or done <= 0:
            return
        now = self.clock()
        elapsed = now - self.started
        expected = elapsed * self.total / done
        if not self.drawn and expected < self.min_seconds:
            return
        if done < self.total and now - self.last_draw < 0.1:
            return
        self.last_draw = now
        self.drawn = True
        self.stream.write("\r" + self.line(done, elapsed))
        self.stream.flush()

    def line(self, done: int, elapsed: float) -> str:
        """The bar as text, e.g. ``[#######-------]  45.0%  450,000/1,000,000 runs  3s left``."""
        fraction = min(1.0, done / self.total)
        filled = int(round(fraction * self.width))
        left = elapsed * (self.total - done) / done if done else 0.0
        return (f"[{'#' * filled}{'-' * (self.width - filled)}] {100 * fraction:5.1f}%  "
                f"{done:,}/{self.total:,} runs  {left:.0f}s left ")

    def close(self) -> None:
        """End the line the bar was drawn on, if any."""
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
            self.drawn = False


def _is_terminal(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
