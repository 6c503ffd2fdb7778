"""A pool of large joint arrays, kept from one exact solve for the next instead of made afresh.

Fresh memory costs a page fault per page written, and in a thread other than the main one
(large solves run in one, for Ctrl-C) glibc hands a freed block of some megabytes back to the
system and ``np.zeros`` then clears a new one page by page: on a battle at sea of 3.8 million
joint states that was 7,500 page faults and 16 ms of a 42 ms solve. A kept array is cleared
only where the solve's battles ended (the DP leaves it zero elsewhere); its pages stay mapped.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np

MAX_POOL_BYTES = 256 * 2**20
"""Most bytes of arrays kept at once (all names together); an array given back beyond it is
freed. Only the pages a solve wrote are resident: the battles of some thousand joint states
that most calls solve keep a few hundred kilobytes."""
MIN_POOLED_ENTRIES = 65_536
"""Joint arrays shorter than this (512 kB of floats) are made afresh: the allocator serves
them from memory it kept, and clearing them row by row would cost more."""


class ArrayPool:
    """Arrays left by one solve for the next, in any thread, by name. Each is taken whole by
    one solve at a time (a solve that finds it taken makes its own) and given back as it was
    made (zeroed) where that solve wrote it."""

    def __init__(self, max_bytes: int = MAX_POOL_BYTES) -> None:
        self._lock = threading.Lock()
        self._arrays: dict[str, np.ndarray] = {}
        self._max_bytes = max_bytes

    def take(self, name: str, size: int, make: Callable[[int], np.ndarray]) -> np.ndarray:
        """The array kept as ``name`` when it has at least ``size`` entries (as it was given
        back), else ``make(size)``: the whole array, which may be longer than ``size``."""
        with self._lock:
            kept = self._arrays.pop(name, None)
        if kept is not None and kept.shape[0] >= size:
            return kept
        return make(size)

    def give(self, name: str, array: np.ndarray) -> None:
        """Keep ``array`` (as it was made: a view gives its whole base) as ``name``, unless the
        arrays kept would then pass ``max_bytes``."""
        whole = array if array.base is None else array.base
        with self._lock:
            others = sum(a.nbytes for n, a in self._arrays.items() if n != name)
            if others + whole.nbytes <= self._max_bytes:
                self._arrays[name] = whole

    def pooled_bytes(self) -> int:
        with self._lock:
            return sum(a.nbytes for a in self._arrays.values())

    def arrays(self) -> dict[str, np.ndarray]:
        """The arrays kept now, by name (for tests: each must be as it was made)."""
        with self._lock:
            return dict(self._arrays)


pool = ArrayPool()
"""The arrays every exact solve shares."""


def take(name: str, size: int, make: Callable[[int], np.ndarray]) -> np.ndarray:
    """``size`` entries as made by ``make``: the first ``size`` of the array kept as ``name``
    where it is long enough to keep (``MIN_POOLED_ENTRIES``), else a fresh one."""
    if size < MIN_POOLED_ENTRIES:
        return make(size)
    return pool.take(name, size, make)[:size]


def give(name: str, array: np.ndarray) -> bool:
    """Give ``array`` back as ``name`` (as it was made) if it is long enough to keep: whether it
    is (a fresh one is simply dropped)."""
    if array.shape[0] < MIN_POOLED_ENTRIES:
        return False
    pool.give(name, array)
    return True

