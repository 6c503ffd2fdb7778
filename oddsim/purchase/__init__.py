"""Purchase analysis: which units to buy with a budget to take, clear, hold, or win TUV.

``sweep(rules, budget, units, against, goal, existing=...)`` tries every purchase of ``units``
costing at most ``budget`` (each unit at most its cap), adds it to the ``existing`` army (as
attacker for ``take``/``clear``/``tuv``, as defender for ``hold``), solves each battle once
(exact, or Monte Carlo where the state space is too big; each row says which), and returns a
``PurchaseTable``: rows best first with ``.records()`` and ``.to_dataframe()``, the cost-vs-goal
Pareto frontier marked. ``take`` is refused for sea battles (no territory): use ``clear``.

Enumeration order (``oddsim.purchase.enumeration``), goals (``goals``), row fields (``rows``),
ranking and frontier (``table``), resumable output files (``output``) and Dask (``dask_runner``)
are documented in their modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from oddsim._runtime.lazy import lazy_names

if TYPE_CHECKING:
    from oddsim.purchase.enumeration import MAX_PURCHASES, count_purchases, iter_purchases
    from oddsim.purchase.evaluate import PROCESS_CACHE, BattleCache
    from oddsim.purchase.goals import Goal, PurchaseError
    from oddsim.purchase.output import read_rows
    from oddsim.purchase.rows import PurchaseRow, columns
    from oddsim.purchase.runner import SweepInterrupted, purchases_of, run_sweep, sweep
    from oddsim.purchase.spec import SweepSpec
    from oddsim.purchase.table import PurchaseTable, SweepStats, pareto_frontier

_HOMES = {
    "oddsim.purchase.enumeration": ("MAX_PURCHASES", "count_purchases", "iter_purchases"),
    "oddsim.purchase.evaluate": ("PROCESS_CACHE", "BattleCache"),
    "oddsim.purchase.goals": ("Goal", "PurchaseError"),
    "oddsim.purchase.output": ("read_rows",),
    "oddsim.purchase.rows": ("PurchaseRow", "columns"),
    "oddsim.purchase.runner": ("SweepInterrupted", "purchases_of", "run_sweep", "sweep"),
    "oddsim.purchase.spec": ("SweepSpec",),
    "oddsim.purchase.table": ("PurchaseTable", "SweepStats", "pareto_frontier"),
}
"""The public names of each module: they load on first use (the command line's help stays
quick)."""

__all__ = [
    "MAX_PURCHASES",
    "PROCESS_CACHE",
    "BattleCache",
    "Goal",
    "PurchaseError",
    "PurchaseRow",
    "PurchaseTable",
    "SweepInterrupted",
    "SweepSpec",
    "SweepStats",
    "columns",
    "count_purchases",
    "iter_purchases",
    "pareto_frontier",
    "purchases_of",
    "read_rows",
    "run_sweep",
    "sweep",
]

__getattr__, __dir__ = lazy_names(__name__, _HOMES)
