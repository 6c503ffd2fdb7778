"""The exact engine's work estimate of a battle split by AA outcome (per-aircraft AA casualties:
revised, anniversary, europe-1999) is that of its parts, which it solves one by one."""

import importlib
from dataclasses import replace

import pytest

import oddsim
from oddsim.engines import aa_casualties
from oddsim.engines.exact import estimate_work

solve_module = importlib.import_module("oddsim.engines.exact.solve")  # the package re-exports solve()

SPLIT = oddsim.Battle("revised", "3 ftr, 2 bmb", "2 inf, 1 aa")


def _parts_estimates(battle):
    return [estimate_work(spec) for _, spec, _ in aa_casualties.splits(battle) if spec is not None]


def test_a_split_battles_estimate_is_the_sum_of_its_parts():
    parts = aa_casualties.splits(SPLIT)
    assert len(parts) == 4 * 3  # 0-3 fighters x 0-2 bombers shot down
    assert sum(spec is None for _, spec, _ in parts) == 1  # all five shot down: nothing to solve
    estimates = _parts_estimates(SPLIT)
    joint, work = estimate_work(SPLIT)
    # each of the 11 parts fought counts its states' work and a fixed cost (lowering, tables)
    assert work == pytest.approx(sum(w for _, w in estimates) + 11 * solve_module.PART_WORK, rel=1e-12)
    assert joint == max(j for j, _ in estimates)  # solved one after another: memory of the largest
    # more than the battle fought once with the AA already fired (the estimate before the split counted)
    assert work > estimate_work(replace(SPLIT, aa_fired=True))[1]


def test_a_battle_that_is_not_split_keeps_its_own_estimate():
    battle = oddsim.Battle("revised", "3 ftr", "2 inf, 1 aa")  # one aircraft type: fought whole
    assert aa_casualties.splits(battle) is None
    low = solve_module._lowered(battle)
    assert estimate_work(battle) == solve_module._work(*low)


def test_a_split_battle_over_max_seconds_is_refused_before_any_part_is_solved(monkeypatch):
    estimates = _parts_estimates(SPLIT)
    largest = max(w for _, w in estimates)
    total = sum(w for _, w in estimates) + len(estimates) * solve_module.PART_WORK
    # each part fits, the sum not
    monkeypatch.setattr(solve_module, "MAX_SECONDS", solve_module.cost.seconds((largest + total) / 2))

    def never(*_args):
        raise AssertionError("a part was solved")

    monkeypatch.setattr(solve_module, "_solve", never)
    with pytest.raises(oddsim.TooLargeError, match="12 AA outcomes solved apart"):
        oddsim.solve(SPLIT)


def test_splits_of_the_same_battle_are_worked_out_once():
    first = aa_casualties.splits(SPLIT)
    assert aa_casualties.splits(SPLIT) is first
    again = aa_casualties.splits(replace(SPLIT))  # an equal battle: the same parts, worked out anew
    assert [(p, lost) for p, _, lost in again] == [(p, lost) for p, _, lost in first]


def test_many_small_parts_count_their_fixed_cost():
    """Before: 4,096 parts of a few states each were estimated at ~0.1 s and took ~4 s, so the
    server's exact cap (and ``auto``) let them through."""
    battle = oddsim.Battle("revised", "1 inf, 45 ftr, 45 bmb", "1 inf, 1 aa")
    parts = aa_casualties.splits(battle)
    assert len(parts) == 46 * 46  # 0-45 fighters x 0-45 bombers shot down (the infantry stays)
    assert estimate_work(battle)[1] >= 46 * 46 * solve_module.PART_WORK
