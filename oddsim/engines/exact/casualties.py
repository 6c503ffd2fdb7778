"""Best casualties: each side that asks for it (order of loss ``best``) chooses every loss, knowing
what was rolled, to reach the battle's goal; solved exactly as a zero-sum game (``_casualties``).

``game(battle)`` lowers a battle into the kernels' compositions, ``solve_game`` runs the backward
induction, and ``solve`` answers: the outcome under best play (a ``BattleResult`` fought forward
under both policies), the goal by the sides' fixed orders beside it, and the advice for the first
round. Covered: land battles (support, AA fire before round 1 where the attacker chooses its
aircraft or each die is rolled at one, technologies, Low Luck, a battle in progress); refused with
one line: sea battles, retreats, bombardment (the fixed order of loss answers those).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from typing import NamedTuple

import numpy as np

from oddsim._runtime.jit import jit
from oddsim.engines.exact import _casualties as kc
from oddsim.engines.exact._inputs import group_distribution
from oddsim.engines.lowering import LoweredBattle, SideArrays, lower, unit_names
from oddsim.errors import BattleError, TooLargeError
from oddsim.model.battle import Battle, Dice
from oddsim.model.names import describe_counts
from oddsim.model.rules import AACasualties
from oddsim.results.battle_result import BattleResult, Method, RowArrays, SurvivorTable
from oddsim.results.casualty_policy import Advice, CasualtyPolicy
from oddsim.results.swing import SwingDistribution

MAX_ENTRIES = 40_000_000
"""Most entries of the best-loss table (composition pairs x the defender's hits: 8 bytes each,
320 MB) the solver takes on."""
MAX_WORK = 4_000_000_000
"""Most inner steps (the defender's options x its hits, over every pair) it takes on: some
10 s."""
GOAL_CODE = {"take": kc.GOAL_TAKE, "win": kc.GOAL_WIN, "tuv": kc.GOAL_TUV, "value": kc.GOAL_VALUE}
ADVICE_MIN_CHANCE = 1e-4
"""Hit counts rarer than this in round 1 are left out of the advice table."""


def check_covered(battle: Battle) -> None:
    """Refuse, in one line naming the fixed-order alternative, a battle best casualties do not
    cover yet."""
    fixed = "give the side an order of loss (or leave it out for the default) instead of best"
    if battle.sea:
        raise BattleError(f"best casualties cover land battles so far, not sea battles: {fixed}")
    if battle.retreat is not None:
        raise BattleError("best casualties do not combine with a retreat policy yet: drop the retreat, "
                          f"or {fixed}")
    if battle.attacker.bombard is not None:
        raise BattleError(f"best casualties do not cover bombardment yet: drop --bombard, or {fixed}")
    if battle.aa_fired:
        raise BattleError(f"best casualties fight the AA fire themselves: {fixed}")
    rules = battle.rules
    for side in (battle.attacker, battle.defender):
        if any(rules.unit(name).hits > 1 for name, _ in side.army.counts):
            raise BattleError(f"best casualties do not cover two-hit units yet: {fixed}")
    if (battle.dice is Dice.LOW_LUCK and aa_rolled_per_aircraft(battle)
            and len(_aircraft(battle)) > 1):
        raise BattleError("best casualties do not cover Low Luck AA fire rolled at several aircraft types: "
                          f"use --dice standard, or {fixed}")


def _aircraft(battle: Battle) -> list[str]:
    return [name for name, _ in battle.attacker.army.counts if battle.rules.unit(name).domain.value == "air"]


def aa_rolled_per_aircraft(battle: Battle) -> bool:
    """Whether the edition rolls each AA die at one aircraft (which types die is chance)."""
    return battle.rules.combat.aa_casualties is AACasualties.PER_AIRCRAFT


@dataclass(frozen=True)
class Game:
    """A battle lowered into compositions: both sides, the goal, the defender's sub-compositions."""

    battle: Battle
    low: LoweredBattle
    a_types: np.ndarray  # the edition's unit index of each attacker type (K_a)
    d_types: np.ndarray
    A: kc.CasualtySide  # noqa: N815 - the kernels' names
    D: kc.CasualtySide  # noqa: N815
    goal: kc.Goal
    subsets: kc.SubSets

    @property
    def entries(self) -> int:
        return self.A.counts.shape[0] * self.D.counts.shape[0] * self.D.hit.shape[1]


def game(battle: Battle, best_attacker: bool | None = None, best_defender: bool | None = None) -> Game:
    """``battle`` as the kernels' game; ``best_attacker``/``best_defender`` (None: as the battle says)
    choose which sides choose each loss (both False: both follow their orders, the comparison)."""
    check_covered(battle)
    low = lower(battle, plain=False)
    a_best = battle.attacker.best_losses if best_attacker is None else best_attacker
    d_best = battle.defender.best_losses if best_defender is None else best_defender
    a_types, d_types = _types(low.attacker), _types(low.defender)
    a_max = int(low.attacker.count[a_types].sum())
    d_max = int(low.defender.count[d_types].sum())
    A = _side(low, low.attacker, a_types, d_max, a_best)  # noqa: N806
    D = _side(low, low.defender, d_types, a_max, d_best)  # noqa: N806
    entries = A.counts.shape[0] * D.counts.shape[0] * (a_max + 1)
    if entries > MAX_ENTRIES:
        pairs = A.counts.shape[0] * D.counts.shape[0]
        raise TooLargeError(f"battle too large for best casualties: {pairs:,} "
                            f"composition pairs x {a_max + 1} hit counts, the limit is {MAX_ENTRIES:,}; "
                            "give the sides a fixed order of loss instead of best")
    none = np.zeros(0, dtype=np.int64)
    subsets = _subsets(D.counts) if d_best else kc.SubSets(np.zeros(D.counts.shape[0] + 1, dtype=np.int64),
                                                           none, none)
    work = A.counts.shape[0] * (len(subsets.items) if d_best else D.counts.shape[0] * d_max) * (a_max + 1)
    if work > MAX_WORK:
        raise TooLargeError(f"battle too large for best casualties: about {work:,} steps of work, the "
                            f"limit is {MAX_WORK:,}; give the sides a fixed order of loss instead of best")
    goal = kc.Goal(GOAL_CODE[battle.casualty_goal or "take"], float(battle.casualty_value or 0.0),
                   float(A.ipc[-1]), float(D.ipc[-1]))
    return Game(battle, low, a_types, d_types, A, D, goal, subsets)


def _types(side: SideArrays) -> np.ndarray:
    """The edition's unit types that take hits on this side (those in its loss steps), in the
    edition's order."""
    return np.unique(side.step_unit).astype(np.int64)


def _side(low: LoweredBattle, side: SideArrays, types: np.ndarray, enemy_units: int,
          best: bool) -> kc.CasualtySide:
    n = side.count[types].astype(np.int64)
    stride = np.cumprod(np.concatenate(([1], n[:-1] + 1))).astype(np.int64)
    n_states = int(np.prod(n + 1))
    counts = (np.arange(n_states)[:, None] // stride[None, :]) % (n + 1)[None, :]
    counts = np.ascontiguousarray(counts, dtype=np.int64)
    fires = ~low.defenceless[types]
    hit = kc.hit_table(counts, fire_rules(low, side, types), low.low_luck, enemy_units)
    step_k = np.searchsorted(types, side.step_unit).astype(np.int64)
    later = np.array([int(side.step_count[i + 1:][step_k[i + 1:] == step_k[i]].sum())
                      for i in range(len(step_k))], dtype=np.int64)
    every = np.ones(len(types), dtype=np.bool_)
    fixed_to = fixed_losses(counts, stride, step_k, later, every, int(n.sum()))
    prefer = np.array(list(dict.fromkeys(step_k.tolist())), dtype=np.int64)
    return kc.CasualtySide(n, stride, counts, counts.sum(axis=1), (counts * fires).sum(axis=1) > 0,
                           (counts * low.is_land[types]).sum(axis=1) > 0,
                           (counts @ low.cost[types]).astype(np.float64), hit,
                           hit.shape[1] - 1 - np.argmax(hit[:, ::-1] > 0.0, axis=1), fixed_to, prefer, best)


def fire_rules(low: LoweredBattle, side: SideArrays, types: np.ndarray) -> kc.FireRules:
    """How the side's types fire, with the support rules that act for it."""
    support = low.support_side == side.support_side
    return kc.FireRules(side.value[types], side.dice[types], side.best_of[types], low.defenceless[types],
                        np.ascontiguousarray(low.support_supporter[support][:, types]),
                        np.ascontiguousarray(low.support_supported[support][:, types]),
                        low.support_per[support], low.support_value[support])


@jit
def fixed_losses(counts, stride, step_k, later, hittable, most):
    """Per composition and number of hits h (0..``most``), the composition left when the side
    loses h units by its loss steps (type ``step_k``; ``later``: units of the same type that
    later steps keep), only units of ``hittable`` types."""
    n_states = counts.shape[0]
    out = np.zeros((n_states, most + 1), dtype=np.int64)
    left = np.zeros(counts.shape[1], dtype=np.int64)
    for s in range(n_states):
        state = s
        left[:] = counts[s]
        out[s, 0] = s
        h = 1
        for i in range(step_k.shape[0]):
            k = step_k[i]
            if not hittable[k]:
                continue
            while h <= most and left[k] > later[i]:
                left[k] -= 1
                state -= stride[k]
                out[s, h] = state
                h += 1
        while h <= most:
            out[s, h] = state
            h += 1
    return out


@jit
def _subset_lists(counts):
    """``SubSets`` of every composition (``counts[s, k]``)."""
    n_states, n_types = counts.shape
    start = np.zeros(n_states + 1, dtype=np.int64)
    for d in range(n_states):
        m = 1
        for k in range(n_types):
            m *= counts[d, k] + 1
        start[d + 1] = start[d] + m
    items = np.zeros(start[n_states], dtype=np.int64)
    removed = np.zeros(start[n_states], dtype=np.int64)
    for d in range(n_states):
        j = start[d]
        total = 0
        for k in range(n_types):
            total += counts[d, k]
        for s in range(d + 1):
            inside = True
            units = 0
            for k in range(n_types):
                if counts[s, k] > counts[d, k]:
                    inside = False
                    break
                units += counts[s, k]
            if inside:
                items[j] = s
                removed[j] = total - units
                j += 1
    return start, items, removed


def _subsets(counts: np.ndarray) -> kc.SubSets:
    return kc.SubSets(*_subset_lists(counts))


@dataclass(frozen=True)
class Solved:
    """A game solved: the value of every composition pair at the start of a round (``V[d, a]``),
    the best-loss table (``M[a, d, h]``), and the start: the states round 1 begins in and their chances,
    the value there."""

    game: Game
    V: np.ndarray  # noqa: N815
    M: np.ndarray  # noqa: N815
    start_idx: np.ndarray
    start_mass: np.ndarray
    value: float
    aa: tuple[tuple[int, float, int], ...]  # AA hits, their chance, the attacker state kept


def solve_game(g: Game) -> Solved:
    """Backward induction over every composition pair, then the AA fire before round 1."""
    n_a, n_d = g.A.counts.shape[0], g.D.counts.shape[0]
    V = np.zeros((n_d, n_a))  # noqa: N806
    M = np.zeros((n_a, n_d, g.D.hit.shape[1]))  # noqa: N806
    kc.solve_kernel(g.A, g.D, g.goal, g.subsets, V, M)
    d0, a0 = n_d - 1, n_a - 1
    aa = _aa_starts(g, V, a0, d0)
    idx = np.array([d0 * n_a + a for _, _, a in aa], dtype=np.int64)
    mass = np.array([p for _, p, _ in aa])
    value = float(sum(p * V[d0, a] for _, p, a in aa))
    return Solved(g, V, M, idx, mass, value, aa)


def _aa_starts(g: Game, V: np.ndarray, a0: int, d0: int) -> tuple[tuple[int, float, int], ...]:  # noqa: N803
    """The attacker states round 1 starts in after the defender's AA fire: (AA hits, chance,
    state) each; the attacker loses its aircraft best where it chooses each loss, else by its
    order (an edition that rolls each die at one aircraft: by the dice)."""
    low = g.low
    if low.aa_dice == 0:
        return ((0, 1.0, a0),)
    air = low.is_air[g.a_types]
    if aa_rolled_per_aircraft(g.battle):
        return _aa_per_aircraft(g, air, a0)
    dice = np.zeros(7, dtype=np.int64)
    dice[low.aa_hit] = low.aa_dice
    dist = group_distribution(dice, low.low_luck)
    assert dist is not None  # (AA dice: some)
    kept = aircraft_kept(g, V, a0, d0, len(dist) - 1, air)
    return tuple((h, float(p), kept[h]) for h, p in enumerate(dist.tolist()) if p > 0.0)


def aircraft_kept(g: Game, V: np.ndarray, a0: int, d0: int, most: int, air: np.ndarray) -> list[int]:  # noqa: N803
    """Per number of AA hits, the attacker state kept: the best loss of aircraft, ties by its order."""
    A = g.A  # noqa: N806
    step_k = A.prefer
    # (one row: its states read as offsets from a0)
    fixed = a0 + fixed_losses(A.counts[a0:a0 + 1], A.stride, step_k, np.zeros(len(step_k), dtype=np.int64),
                              air, most)[0]
    if not A.best:
        return [int(s) for s in fixed]
    kept = []
    for h in range(most + 1):
        best, value = int(fixed[h]), float(V[d0, fixed[h]])
        for s in _aircraft_losses(A, a0, air, min(h, int((A.counts[a0] * air).sum()))):
            if V[d0, s] > value + kc.TIE * (abs(value) + 1.0):
                best, value = s, float(V[d0, s])
        kept.append(best)
    return kept


def _aircraft_losses(A: kc.CasualtySide, a0: int, air: np.ndarray, h: int) -> list[int]:  # noqa: N803
    """Every attacker state that has lost exactly h aircraft from ``a0``."""
    states = [a0]
    for k in np.flatnonzero(air).tolist():
        states = [s - j * int(A.stride[k]) for s in states for j in range(int(A.counts[a0, k]) + 1)]
    lost = (A.units[a0] - A.units[np.array(states)])
    return [s for s, n in zip(states, lost.tolist(), strict=True) if n == h]


def _aa_per_aircraft(g: Game, air: np.ndarray, a0: int) -> tuple[tuple[int, float, int], ...]:
    """AA fire that rolls one die at each aircraft: the aircraft hit are the dice's, no choice."""
    p = g.low.aa_hit / 6
    outcomes = [(0, 1.0, a0)]
    for k in np.flatnonzero(air).tolist():
        n = int(g.A.counts[a0, k])
        pmf = [_binomial(n, j, p) for j in range(n + 1)]
        outcomes = [(h + j, q * pmf[j], s - j * int(g.A.stride[k]))
                    for h, q, s in outcomes for j in range(n + 1)]
    return tuple(o for o in outcomes if o[1] > 0.0)


def _binomial(n: int, k: int, p: float) -> float:
    from math import comb

    return comb(n, k) * p**k * (1 - p) ** (n - k)


def solve(battle: Battle) -> BattleResult:
    """The exact answer of ``battle`` under best casualties, with its ``casualty_policy``: the goal
    under best play, by the fixed orders, and the advice for round 1."""
    g = game(battle)
    solved = solve_game(g)
    end, rounds = kc.forward_kernel(g.A, g.D, solved.M, g.subsets, solved.start_idx, solved.start_mass)
    return replace(result_of(g, end, rounds), casualty_policy=policy(solved, fixed_value(battle)))


def fixed_value(battle: Battle) -> float:
    """The goal's value with every side by its order of loss (the comparison best play beats)."""
    return solve_game(game(battle, False, False)).value


class _Ends(NamedTuple):
    """The ends of a battle with some mass (``end``'s nonzero entries, joint d * n_a + a)."""

    mass: np.ndarray
    a: np.ndarray
    d: np.ndarray
    codes: np.ndarray
    a_alive: np.ndarray  # the attacker's units there survive (it did not lose)
    d_alive: np.ndarray
    a_lost: np.ndarray  # IPCs each side lost there
    d_lost: np.ndarray


def _ends(g: Game, end: np.ndarray) -> _Ends:
    n_a = g.A.counts.shape[0]
    states = np.flatnonzero(end)
    d_s, a_s = states // n_a, states % n_a
    codes = np.array([_code(g, int(a), int(d)) for a, d in zip(a_s.tolist(), d_s.tolist(), strict=True)],
                     dtype=np.int64)
    a_alive = ~np.isin(codes, (kc.DEFENDER_WINS, kc.DRAW))
    d_alive = ~np.isin(codes, (kc.ATTACKER_WINS, kc.DRAW))
    a_lost = g.goal.a_total - np.where(a_alive, g.A.ipc[a_s], 0.0)
    d_lost = g.goal.d_total - np.where(d_alive, g.D.ipc[d_s], 0.0)
    return _Ends(end[states].astype(np.float64), a_s, d_s, codes, a_alive, d_alive, a_lost, d_lost)


def losses_per_end(g: Game, end: np.ndarray) -> dict[str, np.ndarray]:
    """Each side's IPCs lost at each end with some mass in ``end`` (as ``result_of`` reads them)."""
    ends = _ends(g, end)
    return {"attacker_ipc_lost": ends.a_lost, "defender_ipc_lost": ends.d_lost}


def result_of(g: Game, end: np.ndarray, rounds: float) -> BattleResult:
    """The BattleResult of the end masses ``end`` (joint d * n_a + a) and the rounds fought."""
    battle = g.battle
    e = _ends(g, end)
    mass, codes, a_s, d_s, a_alive, d_alive, a_lost, d_lost = (e.mass, e.codes, e.a, e.d, e.a_alive,
                                                                e.d_alive, e.a_lost, e.d_lost)
    chance = np.bincount(codes, mass, 5)
    takes = float(mass[(codes == kc.ATTACKER_WINS) & g.A.land[a_s]].sum())
    swing = d_lost - a_lost
    swings, where = np.unique(swing, return_inverse=True)
    names = unit_names(battle.rules)
    return BattleResult(
        battle=battle.describe(), method=Method.EXACT,
        attacker_win=min(float(chance[kc.ATTACKER_WINS]), 1.0),
        defender_win=min(float(chance[kc.DEFENDER_WINS]), 1.0),
        draw=float(chance[kc.DRAW]), stalemate=float(chance[kc.STALEMATE]), takes_territory=min(takes, 1.0),
        attacker_ipc_lost=float(mass @ a_lost), defender_ipc_lost=float(mass @ d_lost),
        expected_rounds=float(rounds),
        attacker_survivors=SurvivorTable(names, "retreated", partial(
            _rows, len(names), g.a_types, g.A.counts[a_s] * a_alive[:, None], mass, g.low.cost)),
        defender_survivors=SurvivorTable(names, "retreated", partial(
            _rows, len(names), g.d_types, g.D.counts[d_s] * d_alive[:, None], mass, g.low.cost)),
        attacker_ipc_total=g.goal.a_total, defender_ipc_total=g.goal.d_total,
        swing_distribution=SwingDistribution.exact(swings, np.bincount(where.ravel(), mass)),
    )


def _code(g: Game, a: int, d: int) -> int:
    code = kc._outcome(g.A, g.D, a, d)
    return kc.STALEMATE if code == kc.ONGOING else int(code)


def _rows(n_types: int, types: np.ndarray, counts: np.ndarray, mass: np.ndarray,
          cost: np.ndarray) -> RowArrays:
    """A side's end states as ``RowArrays`` (units by the edition's types)."""
    units = np.zeros((len(mass), n_types), dtype=np.int64)
    units[:, types] = counts
    none = np.zeros_like(units)
    return units, none, none, np.zeros(len(mass), dtype=bool), mass, units @ cost


def policy(solved: Solved, fixed: float) -> CasualtyPolicy:
    """The policy's figures and round 1's advice (after no AA hit, the likeliest start)."""
    g = solved.game
    names = unit_names(g.battle.rules)
    d0 = g.D.counts.shape[0] - 1
    a0 = max(solved.aa, key=lambda o: o[1])[2]
    aa = tuple(Advice(h, p, _lost(names, g.a_types, g.A.counts[-1] - g.A.counts[s]))
               for h, p, s in solved.aa if h > 0) if g.A.best else ()
    defender: list[Advice] = []
    attacker: list[Advice] = []
    choice = {}
    units = int(g.D.units[d0])
    for r in range(1, units + 1):
        p = float(kc._capped(g.A.hit, a0, r, units))
        if p < ADVICE_MIN_CHANCE:
            continue
        dp = int(kc.defender_choice(g.A, g.D, solved.M, g.subsets, a0, d0, r))
        choice[r] = (p, dp)
        if g.D.best:
            defender.append(Advice(r, p, _lost(names, g.d_types, g.D.counts[d0] - g.D.counts[dp])))
    if g.A.best:
        modal = max(choice, key=lambda r: choice[r][0]) if choice else 0
        dp = choice[modal][1] if choice else d0
        for h in range(1, int(g.A.units[a0]) + 1):
            p = float(g.D.hit[d0, h]) if h < g.D.hit.shape[1] else 0.0
            if p < ADVICE_MIN_CHANCE:
                continue
            ap = int(kc.attacker_choice(g.A, solved.M, a0, h, dp))
            attacker.append(Advice(h, p, _lost(names, g.a_types, g.A.counts[a0] - g.A.counts[ap]),
                                   _lost(names, g.d_types, g.D.counts[d0] - g.D.counts[dp])))
    return CasualtyPolicy(g.battle.casualty_goal or "take", solved.value, fixed, g.A.best, g.D.best,
                          tuple(aa), tuple(defender), tuple(attacker))


def _lost(names: tuple[str, ...], types: np.ndarray, lost: np.ndarray) -> str:
    return describe_counts([(names[t], int(n)) for t, n in zip(types.tolist(), lost.tolist(), strict=True)])
