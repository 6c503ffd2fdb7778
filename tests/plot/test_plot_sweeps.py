"""Odds curves and heatmaps: ranges, the sweeps behind them (``oddsim.sweeps``), and what the
charts draw from them."""

from __future__ import annotations

import pytest
from matplotlib.collections import QuadMesh
from oracle import normal_quantile_975

import oddsim
from oddsim.plot import heatmap_chart, odds_curve_chart
from oddsim.sweeps import (
    Curve,
    CurveSweep,
    HeatmapSweep,
    SweepError,
    SweepPoint,
    UnitRange,
    curve_sweep,
    heatmap_sweep,
    parse_unit_range,
    point_of,
)

Z_95 = normal_quantile_975()


def solve(attacker, defender, sea=False):
    return oddsim.solve(oddsim.Battle(rules="1942-2e", attacker=attacker, defender=defender,
                                      sea=sea))


@pytest.mark.parametrize("text, expected", [
    ("inf=0..20", UnitRange("inf", 0, 20)),
    (" arm = 2 .. 5 ", UnitRange("arm", 2, 5)),
    ("inf=0..10:5", UnitRange("inf", 0, 10, 5)),
    ("tank=1..1", UnitRange("tank", 1, 1)),
])
def test_ranges_parse(text, expected):
    assert parse_unit_range(text) == expected


def test_range_counts_include_the_high_end_when_a_step_lands_on_it():
    assert UnitRange("inf", 0, 10, 5).counts == (0, 5, 10)
    assert UnitRange("inf", 1, 8, 3).counts == (1, 4, 7)


@pytest.mark.parametrize("text, message", [
    ("inf 0..20", "write UNIT=LOW..HIGH"),
    ("inf=0-20", "write UNIT=LOW..HIGH"),
    ("=0..3", "write UNIT=LOW..HIGH"),
    ("inf=-2..3", "cannot be negative"),
    ("inf=5..2", "low end 5 is above the high end 2"),
    ("inf=0..4:0", "step must be 1 or more"),
    ("inf=0..5000", "at most 1000 units"),
])
def test_bad_ranges_are_refused_clearly(text, message):
    with pytest.raises(SweepError, match=message):
        parse_unit_range(text, "--vary")


def test_curve_points_are_the_battles_odds():
    sweep = curve_sweep("1942-2e", ["2 arm", "1 art"], "3 inf", "inf=0..3", metric="take")
    assert [c.label for c in sweep.curves] == ["N infantry, 2 armor", "N infantry, 1 artillery"]
    first = sweep.curves[0]
    assert first.counts == (0, 1, 2, 3)
    expected = [solve(f"{n} inf, 2 arm", "3 inf").takes_territory for n in range(4)]
    assert first.values == pytest.approx(expected, abs=1e-12)
    assert {p.method for p in first.points} == {"exact"}
    assert sweep.against == "3 infantry"


def test_an_attacker_with_nothing_left_does_not_attack():
    sweep = curve_sweep("1942-2e", "none", "1 inf", "inf=0..1", metric="hold")
    assert sweep.curves[0].points[0] == SweepPoint(1.0, 0.0, "none")
    assert sweep.curves[0].values[1] == pytest.approx(1 - solve("1 inf", "1 inf").takes_territory)


def test_varied_units_are_added_to_those_the_army_has():
    # 1 armor in the base army and arm=0..2: 1, 2 and 3 armor fight (never the base dropped)
    sweep = curve_sweep("1942-2e", "1 arm", "2 inf", "arm=0..2")
    expected = [solve(f"{1 + n} arm", "2 inf").attacker_win for n in range(3)]
    assert sweep.curves[0].values == pytest.approx(expected, abs=1e-12)
    assert sweep.curves[0].label == "1 + N armor"
    heat = heatmap_sweep("1942-2e", "1 arm", "2 inf", "inf=0..1", "arm=0..1")
    assert heat.values[1][1] == pytest.approx(solve("1 inf, 2 arm", "2 inf").attacker_win, abs=1e-12)
    assert heat.battle == "X infantry, 1 + Y armor attack 2 infantry"


def test_defender_side_varies_the_defender():
    sweep = curve_sweep("1942-2e", "3 inf, 1 arm", "1 arm", "inf=0..2", side="defender")
    expected = [solve("3 inf, 1 arm", f"{n} inf, 1 arm").attacker_win for n in range(3)]
    assert sweep.curves[0].values == pytest.approx(expected)
    assert sweep.curves[0].label == "N infantry, 1 armor"


def test_hold_at_sea_is_neither_attacker_win_nor_draw(sea_stalemate_result):
    point = point_of(sea_stalemate_result, "hold", sea=True)
    r = sea_stalemate_result
    assert point.value == pytest.approx(r.defender_win + r.stalemate + r.retreat)


@pytest.mark.parametrize("kwargs, message", [
    ({"vary": "knight=0..3"}, "unknown unit 'knight'"),
    ({"vary": "inf=0..200"}, "201 points is too many: at most 101 .*inf=0..200:2"),
    ({"metric": "tuv"}, "unknown metric 'tuv'"),
    ({"side": "neutral"}, "unknown side"),
    ({"method": "fast"}, "unknown method"),
    ({"runs": 0}, "runs must be"),
    ({"attackers": ["1 inf"] * 9}, "9 curves is too many"),
])
def test_bad_curve_requests_are_refused(kwargs, message):
    args = {"rules": "1942-2e", "attackers": "1 inf", "defenders": "1 inf", "vary": "inf=0..3",
            **kwargs}
    with pytest.raises(SweepError, match=message):
        curve_sweep(**args)


def test_take_is_refused_at_sea():
    with pytest.raises(SweepError, match="needs a land battle"):
        curve_sweep("1942-2e", "1 dd", "1 dd", "dd=1..2", metric="take", sea=True)


