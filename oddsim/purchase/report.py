"""The answer of a purchase sweep: its text report (the summary, the top rows of the ranking,
and the Pareto frontier), and the same as one JSON object (``answer``: ``oddsim purchase
--json`` prints it; the web server returns it). The ranking puts the best value first; ties go
to the cheaper purchase, then to the one enumerated first (``PurchaseTable``)."""

from __future__ import annotations

from oddsim.purchase.spec import SweepSpec
from oddsim.purchase.table import PurchaseTable
from oddsim.results.readings import text_with_readings, with_readings


def answer(table: PurchaseTable, spec: SweepSpec, top: int) -> dict:
    """The sweep as one JSON-ready object: what was swept (``describe``, ``goal``, ``units``),
    how many ``purchases``, the text ``report``, the ranked ``rows`` (the ``top`` best; 0: all),
    the ``frontier`` rows, the ``readings`` of the rules (``oddsim.results.readings``), and with
    best casualties the battles' ``casualty_goal`` and ``choosers``: who chooses each loss, for
    what (the words the plan's answer has too)."""
    records = [{**record, "value_error_text": spec.goal.error_text(row.value, row.value_std_error,
                                                                    row.runs)}
               for record, row in zip(table.records(), table.rows, strict=True)]  # as the report shows it
    return with_readings({"describe": spec.describe(), "goal": spec.goal.value,
                          "units": list(spec.units), "purchases": len(records),
                          "report": report(table, spec, top),
                          "rows": records if top == 0 else records[:top],
                          "frontier": [r for r in records if r["frontier"]],
                          **({"casualty_goal": spec.casualty_goal, "choosers": spec.choosers()}
                             if spec.best_casualties else {})},
                         spec.rules)


def report(table: PurchaseTable, spec: SweepSpec, top: int) -> str:
    """The summary, the top rows of the ranking (ties: the cheaper first), the Pareto frontier,
    and the readings of the rules where they differ from the edition's (one line), as text."""
    goal = spec.goal
    rows = table.rows
    mc = [r for r in rows if r.method == "mc"]
    stats = table.stats
    lines = [spec.describe()]
    engines = f"{len(rows) - len(mc):,} exact, {len(mc):,} Monte Carlo"
    if mc:
        engines += f" ({spec.runs:,} runs each)"
    origin = f"{stats.solved:,} solved, {stats.cached:,} from the cache"
    if stats.resumed:
        origin += f", {stats.resumed:,} resumed from {stats.out}"
    lines.append(f"{len(rows):,} purchases: {engines}; {origin}")
    if stats.out:
        lines.append(f"rows written to {stats.out}")
    shown = rows if top == 0 else rows[:top]
    errors = any(row.value_std_error is not None for row in rows)
    # each shown row's standard error (or interval), where Monte Carlo estimated it
    error_texts = {r.index: goal.error_text(r.value, r.value_std_error, r.runs)
                   for r in (*shown, *table.frontier())}
    width = max([9, *map(len, error_texts.values())])

    def error(row) -> str:
        return f" {error_texts[row.index]:>{width}s}" if errors else ""

    lines.append("")
    header = "std error" if width == 9 else "± or 95% interval"
    lines.append(f"{'rank':>5s}  {goal.value:>8s}" + (f" {header:>{width}s}" if errors else "")
                 + f"    {'cost':>4s} {'left':>4s}  {'method':6s} purchase")
    for rank, row in enumerate(shown, start=1):
        mark = "*" if table.on_frontier(row) else " "
        lines.append(f"{rank:5d}  {goal.format(row.value):>8s}{error(row)} {mark}  {row.cost:4d} "
                     f"{row.leftover:4d}  {row.method:6s} {row.purchase}")
    lines.append("")
    lines.append(f"* Pareto frontier, cost vs {goal.label} (cheapest first):")
    for row in table.frontier():
        lines.append(f"  {row.cost:4d} IPCs  {goal.format(row.value):>8s}{error(row)}  {row.purchase}")
    return text_with_readings("\n".join(lines), spec.rules)
