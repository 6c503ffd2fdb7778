"""The result of a sweep: rows ranked by the goal, with the cost-vs-goal Pareto frontier marked.

Ranking: higher goal value first; ties (values equal to 12 decimals) go to the cheaper purchase,
then to the earlier one in the enumeration. Frontier: a purchase is on it when no other purchase
costs no more and scores strictly better, or scores the same and costs less. Values closer than
``VALUE_TOLERANCE`` count as equal, so rounding noise in exact results does not split ties.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from oddsim.purchase.goals import Goal, PurchaseError
from oddsim.purchase.rows import PurchaseRow, columns

VALUE_TOLERANCE = 1e-12


@dataclass(frozen=True)
class SweepStats:
    """How a sweep's rows were obtained: read back from the file, taken from the cache, solved."""

    resumed: int = 0
    cached: int = 0
    solved: int = 0
    out: str | None = None


@dataclass(frozen=True)
class PurchaseTable:
    """A sweep's rows, best first (see the module doc). ``rows`` is in rank order; ``battle``
    says what the sweep asked (``SweepSpec.describe``), the default title of its chart."""

    goal: Goal
    units: tuple[str, ...]
    rows: tuple[PurchaseRow, ...]
    frontier_indices: frozenset[int]
    stats: SweepStats = field(default_factory=SweepStats)
    battle: str = ""

    @classmethod
    def from_rows(cls, rows: Sequence[PurchaseRow], goal: Goal, units: Sequence[str],
                  stats: SweepStats | None = None, battle: str = "") -> PurchaseTable:
        ranked = sorted(rows, key=lambda r: (-round(r.value, 12), r.cost, r.index))
        return cls(goal=goal, units=tuple(units), rows=tuple(ranked),
                   frontier_indices=frozenset(pareto_frontier(rows)), stats=stats or SweepStats(),
                   battle=battle)

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[PurchaseRow]:
        return iter(self.rows)

    @property
    def best(self) -> PurchaseRow:
        if not self.rows:
            raise PurchaseError("the sweep has no rows")
        return self.rows[0]

    def on_frontier(self, row: PurchaseRow) -> bool:
        return row.index in self.frontier_indices

    def frontier(self) -> tuple[PurchaseRow, ...]:
        """The frontier's purchases, cheapest first."""
        rows = [r for r in self.rows if r.index in self.frontier_indices]
        return tuple(sorted(rows, key=lambda r: (r.cost, -r.value, r.index)))

    def in_enumeration_order(self) -> tuple[PurchaseRow, ...]:
        return tuple(sorted(self.rows, key=lambda r: r.index))

    def records(self) -> list[dict[str, object]]:
        """The rows as dicts, best first: ``rank`` (1 = best), ``frontier``, then the row's fields
        (see ``oddsim.purchase.rows``)."""
        return [{"rank": rank, "frontier": row.index in self.frontier_indices,
                 **row.record(self.units)} for rank, row in enumerate(self.rows, start=1)]

    def columns(self) -> list[str]:
        return ["rank", "frontier", *columns(self.units)]

    def to_dataframe(self):
        """The records as a pandas DataFrame (needs pandas)."""
        try:
            import pandas
        except ImportError:
            raise PurchaseError("to_dataframe needs pandas: pip install pandas") from None
        return pandas.DataFrame.from_records(self.records(), columns=self.columns())


def pareto_frontier(rows: Sequence[PurchaseRow]) -> list[int]:
    """Indices of the rows no other row dominates (cost no higher and value strictly better, or
    value equal and cost lower)."""
    best_by_cost: dict[int, float] = {}
    for row in rows:
        best_by_cost[row.cost] = max(best_by_cost.get(row.cost, float("-inf")), row.value)
    best_cheaper: dict[int, float] = {}  # best value among strictly cheaper purchases
    running = float("-inf")
    for cost in sorted(best_by_cost):
        best_cheaper[cost] = running
        running = max(running, best_by_cost[cost])
    return [row.index for row in rows
            if row.value >= best_by_cost[row.cost] - VALUE_TOLERANCE
            and row.value > best_cheaper[row.cost] + VALUE_TOLERANCE]
