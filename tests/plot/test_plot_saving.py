"""Saving charts: format by extension, clear errors, and a package that imports lazily."""

from __future__ import annotations

import subprocess
import sys

import pytest

import oddsim.plot
from oddsim.errors import OddsimError
from oddsim.plot import PlotError, outcome_chart, save_figure
from oddsim.plot.style import percent_label, wrap_title


def test_png_is_800_pixels_wide(land_result, tmp_path, png_size):
    fig = outcome_chart(land_result)
    path = save_figure(fig, tmp_path / "odds.png")
    assert path == tmp_path / "odds.png"
    width, height = png_size(path)
    assert width == 800 and height == round(fig.get_figheight() * fig.dpi)


@pytest.mark.parametrize("name, magic", [("odds.svg", b"<?xml"), ("odds.pdf", b"%PDF"),
                                         ("ODDS.PNG", b"\x89PNG")])
def test_format_follows_the_extension(land_result, tmp_path, name, magic):
    path = save_figure(outcome_chart(land_result), tmp_path / name)
    assert path.read_bytes().startswith(magic)


@pytest.mark.parametrize("suffix", [".svg", ".pdf"])
def test_vector_files_are_reproducible(land_result, tmp_path, suffix):
    first = save_figure(outcome_chart(land_result), tmp_path / f"a{suffix}").read_bytes()
    again = save_figure(outcome_chart(land_result), tmp_path / f"b{suffix}").read_bytes()
    assert again == first


@pytest.mark.parametrize("name, message", [
    ("odds.gif", "saved as .png, .svg or .pdf, not '.gif'"),
    ("odds", "not no extension"),
    ("missing/odds.png", "the folder .*missing does not exist"),
])
def test_bad_paths_are_refused(land_result, tmp_path, name, message):
    with pytest.raises(PlotError, match=message) as caught:
        save_figure(outcome_chart(land_result), tmp_path / name)
    assert isinstance(caught.value, OddsimError) and "\n" not in str(caught.value)


def test_a_folder_is_not_a_file_name(land_result, tmp_path):
    (tmp_path / "charts.png").mkdir()
    with pytest.raises(PlotError, match="is a folder"):
        save_figure(outcome_chart(land_result), tmp_path / "charts.png")


def test_titles_wrap_to_the_figure_width_and_keep_line_breaks():
    text = "1942-2e land battle: " + ", ".join(["3 infantry"] * 12) + "\nsecond line"
    lines = wrap_title(text).splitlines()
    assert len(lines) >= 3 and all(len(line) <= 88 for line in lines)
    assert lines[-1] == "second line"


def test_tiny_chances_do_not_print_as_zero():
    assert percent_label(0.0) == "0.0%"
    assert percent_label(0.0001) == "<0.1%"
    assert percent_label(0.7388) == "73.9%"


def test_public_names_all_resolve():
    assert set(oddsim.plot.__all__) == {"PlotError", *oddsim.plot._HOMES}
    for name in oddsim.plot.__all__:
        assert getattr(oddsim.plot, name) is not None
    with pytest.raises(AttributeError):
        oddsim.plot.no_such_chart  # noqa: B018


def test_importing_the_package_and_its_cli_does_not_import_matplotlib():
    code = ("import sys, oddsim.plot, oddsim.cli.chart; "
            "print(any(m == 'matplotlib' or m.startswith('matplotlib.') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_drawing_never_touches_pyplot(land_result):
    code = ("import sys, oddsim, oddsim.plot as p; "
            "r = oddsim.solve(oddsim.Battle(rules='1942-2e', attacker='1 inf', defender='1 inf')); "
            "p.battle_chart(r); print('matplotlib.pyplot' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
