"""The best retreat: checked against a small optimal-stopping DP written here from the rules, not
the engine's, and the Monte Carlo engine playing the exact engine's policy against it."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from oddsim import Battle, Side
from oddsim.cli import cli
from oddsim.errors import BattleError
from oddsim.stages.pipeline import simulate, solve

INF, ART, ARM = "inf", "art", "arm"
ATTACK = {INF: 1, ART: 2, ARM: 3}  # 1942-2e
DEFENSE = {INF: 2, ART: 2, ARM: 3}
COST = {INF: 3, ART: 4, ARM: 6}


def hit_distribution(values: list[int]) -> np.ndarray:
    """Chance of each number of hits of one die per value (hit on the value or less)."""
    dist = np.array([1.0])
    for v in values:
        dist = np.convolve(dist, [1 - v / 6, v / 6])
    return dist


def attack_values(units: list[str]) -> list[int]:
    """Attack values of the units left, each artillery raising one infantry to 2."""
    support = units.count(ART)
    values = []
    for unit in units:
        if unit == INF and support > 0:
            values.append(2)
            support -= 1
        else:
            values.append(ATTACK[unit])
    return values


def independent_best(attacker: list[str], defender: list[str], bonus: float) -> tuple[float, float]:
    """(best expected TUV swing + bonus x P(take), chance of retreating under that policy) by
    optimal stopping on (attacker losses, defender losses), units lost in list order."""
    na, nd = len(attacker), len(defender)
    a_cost = np.cumsum([0] + [COST[u] for u in attacker])
    d_cost = np.cumsum([0] + [COST[u] for u in defender])
    value = np.zeros((na + 1, nd + 1))
    retreats = np.zeros((na + 1, nd + 1), dtype=bool)
    moves = {}
    for i in range(na, -1, -1):
        for j in range(nd, -1, -1):
            if i == na or j == nd:  # somebody is destroyed
                value[i, j] = d_cost[j] - a_cost[i] + (bonus if i < na else 0.0)
                continue
            on_d = hit_distribution(attack_values(attacker[i:]))
            on_a = hit_distribution([DEFENSE[u] for u in defender[j:]])
            moves[i, j] = [(min(i + ha, na), min(j + hd, nd), pa * pd)
                           for ha, pa in enumerate(on_a) for hd, pd in enumerate(on_d)]
            stay = sum(p for a, d, p in moves[i, j] if (a, d) == (i, j))
            fight = sum(p * value[a, d] for a, d, p in moves[i, j] if (a, d) != (i, j)) / (1 - stay)
            leave = d_cost[j] - a_cost[i]
            retreats[i, j] = leave > fight
            value[i, j] = max(leave, fight)
    # round 1 is always fought; then the policy; the retreat chance by a forward sweep
    start = sum(p * value[a, d] for a, d, p in moves[0, 0])  # back at (0, 0): decide there
    mass = np.zeros((na + 1, nd + 1))
    for a, d, p in moves[0, 0]:
        mass[a, d] += p
    retreat = 0.0
    for i in range(na):
        for j in range(nd):
            if mass[i, j] == 0.0:
                continue
            if retreats[i, j]:
                retreat += mass[i, j]
                continue
            stay = sum(p for a, d, p in moves[i, j] if (a, d) == (i, j))
            for a, d, p in moves[i, j]:
                if (a, d) != (i, j):
                    mass[a, d] += mass[i, j] * p / (1 - stay)
    return start, retreat


CASES = [
    ("2 inf, 2 arm", "inf,arm", [INF, INF, ARM, ARM], "4 inf", "inf", [INF] * 4),
    ("2 inf, 1 art, 1 arm", "inf,art,arm", [INF, INF, ART, ARM], "3 inf, 1 arm", "inf,arm",
     [INF, INF, INF, ARM]),
    ("2 inf", "inf", [INF, INF], "3 inf", "inf", [INF] * 3),
]


@pytest.mark.parametrize("bonus", [0.0, 10.0])
@pytest.mark.parametrize(("attacker", "ool_a", "a_list", "defender", "ool_d", "d_list"), CASES)
def test_best_retreat_matches_an_independent_dp(attacker, ool_a, a_list, defender, ool_d, d_list, bonus):
    policy = {"best": "tuv"} if bonus == 0 else {"best": "value", "territory_value": bonus}
    battle = Battle(rules="1942-2e", attacker=Side(attacker, order_of_loss=ool_a),
                    defender=Side(defender, order_of_loss=ool_d), retreat=policy)
    expected, retreat = independent_best(a_list, d_list, bonus)
    result = solve(battle)
    assert result.objective == pytest.approx(expected, abs=1e-9)
    assert result.retreat == pytest.approx(retreat, abs=1e-9)
    # the outcomes under the policy give the same objective
    assert result.tuv_swing + bonus * result.takes_territory == pytest.approx(expected, abs=1e-9)
    assert sum(row.probability for row in result.retreat_plan) == pytest.approx(retreat, abs=1e-9)


def test_the_best_retreat_is_at_least_as_good_as_any_threshold_policy():
    base = {"rules": "1942-2e", "attacker": "3 inf, 1 art, 2 arm, 1 ftr", "defender": "6 inf, 1 aa"}
    best = solve(Battle(**base, retreat={"best": "tuv"})).objective
    for policy in ({}, {"units_left": 2}, {"units_left": 4}, {"below_win": 0.5}, {"after_round": 1},
                   {"strafe": 2}):
        assert solve(Battle(**base, retreat=policy or None)).tuv_swing <= best + 1e-9


def test_the_best_retreat_counts_crashed_fighters_as_the_result_does():
    # 1 cruiser (hits 1/2) against 1 carrier lost first (hits 1/3) and 1 fighter (hits 2/3); a
    # fighter whose carrier sank crashes. A round: the cruiser sinks the carrier and lives 1/2 x
    # 2/9, then retreats (the fighter is lost either way: +24); sinks it and dies 7/18 (24 - 12);
    # misses and dies 7/18 (-12); misses and lives 1/9 (again). So V = (24/9 + 0) / (8/9) = 3,
    # retreating 1/9 / (8/9) = 1/8 of the time. (Not counting the crash, the policy fought on
    # for a fighter already lost: a TUV swing of 8/3.)
    result = solve(Battle(rules="1942-2e", attacker="1 cru",
                          defender=Side("1 cv, 1 ftr", order_of_loss="cv,ftr"), sea=True, crash_fighters=True,
                          retreat={"best": "tuv"}))
    assert result.tuv_swing == pytest.approx(3.0, abs=1e-12)
    assert result.objective == pytest.approx(3.0, abs=1e-12)
    assert result.retreat == pytest.approx(1 / 8, abs=1e-12)


def test_a_tie_between_retreating_and_fighting_on_fights_on():
    # 2 destroyers against 1 (each hits 1/3). At 2 vs 1 a decisive round: the attacker wins 15/19,
    # goes to 1 vs 1 4/19. At 1 vs 1 fighting on is worth 2/5 x 8 - 2/5 x 8 = 0, as is retreating:
    # it fights on, winning 2/5 and drawing 1/5 of those: wins 15/19 + 4/19 x 2/5 = 83/95.
    result = solve(Battle(rules="1942-2e", attacker="2 dd", defender="1 dd", sea=True,
                          retreat={"best": "tuv"}))
    assert result.retreat == pytest.approx(0.0, abs=1e-12)
    assert result.attacker_win == pytest.approx(83 / 95, abs=1e-12)
    assert result.draw == pytest.approx(4 / 95, abs=1e-12)


@pytest.mark.parametrize("battle", [
    Battle(rules="1942-2e", attacker="3 inf, 1 art, 2 arm, 1 ftr", defender="6 inf, 1 aa",
           retreat={"best": "value", "territory_value": 5}),
    Battle(rules="1942-2e", attacker="1 cru, 1 dd", defender="1 cv, 2 ftr", sea=True, crash_fighters=True,
           retreat={"best": "tuv"}),
    Battle(rules="1942-2e", attacker="2 sub, 2 dd, 1 ftr", defender=Side("2 dd, 2 sub", submerge="alone"),
           sea=True, retreat={"best": "tuv"}),
    Battle(rules="1942-2e", attacker=Side("3 inf, 2 arm", landed="3 inf"), defender="4 inf",
           retreat={"best": "tuv"}),
    Battle(rules="revised", attacker=Side("2 sub, 1 ftr", submerge="alone"), defender="1 sub, 1 dd", sea=True,
           retreat={"best": "tuv"}),
    Battle(rules="1942-2e", attacker="3 inf, 1 art, 2 arm, 2 ftr", defender="5 inf, 1 aa", in_progress=True,
           retreat={"best": "value", "territory_value": 8}),
    # revised: AA picks its casualties by chance, so the engines fight one battle per AA outcome
    Battle(rules="revised", attacker="3 inf, 1 ftr, 1 bmb", defender="4 inf, 1 aa", retreat={"best": "tuv"}),
])
def test_monte_carlo_plays_the_exact_policy(battle):
    exact = solve(battle)
    assert exact.tuv_swing + battle.retreat.territory_bonus * (exact.takes_territory or 0.0) == \
        pytest.approx(exact.objective, abs=1e-9)
    assert sum(row.probability for row in exact.retreat_plan) == pytest.approx(exact.retreat, abs=1e-9)
    mc = simulate(battle, runs=100_000, seed=11)
    for name in ("attacker_win", "defender_win", "retreat"):
        assert abs(getattr(mc, name) - getattr(exact, name)) < 4.5 * mc.std_error[name] + 1e-9, name
    for name in ("attacker_ipc_lost", "defender_ipc_lost"):
        assert abs(getattr(mc, name) - getattr(exact, name)) < 4.5 * mc.std_error[name], name
    assert mc.retreat_plan == exact.retreat_plan


@pytest.mark.parametrize(("policy", "message"), [
    ({"best": "value"}, "territory-value"),
    ({"best": "tuv", "territory_value": 3}, "value"),
    ({"best": "tuv", "units_left": 1}, "--retreat-units"),
    ({"best": "money"}, "tuv or value"),
    ({"territory_value": 3}, "--retreat-best value"),
])
def test_bad_best_retreat_options(policy, message):
    with pytest.raises(BattleError, match=message):
        Battle(rules="1942-2e", attacker="2 inf", defender="3 inf", retreat=policy)


def test_best_retreat_cli_table_and_json():
    table = CliRunner().invoke(cli, ["battle", "-a", "2 inf", "-d", "3 inf", "--retreat-best", "tuv"])
    assert table.exit_code == 0
    # 2 inf attacking 3 inf always retreats after round 1: worse than not attacking
    assert "not attacking is better by" in table.output
    out = CliRunner().invoke(cli, ["battle", "-a", "2 inf", "-d", "3 inf", "--retreat-best", "value",
                                   "--territory-value", "4", "--json"])
    assert out.exit_code == 0
    data = json.loads(out.output)
    expected, _ = independent_best([INF, INF], [INF] * 3, 4.0)
    assert data["objective"] == pytest.approx(expected, abs=1e-9)
    assert {"attacker", "defender", "probability", "mean_round"} <= set(data["retreat_plan"][0])
    bad = CliRunner().invoke(cli, ["battle", "-a", "2 inf", "-d", "3 inf", "--retreat-best", "value"])
    assert bad.exit_code == 2 and bad.output.count("\n") == 1


@pytest.mark.parametrize("entries", [0, 100])
def test_moves_beyond_the_store_are_computed_again_alike(monkeypatch, entries):
    """The round moves the forward sweep records are reused by the later sweeps; states beyond
    the store's budget (none stored, or only some) have them computed again, to the same result."""
    from oddsim.engines.exact import best as best_module

    battle = Battle(rules="1942-2e", attacker="2 sub, 2 dd, 1 ftr",
                    defender=Side("2 dd, 2 sub", submerge="alone"), sea=True, retreat={"best": "tuv"})
    stored = solve(battle)
    monkeypatch.setattr(best_module, "MOVE_STORE_ENTRIES", entries)
    computed = solve(battle)
    assert computed.objective == pytest.approx(stored.objective, abs=1e-12)
    assert computed.retreat_plan == stored.retreat_plan
    for name in ("attacker_win", "defender_win", "retreat", "attacker_ipc_lost", "defender_ipc_lost"):
        assert getattr(computed, name) == pytest.approx(getattr(stored, name), abs=1e-12), name


