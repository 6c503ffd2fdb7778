"""BattleResult as players read it: survivor rows as data, units left, IPC-loss distributions,
standard errors and intervals, JSON and text; values derived by hand or by the oracle."""

import json
import math
from fractions import Fraction as F

import pytest
from oracle import duel

import oddsim
from oddsim.results.battle_result import Survivors, SurvivorTable, merge_rows, survivor_row
from oddsim.results.estimates import binomial_interval, number, percent

TOL = 1e-12
Z = 4.5
ARMOR_VS_INF = oddsim.Battle("1942-2e", "1 arm", "1 inf")


def test_units_left_of_one_armor_against_one_infantry():
    # armor hits on 3, infantry on 2: attacker wins 1/2, defender 1/4, draw 1/4
    a, d, draw = duel(3, 2)
    assert (a, d, draw) == (F(1, 2), F(1, 4), F(1, 4))
    r = oddsim.solve(ARMOR_VS_INF)
    assert r.attacker_units_left == pytest.approx({"armor": 0.5}, abs=TOL)
    assert r.defender_units_left == pytest.approx({"infantry": 0.25}, abs=TOL)
    assert r.ipc_lost_distribution("attacker") == pytest.approx({0.0: 0.5, 6.0: 0.5}, abs=TOL)
    assert r.ipc_lost_distribution("defender") == pytest.approx({0.0: 0.25, 3.0: 0.75}, abs=TOL)
    text = r.to_table()
    assert "attacker: 0.50 armor" in text and "defender: 0.25 infantry" in text


def test_monte_carlo_units_left_carry_their_standard_error():
    n = 200_000
    r = oddsim.simulate(ARMOR_VS_INF, runs=n, seed=4)
    left = r.attacker_units_left["armor"]
    assert abs(left - 0.5) <= Z * math.sqrt(0.25 / n)
    assert r.units_left_std_error("attacker")["armor"] == pytest.approx(
        math.sqrt(left * (1 - left) / n), rel=1e-9)  # a 0/1 count: the binomial error
    row = next(s for s in r.attacker_survivors if s.counts == {"armor": 1})
    assert row.std_error == pytest.approx(math.sqrt(row.probability * (1 - row.probability) / n))
    text = r.to_table()
    assert "armor" in text and "±" in text and "± 0.00%" not in text and "± 0.00 " not in text


def test_survivor_rows_are_data_and_the_label_is_rendered_from_them():
    r = oddsim.solve(oddsim.Battle("1942-2e", "2 bb", "1 dd", sea=True))
    best = r.attacker_survivors[0]
    assert best.counts == {"battleship": 2} and best.units.startswith("2 battleships")
    hurt = [s for s in r.attacker_survivors if s.damaged]
    assert all(s.damaged["battleship"] <= s.counts["battleship"] for s in hurt)
    assert Survivors({"aa_gun": 2, "mech_infantry": 1}, 1.0).units == "2 AA guns, 1 mech infantry"
    dived = Survivors({"submarine": 2, "destroyer": 1}, 0.5, departed={"submarine": 2},
                      departed_as="submerged")
    assert dived.units == "2 submarines, 1 destroyer (2 submarines submerged)"
    g40 = oddsim.load_ruleset("global-1940-2e")
    assert dived.force(g40) == oddsim.parse_force("2 sub, 1 dd", g40)


def test_rows_of_one_end_state_merge_and_zero_rows_go():
    rows = merge_rows([Survivors({"infantry": 1}, 0.25, 3), Survivors({"infantry": 1}, 0.5, 3),
                       Survivors({}, 0.25), Survivors({"armor": 1}, 0.0, 6)], runs=100)
    assert [(s.units, s.probability) for s in rows] == [("1 infantry", 0.75), ("none", 0.25)]
    assert rows[0].std_error == pytest.approx(math.sqrt(0.75 * 0.25 / 100))


