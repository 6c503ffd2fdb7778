"""Sweeps from Python: the best purchase of small sweeps worked out by hand, every row equal to
solving its battle directly, each goal's meaning, the Pareto frontier, and the cache."""

from fractions import Fraction

import pytest

import oddsim
from oddsim.purchase import BattleCache, PurchaseError, pareto_frontier, sweep
from oddsim.purchase.evaluate import battle_seed
from oddsim.purchase.rows import PurchaseRow

# 1942-2e: infantry 3 IPCs (attack 1, defense 2), armor 6 IPCs (attack 3).
# Against one defending infantry, worked out round by round (simultaneous fire, the
# nothing-happens self-loop divided out):
#   1 inf vs 1 inf: win (1/6 * 2/3) / (1 - 5/6 * 2/3) = 1/4
#   1 arm vs 1 inf: win (1/2 * 2/3) / (1 - 1/2 * 2/3) = 1/2
#   2 inf vs 1 inf: per round P(>=1 hit) = 11/36; win = (11/36 + 25/36 * 1/3 * 1/4) / (1 - 25/36 * 2/3)
#                   = 157/232
ONE_INF = Fraction(1, 4)
ONE_ARM = Fraction(1, 2)
TWO_INF = Fraction(157, 232)


def by_purchase(table):
    return {row.purchase: row for row in table}


def test_two_infantry_beat_one_tank_against_a_lone_infantry():
    table = sweep("1942-2e", budget=6, units="inf,arm", against="1 inf", goal="take",
                  cache=BattleCache())
    rows = by_purchase(table)
    # buying nothing attacks with nothing: no battle, takes 0 (issue 34: a row, on the frontier)
    assert set(rows) == {"1 infantry", "2 infantry", "1 armor", "nothing"}
    assert table.best.purchase == "2 infantry"
    assert rows["2 infantry"].value == pytest.approx(float(TWO_INF), abs=1e-12)
    assert rows["1 armor"].value == pytest.approx(float(ONE_ARM), abs=1e-12)
    assert rows["1 infantry"].value == pytest.approx(float(ONE_INF), abs=1e-12)
    assert rows["nothing"].value == 0.0
    assert [r.purchase for r in table.rows] == ["2 infantry", "1 armor", "1 infantry", "nothing"]
    # the tank costs as much as two infantry and does worse: off the frontier
    assert [r.purchase for r in table.frontier()] == ["nothing", "1 infantry", "2 infantry"]
    assert rows["1 infantry"].leftover == 3 and rows["1 armor"].leftover == 0


def test_rows_are_the_battles_solved_directly():
    existing, against = "1 inf, 1 arm", "2 inf, 1 art"
    table = sweep("1942-2e", budget=10, units="inf,art,ftr", existing=existing, against=against,
                  goal="take", cache=BattleCache())
    assert len(table) == 9  # 3i + 4a + 10f <= 10: f=1 alone; a=0: i<=3; a=1: i<=2; a=2: i=0
    for row in table:
        bought = dict(zip(("infantry", "artillery", "fighter"), row.counts, strict=True))
        army = {"infantry": 1 + bought["infantry"], "armor": 1, "artillery": bought["artillery"],
                "fighter": bought["fighter"]}
        direct = oddsim.solve(oddsim.Battle(rules="1942-2e", attacker=army, defender=against))
        # (one lattice sweep answers the rows: its sums run backwards, so the last bits may differ)
        assert row.value == pytest.approx(direct.takes_territory, abs=1e-12)
        assert row.tuv_swing == pytest.approx(direct.tuv_swing, abs=1e-12)
        assert row.method == "exact" and row.runs is None
        assert row.cost == 3 * bought["infantry"] + 4 * bought["artillery"] + 10 * bought["fighter"]
        assert row.leftover == 10 - row.cost
    values = [row.value for row in table]
    assert values == sorted(values, reverse=True)


def test_hold_buys_defenders_and_scores_one_minus_take():
    table = sweep("1942-2e", budget=6, units="inf,arm", against="1 arm", goal="hold",
                  cache=BattleCache())
    rows = by_purchase(table)
    assert rows["nothing"].value == 0.0  # an undefended territory is taken
    # 1 armor attacking 1 infantry (defends at 2): armor wins 1/2, so the infantry holds 1/2
    assert rows["1 infantry"].value == pytest.approx(0.5, abs=1e-12)
    direct = oddsim.solve(oddsim.Battle(rules="1942-2e", attacker="1 arm", defender="2 inf"))
    assert rows["2 infantry"].value == pytest.approx(1 - direct.takes_territory, abs=1e-15)
    assert table.best.purchase == "2 infantry"


def test_hold_at_sea_means_the_defender_has_units_left():
    table = sweep("1942-2e", budget=16, units="dd", against="2 sub", goal="hold", sea=True,
                  cache=BattleCache())
    for row in table:
        direct = oddsim.solve(oddsim.Battle(rules="1942-2e", attacker="2 sub",
                                            defender=f"{row.counts[0]} dd" if row.counts[0] else "none",
                                            sea=True))
        assert row.value == pytest.approx(direct.defender_win + direct.stalemate, abs=1e-15)
        assert row.takes_territory is None