@pytest.mark.parametrize("entries", [None, 0, 100])
def test_solving_every_state_matches_solving_the_states_reached(monkeypatch, entries):
    """A land battle's best retreat solves every joint state in one backward sweep; the forward
    sweep that first finds the states the battle reaches (as at sea) gives the same policy where
    the battle goes, so the same result, with the moves recorded or not (a store of no entries,
    or of only some)."""
    from oddsim.engines.exact import best as best_module

    battle = Battle(rules="1942-2e", attacker="6 inf, 2 art, 3 arm, 1 ftr", defender="7 inf, 1 arm, 1 aa",
                    retreat={"best": "value", "territory_value": 6})
    every = solve(battle)
    monkeypatch.setattr(best_module, "_every_state", lambda p, land_battle: False)
    if entries is not None:
        monkeypatch.setattr(best_module, "MOVE_STORE_ENTRIES", entries)
    reached = solve(battle)
    assert every.retreat > 0.01 and len(every.retreat_plan) > 5  # the policy does retreat
    assert every.objective == pytest.approx(reached.objective, abs=1e-12)
    assert [(row.attacker, row.defender) for row in every.retreat_plan] == \
        [(row.attacker, row.defender) for row in reached.retreat_plan]
    for mine, theirs in zip(every.retreat_plan, reached.retreat_plan, strict=True):
        assert mine.probability == pytest.approx(theirs.probability, abs=1e-12)
        assert mine.mean_round == pytest.approx(theirs.mean_round, rel=1e-12)
    for name in ("attacker_win", "defender_win", "retreat", "attacker_ipc_lost", "defender_ipc_lost",
                 "expected_rounds", "retreat_round"):
        assert getattr(every, name) == pytest.approx(getattr(reached, name), abs=1e-12), name


