"""Answers kept for a request sent again: keyed by the parsed request, capped by bytes.

The key is a value built from the request (the parsed ``Battle`` and its engine options), not
the request's text, so ``"3 inf"`` and ``" 3  inf"`` share one answer and a space added to an
army cannot fill memory with copies. What is kept is bounded by the entries' size in bytes, not
their count: one best-retreat answer is megabytes, a small battle's a few KiB, and a key keeps
its battle's ruleset, which a request may send (``ruleset_toml``): an entry counts its answer's
text and everything its key holds but what the server shares anyway (the built-in editions).
"""

from __future__ import annotations

import enum
import sys
import threading
import types
from collections import OrderedDict
from collections.abc import Callable, Hashable

ANSWER_BYTES = 64 * 1024 * 1024
"""All kept entries together are at most this large (the JSON text, ASCII: a byte a character,
and what each key holds, ``kept_bytes``)."""
LARGEST_SHARE = 4
"""An answer longer than ``max_bytes // LARGEST_SHARE`` is not kept: a few huge ones would
push out every other."""


def kept_bytes(value: object, shared: Callable[[object], bool] = lambda value: False) -> int:
    """The bytes ``value`` and everything it holds take (``sys.getsizeof`` of each object once),
    but the objects ``shared`` says are kept anyway (and what only they hold), enums, types and
    functions. A loop, not recursion."""
    seen: set[int] = set()
    total = 0
    todo = [value]
    while todo:
        item = todo.pop()
        if id(item) in seen or isinstance(item, (enum.Enum, type, types.FunctionType)) or shared(item):
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        if isinstance(item, (str, bytes, int, float, complex, bool)) or item is None:
            continue
        if isinstance(item, dict):
            todo.extend(item.keys())
            todo.extend(item.values())
        elif isinstance(item, (tuple, list, set, frozenset)):
            todo.extend(item)
        else:
            todo.extend(getattr(item, "__dict__", {}).values())
            for slot in getattr(type(item), "__slots__", ()):
                if hasattr(item, slot):
                    todo.append(getattr(item, slot))
    return total


class AnswerCache:
    """A thread-safe least-recently-used map from a hashable key to JSON text, capped by the bytes
    of the texts and of what their keys hold (``shared``: what a key holds that is kept anyway)."""

    def __init__(self, max_bytes: int = ANSWER_BYTES,
                 shared: Callable[[object], bool] = lambda value: False) -> None:
        self.max_bytes = max_bytes
        self._shared = shared
        self._answers: OrderedDict[Hashable, tuple[str, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> str | None:
        with self._lock:
            entry = self._answers.get(key)
            if entry is None:
                return None
            self._answers.move_to_end(key)
            return entry[0]

    def put(self, key: Hashable, text: str) -> None:
        size = len(text) + kept_bytes(key, self._shared)
        if size > self.max_bytes // LARGEST_SHARE:
            return
        with self._lock:
            old = self._answers.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            self._answers[key] = (text, size)
            self._bytes += size
            while self._bytes > self.max_bytes:
                _, (_, dropped) = self._answers.popitem(last=False)
                self._bytes -= dropped

    @property
    def bytes(self) -> int:
        """The bytes every entry takes: its answer's text and what its key holds."""
        return self._bytes

    def __len__(self) -> int:
        return len(self._answers)

    def clear(self) -> None:
        with self._lock:
            self._answers.clear()
            self._bytes = 0
