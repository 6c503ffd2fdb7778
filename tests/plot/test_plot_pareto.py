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


SURE = [  # purchases that all but surely win: several tie at 100%, one is 99.96%
    {"cost": 30, "value": 1.0, "label": "10 infantry", "tuv_swing": 5.0},
    {"cost": 30, "value": 1.0, "label": "5 armor", "tuv_swing": 9.0},
    {"cost": 24, "value": 0.9996, "label": "8 infantry", "tuv_swing": 4.0},
    {"cost": 33, "value": 1.0, "label": "11 infantry", "tuv_swing": 12.0},
    {"cost": 27, "value": 0.9999, "label": "9 infantry", "tuv_swing": 3.0},
    {"cost": 36, "value": 1.0, "label": "12 infantry", "tuv_swing": 8.0},
]


def test_best_breaks_ties_by_cost_then_tuv():
    from oddsim.plot.pareto import best_points

    best = best_points(pareto_points(SURE), 4)
    # 100% first: cheapest (30) with the better TUV (5 armor, +9) before 10 infantry (+5), then 33
    assert [p.label for p in best] == ["5 armor", "10 infantry", "11 infantry", "12 infantry"]


def test_listed_values_get_the_decimals_that_tell_them_apart():
    from oddsim.plot.pareto import value_decimals

    assert value_decimals([1.0, 1.0, 0.9999, 0.9996], percent=True) == 2  # 99.99%, 99.96%
    assert value_decimals([0.5, 0.25], percent=True) == 1
    assert value_decimals([0.99999, 1.0], percent=True) == 3  # 99.999%, not 100.0% twice
    fig = pareto_chart(SURE, top=6)
    texts = [t.get_text() for ax in fig.axes for t in ax.texts]
    assert any("99.96%" in t for t in texts) and any("99.99%" in t for t in texts)


def test_rank_numbers_stay_inside_the_plot():
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = pareto_chart(SURE, top=6)
    ax = fig.axes[0]
    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    box = ax.get_window_extent()
    numbers = [t for t in ax.texts if t.get_text().isdigit()]
    assert len(numbers) == 6
    for text in numbers:
        extent = text.get_window_extent(renderer)
        assert box.y0 <= extent.y0 and extent.y1 <= box.y1 + 1, text.get_text()


def test_chart_of_a_sweep_from_python_is_titled_with_its_battle():
    """Before: from Python, with no title, a sweep's chart had no title naming the battle."""
    purchase = pytest.importorskip("oddsim.purchase")
    table = purchase.sweep("1942-2e", budget=6, units="inf,art", against="1 inf", goal="take")
    title = pareto_chart(table).get_suptitle()
    assert title.startswith("1942-2e land battle: attack 1 infantry with the purchase")
    assert "buy up to 6 IPCs" in title


def test_rank_numbers_do_not_sit_on_other_purchases_points():
    """Before: only the numbered points were avoided, so a rank number could cover (and seem to
    label) another purchase's point."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.text import Text

    purchase = pytest.importorskip("oddsim.purchase")
    table = purchase.sweep("1942-2e", budget=30, units="inf,art,arm,ftr", against="3 inf", goal="take")
    fig = pareto_chart(table, top=5)
    ax = fig.axes[0]
    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    centres = [tuple(ax.transData.transform((r.cost, 100 * r.value))) for r in table]
    for text in (t for t in ax.texts if t.get_text().isdigit()):
        box = Text.get_window_extent(text, renderer)  # the number itself, not its leader line
        covered = [c for c in centres if box.x0 <= c[0] <= box.x1 and box.y0 <= c[1] <= box.y1]
        assert covered == [], text.get_text()