def test_arrays_kept_from_one_best_retreat_serve_the_next_alike():
    """The move store's and the sweep's arrays are kept from one best retreat for the next (any
    size, any thread): a battle solved after others, larger and smaller, at sea and on land, with
    the moves recorded in other places, gives what it gave first."""
    import threading

    sea = Battle(rules="1942-2e", attacker="2 sub, 2 dd, 1 ftr",
                 defender=Side("2 dd, 2 sub", submerge="alone"), sea=True, retreat={"best": "tuv"})
    first = solve(sea).to_dict()
    best = {"best": "tuv"}
    others = [Battle(rules="1942-2e", attacker="4 sub, 2 dd, 2 cru, 2 ftr",
                     defender="1 bb, 1 cv, 2 ftr, 3 sub", sea=True, retreat=best),
              Battle(rules="1942-2e", attacker="1 sub, 1 ftr", defender="1 dd", sea=True, retreat=best),
              Battle(rules="1942-2e", attacker="6 inf, 2 art, 3 arm", defender="8 inf", retreat=best)]
    for other in others:
        solve(other)
    assert solve(sea).to_dict() == first
    in_thread = []
    worker = threading.Thread(target=lambda: in_thread.append(solve(sea).to_dict()))
    worker.start()
    worker.join()
    assert in_thread == [first]


def test_monte_carlo_on_a_battle_too_large_for_the_policy_names_a_fix_that_works():
    """Monte Carlo needs the exact engine's table for the best retreat: when the exact engine
    cannot take the battle, the advice is a threshold retreat, not 'use --method mc' (already used)."""
    # (a land battle of 400 inf, 300 arm against 600 inf was too large until the cap said seconds:
    # about 1 s; no land battle of at most 1,000 units a side is now)
    out = CliRunner().invoke(cli, ["battle", "--sea", "-a", "100 sub, 100 dd, 100 ftr", "-d",
                                   "100 bb, 100 cv, 100 sub", "--retreat-best", "tuv", "--method", "mc",
                                   "--runs", "1000"])
    assert out.exit_code == 2 and out.output.count("\n") == 1
    assert "--method mc" not in out.output
    assert "--retreat-units" in out.output
