"""Raid and amphibious charts: bad input is a PlotError, bars are the result's probabilities."""

import pytest

from oddsim.plot import PlotError, amphibious_chart, raid_chart
from oddsim.raid import Raid, solve_raid


@pytest.mark.parametrize("chart", [raid_chart, amphibious_chart])
@pytest.mark.parametrize("bad", [None, "x", 5])
def test_stage_charts_refuse_what_is_not_their_result(chart, bad):
    with pytest.raises(PlotError, match=chart.__name__):
        chart(bad)


def test_raid_chart_bars_are_the_damage_distribution():
    # 1 bomber, no AA gun where the edition lets the factory go without one, or 1942-2e's
    # built-in AA: the bars still sum to 1 and each is one damage total's chance.
    result = solve_raid(Raid(rules="1942-2e", bombers=1, territory_value=10))
    fig = raid_chart(result)
    bars = fig.axes[0].patches
    heights = sorted(round(b.get_height(), 9) for b in bars)
    assert heights == sorted(round(100 * p, 9) for p in result.damage.values())
    # 1942-2e: AA hits the bomber on a 1 (1/6); otherwise 1d6 damage, 1..6 each 5/36.
    assert result.damage[0] == pytest.approx(1 / 6)
    assert result.damage[3] == pytest.approx(5 / 36)