def test_a_survivor_table_holds_the_rows_merge_rows_makes_of_its_end_states():
    # end states as arrays: a repeated state (added up in order), a zero one, a probability tie
    # (broken by the text), a retreat with no unit left (not a retreat row), units departed
    import pickle

    import numpy as np

    names = ["infantry", "battleship", "submarine"]
    counts = np.array([[2, 0, 0], [0, 1, 1], [2, 0, 0], [1, 0, 0], [0, 0, 0], [0, 0, 1], [0, 1, 0]])
    damaged = np.array([[0, 0, 0], [0, 1, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 2, 0]])
    departed = np.array([[0, 0, 0], [0, 0, 1], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 1], [0, 0, 0]])
    retreated = np.array([False, False, False, True, True, False, False])
    probability = np.array([0.1, 0.25, 0.15, 0.0, 0.2, 0.05, 0.25])
    ipc = counts @ np.array([3, 20, 6])
    arrays = (counts, damaged, departed, retreated, probability, ipc)
    table = SurvivorTable(names, "submerged", lambda: arrays)
    expected = merge_rows([survivor_row(names, *row, "submerged", r) for *row, r in zip(
        counts, damaged, departed, probability, ipc, retreated, strict=True)])
    assert [row.units for row in expected] == ["1 damaged battleship",
                                               "1 damaged battleship, 1 submarine (1 submarine submerged)",
                                               "2 infantry", "none", "1 submarine (submerged)"]
    assert [row.probability for row in expected] == [0.25, 0.25, 0.1 + 0.15, 0.2, 0.05]
    assert len(table) == 5 and table == expected and tuple(table) == expected
    assert table[0] == expected[0] and table[1:3] == expected[1:3]
    assert [vars(row) for row in table] == [vars(row) for row in expected]  # every field set
    assert pickle.loads(pickle.dumps(table)) == expected


def test_json_has_stable_keys_and_plain_numbers():
    r = oddsim.simulate(ARMOR_VS_INF, runs=10_000, seed=1)
    data = r.to_dict()
    assert "np." not in repr(data)
    assert json.loads(json.dumps(data)) == data
    for key in ("attacker_units_left", "defender_units_left", "interval_95", "std_error",
                "attacker_ipc_lost_distribution", "retreat_round", "landed_after_retreat"):
        assert key in data
    row = data["attacker_survivors"][0]
    assert set(row) == {"label", "counts", "damaged", "departed", "retreated", "units_left", "ipc",
                        "probability", "std_error", "other"}
    assert set(data["std_error"]["attacker_units_left"]) == {"armor"}
    exact = oddsim.solve(ARMOR_VS_INF).to_dict()
    assert set(exact) == set(data) and exact["interval_95"] == {}


def test_result_prints_like_the_cli():
    r = oddsim.solve(ARMOR_VS_INF)
    assert str(r) == repr(r) == r.to_table()
    assert r.to_table().splitlines()[0] == "1942-2e land battle: 1 armor attack 1 infantry"


def test_survivor_rows_are_a_positive_count_or_all():
    r = oddsim.solve(oddsim.Battle("1942-2e", "3 inf, 1 art", "3 inf"))
    every = r.to_table(survivors=0)
    assert r.to_table(survivors="all") == r.to_table(survivors=" ALL ") == every
    # the attacker's title says how many of its end states one row shows: 5 of them (0 to 4 left)
    assert "attacker survivors (1 of 5 end states; 4 not shown" in r.to_table(survivors=1)
    for bad in (-1, 2.5, True, "some", [3]):
        with pytest.raises(oddsim.BattleError):
            r.to_table(survivors=bad)


def test_probabilities_no_run_saw_get_a_95_percent_interval():
    # ten armor against one infantry cannot end in a draw; no run sees one
    n = 50_000
    r = oddsim.simulate(oddsim.Battle("1942-2e", "10 arm", "1 inf"), runs=n, seed=2)
    assert r.draw == 0
    low, high = r.interval_95()["draw"]
    z = 1.959963984540054
    assert low == 0 and high == pytest.approx(z * z / (n + z * z), rel=1e-9)  # Wilson, 0 of n
    line = next(x for x in r.to_table().splitlines() if "draw" in x)
    assert "95%" in line and "±" not in line


