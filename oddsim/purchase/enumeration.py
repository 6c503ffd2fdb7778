"""Every purchase within a budget, in one fixed order, and a quick count that refuses absurd sweeps.

A purchase is a tuple of unit counts, one per unit type in the order the units were given. The
order is that of nested loops with the first unit outermost and every count rising from 0: for
units ``inf, arm`` (3 and 6 IPCs) and budget 6 it is ``(0, 0), (0, 1), (1, 0), (2, 0)``. Buying
nothing comes first. The same inputs always give the same order, on any machine, so a row's
position (its ``index``) names it across runs, resumes and workers.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

MAX_PURCHASES = 100_000
"""The most purchases one sweep enumerates; a bigger sweep is surely a typo in the budget."""


def count_purchases(costs: Sequence[int], caps: Sequence[int | None], budget: int,
                    stop_after: int | None = None) -> int:
    """How many purchases cost at most ``budget`` (each unit at most its cap, ``None``: no cap).

    Counting stops as soon as the count exceeds ``stop_after``, so an absurd budget is refused in
    about ``stop_after`` steps whatever its size; the return value is then above ``stop_after``.
    """
    total = 0
    last = len(costs) - 1

    def walk(position: int, left: int) -> None:
        nonlocal total
        most = _most(costs[position], caps[position], left)
        if position == last:
            total += most + 1
            return
        for n in range(most + 1):
            walk(position + 1, left - n * costs[position])
            if stop_after is not None and total > stop_after:
                return

    if costs:
        walk(0, budget)
    return total


def iter_purchases(costs: Sequence[int], caps: Sequence[int | None], budget: int
                   ) -> Iterator[tuple[int, ...]]:
    """Every purchase costing at most ``budget``, in the documented order."""
    counts = [0] * len(costs)

    def walk(position: int, left: int) -> Iterator[tuple[int, ...]]:
        if position == len(costs):
            yield tuple(counts)
            return
        for n in range(_most(costs[position], caps[position], left) + 1):
            counts[position] = n
            yield from walk(position + 1, left - n * costs[position])
        counts[position] = 0

    yield from walk(0, budget)


def most_units(costs: Sequence[int], caps: Sequence[int | None], budget: int) -> int:
    """The most units any purchase holds: buy the cheapest units first, up to their caps."""
    units = 0
    left = budget
    for cost, cap in sorted(zip(costs, caps, strict=True), key=lambda pair: pair[0]):
        n = _most(cost, cap, left)
        units += n
        left -= n * cost
    return units


def _most(cost: int, cap: int | None, left: int) -> int:
    n = left // cost
    return n if cap is None else min(n, cap)
