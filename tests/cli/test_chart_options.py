"""The chart commands take the battle options as they are declared (``oddsim.model.options``),
as the other commands do, not a copy written by hand."""

from __future__ import annotations

import pytest

from oddsim.cli.chart import chart
from oddsim.model.options import OPTION


@pytest.mark.parametrize("command", ["curve", "heatmap"])
@pytest.mark.parametrize("name", ["ool_attacker", "ool_defender", "keep_land"])
def test_chart_options_are_the_declared_ones(command, name):
    params = {param.name: param for param in chart.commands[command].params}
    option = OPTION[name]
    assert params[name].opts == [option.flag]
    assert params[name].help == option.help
    assert params[name].default == option.default


@pytest.mark.parametrize("command", ["curve", "heatmap"])
def test_chart_sea_is_the_declared_flag(command):
    sea = {param.name: param for param in chart.commands[command].params}["sea"]
    assert sea.opts == [OPTION["sea"].flag] and sea.is_flag
