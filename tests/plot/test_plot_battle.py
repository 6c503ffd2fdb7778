"""Outcome and survivor charts of one battle: what is drawn equals what the result says."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from matplotlib.container import BarContainer
from matplotlib.figure import Figure
from oracle import normal_quantile_975

from oddsim.plot import PlotError, battle_chart, outcome_chart, survivor_chart, swing_chart
from oddsim.plot.battle_charts import outcome_bars, survivor_bars
from oddsim.results.battle_result import BattleResult, Survivors

Z_95 = normal_quantile_975()


def bar_heights(ax) -> list[float]:
    return [patch.get_height() for patch in ax.patches]


def tick_texts(ax) -> list[str]:
    return [t.get_text().replace("\n", " ") for t in ax.get_xticklabels()]


def test_outcome_bars_equal_the_result(land_result):
    fig = outcome_chart(land_result)
    assert isinstance(fig, Figure) and len(fig.axes) == 1
    ax = fig.axes[0]
    # no stalemate is possible here, so it has no bar
    assert tick_texts(ax) == ["attacker wins", "draw (both die)", "defender wins",
                              "takes territory"]
    expected = [land_result.attacker_win, land_result.draw, land_result.defender_win,
                land_result.takes_territory]
    assert bar_heights(ax) == pytest.approx([100 * p for p in expected], abs=1e-9)
    assert ax.get_ylabel() == "probability (%)"
    assert ax.get_xlabel() == "outcome"
    assert ax.get_title() == "Battle outcome (exact)"
    assert fig.get_suptitle().replace("\n", " ").startswith("1942-2e land battle: 3 infantry")
    assert "73.9%" in [t.get_text() for t in ax.texts]


def test_outcome_bars_of_a_sea_battle_show_the_stalemate_and_no_take(sea_stalemate_result):
    r = sea_stalemate_result
    ax = outcome_chart(r).axes[0]
    assert tick_texts(ax) == ["attacker wins", "draw (both die)", "stalemate", "defender wins"]
    assert bar_heights(ax) == pytest.approx(
        [100 * r.attacker_win, 100 * r.draw, 100 * r.stalemate, 100 * r.defender_win])
    assert sum(bar_heights(ax)) == pytest.approx(100)


def test_monte_carlo_bars_carry_95_percent_error_bars(land_result):
    errors = {"attacker_win": 0.01, "draw": 0.002, "defender_win": 0.008,
              "takes_territory": 0.01, "stalemate": 0.0}
    mc = BattleResult(**{**land_result.__dict__, "method": "mc", "runs": 2_000,
                         "std_error": errors})
    ax = outcome_chart(mc).axes[0]
    assert ax.get_title() == "Battle outcome (Monte Carlo, 2,000 runs)"
    (bars,) = [c for c in ax.containers if isinstance(c, BarContainer)]
    segments = bars.errorbar.lines[2][0].get_segments()
    half_widths = [(seg[1][1] - seg[0][1]) / 2 for seg in segments]
    assert half_widths == pytest.approx([100 * Z_95 * errors[b.key]
                                         for b in outcome_bars(mc)])


def test_a_retreat_gets_its_own_bar():
    import oddsim

    r = oddsim.solve(oddsim.Battle(rules="1942-2e", attacker="3 inf, 1 arm", defender="3 inf",
                                   retreat={"after_round": 1}))
    # 3 inf cannot score 4 hits, so the attacker retreats unless it scores 3: its 3 inf (1/6 each)
    # all hit (1/216), or two do (15/216) and the tank (1/2) too
    retreat = 1 - (F(1, 216) + F(15, 216) / 2)
    assert r.retreat == pytest.approx(float(retreat), abs=1e-12)
    ax = outcome_chart(r).axes[0]
    labels = tick_texts(ax)
    assert "attacker retreats" in labels
    assert bar_heights(ax)[labels.index("attacker retreats")] == pytest.approx(100 * float(retreat))
    assert sum(bar_heights(ax)[:-1]) == pytest.approx(100)  # outcomes, then take


def test_outcome_chart_draws_into_given_axes_without_a_title(land_result):
    fig = Figure()
    ax = fig.add_subplot()
    assert outcome_chart(land_result, ax=ax) is fig
    assert len(ax.patches) == 4 and fig.get_suptitle() == ""


def test_survivor_bars_sum_the_survivor_sets(land_result):
    fig = survivor_chart(land_result)
    attacker_ax, defender_ax = fig.axes
    for ax, side in ((attacker_ax, "attacker"), (defender_ax, "defender")):
        rows = getattr(land_result, f"{side}_survivors")
        counts = sorted({row.count for row in rows})
        assert [p.get_x() + p.get_width() / 2 for p in ax.patches] == pytest.approx(counts)
        expected = [100 * sum(r.probability for r in rows if r.count == n) for n in counts]
        assert bar_heights(ax) == pytest.approx(expected)
        assert sum(bar_heights(ax)) == pytest.approx(100)
        assert ax.get_xlabel() == f"{side}'s units left (number of units)"
        assert ax.get_ylabel() == "probability (%)"
        assert ax.get_title().startswith(f"{side.capitalize()} survivors; expected IPC lost")


def test_the_most_likely_survivor_sets_are_numbered_and_listed(land_result):
    ax = survivor_chart(land_result, top=3).axes[0]
    best = land_result.most_likely("attacker", 3)
    *marks, listing = [t.get_text() for t in ax.texts]
    assert listing.splitlines() == ["Most likely survivors:"] + [
        f"#{i}  {100 * s.probability:5.1f}%   {s.units}" for i, s in enumerate(best, start=1)]
    assert sorted(",".join(marks).split(",")) == ["#1", "#2", "#3"]
    for text in ax.texts[:-1]:  # each number sits on the bar of its set's size
        for mark in text.get_text().split(","):
            assert text.xy[0] == best[int(mark[1:]) - 1].count


def test_top_zero_lists_nothing(land_result):
    ax = survivor_chart(land_result, top=0).axes[0]
    assert len(ax.texts) == 0


def test_survivors_by_ipc_value(land_result):
    ax = survivor_chart(land_result, by="ipc", sides=("defender",)).axes[0]
    totals = survivor_bars(land_result.defender_survivors, "ipc")
    assert [p.get_x() + p.get_width() / 2 for p in ax.patches] == pytest.approx(list(totals))
    assert bar_heights(ax) == pytest.approx([100 * p for p in totals.values()])
    assert ax.get_xlabel() == "IPC value of the defender's units left (IPCs)"


def test_survivor_bars_merge_sets_of_the_same_size():
    rows = (Survivors({"infantry": 2}, 0.25, 6), Survivors({"infantry": 1, "armor": 1}, 0.5, 9),
            Survivors({}, 0.25, 0))
    assert survivor_bars(rows, "count") == {0: 0.25, 2: 0.75}
    assert survivor_bars(rows, "ipc") == {0: 0.25, 6: 0.25, 9: 0.5}


def test_battle_chart_stacks_outcome_both_survivor_panels_and_the_swing(land_result):
    fig = battle_chart(land_result)
    assert [ax.get_title().split(";")[0] for ax in fig.axes] == [
        "Battle outcome (exact)", "Attacker survivors", "Defender survivors", "TUV swing"]
    assert fig.get_figwidth() * fig.dpi == 800


def test_battle_chart_of_waves_draws_the_outcome_only():
    import oddsim
    from oddsim.api import run_waves

    waves = run_waves(oddsim.Battle(rules="1942-2e", attacker="2 inf", defender="3 inf"),
                      ["3 inf, 1 arm"], method="exact")
    fig = battle_chart(waves, title="two waves")
    (ax,) = fig.axes
    # the total's outcomes mean one battle's (issue 34): a draw is no attacker win
    assert tick_texts(ax) == ["attacker wins", "draw (both die)", "defender wins", "takes territory"]
    assert bar_heights(ax) == pytest.approx([100 * waves.attacker_win, 100 * waves.draw,
                                             100 * waves.defender_win, 100 * waves.takes_territory])
    assert fig.get_suptitle() == "two waves"


@pytest.mark.parametrize("kwargs, message", [
    ({"by": "weight"}, "use count or ipc"),
    ({"top": -1}, "top must be"),
    ({"sides": ("neutral",)}, "attacker and/or defender"),
])
def test_bad_survivor_options_are_refused(land_result, kwargs, message):
    with pytest.raises(PlotError, match=message):
        survivor_chart(land_result, **kwargs)


def test_survivors_of_a_result_without_survivor_tables_are_refused():
    class Totals:
        attacker_win, defender_win, takes_territory = 0.5, 0.5, 0.4

    with pytest.raises(PlotError, match="no attacker survivor table"):
        survivor_chart(Totals())


def test_swing_bars_and_marks_equal_the_result(sea_stalemate_result):
    r = sea_stalemate_result
    ax = swing_chart(r).axes[0]
    centres = [bar.get_x() + bar.get_width() / 2 for bar in ax.patches]
    assert centres == pytest.approx(list(r.swing_distribution.swings))
    assert bar_heights(ax) == pytest.approx([100 * p for p in r.swing_distribution.probabilities])
    lines = sorted({line.get_xdata()[0] for line in ax.get_lines()})
    assert lines == sorted(set(r.tuv_swing_percentiles().values()))
    labels = " / ".join(t.get_text() for t in ax.texts)
    for level, name in ((5, "5%"), (50, "median"), (95, "95%")):
        assert name in labels
        value = r.tuv_swing_percentiles()[level]
        assert f": {'0' if value == 0 else f'{value:+g}'}" in labels
    assert ax.get_title().startswith("TUV swing; expected")


def test_swing_error_bars_are_95_percent_of_monte_carlo_chances():
    import oddsim

    mc = oddsim.simulate(oddsim.Battle("1942-2e", "1 inf", "1 inf"), runs=4_000, seed=5)
    ax = swing_chart(mc).axes[0]
    (bars,) = [c for c in ax.containers if isinstance(c, BarContainer)]
    segments = bars.errorbar.lines[2][0].get_segments()
    half = [(seg[1][1] - seg[0][1]) / 2 for seg in segments]
    assert half == pytest.approx([100 * Z_95 * e for e in mc.swing_distribution.std_errors])


def test_a_result_without_a_swing_distribution_is_refused(land_result):
    from dataclasses import replace

    with pytest.raises(PlotError, match="no TUV swing distribution"):
        swing_chart(replace(land_result, swing_distribution=None))
    fig = battle_chart(replace(land_result, swing_distribution=None))
    assert len(fig.axes) == 3  # the picture leaves the panel out
