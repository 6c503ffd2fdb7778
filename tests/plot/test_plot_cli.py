"""``oddsim chart`` and the ``--plot`` helpers, run through click as the command line runs them."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from oddsim.cli.chart import (
    chart,
    plot_option,
    write_battle_chart,
    write_purchase_chart,
    write_trench_chart,
)
from oddsim.errors import OddsimError
from oddsim.plot import PlotError
from oddsim.sweeps import SweepError


def run(*args):
    group = click.Group("oddsim")
    group.add_command(chart)
    return CliRunner().invoke(group, list(args))


def test_curve_writes_a_png(tmp_path, png_size):
    out = tmp_path / "curve.png"
    result = run("chart", "curve", "-a", "2 arm", "-a", "1 art, 1 arm", "-d", "3 inf",
                 "--vary", "inf=0..4", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"wrote {out}: 2 curve(s) of 5 points (10 exact, 0 Monte Carlo)"
    assert png_size(out)[0] == 800


def test_curve_options_reach_the_sweep(tmp_path):
    out = tmp_path / "hold.svg"
    result = run("chart", "curve", "-a", "2 inf, 2 arm", "-d", "1 arm", "--vary", "inf=0..3",
                 "--side", "defender", "--metric", "hold", "--method", "exact", "--out", str(out))
    assert result.exit_code == 0, result.output
    text = out.read_text()
    assert "chance the defender holds" in text and "defending infantry" in text


def test_heatmap_writes_a_png(tmp_path, png_size):
    out = tmp_path / "mix.png"
    result = run("chart", "heatmap", "-a", "1 ftr", "-d", "2 inf", "--x", "inf=0..3",
                 "--y", "arm=0..2", "--metric", "take", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "4 x 3 cells (12 exact, 0 Monte Carlo)" in result.output
    assert png_size(out)[0] == 800


@pytest.mark.parametrize("args, error, message", [
    (["curve", "-a", "1 inf", "-d", "1 inf", "--vary", "inf=0..3", "--out", "x.gif"],
     PlotError, "saved as .png, .svg or .pdf"),
    (["curve", "-a", "1 inf", "-d", "1 inf", "--vary", "inf=3..0", "--out", "x.png"],
     SweepError, "low end 3 is above the high end 0"),
    (["curve", "-a", "1 inf", "-d", "1 inf", "--vary", "inf:0..3", "--out", "x.png"],
     SweepError, "write UNIT=LOW..HIGH"),
    (["curve", "-a", "1 inf", "-d", "1 inf", "--vary", "inf=0..500", "--out", "x.png"],
     SweepError, "501 points is too many"),
    (["curve", "-a", "3 knights", "-d", "1 inf", "--vary", "inf=0..3", "--out", "x.png"],
     OddsimError, "unknown unit 'knights'"),
    (["heatmap", "-d", "1 inf", "--x", "inf=0..40", "--y", "arm=0..40", "--out", "x.png"],
     SweepError, "1681 cells, too many"),
])
def test_bad_requests_raise_one_line_oddsim_errors(tmp_path, monkeypatch, args, error, message):
    monkeypatch.chdir(tmp_path)
    result = run("chart", *args)
    assert isinstance(result.exception, error), result.output
    assert message in str(result.exception) and "\n" not in str(result.exception)
    assert not list(tmp_path.iterdir())  # nothing written


def test_missing_out_is_a_usage_error():
    result = run("chart", "curve", "-a", "1 inf", "-d", "1 inf", "--vary", "inf=0..3")
    assert result.exit_code == 2 and "--out" in result.output


def test_plot_option_checks_the_path_before_the_command_runs(tmp_path):
    ran = []

    @click.command()
    @plot_option()
    def command(plot):
        ran.append(plot)

    bad = CliRunner().invoke(command, ["--plot", str(tmp_path / "odds.bmp")])
    assert isinstance(bad.exception, PlotError) and ran == []
    good = CliRunner().invoke(command, ["--plot", str(tmp_path / "odds.png")])
    assert good.exit_code == 0 and ran == [tmp_path / "odds.png"]
    assert CliRunner().invoke(command, []).exit_code == 0 and ran[-1] is None


def test_write_helpers_save_each_kind_of_result(tmp_path, land_result, png_size):
    from oddsim.trench import TrenchBattle, solve_trench

    assert png_size(write_battle_chart(land_result, tmp_path / "battle.png"))[0] == 800
    trench = solve_trench(TrenchBattle(attacker="5,4,3", defender="4,4,4", year=1917))
    assert write_trench_chart(trench, tmp_path / "trench.pdf").read_bytes()[:4] == b"%PDF"
    records = [{"cost": 3, "value": 0.2, "label": "1 inf"}, {"cost": 4, "value": 0.3,
                                                             "label": "1 art"}]
    assert png_size(write_purchase_chart(records, tmp_path / "buy.png", top=2))[0] == 800
