"""A sweep's rows from one lattice sweep equal the rows of one solve per purchase (to 1e-12), in
the same order, for the goals it answers; the others are left to one solve each."""

import pytest

from oddsim.model.rules import load_ruleset
from oddsim.purchase import BattleCache, SweepSpec, run_sweep
from oddsim.purchase.evaluate import evaluate_purchase
from oddsim.purchase.rows import FIGURES
from oddsim.purchase.runner import purchases_of
from oddsim.purchase.swept import evaluate_batch, swept_rows

G42 = load_ruleset("1942-2e")
SPECS = [
    dict(rules=G42, budget=24, units="inf,art,arm,ftr,bmb", against="4 inf, 1 art, 1 arm, 1 ftr",
         goal="take"),
    dict(rules=G42, budget=20, units="inf,art,arm,ftr", against="3 inf, 1 arm, 1 aa", goal="tuv",
         existing="1 inf"),
    dict(rules=G42, budget=18, units="inf,art,arm", against="4 inf, 2 arm, 1 ftr", goal="hold",
         existing="1 inf, 1 aa"),
    dict(rules=load_ruleset("revised"), budget=26, units="inf,arm,ftr,bmb", against="3 inf, 1 aa",
         goal="clear"),
    dict(rules=G42, budget=30, units="sub,dd,ftr", against="1 sub, 1 dd, 1 cv, 1 ftr", goal="tuv",
         sea=True),
]


def _one_by_one(spec):
    return [evaluate_purchase(spec, index, counts, BattleCache()).row for index, counts in purchases_of(spec)]


@pytest.mark.parametrize("given", SPECS)
def test_swept_rows_are_the_rows_of_one_solve_each(given):
    spec = SweepSpec.build(**given)
    todo = purchases_of(spec)
    assert len(swept_rows(spec, todo, BattleCache())) > len(todo) // 2  # (the sweep answers them)
    fast = sorted(run_sweep(spec, cache=BattleCache()).rows, key=lambda row: row.index)
    slow = _one_by_one(spec)
    assert [row.counts for row in fast] == [row.counts for row in slow]
    for a, b in zip(fast, slow, strict=True):
        assert a.method == b.method == "exact" and a.purchase == b.purchase and a.cost == b.cost
        for name in ("value", *FIGURES):
            x, y = getattr(a, name), getattr(b, name)
            assert (x is None) == (y is None)
            if x is not None:
                assert x == pytest.approx(y, abs=1e-12 * max(1.0, abs(y)))


def test_a_batch_gives_the_rows_of_the_whole_sweep():
    spec = SweepSpec.build(**SPECS[0])
    todo = purchases_of(spec)
    whole = {e.row.index: e.row for e in evaluate_batch(spec, todo)}
    parts = [e.row for start in range(0, len(todo), 37) for e in evaluate_batch(spec, todo[start:start + 37])]
    assert all(whole[row.index] == row for row in parts) and len(parts) == len(todo)


def test_the_rows_split_by_aa_are_left_to_one_solve_each():
    spec = SweepSpec.build(**SPECS[3])
    todo = purchases_of(spec)
    swept = swept_rows(spec, todo, BattleCache())
    left = [counts for index, counts in todo if index not in swept and any(counts)]  # (nothing: no battle)
    assert left and all(counts[2] and counts[3] for counts in left)  # a fighter and a bomber


def test_goals_that_need_more_than_a_battle_are_not_swept():
    value = SweepSpec.build(rules=G42, budget=9, units="inf,art", against="2 inf", goal="value",
                            territory_value=3)
    monte_carlo = SweepSpec.build(rules=G42, budget=9, units="inf,art", against="2 inf", method="mc")
    for spec in (value, monte_carlo):
        assert swept_rows(spec, purchases_of(spec), BattleCache()) == {}
