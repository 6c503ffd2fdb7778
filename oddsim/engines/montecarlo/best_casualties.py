"""Monte Carlo under best casualties: battles fought die by die, each loss chosen by the policy the
exact solver computed (``oddsim.engines.exact.casualties``), as the best retreat's table is played.

The dice are rolled here one by one (support, Low Luck and AA fire as the rules say), from each
battle's own stream of the seed (``_rng``: the same answer on any thread count), never read
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
from oddsim.engines.exact import _sub_casualties as ks
from oddsim.engines.exact import casualties as ec
from oddsim.engines.exact import sub_game
from oddsim.engines.exact.casualty_advice import policy
from oddsim.engines.montecarlo._rng import low_luck_hits, next_word, seed_battle
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
def _uniform(rng):
    """A uniform draw in [0, 1) from the battle's stream (``rng``: its generator's two words)."""
    return np.float64(next_word(rng, 0) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@jit
def _hits(rng, rolls, chance, groups, strength, sides, low_luck):
    """Hits of ``groups`` groups of ``rolls[g]`` rolls that each hit with ``chance[g]``, each die
    rolled; with Low Luck, the total ``strength`` (dice x values) decides."""
    if low_luck:
        return low_luck_hits(next_word(rng, 0), strength, sides)
    hits = 0
    for g in range(groups):
        for _ in range(rolls[g]):
            if _uniform(rng) < chance[g]:
                hits += 1
    return hits


@jit
def _dice_scratch(n_types, sides):
    """The work arrays ``_roll`` fills for ``n_types`` composition types on dice of ``sides``:
    (raised, rolls, chance), made once per simulation."""
    return (np.zeros((n_types, sides + 1), dtype=np.int64), np.zeros((sides + 1) * n_types, dtype=np.int64),
            np.zeros((sides + 1) * n_types))


@jit
def _roll(rng, fire, row, low_luck, raised, rolls, chance):
    """Hits one composition scores in a round, each die rolled."""
    groups, strength = kc.fire_groups(row, fire, raised, rolls, chance)
    return _hits(rng, rolls, chance, groups, strength, fire.sides, low_luck)


@jit
def _dice(rng, n, hit, sides, low_luck, rolls, chance):
    """Hits of ``n`` ``sides``-sided dice that hit on ``hit`` or less."""
    rolls[0] = n
    chance[0] = hit / sides
    return _hits(rng, rolls, chance, 1, n * hit, sides, low_luck)


class Bombard(NamedTuple):
    """The shore bombardment before round 1, as the kernel rolls it."""

    dice: np.ndarray  # int64[sides + 1]: the ships' dice that hit on v or less, by v
    fire_back: bool  # its casualties fire in round 1


@jit
def _bombarded(rng, A, D, M, F, subsets, a, d, bombard, fires, low_luck, raised, rolls, chance):  # noqa: N803
    """The bombardment rolled, the defender's casualties chosen by the policy; where they fire
    back, round 1 fought too (the defender firing from d). Returns (a, d, rounds fought)."""
    a_fire, d_fire = fires
    sides = a_fire.sides
    groups = 0
    strength = 0
    for v in range(1, sides + 1):
        if bombard.dice[v] > 0:
            rolls[groups] = bombard.dice[v]
            chance[groups] = v / sides
            strength += v * bombard.dice[v]
            groups += 1
    b = _hits(rng, rolls, chance, groups, strength, sides, low_luck)
    at_end, start = kc.bombard_tables(A, D, M, F, subsets, a, d, bombard.fire_back)
    d1 = d if b == 0 else kc._keeps(D, subsets, d, b, start)
    if not bombard.fire_back:
        return a, d1, 0
    r = min(_roll(rng, a_fire, A.counts[a], low_luck, raised, rolls, chance), D.capacity[d1])
    d2 = d1 if r == 0 else kc._keeps(D, subsets, d1, r, at_end)
    hd = _roll(rng, d_fire, D.counts[d], low_luck, raised, rolls, chance)
    return (a if hd == 0 else kc.attacker_choice(A, M, a, hd, d2)), d2, 1


@jit
def simulate_kernel(A, D, M, F, subsets, leave, a_fire, d_fire, low_luck, aa, bombard, runs, stream):  # noqa: N803
    """``runs`` battles under the policy: per joint end state (d * n_a + a) how many ended there and
    how many retreated there (``leave``: where the attacker retreats at the end of a round), and the
    sum of rounds fought and of its squares."""
    n_a = M.shape[0]
    ends = np.zeros(M.shape[1] * n_a, dtype=np.int64)
    gone = np.zeros(M.shape[1] * n_a, dtype=np.int64)
    raised, rolls, chance = _dice_scratch(max(A.n.shape[0], D.n.shape[0]), a_fire.sides)
    rounds = 0.0
    rounds_sq = 0.0
    rng = np.zeros(2, dtype=np.int64)
    for i in range(runs):
        seed_battle(rng, 0, stream, i)
        a, d = A.start, D.start
        if aa.mode == AA_CHOSEN:
            a = aa.kept[min(_dice(rng, aa.dice, aa.hit, a_fire.sides, low_luck, rolls, chance),
                            aa.kept.shape[0] - 1)]
        elif aa.mode == AA_PER_AIRCRAFT:
            for k in range(A.n.shape[0]):
                if aa.air[k]:
                    a -= _dice(rng, A.counts[a, k], aa.hit, a_fire.sides, False, rolls, chance) * A.stride[k]
        n = 0
        if bombard.dice.sum() > 0 and kc._outcome(A, D, a, d) == kc.ONGOING:
            a, d, n = _bombarded(rng, A, D, M, F, subsets, a, d, bombard, (a_fire, d_fire), low_luck, raised,
                                 rolls, chance)
        left = False
        while kc._outcome(A, D, a, d) == kc.ONGOING and 1.0 - A.hit[a, 0] * D.hit[d, 0] >= kc.NO_HIT_EPS:
            if n > 0 and leave[d * n_a + a]:
                left = True
                break
            ha = _roll(rng, a_fire, A.counts[a], low_luck, raised, rolls, chance)
            hd = _roll(rng, d_fire, D.counts[d], low_luck, raised, rolls, chance)
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


@jit
def _typed_fires(rng, fire, row, first, phase2, apart, low_luck, raised, rolls, chance):
    """The hits (S, X, G) a side rolls in a phase (``sub_game.GroupFire``: who rolls decides what
    the hits may hit), each die rolled: phase 1 its subs if they strike first; phase 2 its subs
    unless they did, its aircraft apart where they cannot hit subs, the rest."""
    s = x = g = 0
    if first != phase2:
        s = _roll(rng, fire.s, row, low_luck, raised, rolls, chance)
    if phase2:
        if apart:
            x = _roll(rng, fire.x, row, low_luck, raised, rolls, chance)
            g = _roll(rng, fire.g, row, low_luck, raised, rolls, chance)
        else:
            g = _roll(rng, fire.xg, row, low_luck, raised, rolls, chance)
    return s, x, g


@jit
def _typed_phase(rng, A, D, AT, DT, rules, M, C, a, d, phase2, a_fire, d_fire, low_luck, scratch, bufs):  # noqa: N803
    """One phase from (a, d) with the dice rolled and the losses chosen by the policy: (a', d')."""
    raised, rolls, chance = scratch
    a_first, d_first = ks._strikes(A, D, AT, DT, rules, a, d)
    a_apart = rules.air_needs_destroyer and not AT.destroyer[a] and DT.sub[d]
    d_apart = rules.air_needs_destroyer and not DT.destroyer[d] and AT.sub[a]
    sa, xa, ga = _typed_fires(rng, a_fire, A.counts[a], a_first, phase2, a_apart, low_luck, raised, rolls,
                              chance)
    sd, xd, gd = _typed_fires(rng, d_fire, D.counts[d], d_first, phase2, d_apart, low_luck, raised, rolls,
                              chance)
    ta, td = ks._triple(DT, sa, xa, ga), ks._triple(AT, sd, xd, gd)
    dp = d
    if not ks._unpaid(DT, d, ta):
        _, _, td_t, td_p = bufs  # the defender chooses before it rolls: by its hits' distribution
        n_td, _ = ks._fire_list(DT, d, d_first, phase2, d_apart, AT, a, td_t, td_p)
        dp = ks._defender_keeps(A, D, AT, DT, M, a, d, ta, td_t, td_p, n_td)[0]
    ap = a if ks._unpaid(AT, a, td) else ks.attacker_keeps(A, AT, M, C, a, td, dp)
    return ap, dp


@jit
def typed_kernel(A, D, AT, DT, rules, V, W, M1, M2, a_fire, d_fire, low_luck, runs, stream):  # noqa: N803
    """``simulate_kernel`` at sea with subs: rounds of the surprise strike and general fire."""
    n_a = V.shape[1]
    ends = np.zeros(V.shape[0] * n_a, dtype=np.int64)
    scratch = _dice_scratch(max(A.n.shape[0], D.n.shape[0]), a_fire.s.sides)
    bufs = (np.zeros(ks._n_triples(DT), dtype=np.int64), np.zeros(ks._n_triples(DT)),
            np.zeros(ks._n_triples(AT), dtype=np.int64), np.zeros(ks._n_triples(AT)))
    rounds = 0.0
    rounds_sq = 0.0
    rng = np.zeros(2, dtype=np.int64)
    for i in range(runs):
        seed_battle(rng, 0, stream, i)
        a, d = A.start, D.start
        n = 0
        while kc._outcome(A, D, a, d) == kc.ONGOING:
            a_first, d_first = ks._strikes(A, D, AT, DT, rules, a, d)
            strike = a_first or d_first
            q = ks._phase(A, D, AT, DT, rules, M2, a, d, True, bufs)[1]
            if strike:
                q *= ks._phase(A, D, AT, DT, rules, M1, a, d, False, bufs)[1]
            if 1.0 - q < kc.NO_HIT_EPS:
                break
            if strike:
                a, d = _typed_phase(rng, A, D, AT, DT, rules, M1, W, a, d, False, a_fire, d_fire, low_luck,
                                    scratch, bufs)
            if kc._outcome(A, D, a, d) == kc.ONGOING:
                a, d = _typed_phase(rng, A, D, AT, DT, rules, M2, V, a, d, True, a_fire, d_fire, low_luck,
                                    scratch, bufs)
            n += 1
        ends[d * n_a + a] += 1
        rounds += n
        rounds_sq += n * n
    return ends, rounds, rounds_sq


def simulate(battle: Battle, runs: int = 100_000, seed: int | None = None) -> BattleResult:
    """Monte Carlo estimate of ``battle`` under best casualties (its ``casualty_policy`` is the
    exact solver's), with the standard error of each figure."""
    runs = check_runs(runs, BattleError)
    stream = np.uint64(seed_or_random(seed, BattleError) % (2**64))  # (battle i: its own stream of it)
    g = ec.game(battle)
    solved = ec.solve_game(g)
    low = g.low
    air = low.is_air[g.a_types.unit]
    if low.aa_dice == 0:
        aa = AAFire(AA_NONE, 0, 0, np.zeros(1, dtype=np.int64), air)
    elif ec.aa_rolled_per_aircraft(battle):
        aa = AAFire(AA_PER_AIRCRAFT, low.aa_dice, low.aa_hit, np.zeros(1, dtype=np.int64), air)
    else:
        values = (solved.V if solved.bombard is None
                  else ec.after_bombardment(g, solved.M, solved.F, solved.bombard))
        kept = ec.aircraft_kept(g, values, g.A.start, g.D.start, low.aa_dice, air)
        aa = AAFire(AA_CHOSEN, low.aa_dice, low.aa_hit, np.array(kept, dtype=np.int64), air)
    low_luck = battle.dice is Dice.LOW_LUCK
    if g.typed is not None and solved.typed is not None:
        t, ts = g.typed, solved.typed
        ends, rounds, rounds_sq = typed_kernel(
            g.A, g.D, t.AT, t.DT, t.rules, ts.V, ts.W, ts.M1, ts.M2,
            sub_game.group_fire(low, low.attacker, g.a_types),
            sub_game.group_fire(low, low.defender, g.d_types), low_luck, runs, stream)
        gone = np.zeros_like(ends)
    else:
        bombard = Bombard(low.bombard_dice, bool(low.bombard_fire_back))
        ends, gone, rounds, rounds_sq = simulate_kernel(
            g.A, g.D, solved.M, solved.F, g.subsets, solved.leave.ravel(),
            ec.fire_rules(low, low.attacker, g.a_types.unit),
            ec.fire_rules(low, low.defender, g.d_types.unit), low_luck, aa, bombard, runs, stream)
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
