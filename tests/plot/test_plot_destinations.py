"""Where ``--plot`` cannot write: refused in one line with nothing printed on stdout, before the
battle when the path shows it, else when the chart is written (which comes before the result is
printed). Before: the whole result (or its JSON) was printed, then the command exited 2."""

from __future__ import annotations

import os

import matplotlib.figure
import pytest
from cli_lines import refused
from click.testing import CliRunner

from oddsim.cli import cli

BATTLE = ("battle", "-a", "1 inf", "-d", "1 inf")
TRENCH = ("trench", "--attacker", "5,4,3", "--defender", "4,4,4", "--year", "1917")


@pytest.mark.parametrize("command", [BATTLE, (*BATTLE, "--json"), TRENCH])
def test_a_link_to_a_missing_folder_is_refused_before_anything_is_printed(tmp_path, command):
    link = tmp_path / "dangling.png"
    link.symlink_to("/nonexistent/t")
    refused([*command, "--plot", str(link)],
            f"{link} (a link to /nonexistent/t): the folder /nonexistent does not exist")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_link_to_a_device_is_refused(tmp_path):
    link = tmp_path / "full.png"
    link.symlink_to("/dev/full")
    refused([*BATTLE, "--plot", str(link)],
            f"{link} (a link to /dev/full) is not a regular file: give a chart file name such as odds.png")


def test_a_file_where_a_folder_should_be_is_named_as_such(tmp_path):
    (tmp_path / "afile").write_text("x")
    path = tmp_path / "afile" / "x.png"
    refused([*BATTLE, "--plot", str(path)], f"{path}: {tmp_path / 'afile'} is not a folder")


def test_an_empty_chart_path_is_named_as_such():
    refused([*BATTLE, "--plot", ""], "the chart path is empty: give a file name such as odds.png")


@pytest.mark.parametrize("command", [BATTLE, (*BATTLE, "--json"), (*BATTLE, "--wave", "1 arm"),
                                     ("raid", "--bombers", "1", "--territory-value", "3"), TRENCH,
                                     ("purchase", "--budget", "6", "--units", "inf", "--against",
                                      "1 inf", "--quiet")])
def test_a_chart_that_fails_as_it_is_written_prints_nothing_and_leaves_no_file(
        tmp_path, monkeypatch, command):
    """A disk that fills while the chart is written: one line, no result, no half-written file."""
    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", fill_the_disk)
    chart = tmp_path / "odds.png"
    refused([*command, "--plot", str(chart)], f"{chart}: cannot write the chart (No space left on device)")
    assert list(tmp_path.iterdir()) == []


def fill_the_disk(self, out, **kwargs):
    """``Figure.savefig`` on a disk that fills half way through the chart."""
    out.write(b"\x89PNG half a chart")
    raise OSError(28, "No space left on device")


def test_a_chart_that_fails_as_it_replaces_another_leaves_the_other_as_it_was(tmp_path, monkeypatch):
    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", fill_the_disk)
    chart = tmp_path / "odds.png"
    chart.write_bytes(b"yesterday's chart")
    refused([*BATTLE, "--plot", str(chart)], f"{chart}: cannot write the chart (No space left on device)")
    assert list(tmp_path.iterdir()) == [chart] and chart.read_bytes() == b"yesterday's chart"


def test_a_chart_that_is_written_is_announced_after_the_result(tmp_path):
    chart = tmp_path / "odds.png"
    result = CliRunner().invoke(cli, [*BATTLE, "--plot", str(chart)])
    assert result.exit_code == 0
    assert result.stdout.endswith(f"\nwrote {chart}\n")
    assert chart.read_bytes().startswith(b"\x89PNG")