def test_clear_at_sea_and_tuv_goals():
    clear = sweep("1942-2e", budget=12, units="sub,dd", against="1 trn", goal="clear", sea=True,
                  cache=BattleCache())
    # any warship sinks a lone transport; buying nothing sinks nothing
    assert {row.purchase: row.value for row in clear}["nothing"] == 0.0
    assert {row.value for row in clear if row.purchase != "nothing"} == {1.0}
    assert clear.best.purchase == "1 submarine"  # cheapest of the equals ranks first
    tuv = sweep("1942-2e", budget=6, units="arm", against="1 inf", goal="tuv", cache=BattleCache())
    # 1 arm vs 1 inf: attacker wins 1/2, draw 1/4, loses 1/4:
    # defender loses 3 IPCs with chance 3/4, attacker loses 6 with chance 1/2: a swing of -3/4,
    # worse than buying nothing (no attack, 0), which ranks first
    assert by_purchase(tuv)["1 armor"].value == pytest.approx(3 * 3 / 4 - 6 * 1 / 2, abs=1e-12)
    assert (tuv.best.purchase, tuv.best.value) == ("nothing", 0.0)


def test_take_at_sea_is_refused_naming_clear():
    with pytest.raises(PurchaseError, match="clear"):
        sweep("1942-2e", budget=10, units="dd", against="1 sub", goal="take", sea=True)


def test_pareto_frontier_definition():
    def row(index, cost, value):
        return PurchaseRow(index, (), "", cost, 0, "take", value, "exact", None, 0, 0, 0, 0, None,
                           0, 0, 0, "")

    rows = [row(0, 3, 0.2), row(1, 6, 0.5), row(2, 6, 0.5), row(3, 6, 0.4), row(4, 9, 0.5),
            row(5, 9, 0.7), row(6, 4, 0.1)]
    # 6 (cost 4) is beaten by 0 (cheaper, better); 1 and 2 tie at cost 6; 3 is beaten at the
    # same cost; 4 equals 1 at a higher cost; 5 is the best
    assert sorted(pareto_frontier(rows)) == [0, 1, 2, 5]


def test_records_and_dataframe():
    table = sweep("1942-2e", budget=6, units="inf,arm", against="1 inf", cache=BattleCache())
    records = table.records()
    assert [r["rank"] for r in records] == [1, 2, 3, 4]
    assert records[0]["purchase"] == "2 infantry" and records[0]["buy_infantry"] == 2
    assert [r["frontier"] for r in records] == [True, False, True, True]
    pandas = pytest.importorskip("pandas")
    frame = table.to_dataframe()
    assert isinstance(frame, pandas.DataFrame)
    assert list(frame["purchase"]) == ["2 infantry", "1 armor", "1 infantry", "nothing"]
    assert list(frame.columns) == table.columns()


def test_cache_solves_each_battle_once_across_sweeps(monkeypatch):
    cache = BattleCache()
    first = sweep("1942-2e", budget=9, units="inf,art", against="2 inf", cache=cache)
    solved = len(cache)  # (buying nothing fights no battle: answered, never cached)
    assert first.stats.solved == solved + 1 == len(first)
    calls = []
    monkeypatch.setattr("oddsim.purchase.evaluate.run_battle", lambda *a, **k: calls.append(a))
    again = sweep("1942-2e", budget=9, units="inf,art", against="2 inf", cache=cache)
    assert calls == [] and again.stats.cached == len(again) - 1
    assert again.rows == first.rows


def test_bigger_budget_reuses_the_smaller_sweeps_battles():
    cache = BattleCache()
    small = sweep("1942-2e", budget=6, units="inf,art", against="2 inf", cache=cache)
    big = sweep("1942-2e", budget=8, units="inf,art", against="2 inf", cache=cache)
    # (buying nothing, no battle, is answered again each time)
    assert big.stats.cached == len(small) - 1 and big.stats.solved == len(big) - len(small) + 1


def test_monte_carlo_rows_use_a_seed_derived_from_the_battle():
    table = sweep("1942-2e", budget=3, units="inf", existing="1 arm", against="1 inf", method="mc",
                  runs=2000, seed=7, cache=BattleCache())
    for row in table:
        battle = oddsim.Battle(rules="1942-2e", attacker={"arm": 1, "inf": row.counts[0]},
                               defender="1 inf")
        from oddsim.stages.pipeline import simulate

        direct = simulate(battle, runs=2000, seed=battle_seed(battle, 7))
        assert row.method == "mc" and row.runs == 2000
        assert row.value == direct.takes_territory


def test_battle_seed_depends_on_the_battle_and_sweep_seed_only():
    a = oddsim.Battle(rules="1942-2e", attacker="2 inf, 1 arm", defender="1 inf")
    b = oddsim.Battle(rules="1942-2e", attacker={"armor": 1, "infantry": 2}, defender="1 inf")
    c = oddsim.Battle(rules="1942-2e", attacker="3 inf, 1 arm", defender="1 inf")
    assert battle_seed(a, 0) == battle_seed(b, 0)
    assert len({battle_seed(a, 0), battle_seed(a, 1), battle_seed(c, 0)}) == 3


def test_caps_limit_each_unit_and_existing_units_join_the_buyer():
    table = sweep("1942-2e", budget=12, units="inf,arm", max_counts={"arm": 1, "inf": 2},
                  existing="1 art", against="1 inf", cache=BattleCache())
    assert sorted(row.counts for row in table) == [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]
    nothing = by_purchase(table)["nothing"]
    direct = oddsim.solve(oddsim.Battle(rules="1942-2e", attacker="1 art", defender="1 inf"))
    assert nothing.value == pytest.approx(direct.takes_territory, abs=1e-12) and nothing.leftover == 12
