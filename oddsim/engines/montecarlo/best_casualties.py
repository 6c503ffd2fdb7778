"""Monte Carlo under best casualties: battles fought die by die, each loss chosen by the policy the
exact solver computed (``oddsim.engines.exact.casualties``), as the best retreat's table is played.

The dice are rolled here one by one (support, Low Luck and AA fire as the rules say), never read
from the solver's hit distributions, so a simulated figure that agrees with the exact one within
its standard error checks the distributions, the order of a round and the ends of a battle; the
choices are the policy's (``defender_choice``, ``attacker_choice``).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import NamedTuple

import numpy as np

from oddsim._runtime.jit import jit
from oddsim.engines.exact import _casualties as kc
from oddsim.engines.exact import casualties as ec
from oddsim.engines.exact.casualty_advice import policy
from oddsim.errors import BattleError
from oddsim.limits import check_runs, seed_or_random
from oddsim.model.battle import Battle, Dice
from oddsim.results.battle_result import BattleResult, Method

AA_NONE, AA_CHOSEN, AA_PER_AIRCRAFT = 0, 1, 2


class AAFire(NamedTuple):
    """The defender's AA fire before round 1, as the kernel rolls it."""

    mode: int  # AA_NONE, AA_CHOSEN (the attacker loses ``kept[h]``) or AA_PER_AIRCRAFT (each die at one)
    dice: int
    hit: int  # hits on this or less
    kept: np.ndarray  # AA_CHOSEN: the attacker state kept per number of hits
    air: np.ndarray  # bool per attacker type: an aircraft


@jit
def _roll(fire, row, low_luck, raised, rolls, chance):
    """Hits one composition scores in a round, each die rolled."""
    groups, strength = kc.fire_groups(row, fire, raised, rolls, chance)
    if low_luck:
        sides = fire.sides
        return strength // sides + (1 if np.random.random() < (strength % sides) / sides else 0)
    hits = 0
    for g in range(groups):
        for _ in range(rolls[g]):
            if np.random.random() < chance[g]:
                hits += 1
    return hits


@jit
def _dice(n, hit, sides, low_luck):
    """Hits of ``n`` ``sides``-sided dice that hit on ``hit`` or less."""
    if low_luck:
        total = n * hit
        return total // sides + (1 if np.random.random() < (total % sides) / sides else 0)
    hits = 0
    for _ in range(n):
        if np.random.random() < hit / sides:
            hits += 1
    return hits


@jit
def simulate_kernel(A, D, M, subsets, leave, a_fire, d_fire, low_luck, aa, runs, seed):  # noqa: N803
    """``runs`` battles under the policy: per joint end state (d * n_a + a) how many ended there and
    how many retreated there (``leave``: where the attacker retreats at the end of a round), and the
    sum of rounds fought and of its squares."""
    np.random.seed(seed)
    n_a = M.shape[0]
    ends = np.zeros(M.shape[1] * n_a, dtype=np.int64)
    gone = np.zeros(M.shape[1] * n_a, dtype=np.int64)
    n_types = max(A.n.shape[0], D.n.shape[0])
    raised = np.zeros((n_types, a_fire.sides + 1), dtype=np.int64)
    rolls = np.zeros((a_fire.sides + 1) * n_types, dtype=np.int64)
    chance = np.zeros((a_fire.sides + 1) * n_types)
    rounds = 0.0
    rounds_sq = 0.0
    for _ in range(runs):
        a, d = A.start, D.start
        if aa.mode == AA_CHOSEN:
            a = aa.kept[min(_dice(aa.dice, aa.hit, a_fire.sides, low_luck), aa.kept.shape[0] - 1)]
        elif aa.mode == AA_PER_AIRCRAFT:
            for k in range(A.n.shape[0]):
                if aa.air[k]:
                    a -= _dice(A.counts[a, k], aa.hit, a_fire.sides, False) * A.stride[k]
        n = 0
        left = False
        while kc._outcome(A, D, a, d) == kc.ONGOING and 1.0 - A.hit[a, 0] * D.hit[d, 0] >= kc.NO_HIT_EPS:
            if n > 0 and leave[d * n_a + a]:
                left = True
                break
            ha = _roll(a_fire, A.counts[a], low_luck, raised, rolls, chance)
            hd = _roll(d_fire, D.counts[d], low_luck, raised, rolls, chance)
            r = min(ha, D.capacity[d])
            dp = d if r == 0 else kc.defender_choice(A, D, M, subsets, a, d, r)
            a = a if hd == 0 else kc.attacker_choice(A, M, a, hd, dp)
            d = dp
            n += 1
        if left:
            gone[d * n_a + a] += 1
        else:
            ends[d * n_a + a] += 1
        rounds += n
        rounds_sq += n * n
    return ends, gone, rounds, rounds_sq