def test_the_95_percent_interval_is_scipys_wilson_interval():
    from scipy.stats import binomtest

    for runs in (1, 3, 7, 100, 20_000, 10**6, 10**10):
        for successes in sorted({0, 1, runs // 3, runs // 2, runs - 1, runs}):
            want = binomtest(successes, runs).proportion_ci(confidence_level=0.95, method="wilson")
            low, high = binomial_interval(successes, runs)
            assert low == pytest.approx(want.low, abs=1e-15) and high == pytest.approx(want.high, abs=1e-15)
    assert binomial_interval(0, 7)[0] == 0.0 and binomial_interval(10, 10)[1] == 1.0


def test_estimates_show_significant_digits():
    assert percent(0.0427, 0.00004) == "4.270% ± 0.004%"
    assert percent(0.5, 0.0015) == "50.00% ± 0.15%"
    assert percent(0.25) == "25.00%" and percent(1.0) == "100%" and percent(0.0) == "0%"
    assert percent(2e-7) == "0.000020%"  # never a bare 0.00% for a possible outcome
    assert number(12.345, 0.0123) == "12.345 ± 0.012"
    assert percent(0.0, interval=binomial_interval(0, 1_000_000)) == "0% (95%: 0 to 0.00038%)"


def test_monte_carlo_distribution_tables_give_each_chance_its_error():
    """Before: under Monte Carlo the IPC-loss chances and the 'at least' columns had no ±.
    1 armor vs 1 infantry (1942-2e): the defender loses its 3 IPCs with chance 3/4, so that row's
    error is sqrt(3/4 * 1/4 / runs)."""
    import math
    import re

    runs = 100_000
    r = oddsim.simulate(oddsim.Battle("1942-2e", "1 arm", "1 inf"), runs=runs, seed=1)
    text = r.to_table(survivors=0)
    table = text[text.index("defender IPC lost"):]
    row = re.search(r"\n\s+3\s+([\d.]+)% ± ([\d.]+)%\s+([\d.]+)% ± ([\d.]+)%", table)
    assert row is not None, table
    expected = 100 * math.sqrt(0.75 * 0.25 / runs)
    assert float(row.group(2)) == pytest.approx(expected, abs=0.006)
    assert float(row.group(4)) == pytest.approx(expected, abs=0.006)
    assert abs(float(row.group(1)) - 75) <= 4.5 * expected
    survivors = text[text.index("attacker survivors"):text.index("attacker IPC lost")]
    assert re.search(r"1 armor", survivors) and survivors.count("±") == 3  # 2 rows, 1 cumulative < 100%


def test_json_ipc_loss_records_carry_a_standard_error():
    runs = 100_000
    r = oddsim.simulate(oddsim.Battle("1942-2e", "1 arm", "1 inf"), runs=runs, seed=1)
    records = {rec["ipc"]: rec for rec in r.to_dict()["defender_ipc_lost_distribution"]}
    p = records[3.0]["probability"]
    assert records[3.0]["std_error"] == pytest.approx(math.sqrt(p * (1 - p) / runs))
    exact = oddsim.solve(oddsim.Battle("1942-2e", "1 arm", "1 inf")).to_dict()
    assert [rec["std_error"] for rec in exact["defender_ipc_lost_distribution"]] == [0.0, 0.0]


def test_rounds_of_a_retreat_with_landed_units_are_when_the_others_left():
    """Before: with --retreat-after-round 1 the text said 'a retreat comes after 3.52 rounds',
    counting the landed units' fight on after the others left. Every retreat here leaves after
    round 1 (by construction), also where the landed infantry fights on and dies."""
    b = oddsim.Battle("1942-2e", attacker=oddsim.Side("1 inf, 1 arm", landed="1 inf"), defender="1 inf",
                      retreat={"after_round": 1})
    r = oddsim.solve(b)
    assert r.retreat_round == pytest.approx(1.0, abs=1e-12)
    assert r.expected_rounds > 1.5  # the landed infantry's fight on is in the expected rounds
    text = str(r)
    assert ("a retreat comes after 1.00 rounds on average (when the others left; the landed "
            "units fought on)") in text
    plain = str(oddsim.solve(oddsim.Battle("1942-2e", "1 inf, 1 arm", "1 inf", retreat={"after_round": 1})))
    assert "a retreat comes after 1.00 rounds on average\n" in plain + "\n"
    assert "when the others left" not in plain
