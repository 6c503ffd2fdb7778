"""Best casualties: each side that asks for it (order of loss ``best``) chooses every loss, knowing
what was rolled, to reach the battle's goal; solved exactly as a zero-sum game (``_casualties``).

``game(battle)`` lowers a battle into the kernels' compositions, ``solve_game`` runs the backward
induction, ``forward`` and ``result_of`` give the outcome under best play (a ``BattleResult`` fought
forward under both policies) and ``fixed_value`` the goal by the sides' fixed orders beside it;
``best_casualties.solve`` puts them together with the advice (``casualty_advice``). Covered: land
battles (support, AA fire before round 1 where the attacker chooses its aircraft or each die is
rolled at one, shore bombardment, technologies, Low Luck, a battle in progress) and sea battles
(two-hit units, whose damage is one of the choices; transports taken last where the edition says
so; submarines' typed hits and surprise strike in ``sub_game``); refused with one line:
submerging subs, retreats other than the best retreat (none with subs or bombardment), crashed
fighters (the fixed order of loss answers those).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from typing import NamedTuple

import numpy as np

from oddsim.engines.dice import binomial_pmf
from oddsim.engines.exact import _casualties as kc
from oddsim.engines.exact import sub_game
from oddsim.engines.exact._inputs import group_distribution
from oddsim.engines.exact.compositions import (
    DAMAGED,
    KILL_TWO_HIT,
    WHOLE,
    CompositionTypes,
    fire_rules,
    fixed_losses,
    later_keeps,
    loss_steps,
    subset_lists,
)
from oddsim.engines.lowering import LoweredBattle, SideArrays, lower, unit_names
from oddsim.errors import BattleError, TooLargeError
from oddsim.model.battle import Battle, Dice, Submerge
from oddsim.model.names import describe_counts
from oddsim.model.rules import AACasualties, SubStrikeRounds
from oddsim.results.battle_result import BattleResult, Method, RetreatPlanRow, RowArrays, SurvivorTable
from oddsim.results.swing import SwingDistribution

MAX_ENTRIES = 40_000_000
"""Most entries of the best-loss table (composition pairs x the defender's hits: 8 bytes each,
320 MB) the solver takes on."""
MAX_WORK = 4_000_000_000
"""Most inner steps (the defender's options x its hits, over every pair) it takes on: some
10 s."""
GOAL_CODE = {"take": kc.GOAL_TAKE, "win": kc.GOAL_WIN, "tuv": kc.GOAL_TUV, "value": kc.GOAL_VALUE}


def check_covered(battle: Battle) -> None:
    """Refuse, in one line naming the fixed-order alternative, a battle best casualties do not
    cover yet."""
    fixed = "give the side an order of loss (or leave it out for the default) instead of best"
    rules = battle.rules
    if battle.sea and any(rules.unit(name).submarine for side in (battle.attacker, battle.defender)
                          for name, _ in side.army.counts):
        _check_subs_covered(battle, fixed)
    if any(rules.unit(name).hits > 2 for side in (battle.attacker, battle.defender)
           for name, _ in side.army.counts):
        raise BattleError(f"best casualties do not cover units of more than two hits yet: {fixed}")
    if battle.crash_fighters:
        raise BattleError("best casualties do not cover crashed fighters yet: drop --crash-fighters, "
                          f"or {fixed}")
    retreat = battle.retreat
    if retreat is not None:
        goal = battle.casualty_goal
        bonus = float(battle.casualty_value or 0.0)
        if retreat.best != goal or goal == "value" and retreat.territory_bonus != bonus:
            raise BattleError("best casualties combine with the best retreat of the same goal only: use "
                              "--retreat-best tuv with --casualty-goal tuv (or value with value and the same "
                              f"territory value), or {fixed}")
        if battle.attacker.landed is not None:
            raise BattleError(f"best casualties with a retreat do not cover landed units yet: {fixed}")
    if battle.attacker.bombard is not None and retreat is not None:
        raise BattleError(f"best casualties with a bombardment do not cover retreats yet: {fixed}")
    if battle.aa_fired:
        raise BattleError(f"best casualties fight the AA fire themselves: {fixed}")
    if (battle.dice is Dice.LOW_LUCK and aa_rolled_per_aircraft(battle)
            and len(_aircraft(battle)) > 1):
        raise BattleError("best casualties do not cover Low Luck AA fire rolled at several aircraft types: "
                          f"use --dice standard, or {fixed}")


def _check_subs_covered(battle: Battle, fixed: str) -> None:
    """Refuse what best casualties at sea with submarines leave out: submerging, destroyer last,
    a first strike in round 1 only, retreats."""
    if any(side.submerge is not Submerge.NEVER for side in (battle.attacker, battle.defender)):
        raise BattleError(f"best casualties do not cover submerging subs yet: drop --submerge, or {fixed}")
    if any(side.destroyer_last for side in (battle.attacker, battle.defender)):
        raise BattleError("best casualties choose where destroyers go themselves: drop --destroyer-last, "
                          f"or {fixed}")
    if battle.rules.combat.sub_strike_rounds is SubStrikeRounds.FIRST:
        raise BattleError(f"best casualties do not cover a first strike in round 1 only yet: {fixed}")
    if battle.retreat is not None:
        raise BattleError("best casualties with submarines do not cover retreats yet: drop the retreat, "
                          f"or {fixed}")


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
    a_types: CompositionTypes  # the attacker's composition types
    d_types: CompositionTypes
    A: kc.CasualtySide  # noqa: N815 - the kernels' names
    D: kc.CasualtySide  # noqa: N815
    goal: kc.Goal
    subsets: kc.SubSets
    typed: sub_game.TypedGame | None = None  # at sea with a submarine: typed hits, first strike

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
    A, a_types = _side(battle, low, low.attacker, True, a_best)  # noqa: N806
    D, d_types = _side(battle, low, low.defender, False, d_best)  # noqa: N806
    pairs = A.counts.shape[0] * D.counts.shape[0]
    entries = pairs * D.hit.shape[1]
    if entries > MAX_ENTRIES:
        raise TooLargeError(f"battle too large for best casualties: {pairs:,} composition pairs x "
                            f"{D.hit.shape[1]} hit counts, the limit is {MAX_ENTRIES:,} entries; "
                            "give the sides a fixed order of loss instead of best")
    none = np.zeros(0, dtype=np.int64)
    subsets = (_subsets(D, d_types) if d_best
               else kc.SubSets(np.zeros(D.counts.shape[0] + 1, dtype=np.int64), none, none))
    options = len(subsets.items) if d_best else D.counts.shape[0] * A.hit.shape[1]
    work = A.counts.shape[0] * options * D.hit.shape[1]
    if work > MAX_WORK:
        raise TooLargeError(f"battle too large for best casualties: about {work:,} steps of work, the "
                            f"limit is {MAX_WORK:,}; give the sides a fixed order of loss instead of best")
    goal = kc.Goal(GOAL_CODE[battle.casualty_goal or "take"], float(battle.casualty_value or 0.0),
                   float(A.ipc[A.start]), float(D.ipc[D.start]), battle.retreat is not None)
    made = Game(battle, low, a_types, d_types, A, D, goal, subsets)
    if not (battle.sea and sub_game.has_subs(low)):
        return made
    typed = sub_game.typed_game(low, A, a_types, D, d_types)
    entries = pairs * sub_game.n_triples(typed.AT)
    if entries > sub_game.MAX_TYPED_ENTRIES:
        raise TooLargeError(f"battle too large for best casualties with submarines: {pairs:,} composition "
                            f"pairs x {sub_game.n_triples(typed.AT)} hit triples, the limit is "
                            f"{sub_game.MAX_TYPED_ENTRIES:,} entries; give the sides a fixed order of loss "
                            "instead of best")
    return replace(made, typed=typed)


def _units_of(low: LoweredBattle, side: SideArrays) -> np.ndarray:
    """The edition's units that take hits on this side (those in its loss steps), in its order."""
    return np.unique(side.step_unit).astype(np.int64)


def _composition_types(battle: Battle, low: LoweredBattle, side: SideArrays) -> CompositionTypes:
    two_hit = [u for u in _units_of(low, side).tolist() if battle.rules.units[u].hits > 1]
    rows: list[tuple[int, int, int, int]] = [(u, DAMAGED, int(side.count[u]), int(side.damaged[u]))
                                             for u in two_hit]
    for u in _units_of(low, side).tolist():
        whole = int(side.count[u] - side.damaged[u]) if u in two_hit else int(side.count[u])
        rows.append((u, WHOLE if u in two_hit else 0, whole, whole))
    unit = np.array([r[0] for r in rows], dtype=np.int64)
    role = np.array([r[1] for r in rows], dtype=np.int64)
    pair = np.full(len(rows), -1, dtype=np.int64)
    for k, (u, r, _, _) in enumerate(rows):
        if r:
            pair[k] = next(j for j, (v, q, _, _) in enumerate(rows) if v == u and q != r)
    return CompositionTypes(unit, role, pair, np.array([r[2] for r in rows], dtype=np.int64),
                  np.array([r[3] for r in rows], dtype=np.int64))


def _side(battle: Battle, low: LoweredBattle, side: SideArrays, attacking: bool,
          best: bool) -> tuple[kc.CasualtySide, CompositionTypes]:
    """One side's compositions, its hit table against the other side's most hits it can take, its
    fixed order's losses."""
    types = _composition_types(battle, low, side)
    enemy = _composition_types(battle, low, low.defender if attacking else low.attacker)
    enemy_capacity = int((enemy.n * np.where(enemy.role == WHOLE, 2, 1)).sum())
    n, u = types.n, types.unit
    stride = np.cumprod(np.concatenate(([1], n + 1)))[:-1].astype(np.int64)
    move = np.where(types.role == WHOLE, stride - stride[np.maximum(types.pair, 0)], stride).astype(np.int64)
    n_states = int(np.prod(n + 1))
    counts = (np.arange(n_states)[:, None] // stride[None, :]) % (n + 1)[None, :]
    counts = np.ascontiguousarray(counts, dtype=np.int64)
    fires = ~low.defenceless[u]
    last = np.array([battle.rules.units[x].casualty_last for x in u.tolist()], dtype=np.bool_)
    hit = kc.hit_table(counts, fire_rules(low, side, u), low.low_luck, enemy_capacity)
    capacity = counts @ np.where(types.role == WHOLE, 2, 1)
    step_k, step_kind = loss_steps(side, types)
    later = later_keeps(side, step_k, step_kind)
    every = np.ones(len(u), dtype=np.bool_)
    fixed_to = fixed_losses(counts, stride, move, types.pair, step_k, step_kind, later, every,
                            int(capacity.max()))
    prefer = [int(k) for k, kind in zip(step_k.tolist(), step_kind.tolist(), strict=True)
              for k in ((types.pair[k], k) if kind == KILL_TWO_HIT else (k,))]
    prefer = list(dict.fromkeys(prefer + list(range(len(u)))))
    return kc.CasualtySide(n, stride, move, last, int(types.start @ stride), counts, counts.sum(axis=1),
                           capacity.astype(np.int64), (counts * ~last).sum(axis=1),
                           (counts * fires).sum(axis=1) > 0, (counts * low.is_land[u]).sum(axis=1) > 0,
                           (counts @ low.cost[u]).astype(np.float64), hit,
                           hit.shape[1] - 1 - np.argmax(hit[:, ::-1] > 0.0, axis=1), fixed_to,
                           np.array(prefer, dtype=np.int64), best, _holds(side)), types


def _holds(side: SideArrays) -> bool:
    """Whether some of the side's units take no part in combat rounds (a non-casualty AA gun): a
    defender with them holds the territory where both sides' fighting units are destroyed."""
    idle = np.ones(len(side.count), dtype=bool)
    idle[side.step_unit] = False
    return bool((side.count[idle] > 0).any())


def _subsets(side: kc.CasualtySide, t: CompositionTypes) -> kc.SubSets:
    return kc.SubSets(*subset_lists(side.counts, side.capacity, t.role, t.pair, side.last))


@dataclass(frozen=True)
class Solved:
    """A game solved: the value of every composition pair at the start of a round (``V[d, a]``),
    the best-loss table (``M[a, d, h]``), and the start: the states round 1 begins in and their chances,
    the value there."""

    game: Game
    V: np.ndarray  # noqa: N815
    M: np.ndarray  # noqa: N815
    F: np.ndarray  # noqa: N815 - the value at the start of a round (V: at its end, after a retreat)
    leave: np.ndarray  # int8[d, a]: 1 where the attacker retreats at the end of a round
    start_idx: np.ndarray
    start_mass: np.ndarray
    value: float
    aa: tuple[tuple[int, float, int], ...]  # AA hits, their chance, the attacker state kept
    typed: sub_game.TypedSolved | None = None  # the typed game's tables (``Game.typed``)
    bombard: np.ndarray | None = None  # the shore bombardment's hits before round 1 (a distribution)


def solve_game(g: Game) -> Solved:
    """Backward induction over every composition pair, then the AA fire before round 1."""
    n_a, n_d = g.A.counts.shape[0], g.D.counts.shape[0]
    if g.typed is not None:
        t = sub_game.solve(g.A, g.D, g.goal, g.typed)
        d0, a0 = g.D.start, g.A.start
        return Solved(g, t.V, np.zeros((0, 0, 0)), t.V, np.zeros((n_d, n_a), dtype=np.int8),
                      np.array([d0 * n_a + a0], dtype=np.int64), np.ones(1), float(t.V[d0, a0]),
                      ((0, 1.0, a0),), t)
    V = np.zeros((n_d, n_a))  # noqa: N806
    M = np.zeros((n_a, n_d, g.D.hit.shape[1]))  # noqa: N806
    F = np.zeros((n_d, n_a)) if g.goal.retreat else V  # noqa: N806
    leave = np.zeros((n_d, n_a), dtype=np.int8)
    kc.solve_kernel(g.A, g.D, g.goal, g.subsets, V, M, F, leave)
    d0, a0 = g.D.start, g.A.start
    bombard = group_distribution(g.low.bombard_dice, g.low.low_luck)
    start = F if bombard is None else after_bombardment(g, M, F, bombard)
    aa = _aa_starts(g, start, a0, d0)
    idx = np.array([d0 * n_a + a for _, _, a in aa], dtype=np.int64)
    mass = np.array([p for _, p, _ in aa])
    value = float(sum(p * start[d0, a] for _, p, a in aa))
    return Solved(g, V, M, F, leave, idx, mass, value, aa, bombard=bombard)


def after_bombardment(g: Game, M: np.ndarray, F: np.ndarray, bombard: np.ndarray) -> np.ndarray:  # noqa: N803
    """``F`` with the values before the shore bombardment (``_casualties.bombard_kernel``) at the
    defender's start, for the attacker states round 1 may start in after AA fire (its start, less
    aircraft)."""
    out = F.copy()
    d0, a0 = g.D.start, g.A.start
    air = g.low.is_air[g.a_types.unit]
    most = int((g.A.counts[a0] * air).sum())
    none = np.zeros(0)
    for s in {s for h in range(most + 1) for s in _aircraft_losses(g.A, a0, air, h)}:
        out[d0, s] = kc.bombard_kernel(g.A, g.D, M, F, g.subsets, s, d0, bombard, g.low.bombard_fire_back,
                                       0.0, none, none)
    return out


def _aa_starts(g: Game, V: np.ndarray, a0: int, d0: int) -> tuple[tuple[int, float, int], ...]:  # noqa: N803
    """The attacker states round 1 starts in after the defender's AA fire: (AA hits, chance,
    state) each; the attacker loses its aircraft best where it chooses each loss, else by its
    order (an edition that rolls each die at one aircraft: by the dice)."""
    low = g.low
    if low.aa_dice == 0:
        return ((0, 1.0, a0),)
    air = low.is_air[g.a_types.unit]
    if aa_rolled_per_aircraft(g.battle):
        return _aa_per_aircraft(g, air, a0)
    dice = np.zeros(low.dice_sides + 1, dtype=np.int64)
    dice[low.aa_hit] = low.aa_dice
    dist = group_distribution(dice, low.low_luck)
    assert dist is not None  # (AA dice: some)
    kept = aircraft_kept(g, V, a0, d0, len(dist) - 1, air)
    return tuple((h, float(p), kept[h]) for h, p in enumerate(dist.tolist()) if p > 0.0)


def aircraft_kept(g: Game, V: np.ndarray, a0: int, d0: int, most: int, air: np.ndarray) -> list[int]:  # noqa: N803
    """Per number of AA hits, the attacker state kept: the best loss of aircraft, ties by its order."""
    A = g.A  # noqa: N806
    step_k = A.prefer  # (aircraft have one hit: their types in the order of loss)
    zeros = np.zeros(len(step_k), dtype=np.int64)
    # (one row: its states read as offsets from a0)
    fixed = a0 + fixed_losses(A.counts[a0:a0 + 1], A.stride, A.move, g.a_types.pair, step_k, zeros, zeros,
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
    p = g.low.aa_hit / g.low.dice_sides
    outcomes = [(0, 1.0, a0)]
    for k in np.flatnonzero(air).tolist():
        n = int(g.A.counts[a0, k])
        pmf = np.empty(n + 1)
        binomial_pmf(n, p, pmf)
        outcomes = [(h + j, q * pmf[j], s - j * int(g.A.stride[k]))
                    for h, q, s in outcomes for j in range(n + 1)]
    return tuple(o for o in outcomes if o[1] > 0.0)


def retreat_plan(g: Game, gone: np.ndarray, gone_w: np.ndarray) -> tuple[RetreatPlanRow, ...]:
    """Where the attacker retreats: each state with retreat mass (the units in the battle on each
    side), its chance and mean round, most likely first."""
    names = unit_names(g.battle.rules)
    n_a = g.A.counts.shape[0]
    rows = []
    for j in np.flatnonzero(gone).tolist():
        a, d = j % n_a, j // n_a
        rows.append(RetreatPlanRow(_units_text(names, g.a_types, g.A.counts[a]),
                                   _units_text(names, g.d_types, g.D.counts[d]),
                                   float(gone[j]), float(gone_w[j] / gone[j])))
    return tuple(sorted(rows, key=lambda r: (-r.probability, r.attacker, r.defender)))


def _units_text(names: tuple[str, ...], types: CompositionTypes, counts: np.ndarray) -> str:
    units: dict[str, int] = {}
    hurt: dict[str, int] = {}
    for k, (u, role) in enumerate(zip(types.unit.tolist(), types.role.tolist(), strict=True)):
        units[names[u]] = units.get(names[u], 0) + int(counts[k])
        if role == DAMAGED:
            hurt[names[u]] = int(counts[k])
    return describe_counts(list(units.items()), hurt)


def forward(solved: Solved) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """The battle fought forward under the policies: mass at each end, mass that retreats there
    (joint d * n_a + a) and the same weighted by rounds, expected rounds."""
    g = solved.game
    if solved.typed is not None:
        assert g.typed is not None
        end, rounds = sub_game.forward(g.A, g.D, g.typed, solved.typed, solved.start_idx, solved.start_mass)
        none = np.zeros_like(end)
        return end, none, none, rounds
    if solved.bombard is None:
        return kc.forward_kernel(g.A, g.D, solved.M, g.subsets, solved.start_idx, solved.start_mass,
                                 solved.leave.ravel())
    n_a, n_d = g.A.counts.shape[0], g.D.counts.shape[0]
    first, after = np.zeros(n_a * n_d), np.zeros(n_a * n_d)
    for _, p, a in solved.aa:
        kc.bombard_kernel(g.A, g.D, solved.M, solved.F, g.subsets, a, g.D.start, solved.bombard,
                          g.low.bombard_fire_back, p, first, after)
    start = first + after
    idx = np.flatnonzero(start)
    end, gone, gone_w, rounds = kc.forward_kernel(g.A, g.D, solved.M, g.subsets, idx, start[idx],
                                                  solved.leave.ravel())
    return end, gone, gone_w, rounds + float(after.sum())  # (round 1, fought with the bombardment)


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


RETREAT = 5
"""The outcome code of the mass that retreats (after ``_casualties``' codes)."""


def _ends(g: Game, end: np.ndarray, gone: np.ndarray | None = None) -> _Ends:
    n_a = g.A.counts.shape[0]
    states = np.flatnonzero(end)
    left = np.zeros(0, dtype=np.int64) if gone is None else np.flatnonzero(gone)
    codes = np.array([_code(g, int(j % n_a), int(j // n_a)) for j in states.tolist()] + [RETREAT] * len(left),
                     dtype=np.int64)
    mass = np.concatenate((end[states], np.zeros(0) if gone is None else gone[left]))
    states = np.concatenate((states, left))
    d_s, a_s = states // n_a, states % n_a
    a_alive = ~np.isin(codes, (kc.DEFENDER_WINS, kc.DRAW))
    d_alive = ~np.isin(codes, (kc.ATTACKER_WINS, kc.DRAW))
    a_lost = g.goal.a_total - np.where(a_alive, g.A.ipc[a_s], 0.0)
    d_lost = g.goal.d_total - np.where(d_alive, g.D.ipc[d_s], 0.0)
    return _Ends(mass.astype(np.float64), a_s, d_s, codes, a_alive, d_alive, a_lost, d_lost)


def losses_per_end(g: Game, end: np.ndarray, gone: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """Each side's IPCs lost at each end with some mass in ``end`` and ``gone`` (as ``result_of``
    reads them)."""
    ends = _ends(g, end, gone)
    return {"attacker_ipc_lost": ends.a_lost, "defender_ipc_lost": ends.d_lost}


def result_of(g: Game, end: np.ndarray, rounds: float, gone: np.ndarray | None = None) -> BattleResult:
    """The BattleResult of the end masses ``end`` (joint d * n_a + a), those that retreated
    (``gone``) and the rounds fought."""
    battle = g.battle
    e = _ends(g, end, gone)
    mass, codes, a_s, d_s, a_alive, d_alive, a_lost, d_lost = (e.mass, e.codes, e.a, e.d, e.a_alive,
                                                                e.d_alive, e.a_lost, e.d_lost)
    chance = np.bincount(codes, mass, RETREAT + 1)
    retreated = codes == RETREAT
    takes = float(mass[(codes == kc.ATTACKER_WINS) & g.A.land[a_s]].sum())
    swing = d_lost - a_lost
    swings, where = np.unique(swing, return_inverse=True)
    names = unit_names(battle.rules)
    return BattleResult(
        battle=battle.describe(), method=Method.EXACT,
        attacker_win=min(float(chance[kc.ATTACKER_WINS]), 1.0),
        defender_win=min(float(chance[kc.DEFENDER_WINS]), 1.0),
        draw=float(chance[kc.DRAW]), stalemate=float(chance[kc.STALEMATE]),
        takes_territory=None if battle.sea else min(takes, 1.0),
        attacker_ipc_lost=float(mass @ a_lost), defender_ipc_lost=float(mass @ d_lost),
        expected_rounds=float(rounds), retreat=float(chance[RETREAT]),
        attacker_survivors=SurvivorTable(names, "retreated", partial(
            _rows, len(names), g.a_types, g.A.counts[a_s] * a_alive[:, None], mass, g.low.cost, retreated)),
        defender_survivors=SurvivorTable(names, "retreated", partial(
            _rows, len(names), g.d_types, g.D.counts[d_s] * d_alive[:, None], mass, g.low.cost,
            np.zeros(len(mass), dtype=bool))),
        attacker_ipc_total=g.goal.a_total, defender_ipc_total=g.goal.d_total,
        swing_distribution=SwingDistribution.exact(swings, np.bincount(where.ravel(), mass)),
    )


def _code(g: Game, a: int, d: int) -> int:
    code = kc._outcome(g.A, g.D, a, d)
    return kc.STALEMATE if code == kc.ONGOING else int(code)


def _rows(n_types: int, types: CompositionTypes, counts: np.ndarray, mass: np.ndarray,
          cost: np.ndarray, retreated: np.ndarray) -> RowArrays:
    """A side's end states as ``RowArrays`` (units and damaged units by the edition's types)."""
    units = np.zeros((len(mass), n_types), dtype=np.int64)
    damaged = np.zeros_like(units)
    for k, (u, role) in enumerate(zip(types.unit.tolist(), types.role.tolist(), strict=True)):
        units[:, u] += counts[:, k]
        if role == DAMAGED:
            damaged[:, u] += counts[:, k]
    return units, damaged, np.zeros_like(units), retreated, mass, units @ cost
