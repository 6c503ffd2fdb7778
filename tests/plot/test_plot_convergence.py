"""Monte Carlo convergence: points in, estimate line, 95% band and exact line out."""

from __future__ import annotations

import pytest
from oracle import normal_quantile_975

import oddsim
from oddsim.plot import PlotError, convergence_chart
from oddsim.plot.convergence import as_point
from oddsim.sweeps import ConvergencePoint, SweepError, convergence_points

Z_95 = normal_quantile_975()

POINTS = [(1_000, 0.70, 0.0145), (4_000, 0.735, 0.0070), (16_000, 0.741, 0.0035)]


def test_chart_draws_estimates_band_and_exact_line():
    fig = convergence_chart(POINTS, exact=0.7388, title="a battle")
    (ax,) = fig.axes
    estimate, exact = ax.lines
    assert list(estimate.get_xdata()) == [1_000, 4_000, 16_000]
    assert list(estimate.get_ydata()) == pytest.approx([70.0, 73.5, 74.1])
    assert list(exact.get_ydata()) == pytest.approx([73.88, 73.88])
    (band,) = ax.collections
    ys = band.get_paths()[0].vertices[:, 1]
    assert min(ys) == pytest.approx(min(100 * (e - Z_95 * s) for _, e, s in POINTS))
    assert max(ys) == pytest.approx(max(100 * (e + Z_95 * s) for _, e, s in POINTS))
    assert ax.get_xscale() == "log"
    assert ax.get_xlabel() == "Monte Carlo runs (log scale)"
    assert ax.get_ylabel() == "chance the attacker wins (%)"
    assert ax.get_title() == "Monte Carlo convergence: chance the attacker wins"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "95% confidence band", "Monte Carlo estimate", "exact value (73.88%)"]
    assert fig.get_suptitle() == "a battle"


def test_points_come_in_any_order_and_form(land_result):
    unordered = [ConvergencePoint(4_000, 0.735, 0.007), (1_000, 0.7, 0.0145)]
    ax = convergence_chart(unordered, exact=land_result).axes[0]
    assert list(ax.lines[0].get_xdata()) == [1_000, 4_000]
    assert list(ax.lines[1].get_ydata()) == pytest.approx([100 * land_result.attacker_win] * 2)


def test_a_mean_is_drawn_in_its_own_unit():
    ax = convergence_chart([(100, 12.5, 0.4), (400, 13.0, 0.2)], exact=13.2,
                           metric="attacker_ipc_lost").axes[0]
    assert list(ax.lines[0].get_ydata()) == [12.5, 13.0]
    assert ax.get_ylabel() == "attacker's expected IPC loss (IPCs)"


@pytest.mark.parametrize("call, message", [
    (lambda: convergence_chart([]), "no convergence point"),
    (lambda: convergence_chart([(10, 0.5)]), "must be \\(runs, estimate, std_error\\)"),
    (lambda: convergence_chart(POINTS, metric="luck"), "unknown metric 'luck'"),
    (lambda: convergence_chart([(0, 0.5, 0.1)]), "runs must be 1 or more"),
    (lambda: as_point(oddsim.solve(oddsim.Battle(rules="1942-2e", attacker="1 inf",
                                                 defender="1 inf"))), "needs a Monte Carlo"),
])
def test_bad_input_is_refused(call, message):
    with pytest.raises(PlotError, match=message):
        call()


@pytest.mark.parametrize("kwargs, message", [
    ({"runs": []}, "at least one number of runs"),
    ({"runs": 5}, "needs a list of run counts"),
    ({"metric": "luck"}, "unknown metric 'luck'"),
])
def test_bad_convergence_sweeps_are_refused(kwargs, message):
    battle = oddsim.Battle(rules="1942-2e", attacker="1 inf", defender="1 inf")
    with pytest.raises(SweepError, match=message):
        convergence_points(battle, **kwargs)


def test_convergence_points_simulate_the_battle_once_per_run_count(land_result):
    battle = oddsim.Battle(rules="1942-2e", attacker="3 inf, 1 art, 2 arm",
                           defender="4 inf, 1 arm")
    points = convergence_points(battle, runs=[500, 2_000], seed=3)
    assert [p.runs for p in points] == [500, 2_000]
    for p in points:
        assert p.std_error == pytest.approx((land_result.attacker_win
                                             * (1 - land_result.attacker_win) / p.runs) ** 0.5,
                                            rel=0.2)
        assert abs(p.estimate - land_result.attacker_win) < 5 * p.std_error


def test_points_from_convergence_points_title_the_chart_with_their_battle():
    """Before: convergence_chart(convergence_points(battle)) had no title (the points forgot the
    battle)."""
    battle = oddsim.Battle(rules="1942-2e", attacker="2 inf", defender="1 inf")
    fig = convergence_chart(convergence_points(battle, runs=[200, 400], seed=1))
    assert fig.get_suptitle() == battle.describe()
    assert convergence_chart(POINTS).get_suptitle() == ""  # plain triples name no battle
