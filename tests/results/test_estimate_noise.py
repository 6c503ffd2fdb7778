"""Monte Carlo text prints no floating-point noise (issue 36): a chance within noise of 0 or 1
is 0 or 1 with no ±, and no estimate prints more decimals than an error from 10^10 runs allows."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from oddsim.cli import cli
from oddsim.results.estimates import MAX_DECIMALS, number, percent

LONG = re.compile(r"\d\.\d{9,}")


@pytest.mark.parametrize("p, error, text", [
    (1 - 2**-53, 2.356e-10, "100%"),  # a waves total that is 1 but for one rounding
    (1e-80, 0.0, "0%"),  # parts' products, a Monte Carlo zero
    (1e-17, 1e-20, "0%"),
    (0.3, 1e-20, "30.00%"),  # an error below any run count's is none
    (0.5, 0.004, "50.00% ± 0.4%"),
])
def test_a_monte_carlo_chance_within_noise_prints_plainly(p, error, text):
    assert percent(p, error) == text


def test_exact_chances_keep_their_significant_digits():
    assert percent(1e-13) == "0.000000000010%"  # no error: an exact answer, as before


def test_a_mean_prints_no_more_decimals_than_an_error_can_have():
    assert number(3.0, 1e-17) == "3.00"
    assert number(3.0, 2e-10) == "3.00000000000 ± 0.00000000020"  # 11 decimals: 2 digits of 2e-10
    assert len(number(3.0, 1.2e-11).split(" ± ")[1].split(".")[1]) == MAX_DECIMALS


def test_a_later_wave_that_always_comes_prints_100_percent():
    # seed 1: the wave's chance to come sums to 1 - 1.1e-16 (it printed "100.000000000% ± 0.000000024%")
    result = CliRunner().invoke(cli, ["battle", "--method", "mc", "--runs", "2000", "--seed", "1", "--quiet",
                                      "-a", "1 arm", "-d", "8 inf, 2 arm", "--wave", "12 arm"])
    assert result.exit_code == 0, result.output
    assert "wave 2: 12 armor (mc): reaches the battle 100%" in result.output
    assert not LONG.search(result.output)


def test_an_aa_split_survivor_table_sums_to_100_percent():
    # seed 10: every row's chance sums to 1 - 2e-16 (it printed "100.000000000% ± 0.000000024%")
    result = CliRunner().invoke(cli, ["battle", "--rules", "revised", "--method", "mc", "--runs", "2000",
                                      "--seed", "10", "--quiet", "-a", "3 inf, 3 ftr, 2 bmb",
                                      "-d", "3 inf, 1 aa", "--survivors", "all"])
    assert result.exit_code == 0, result.output
    assert not LONG.search(result.output)
