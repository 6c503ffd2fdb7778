"""The purchase Pareto scatter: plain records in, frontier and best purchases out."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from matplotlib.collections import PathCollection

from oddsim.plot import PlotError, pareto_chart, pareto_points

RECORDS = [
    {"cost": 3, "value": 0.10, "label": "1 infantry", "pareto": True},
    {"cost": 6, "value": 0.30, "label": "2 infantry", "pareto": True},
    {"cost": 6, "value": 0.20, "label": "1 armor", "pareto": False},
    {"cost": 9, "value": 0.25, "label": "1 infantry, 1 armor", "pareto": False},
    {"cost": 10, "value": 0.60, "label": "2 infantry, 1 artillery", "pareto": True},
]


def scatter_sets(ax) -> list[PathCollection]:
    return [c for c in ax.collections if isinstance(c, PathCollection)]


def test_records_become_points():
    points = pareto_points(RECORDS)
    assert [(p.cost, p.value, p.label, p.pareto) for p in points][:2] == [
        (3.0, 0.10, "1 infantry", True), (6.0, 0.30, "2 infantry", True)]


def test_records_use_purchase_and_frontier_names_and_objects():
    @dataclass
    class Row:
        cost: int
        value: float
        purchase: str
        frontier: bool

    points = pareto_points([Row(3, 0.5, "1 infantry", True), {"cost": 4, "value": 0.2,
                                                                "purchase": "1 art",
                                                                "frontier": False}])
    assert [(p.label, p.pareto) for p in points] == [("1 infantry", True), ("1 art", False)]


def test_the_frontier_is_computed_when_no_record_says():
    bare = [{k: v for k, v in r.items() if k != "pareto"} for r in RECORDS]
    assert [p.pareto for p in pareto_points(bare)] == [r["pareto"] for r in RECORDS]


def test_equal_value_at_higher_cost_is_not_on_the_frontier():
    points = pareto_points([{"cost": 3, "value": 0.5}, {"cost": 4, "value": 0.5}])
    assert [p.pareto for p in points] == [True, False]


@pytest.mark.parametrize("records, message", [
    ([{"value": 0.5}], "no 'cost' field"),
    ([{"cost": "cheap", "value": 0.5}], "must be numbers"),
])
def test_bad_records_are_refused(records, message):
    with pytest.raises(PlotError, match=message):
        pareto_points(records)


def test_chart_highlights_the_frontier_and_numbers_the_best():
    fig = pareto_chart(RECORDS, top=3)
    ax, listing = fig.axes
    others, front = scatter_sets(ax)
    assert len(others.get_offsets()) == 2 and len(front.get_offsets()) == 3
    assert sorted(map(tuple, front.get_offsets().tolist())) == [(3, 10), (6, 30), (10, 60)]
    (step,) = ax.lines
    assert list(step.get_xdata()) == [3, 6, 10]
    assert [t.get_text() for t in ax.texts] == ["1", "2", "3"]
    best_positions = [t.xy for t in ax.texts]
    assert best_positions == [(10, 60), (6, 30), (9, 25)]
    lines = [t.get_text() for t in listing.texts]
    assert lines[0] == "Best 3 by value"
    assert lines[1] == "1.  2 infantry, 1 artillery  (10 IPCs, 60.0%)"
    assert ax.get_xlabel() == "purchase cost (IPCs)"
    assert ax.get_ylabel() == "value (%)"
    assert ax.get_title() == "Purchases: cost against value"


def test_values_outside_0_1_are_not_percentages():
    records = [{"cost": 3, "value": -2.5, "label": "a"}, {"cost": 5, "value": 4.0, "label": "b"}]
    fig = pareto_chart(records, top=1, value_label="expected TUV swing (IPCs)")
    ax = fig.axes[0]
    assert ax.get_ylabel() == "expected TUV swing (IPCs)"
    assert fig.axes[1].texts[1].get_text() == "1.  b  (5 IPCs, +4.00)"


def test_chart_of_a_purchase_sweep_uses_its_goal_and_frontier():
    purchase = pytest.importorskip("oddsim.purchase")
    table = purchase.sweep("1942-2e", budget=9, units="inf,art", against="1 inf", goal="take")
    fig = pareto_chart(table, top=2, title="buying up to 9 IPCs")
    ax = fig.axes[0]
    others, front = scatter_sets(ax)
    assert len(others.get_offsets()) + len(front.get_offsets()) == len(table)
    drawn = sorted(map(tuple, front.get_offsets().tolist()))
    expected = sorted((r.cost, 100 * r.value) for r in table.frontier())
    assert [cost for cost, _ in drawn] == [cost for cost, _ in expected]
    assert [value for _, value in drawn] == pytest.approx([value for _, value in expected])
    assert ax.get_ylabel() == "chance to take (%)"
    assert fig.get_suptitle() == "buying up to 9 IPCs"
    assert fig.axes[1].texts[1].get_text().startswith(f"1.  {table.best.purchase}  ")


def test_no_rows_is_an_error():
    with pytest.raises(PlotError, match="no purchase to chart"):
        pareto_chart([])
