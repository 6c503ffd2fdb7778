"""The TUV swing distribution as a value: merging, percentiles (hand-read marks), mixtures,
its JSON and the text the CLI prints."""

import json
import math

import pytest

import oddsim
from oddsim.errors import BattleError
from oddsim.results.swing import PERCENTILES, SwingDistribution, mix_swings, percentile_dict, percentiles


def test_percentiles_are_the_smallest_value_whose_cumulative_chance_reaches_the_level():
    # cumulative: -3 -> 0.05, 0 -> 0.5, 3 -> 0.9, 6 -> 1
    swings, chances = (-3.0, 0.0, 3.0, 6.0), (0.05, 0.45, 0.4, 0.1)
    assert percentiles(swings, chances) == {5: -3.0, 50: 0.0, 95: 6.0}
    assert percentiles(swings, chances, (0, 6, 90, 100)) == {0: -3.0, 6: 0.0, 90: 3.0, 100: 6.0}
    # sums a few ulps short of the level still reach it
    assert percentiles((1.0, 2.0), (0.1 + 0.2 + 0.2 - 1e-16, 0.5), (50,)) == {50: 1.0}


def test_truncated_mass_moves_no_mark():
    # chances summing to 0.9 (0.1 truncated) are read as a share of their sum
    assert percentiles((-1.0, 1.0), (0.45, 0.45), (50,)) == {50: -1.0}
    assert percentiles((-1.0, 1.0), (0.45, 0.45), (51,)) == {51: 1.0}


def test_no_chances_no_marks_and_bad_levels_are_refused():
    assert percentiles((), ()) == {}
    with pytest.raises(BattleError, match="0 to 100"):
        percentiles((1.0,), (1.0,), (101,))


def test_equal_values_merge_and_zero_chances_drop():
    d = SwingDistribution.from_chances([3, -3, 3.0000000001, 0], [0.25, 0.5, 0.125, 0.0],
                                       [0.01, 0.0, 0.01, 0])
    assert d.swings == (-3.0, 3.0)
    assert d.probabilities == (0.5, 0.375)
    assert d.std_errors == pytest.approx((0.0, math.sqrt(0.02)))
    assert d.mean == pytest.approx(-3 * 0.5 + 3 * 0.375)


def test_json_round_trip():
    d = SwingDistribution.from_chances([-6, 2, 8], [0.2, 0.5, 0.3], [1e-4, 4e-4, 9e-4])
    text = json.dumps(d.to_dict())
    assert SwingDistribution.from_dict(json.loads(text)) == d
    assert json.loads(text)[1] == {"swing": 2.0, "probability": 0.5, "std_error": 0.02}
    with pytest.raises(BattleError, match="swing, probability"):
        SwingDistribution.from_dict([{"value": 1}])
    assert percentile_dict(d) == {"5": -6.0, "50": 2.0, "95": 8.0}
    assert percentile_dict(None) is None


def test_a_mixture_weighs_chances_and_their_errors_and_has_none_if_a_part_has_none():
    a = SwingDistribution((-3.0, 3.0), (0.5, 0.5), (0.1, 0.1))
    b = SwingDistribution((3.0,), (1.0,), (0.0,))
    mixed = mix_swings([(0.25, a), (0.75, b.shifted(-6))])
    assert mixed.chances() == {-3.0: 0.25 * 0.5 + 0.75, 3.0: 0.125}
    assert mixed.std_errors == pytest.approx((0.025, 0.025))
    assert mix_swings([(0.5, a), (0.5, None)]) is None


def test_the_result_json_and_text_carry_the_distribution_and_its_marks():
    r = oddsim.solve(oddsim.Battle("1942-2e", "1 inf", "1 inf"))
    data = r.to_dict()
    assert [row["swing"] for row in data["tuv_swing_distribution"]] == [-3.0, 0.0, 3.0]
    assert data["tuv_swing_percentiles"] == {"5": -3.0, "50": -3.0, "95": 3.0}
    assert set(r.tuv_swing_percentiles()) == set(PERCENTILES)
    written = json.loads(r.to_json())["tuv_swing_distribution"]
    assert SwingDistribution.from_dict(written) == r.swing_distribution
    text = r.to_table()
    assert "TUV swing range: 5% -3, median -3, 95% +3" in text
    table = r.to_table(survivors="all")
    assert "TUV swing (defender IPC lost - attacker IPC lost)" in table
    assert "      +3              25.00%              25.00%" in table


def test_monte_carlo_chances_carry_binomial_errors():
    n = 50_000
    r = oddsim.simulate(oddsim.Battle("1942-2e", "1 inf", "1 inf"), runs=n, seed=3)
    d = r.swing_distribution
    assert d.total == pytest.approx(1.0, abs=1e-12)
    assert d.std_errors == pytest.approx(tuple(math.sqrt(p * (1 - p) / n) for p in d.probabilities))
    for swing, p in {-3.0: 5 / 8, 0.0: 1 / 8, 3.0: 1 / 4}.items():
        assert abs(d.chances()[swing] - p) <= 4.5 * math.sqrt(p * (1 - p) / n)
    assert [row["std_error"] for row in r.to_dict()["tuv_swing_distribution"]] == list(d.std_errors)