def simulate(battle: Battle, runs: int = 100_000, seed: int | None = None) -> BattleResult:
    """Monte Carlo estimate of ``battle`` under best casualties (its ``casualty_policy`` is the
    exact solver's), with the standard error of each figure."""
    runs = check_runs(runs, BattleError)
    seed = seed_or_random(seed, BattleError) % (2**32)
    g = ec.game(battle)
    solved = ec.solve_game(g)
    low = g.low
    air = low.is_air[g.a_types.unit]
    if low.aa_dice == 0:
        aa = AAFire(AA_NONE, 0, 0, np.zeros(1, dtype=np.int64), air)
    elif ec.aa_rolled_per_aircraft(battle):
        aa = AAFire(AA_PER_AIRCRAFT, low.aa_dice, low.aa_hit, np.zeros(1, dtype=np.int64), air)
    else:
        kept = ec.aircraft_kept(g, solved.V, g.A.start, g.D.start, low.aa_dice, air)
        aa = AAFire(AA_CHOSEN, low.aa_dice, low.aa_hit, np.array(kept, dtype=np.int64), air)
    ends, gone, rounds, rounds_sq = simulate_kernel(
        g.A, g.D, solved.M, g.subsets, solved.leave.ravel(), ec.fire_rules(low, low.attacker, g.a_types.unit),
        ec.fire_rules(low, low.defender, g.d_types.unit), battle.dice is Dice.LOW_LUCK, aa, runs, seed)
    exact_form = ec.result_of(g, ends / runs, rounds / runs, gone / runs)
    std_error = {name: math.sqrt(max(p * (1 - p), 0.0) / runs) for name, p in (
        ("attacker_win", exact_form.attacker_win), ("defender_win", exact_form.defender_win),
        ("draw", exact_form.draw), ("stalemate", exact_form.stalemate),
        ("takes_territory", exact_form.takes_territory or 0.0), ("retreat", exact_form.retreat))}
    if battle.sea:
        del std_error["takes_territory"]
    for name, values in ec.losses_per_end(g, ends, gone).items():
        p = np.concatenate((ends[ends > 0], gone[gone > 0])) / runs
        mean = float(p @ values)
        std_error[name] = math.sqrt(max(float(p @ values**2) - mean**2, 0.0) / runs)
    mean_rounds = rounds / runs
    std_error["expected_rounds"] = math.sqrt(max(rounds_sq / runs - mean_rounds**2, 0.0) / runs)
    std_error["tuv_swing"] = std_error["attacker_ipc_lost"] + std_error["defender_ipc_lost"]
    if not battle.retreat:
        del std_error["retreat"]
    result = replace(exact_form, method=Method.MC, runs=runs, std_error=std_error,
                     casualty_policy=policy(solved, ec.fixed_value(battle)))
    if not battle.retreat:
        return result
    _, gone, gone_w, _ = ec.forward(solved)  # (the plan's chances are exact, as the best retreat's)
    return replace(result, objective=result.tuv_swing + battle.retreat.territory_bonus * (
        result.takes_territory or 0.0), retreat_plan=ec.retreat_plan(g, gone, gone_w))
