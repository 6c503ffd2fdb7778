"""Answers kept for a request sent again: keyed by the parsed request, capped by bytes.

The key is a value built from the request (the parsed ``Battle`` and its engine options), not
the request's text, so ``"3 inf"`` and ``" 3  inf"`` share one answer and a space added to an
army cannot fill memory with copies. What is kept is bounded by the answers' size in bytes, not
their count: one best-retreat answer is megabytes, a small battle's a few KiB.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable

ANSWER_BYTES = 64 * 1024 * 1024
"""All kept answers together are at most this long (the JSON text, ASCII: a byte a character)."""
LARGEST_SHARE = 4
"""An answer longer than ``max_bytes // LARGEST_SHARE`` is not kept: a few huge ones would
push out every other."""


class AnswerCache:
    """A thread-safe least-recently-used map from a hashable key to JSON text, capped by bytes."""

    def __init__(self, max_bytes: int = ANSWER_BYTES) -> None:
        self.max_bytes = max_bytes
        self._answers: OrderedDict[Hashable, str] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> str | None:
        with self._lock:
            text = self._answers.get(key)
            if text is not None:
                self._answers.move_to_end(key)
            return text

    def put(self, key: Hashable, text: str) -> None:
        if len(text) > self.max_bytes // LARGEST_SHARE:
            return
        with self._lock:
            old = self._answers.pop(key, None)
            if old is not None:
                self._bytes -= len(old)
            self._answers[key] = text
            self._bytes += len(text)
            while self._bytes > self.max_bytes:
                _, dropped = self._answers.popitem(last=False)
                self._bytes -= len(dropped)

    @property
    def bytes(self) -> int:
        """The length of every answer kept."""
        return self._bytes

    def __len__(self) -> int:
        return len(self._answers)

    def clear(self) -> None:
        with self._lock:
            self._answers.clear()
            self._bytes = 0
