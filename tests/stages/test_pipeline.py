"""The pipeline around the engines (``oddsim.stages.pipeline``): a battle's size for the exact
engine is worked out once, as a value the solve takes; a battle split by its AA outcome
(per-aircraft AA casualties: revised, anniversary, europe-1999) is sized as its parts, which are
solved one by one; the engines themselves take one plain battle and refuse any other."""

import importlib
from dataclasses import replace

import pytest

import oddsim
from oddsim.engines import exact
from oddsim.model.battle import Battle, RetreatPolicy
from oddsim.model.rules import load_ruleset
from oddsim.stages import aa_split, pipeline, request
from oddsim.stages.pipeline import estimate_work, exact_size

solve_module = importlib.import_module("oddsim.engines.exact.solve")  # the package re-exports solve()

SPLIT = oddsim.Battle("revised", "3 ftr, 2 bmb", "2 inf, 1 aa")


def _parts_estimates(battle):
    return [estimate_work(spec) for _, spec, _ in aa_split.splits(battle) if spec is not None]


def test_a_split_battles_estimate_is_the_sum_of_its_parts():
    parts = aa_split.splits(SPLIT)
    assert len(parts) == 4 * 3  # 0-3 fighters x 0-2 bombers shot down
    assert sum(spec is None for _, spec, _ in parts) == 1  # all five shot down: nothing to solve
    estimates = _parts_estimates(SPLIT)
    joint, work = estimate_work(SPLIT)
    # each of the 11 parts fought counts its states' work and a fixed cost (lowering, tables)
    assert work == pytest.approx(sum(w for _, w in estimates) + 11 * pipeline.PART_WORK, rel=1e-12)
    assert joint == max(j for j, _ in estimates)  # solved one after another: memory of the largest
    # more than the battle fought once with the AA already fired (the estimate before the split counted)
    assert work > estimate_work(replace(SPLIT, aa_fired=True))[1]


def test_a_battle_that_is_not_split_keeps_its_own_estimate():
    battle = oddsim.Battle("revised", "3 ftr", "2 inf, 1 aa")  # one aircraft type: fought whole
    assert aa_split.splits(battle) is None
    low = exact.size(battle).lowered
    assert estimate_work(battle) == solve_module.estimate(*low)
    assert exact_size(battle).parts is None


def test_a_split_battle_over_max_seconds_is_refused_before_any_part_is_solved(monkeypatch):
    estimates = _parts_estimates(SPLIT)
    largest = max(w for _, w in estimates)
    total = sum(w for _, w in estimates) + len(estimates) * pipeline.PART_WORK
    # each part fits, the sum not
    monkeypatch.setattr(solve_module, "MAX_SECONDS", solve_module.cost.seconds((largest + total) / 2))

    def never(*_args):
        raise AssertionError("a part was solved")

    monkeypatch.setattr(solve_module, "_solve", never)
    with pytest.raises(oddsim.TooLargeError, match="12 AA outcomes solved apart"):
        oddsim.solve(SPLIT)


def test_many_small_parts_count_their_fixed_cost():
    """Before: 4,096 parts of a few states each were estimated at ~0.1 s and took ~4 s, so the
    server's exact cap (and ``auto``) let them through."""
    battle = oddsim.Battle("revised", "1 inf, 45 ftr, 45 bmb", "1 inf, 1 aa")
    parts = aa_split.splits(battle)
    assert len(parts) == 46 * 46  # 0-45 fighters x 0-45 bombers shot down (the infantry stays)
    assert estimate_work(battle)[1] >= 46 * 46 * pipeline.PART_WORK


def battles():
    rules = load_ruleset("1942-2e")
    return [Battle(rules=rules, attacker="3 inf, 1 art, 2 arm", defender="4 inf, 1 arm"),
            Battle(rules=rules, attacker="2 sub, 1 dd", defender="1 dd, 1 cruiser", sea=True),
            Battle(rules=rules, attacker="3 inf, 2 art", defender="4 inf",
                   retreat=RetreatPolicy(after_round=2)),
            Battle("revised", "2 inf, 2 ftr, 1 bmb", "3 inf, 1 aa")]  # split: 3 x 2 AA outcomes


def test_a_solve_given_the_size_answers_as_a_solve_of_a_fresh_equal_battle():
    for sized, fresh in zip(battles(), battles(), strict=True):
        assert sized is not fresh
        size = exact_size(sized)
        first = oddsim.solve(sized, size).to_dict()
        assert first == oddsim.solve(fresh).to_dict()
        assert oddsim.solve(sized, size).to_dict() == first  # the size serves twice: its arrays are only read


def test_the_size_of_another_battle_is_not_taken():
    one, other, *_ = battles()
    assert oddsim.solve(one, exact_size(other)).to_dict() == oddsim.solve(battles()[0]).to_dict()


def test_the_size_is_worked_out_once_on_auto(monkeypatch):
    """``auto`` sizes the battle to choose its engine and the solve takes that size (before: two
    per-thread caches, of the AA split and of the lowered arrays, did this behind the calls)."""
    calls = []
    real = pipeline.exact_size
    monkeypatch.setattr(pipeline, "exact_size", lambda battle: calls.append(battle) or real(battle))
    monkeypatch.setattr(request, "exact_size", pipeline.exact_size)
    battle = battles()[3]
    assert oddsim.api.run_battle(battle).to_dict() == oddsim.solve(battles()[3]).to_dict()
    assert calls[0] is battle and len(calls) == 2  # once in run_battle, once in the plain solve above


ENGINES = [exact.solve, importlib.import_module("oddsim.engines.montecarlo").simulate]


@pytest.mark.parametrize("engine", ENGINES, ids=["exact", "mc"])
def test_an_engine_refuses_a_battle_it_cannot_fight_whole(engine):
    with pytest.raises(oddsim.BattleError, match="use oddsim.solve or oddsim.simulate, which split it"):
        engine(SPLIT)


def test_the_pipeline_of_a_plain_battle_is_the_engines_answer():
    battle = battles()[0]  # nothing to split, crash or hold
    assert oddsim.solve(battle).to_dict() == exact.solve(battle).to_dict()
    mc = importlib.import_module("oddsim.engines.montecarlo")
    assert oddsim.simulate(battle, runs=20_000, seed=3).to_dict() == mc.simulate(battle, runs=20_000,
                                                                                 seed=3).to_dict()