def test_curve_chart_draws_one_line_per_army_with_its_values():
    sweep = curve_sweep("1942-2e", ["2 arm", "1 art", "1 ftr"], "3 inf", "inf=0..4")
    fig = odds_curve_chart(sweep)
    (ax,) = fig.axes
    assert len(ax.lines) == 3
    for line, curve in zip(ax.lines, sweep.curves, strict=True):
        assert list(line.get_xdata()) == list(curve.counts)
        assert list(line.get_ydata()) == pytest.approx([100 * v for v in curve.values])
        assert line.get_label() == curve.label
    assert len({line.get_color() for line in ax.lines}) == 3
    assert len({line.get_marker() for line in ax.lines}) == 3
    assert ax.get_xlabel() == "N: attacking infantry added to the army (number of units)"
    assert ax.get_ylabel() == "chance the attacker wins (%)"
    assert ax.get_title() == "Chance the attacker wins as attacking infantry vary"
    assert fig.get_suptitle() == "1942-2e land battle: against 3 infantry"
    assert not ax.collections  # exact points: no confidence band


def test_curve_chart_bands_monte_carlo_points():
    points = tuple(SweepPoint(v, 0.01, "mc") for v in (0.1, 0.5, 0.9))
    sweep = CurveSweep("1942-2e", False, "take", "attacker", "armor",
                       (Curve("N armor", (0, 1, 2), points),), "2 infantry")
    ax = odds_curve_chart(sweep).axes[0]
    (band,) = ax.collections
    ys = band.get_paths()[0].vertices[:, 1]
    assert min(ys) == pytest.approx(100 * (0.1 - Z_95 * 0.01))
    assert max(ys) == pytest.approx(100 * (0.9 + Z_95 * 0.01))
    assert ax.get_legend().get_title().get_text() == ""
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "N armor", "95% band (Monte Carlo points)"]


def test_heatmap_cells_are_the_battles_odds():
    sweep = heatmap_sweep("1942-2e", "1 ftr", "2 inf", "inf=0..2", "arm=0..1", metric="take")
    assert sweep.x_counts == (0, 1, 2) and sweep.y_counts == (0, 1)
    assert sweep.battle == "X infantry, Y armor, 1 fighter attack 2 infantry"
    for i, arm in enumerate(sweep.y_counts):
        for j, inf in enumerate(sweep.x_counts):
            expected = solve(f"{inf} inf, {arm} arm, 1 ftr", "2 inf").takes_territory
            assert sweep.values[i][j] == pytest.approx(expected, abs=1e-12)


def test_heatmap_axes_can_be_on_either_side():
    sweep = heatmap_sweep("1942-2e", "2 arm", "1 inf", "inf=0..1", "inf=1..2", y_side="defender")
    assert sweep.battle == "X infantry, 2 armor attack 1 + Y infantry"
    assert sweep.values[1][0] == pytest.approx(solve("2 arm", "3 inf").attacker_win)


@pytest.mark.parametrize("kwargs, message", [
    ({"x": "inf=0..30", "y": "arm=0..30"}, "961 cells, too many"),
    ({"x": "inf=0..3", "y": "infantry=0..3"}, "both vary the attacker's infantry"),
    ({"y": "arm=3..1"}, "low end 3 is above"),
])
def test_bad_heatmap_requests_are_refused(kwargs, message):
    args = {"rules": "1942-2e", "attacker": "none", "defender": "2 inf", "x": "inf=0..2",
            "y": "arm=0..2", **kwargs}
    with pytest.raises(SweepError, match=message):
        heatmap_sweep(**args)


def test_heatmap_chart_shows_every_cell_in_percent():
    sweep = heatmap_sweep("1942-2e", "none", "2 inf", "inf=0..3", "arm=0..2")
    fig = heatmap_chart(sweep)
    ax, colourbar = fig.axes
    (mesh,) = [c for c in ax.collections if isinstance(c, QuadMesh)]
    assert mesh.get_array().shape == (3, 4)
    assert mesh.get_array().ravel().tolist() == pytest.approx(
        [100 * v for row in sweep.values for v in row])
    assert len(ax.texts) == 12
    assert ax.get_xlabel() == "X: attacking infantry added (number of units)"
    assert ax.get_ylabel() == "Y: attacking armor added (number of units)"
    assert ax.get_title() == "Chance the attacker wins (%)"
    assert colourbar.get_ylabel() == "chance the attacker wins (%)"
    assert fig.get_suptitle() == "1942-2e land battle: X infantry, Y armor attack 2 infantry"


def test_monte_carlo_points_carry_their_standard_error():
    sweep = curve_sweep("1942-2e", "2 arm", "3 inf", "inf=1..2", method="mc", runs=4_000, seed=5)
    for count, point in zip((1, 2), sweep.curves[0].points, strict=True):
        exact = solve(f"{count} inf, 2 arm", "3 inf").attacker_win
        assert point.method == "mc"
        assert point.std_error == pytest.approx((exact * (1 - exact) / 4_000) ** 0.5, rel=0.2)
        assert abs(point.value - exact) < 5 * point.std_error


def test_heatmap_title_counts_monte_carlo_cells():
    exact, sampled = SweepPoint(0.25, 0.0, "exact"), SweepPoint(0.75, 0.01, "mc")
    sweep = HeatmapSweep("1942-2e", False, "win", "attacker", "infantry", (1, 2), "attacker",
                         "armor", (0,), ((exact, sampled),), "X infantry, Y armor attack 1 infantry")
    ax = heatmap_chart(sweep).axes[0]
    assert ax.get_title() == "Chance the attacker wins (%); 1 of 2 cells by Monte Carlo"
    assert [t.get_text() for t in ax.texts] == ["25", "75"]
