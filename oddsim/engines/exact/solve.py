"""Validated public wrapper of the exact engine: lower one plain battle, run the DP, build the result.

One plain battle in, one ``BattleResult`` out: the answer of a battle that takes more than that
(split by its AA outcomes, crashed fighters, the defender's units that hold the territory without
fighting) is made around this by ``oddsim.stages.pipeline`` (``oddsim.solve``)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial

import numpy as np

from oddsim._runtime import interpreted as _interpreted
from oddsim._runtime import warm as _warm
from oddsim._runtime.interrupt import call_interruptibly
from oddsim.engines.carriers import crash_cost_per_state
from oddsim.engines.exact import _kernel as k
from oddsim.engines.exact import _outcomes, _plain, array_pool, cost
from oddsim.engines.exact import _tables as t
from oddsim.engines.exact._inputs import (
    ONE_START,
    Lowered,
    Sized,
    estimate,
    group_distribution,
    side_inputs,
    size,
    support_rules,
    unit_types,
)
from oddsim.engines.exact.best import BestRetreat, best_retreat, retreat_plan
from oddsim.engines.lowering import SUBMERGE_ALONE, LoweredBattle, SideArrays, unit_names
from oddsim.errors import BattleError, TooLargeError
from oddsim.model.battle import Battle
from oddsim.results.battle_result import BattleResult, Method, RowArrays, SurvivorTable
from oddsim.results.swing import SwingDistribution

MAX_JOINT_STATES = 4_000_000
"""Largest number of joint casualty states the exact engine accepts (about 100 MB of memory)."""
MAX_SECONDS = 10.0
"""Longest solve the exact engine takes on, in the seconds its estimated work (states x hit spread
of each side) predicts (``cost``: fitted to measured solves)."""
NO_MOVES = np.zeros(0, dtype=np.int64)
"""``submerge_to``/``retreat_to`` of a battle where nothing submerges / the attacker never retreats."""
_NO_AIRCRAFT = np.zeros(0, dtype=np.int64)
_ONE_MASS = np.ones(1)
PRUNE = 1e-18
"""Moves carrying less probability than this, and states reached with less, are dropped; their
total is reported as ``truncated_mass`` (typically below 1e-13)."""


def check_size(joint: int, work: float, parts: int = 0, seconds: float | None = None) -> None:
    """Refuse a battle over ``MAX_JOINT_STATES`` or ``MAX_SECONDS`` (``parts``: the AA outcomes it
    is solved as, ``joint`` their largest and ``seconds`` the sum of theirs; 0: solved whole, its
    seconds from ``work``)."""
    seconds = cost.seconds(work) if seconds is None else seconds
    if joint > MAX_JOINT_STATES or seconds > MAX_SECONDS:
        apart = f" for {parts:,} AA outcomes solved apart" if parts else ""
        raise TooLargeError(
            f"battle too large for the exact engine: {joint:,} casualty states{' at most' if parts else ''} "
            f"and about {seconds:,.0f} s of work{apart}, the limit is {MAX_JOINT_STATES:,} states and "
            f"{MAX_SECONDS:,.0f} s; use --method mc (or auto)")


@dataclass(frozen=True)
class Prepared:
    """Everything the kernels need for one battle."""

    low: LoweredBattle
    a: t.SideLayout
    d: t.SideLayout
    a_counts: t.SideCounts
    d_counts: t.SideCounts
    A: t.SideTables  # noqa: N815 - the attacker's tables as the kernels take them
    D: t.SideTables  # noqa: N815
    rules: k.Rules
    holds: bool
    retreat: k.RetreatRule | None  # None: no retreat policy
    air_alive: np.ndarray
    win_chance: np.ndarray
    submerge_to: np.ndarray  # empty: nothing submerges
    retreat_to: np.ndarray  # empty: no retreat policy
    start_idx: np.ndarray  # joint states with mass before round 1, increasing
    start_val: np.ndarray  # their mass
    end: np.ndarray | None  # mass at the end of round 1, where the pre-battle phase fought it
    track_rounds: bool
    best: BestRetreat | None = None  # the best retreat, when the policy asks for it

    @property
    def joint(self) -> int:
        return self.a.n_states * self.d.n_states

    def settings(self, track_rounds: bool | None = None) -> k.DPSettings:
        """How the DP runs for this battle (``track_rounds`` None: as ``self.track_rounds``)."""
        return k.DPSettings(self.holds, PRUNE, self.track_rounds if track_rounds is None else track_rounds)

    def between(self, retreat_to: np.ndarray | None = None) -> k.BetweenRounds:
        """Where mass moves between rounds (``retreat_to`` None: as ``self.retreat_to``)."""
        return k.BetweenRounds(self.submerge_to, self.retreat_to if retreat_to is None else retreat_to,
                               self.win_chance)

    def work(self, end: np.ndarray | None) -> k.Work:
        """Zeroed joint arrays for ``solve_kernel``, with ``end`` (the mass at the end of round
        1) in them: on large battles kept ones (``array_pool``), which ``done`` gives back; else
        NumPy's zeros (pages of states never reached are never touched)."""
        na, nd = self.a.n_states, self.d.n_states
        first_strikes = bool(  # (a side without subs has no sub dice in any state)
            self.rules.attacker_subs_first and self.a.subs and (self.A.dist[:, t.G_SUB, 0] < 1.0).any()
            or self.rules.defender_subs_first and self.d.subs and (self.D.dist[:, t.G_SUB, 0] < 1.0).any())
        joint, track = self.joint, self.track_rounds
        x1 = _zeros("x1", joint)
        w1 = _zeros("w1", joint if track else 1)
        if end is not None:
            x1[:] = end
            if track:
                w1[:] = end
        row_lo = np.empty(na, dtype=np.int64)
        row_lo.fill(nd if end is None else 0)
        row_hi = np.empty(na, dtype=np.int64)
        row_hi.fill(-1 if end is None else nd - 1)
        x2 = _zeros("x2", joint if first_strikes else 1)
        w2 = _zeros("w2", joint if first_strikes and track else 1)
        return k.Work(x1, x2, w1, w2, _zeros("outcome", joint, np.int8), row_lo, row_hi)

    def done(self, work: k.Work, ends: np.ndarray) -> None:
        """Give ``work``'s kept arrays back once nothing reads them any more (results copy what
        they keep): zeros again, as ``solve_kernel`` leaves them but at the states where its
        battles ended (``ends``)."""
        for name, array in zip(_WORK_NAMES, work[:5], strict=True):
            if array.shape[0] >= array_pool.MIN_POOLED_ENTRIES:  # (else a small battle's: not kept)
                if name in _HOLDING_ENDS and array.shape[0] == self.joint:
                    array[ends] = 0
                array_pool.give(name, array)


_WORK_NAMES = ("x1", "x2", "w1", "w2", "outcome")
"""``k.Work``'s joint arrays, as ``array_pool`` knows them."""
_HOLDING_ENDS = frozenset(("x1", "w1", "outcome"))
"""Those of them that ``solve_kernel`` leaves nonzero at the ends of battles (``w1`` when it
tracks rounds: else it is one entry, never written)."""


def _zeros(name: str, size: int, dtype: type = np.float64) -> np.ndarray:
    """``size`` zeros: the array kept as ``name`` where it is large enough to keep."""
    if size < array_pool.MIN_POOLED_ENTRIES:  # (as ``array_pool.take`` does, with no maker: small solves)
        return np.zeros(size, dtype=dtype)
    return array_pool.take(name, size, partial(np.zeros, dtype=dtype))


def prepare(battle: Battle, lowered: Lowered | None = None, every_state: bool = False) -> Prepared:
    """The kernels' inputs for ``battle``. The side tables are worked out for the side states
    the battle can reach (from ``_seeds``), or with ``every_state`` for all (``retreat_table``,
    whose decisions the Monte Carlo engine looks up in states of its own)."""
    low, a, d = lowered or size(battle).lowered
    check_size(*estimate(low, a, d))
    (A, a_counts, a_reached), (D, d_counts, d_reached) = t.both_side_tables(  # noqa: N806 - the kernels' names
        side_inputs(low, a, True, every_state), side_inputs(low, d, False, every_state), unit_types(low),
        support_rules(low), low.low_luck)
    rules = k.Rules(low.attacker_subs_first, low.defender_subs_first, low.air_needs_destroyer)
    first_round = None  # round 1's rules, where they are not those of the rounds after it
    strikes = rules.attacker_subs_first and a.subs or rules.defender_subs_first and d.subs
    if low.subs_first_round_one and strikes:
        # subs strike first in round 1 only: the DP fights the rounds after it, with no first strike
        first_round, rules = rules, k.Rules(False, False, low.air_needs_destroyer)
    # the defender holds the territory with units that take no part in combat (an AA gun)
    holds = d.idle
    submerge_to = NO_MOVES
    if a.layers > 1 and low.attacker.submerge or d.layers > 1 and low.defender.submerge:
        # (states the battle never reaches stay where they are)
        submerge_to = k.submerge_kernel(A, D, rules, holds, _willing(low.attacker, a, A.flags) & a_reached,
                                        _willing(low.defender, d, D.flags) & d_reached)
    policy = battle.retreat
    retreat = None  # never (the kernels then compile no retreat code)
    if policy is not None:
        retreat = k.RetreatRule(-1 if policy.units_left is None else policy.units_left,
                   -1.0 if policy.below_win is None else float(policy.below_win),
                   1.0 if policy.aircraft_risk is None else float(policy.aircraft_risk))
    if policy is not None and policy.below_win is not None:
        win_chance = k.win_chance_kernel(A, D, rules, holds, submerge_to, a_reached, d_reached)
    else:
        win_chance = np.zeros(0)  # not needed
    start_idx, start_val, end = _start_mass(battle, low, a, d, A, D, rules, holds, submerge_to, first_round)
    track = policy is not None or len(submerge_to) > 0
    air_alive = _NO_AIRCRAFT  # aircraft in the battle per attacker state: read only by the aircraft rule
    if policy is not None and policy.aircraft_risk is not None:
        air_alive = ((a_counts.alive - a_counts.departed) * low.is_air).sum(axis=1)
    prepared = Prepared(low, a, d, a_counts, d_counts, A, D, rules, holds, retreat, air_alive,
                             win_chance, submerge_to, NO_MOVES if policy is None else _retreat_moves(a, d),
                             start_idx, start_val, end, track)
    return _with_decisions(battle, prepared)


def _with_decisions(battle: Battle, p: Prepared) -> Prepared:
    """``p`` with the retreat decisions made per state here: the best retreat's, or a rule that
    only looks at the units in the battle (the strafe: the defender down to N units or fewer).
    They reach the kernel through its per-state score: a state scores -1 (below any threshold)
    where the attacker retreats."""
    policy = battle.retreat
    if policy is None or (policy.best is None and policy.strafe is None):
        return p
    assert p.retreat is not None  # a policy has its rule
    if policy.best is not None:  # (it replaces every other rule: its own decisions, 0 where it retreats)
        crash = None
        if battle.crash_fighters:
            crash = crash_cost_per_state(p.d_counts.alive, p.d_counts.damaged, battle.rules)
        best = best_retreat(policy, p, PRUNE, battle.is_land, crash)
        return replace(p, win_chance=best.fights, retreat=p.retreat._replace(min_win=0.5), best=best)
    d_units = ((p.d_counts.alive - p.d_counts.departed) * _combatant(p.low, p.low.defender)).sum(axis=1)
    decided = np.broadcast_to(d_units <= policy.strafe, (p.a.n_states, p.d.n_states)).ravel()
    retreat = p.retreat if policy.below_win is not None else p.retreat._replace(min_win=0.5)
    score = p.win_chance if len(p.win_chance) else 1.0  # (a joint array of ones: one more pass)
    return replace(p, win_chance=np.where(decided, -1.0, score), retreat=retreat)


def _willing(side: SideArrays, layout: t.SideLayout, flags: np.ndarray) -> np.ndarray:
    """Per side state, whether its subs submerge between rounds where the enemy has no destroyer
    (``_kernel.submerge_kernel``): its policy says so, and its subs are in the battle."""
    if side.submerge == 0 or not layout.leave[t.SUB]:
        return np.zeros(layout.n_states, dtype=bool)
    in_first_layer = np.arange(layout.n_states) < layout.layer_size
    ready = flags[:, t.F_ONLY_SUBS] == 1 if side.submerge == SUBMERGE_ALONE else True
    return in_first_layer & (flags[:, t.F_SUB] == 1) & ready


def _retreat_moves(a: t.SideLayout, d: t.SideLayout) -> np.ndarray:
    """Where each joint state goes when the attacker retreats: -1, the battle ends; with landed
    units in the battle, to the state where the others have left; after that, nowhere (itself)."""
    n = a.n_states
    if not (a.leave[t.AIR] or a.leave[t.OTHER]):  # every retreat ends the battle
        return _every_retreat_ends(n * d.n_states)
    # landed units stay: the others leave
    state = np.arange(n)
    landed_lost = (state // int(np.prod(a.class_len[:t.SUB] + 1))) % (a.class_len[t.SUB] + 1)
    first_layer = state < a.layer_size
    to = np.where(first_layer & (landed_lost < a.class_len[t.SUB]), state + a.layer_size, -1)
    to = np.where(first_layer, to, -2)  # -2: already left, no retreat
    joint = to[:, None] * d.n_states + np.arange(d.n_states)[None, :]
    joint = np.where(to[:, None] == -1, -1, joint)
    own = np.arange(n * d.n_states).reshape(n, d.n_states)
    return np.where(to[:, None] == -2, own, joint).ravel().astype(np.int64)


_ENDS: list[np.ndarray] = [np.full(0, -1, dtype=np.int64)]
"""The longest ``_every_retreat_ends`` array made so far: the kernels only read it."""


def _every_retreat_ends(size: int) -> np.ndarray:
    """``size`` entries of -1 (``retreat_to`` where every retreat ends the battle), a view of one
    array shared by every solve, made longer when needed: filling a fresh one took a tenth of a
    millisecond of a best retreat at sea, and pushed the solve's arrays out of the caches."""
    ends = _ENDS[0]
    if ends.shape[0] < size:
        ends = np.full(size, -1, dtype=np.int64)
        _ENDS[0] = ends
    return ends[:size]


def _start_mass(battle, low, a, d, A, D, rules, holds, submerge_to,
                first_round=None) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Joint mass before round 1 (after AA fire, a bombardment whose casualties do not fire
    back, and subs that submerge at once), as the states that have some (increasing) and their
    mass; and, where round 1 is fought here, the mass at the end of round 1 (a joint array; else
    None): where bombardment casualties fire back, and where round 1 has rules of its own
    (``first_round``: subs that strike first in it only); the start mass is then that of the
    battles over before round 1."""
    aa = _aa_distribution(low)
    bombard = group_distribution(low.bombard_dice, low.low_luck)
    if aa is None and bombard is None and not (low.submerge_at_start and len(submerge_to)):
        if first_round is None:
            return ONE_START, _ONE_MASS, None  # both sides whole: one state
        return _first_round(a, d, A, D, ONE_START, _ONE_MASS, first_round, holds)
    a_start = np.zeros(a.n_states)
    if aa is None:
        a_start[0] = 1.0
    else:
        k.pre_battle_aa(A.stride, a.class_len, aa, a_start, 1)
    d_start = np.zeros(d.n_states)
    if bombard is not None and not low.bombard_fire_back:
        # the defender of a land battle is one class: its casualties are the first in its order
        stride = int(np.prod(d.class_len[:t.OTHER] + 1))
        for hits, p in enumerate(bombard):
            d_start[min(hits, int(d.class_len[t.OTHER])) * stride] += p
    else:
        d_start[0] = 1.0
    a_on = np.flatnonzero(a_start)
    d_on = np.flatnonzero(d_start)
    idx = (a_on[:, None] * d.n_states + d_on[None, :]).ravel()
    val = np.outer(a_start[a_on], d_start[d_on]).ravel()
    if low.submerge_at_start and len(submerge_to):
        idx = submerge_to[idx]
    idx, where = np.unique(idx, return_inverse=True)  # increasing, and mass moved together summed
    val = np.bincount(where.ravel(), val, len(idx))
    if bombard is not None and low.bombard_fire_back:
        start = np.zeros(a.n_states * d.n_states)
        start[idx] = val
        left, end = k.bombard_round_kernel(A, D, start, bombard, rules, holds)
        idx = np.flatnonzero(left)
        return idx, left[idx], end
    if first_round is not None:
        return _first_round(a, d, A, D, idx, val, first_round, holds)
    return idx, val, None


def _first_round(a, d, A, D, idx, val, first_round, holds) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # noqa: N803
    """Round 1 fought under its own rules (``_kernel.first_round_kernel``) from the mass ``val``
    at joint states ``idx``: the start mass of the battles over before it, and the mass at its
    end. (Subs fight at sea, a bombardment on land: round 1 is never fought for both.)"""
    start = np.zeros(a.n_states * d.n_states)
    start[idx] = val
    left, end = k.first_round_kernel(A, D, start, first_round, holds)
    over = np.flatnonzero(left)
    return over, left[over], end


@dataclass(frozen=True)
class RetreatTable:
    """The attacker's state-based retreat decisions for every joint casualty state, and how to
    find a state from the units left in each loss step (for the Monte Carlo engine, which rolls
    its own dice but takes the decisions of "below a win chance" and "aircraft risk" from here).

    A side's state index is sum over its loss steps of (casualties taken in the step) x
    ``stride`` of the step, plus its ``layer_size`` once some of its units left the battle early
    (submerged, or retreated while the landed units fight on); the joint index is attacker index
    x ``n_defender_states`` + defender index. Decisions are taken after the subs submerged."""

    attacker_step_stride: np.ndarray
    defender_step_stride: np.ndarray
    n_defender_states: int
    retreat: np.ndarray  # int8 per joint state
    attacker_layer_size: int = 0
    defender_layer_size: int = 0


def retreat_table(battle: Battle) -> RetreatTable:
    """The exact engine's retreat decisions for ``battle``'s policy (raises TooLargeError for
    battles the exact engine cannot take)."""
    p = prepare(battle, every_state=True)
    win_chance = p.win_chance.astype(np.float64, copy=False)  # (the best retreat's fights: int8)
    mask = k.retreat_mask_kernel(p.A, p.D, p.rules, p.holds, p.retreat, p.air_alive, win_chance)
    return RetreatTable(_step_strides(p.a, p.low.attacker), _step_strides(p.d, p.low.defender),
                        p.d.n_states, mask, p.a.layer_size if p.a.layers > 1 else 0,
                        p.d.layer_size if p.d.layers > 1 else 0)


def _step_strides(layout: t.SideLayout, side: SideArrays) -> np.ndarray:
    """Stride of each loss step in the side's state index: its slots' class stride (a step's
    slots share one class, and casualties within a class follow the order of loss)."""
    stride = np.cumprod(np.concatenate(([1], layout.class_len[:-1] + 1)))
    first_slot = np.concatenate(([0], np.cumsum(side.step_count)[:-1]))
    step_class = np.zeros(len(side.step_count), dtype=np.int64)
    for c in range(t.N_CLASSES):
        slots = layout.class_slots[c, : layout.class_len[c]]
        for step, first in enumerate(first_slot):
            if side.step_count[step] and first in slots:
                step_class[step] = c
    return stride[step_class].astype(np.int64)


def _aa_distribution(low: LoweredBattle) -> np.ndarray | None:
    """Hit distribution of the AA fire before the first round, or None when there is none."""
    if low.aa_dice == 0:
        return None
    dice = np.zeros(low.dice_sides + 1, dtype=np.int64)
    dice[low.aa_hit] = low.aa_dice
    return group_distribution(dice, low.low_luck)


BACKGROUND_WORK = 50_000_000
"""Battles whose estimated work (``Sized.work``) reaches this, some 30 ms (``cost``), are
solved in a background thread, so that Ctrl-C stops the caller at once; shorter ones
hold Ctrl-C back until they return (handing a call to the waiting thread costs some 20 us)."""
_solved_once = False
"""Whether this process has finished an exact solve. Its first on the command line may compile the
engine for seconds, so it runs in the background thread too: Ctrl-C then stops it at once."""


def solve(battle: Battle, sized: Sized | None = None) -> BattleResult:
    """Exact outcome distribution of one plain battle (fought to the end, or to the attacker's
    retreat; ``sized``: its ``size``, when it was sized first). The best retreat's objective and
    plan are the DP's. Crashed fighters and the defender's units that hold the territory without
    fighting are left to ``oddsim.solve``, which also splits a battle by its AA outcomes: this
    refuses such a battle (``lowering.lower``). Ctrl-C raises ``KeyboardInterrupt`` (never inside a
    Numba call: see ``oddsim._runtime.interrupt``)."""
    if not isinstance(battle, Battle):
        raise BattleError(f"solve needs a Battle, not {type(battle).__name__}")
    if sized is None or sized.battle is not battle:
        sized = size(battle)
    global _solved_once
    first_run = not _solved_once and _warm.is_front_end()
    with _interpreted.interpreting(_interpreted.worth_it(sized.seconds)):  # (a cold cache: see there)
        result = call_interruptibly(_interpreted.carried(_solve), battle, sized.lowered,
                                    background=sized.work >= BACKGROUND_WORK or first_run)
    _solved_once = True
    return result


def _solve(battle: Battle, lowered: Lowered | None = None) -> BattleResult:
    lowered = lowered or size(battle).lowered
    if _is_plain(battle, *lowered):
        return _solve_plain(battle, *lowered)
    p = prepare(battle, lowered)
    policy = battle.retreat
    air_alive = None if p.best is not None else p.air_alive  # (the best retreat has no aircraft rule)
    between = p.between()
    rounds_done = 0.0 if p.end is None else float(p.end.sum())
    plain = None  # the work arrays of the solve, when ``final`` and the others are theirs
    if policy is not None and policy.after_round is not None:
        start = np.zeros(p.joint)
        start[p.start_idx] = p.start_val
        end = np.zeros(p.joint) if p.end is None else p.end
        final, outcome, final_w, rounds, pruned, rest, rest_w = k.rounds_kernel(
            p.A, p.D, start, end, p.rules, p.settings(), p.retreat, air_alive, between, policy.after_round)
        if rest.any():  # landed units fight on after the others retreated
            rest_idx = np.flatnonzero(rest)
            work = p.work(None)
            work.w1[rest_idx] = rest_w[rest_idx]  # the round the others left, carried to the end
            rest_ends, rest_rounds, rest_pruned = k.solve_kernel(
                p.A, p.D, k.Start(rest_idx, rest[rest_idx]), work, p.rules, p.settings(True), p.retreat,
                air_alive, between, None, None)
            final = final + work.x1
            final_w = final_w + work.w1
            outcome = np.where(work.x1 > 0, work.outcome, outcome)
            rounds += rest_rounds
            pruned += rest_pruned
            p.done(work, rest_ends)
        ends = np.flatnonzero(final)
    else:
        work = p.work(p.end)
        ends, rounds, pruned = k.solve_kernel(p.A, p.D, k.Start(p.start_idx, p.start_val), work, p.rules,
                                              p.settings(), p.retreat, air_alive, between, None,
                                              None if p.best is None else p.best.moves)
        final, outcome, final_w = work.x1, work.outcome, work.w1
        plain = work
    result = _result(battle, p, ends, final, outcome, final_w, rounds + rounds_done, pruned)
    plan = None if p.best is None else _best_plan(battle, p, ends, final, outcome, final_w)
    if plain is not None:
        p.done(plain, ends)  # (the result and the plan copied what they keep)
    if p.best is None:
        return result
    return replace(result, objective=p.best.objective, retreat_plan=plan)


def _is_plain(battle: Battle, low: LoweredBattle, a: t.SideLayout, d: t.SideLayout) -> bool:
    """Whether ``_solve_plain`` takes the battle: no retreat policy, no AA fire or bombardment
    before round 1, no subs that submerge (one layer a side), no round 1 under rules of its own
    (subs that strike first in it only), and joint arrays too short to keep (``array_pool``)."""
    if battle.retreat is not None or low.aa_dice or a.layers > 1 or d.layers > 1:
        return False
    strikes = low.attacker_subs_first and a.subs or low.defender_subs_first and d.subs
    if low.subs_first_round_one and strikes:
        return False
    return a.n_states * d.n_states < array_pool.MIN_POOLED_ENTRIES and not any(low.bombard_dice.tolist())


def _solve_plain(battle: Battle, low: LoweredBattle, a: t.SideLayout, d: t.SideLayout) -> BattleResult:
    """``_solve`` of a battle ``_is_plain`` takes: side tables, DP and sums in one kernel call
    (``_plain``), the same kernels ``prepare`` and ``_solve`` call one by one."""
    check_size(*estimate(low, a, d))
    attacker, defender, plain = plain_inputs(low, a, d)
    made = _plain.solve_plain(attacker, defender, plain)
    return _answer(battle, low, a, d, made.a_counts, made.d_counts, made.sums, made.rounds, made.pruned)


def plain_inputs(low: LoweredBattle, a: t.SideLayout,
                 d: t.SideLayout) -> tuple[t.SideInputs, t.SideInputs, _plain.PlainBattle]:
    """``_plain.solve_plain``'s arguments for a battle ``_is_plain`` takes."""
    rules = k.Rules(low.attacker_subs_first, low.defender_subs_first, low.air_needs_destroyer)
    plain = _plain.PlainBattle(unit_types(low), support_rules(low), low.low_luck, rules, d.idle, PRUNE,
                               a.fighting_value, d.fighting_value)
    return side_inputs(low, a, True, False), side_inputs(low, d, False, False), plain


def _best_plan(battle: Battle, p: Prepared, ends, final, outcome, final_w):
    """The best retreat's plan from a solve under it (``ends``: the states where its battles
    ended): the retreat mass per state. Where landed units fight on after a retreat, that mass
    moved on; a second solve in which every retreat ends the battle finds where it left."""
    assert p.best is not None  # a plan exists only for the best retreat
    if p.a.leave[t.AIR] or p.a.leave[t.OTHER]:  # landed units may stay (else every retreat ends it)
        partial = (p.retreat_to >= 0) & (p.retreat_to != np.arange(len(p.retreat_to)))
        work = p.work(p.end)
        plan_ends, _, _ = k.solve_kernel(p.A, p.D, k.Start(p.start_idx, p.start_val), work, p.rules,
                                         p.settings(True), p.retreat, None,
                                         p.between(np.where(partial, -1, p.retreat_to)), None, p.best.moves)
        ends, final, outcome, final_w = plan_ends, work.x1, work.outcome, work.w1
    states = ends[(outcome[ends] == k.RETREAT) & (final[ends] > 0.0)]
    states.sort()
    names = [u.name for u in battle.rules.units]
    plan = retreat_plan(names, p.a_counts, p.d_counts, p.d.n_states, states, final[states], final_w[states])
    if p.a.leave[t.AIR] or p.a.leave[t.OTHER]:
        p.done(work, plan_ends)
    return plan


def _result(battle: Battle, p: Prepared, ends, final, outcome, final_w, rounds, pruned) -> BattleResult:
    """The result from the terminal mass ``final`` at the states ``ends`` (all its nonzero entries),
    their outcome codes and rounds-weighted mass ``final_w`` (read only where retreats end)."""
    # a side destroyed in the battle loses what it fought with but the units that left it early;
    # a non-casualty AA gun is captured, not lost
    terminal = k.Terminal(final, final_w, outcome)
    sums = _outcomes.end_state_sums(ends, terminal, p.d.n_states, p.A.flags, p.a_counts, p.a.fighting_value,
                                    p.d_counts, p.d.fighting_value, p.low.cost)
    return _answer(battle, p.low, p.a, p.d, p.a_counts, p.d_counts, sums, rounds, pruned)


def _answer(battle: Battle, low: LoweredBattle, a: t.SideLayout, d: t.SideLayout, a_counts: t.SideCounts,
            d_counts: t.SideCounts, sums: _outcomes.EndSums, rounds: float, pruned: float) -> BattleResult:
    """The result from ``end_state_sums``'s figures (``sums``) and both sides' counts per state."""
    a_total, d_total = a.fighting_value, d.fighting_value
    by_code, a_mass, d_mass, retreat_rounds, take, a_lost, d_lost, swings, swing_mass = sums
    # (floats: a list is cheaper to read than the array); a sum of the many ways to one outcome
    # may round past 1 (1.0000000000000002): a probability is never printed above 1
    chance = [min(c, 1.0) for c in by_code.tolist()]
    retreat = chance[k.RETREAT] + chance[k.RETREAT_LEFT]
    names = unit_names(battle.rules)
    verb = "submerged" if battle.sea else "retreated"
    return BattleResult(
        battle=battle.describe(),
        method=Method.EXACT,
        attacker_win=chance[k.ATTACKER_WINS],
        defender_win=chance[k.DEFENDER_WINS],
        draw=chance[k.DRAW],
        stalemate=chance[k.STALEMATE],
        retreat=retreat,
        retreat_round=retreat_rounds / retreat if retreat > 0 else None,
        takes_territory=None if battle.sea else min(take, 1.0),
        attacker_ipc_lost=a_lost,
        defender_ipc_lost=d_lost,
        expected_rounds=float(rounds),
        attacker_survivors=SurvivorTable(names, verb, partial(_attacker_rows, low, a_counts, a_mass)),
        defender_survivors=SurvivorTable(names, verb, partial(_defender_rows, low, d_counts, d_mass)),
        truncated_mass=float(pruned),
        attacker_ipc_total=a_total,
        defender_ipc_total=d_total,
        swing_distribution=SwingDistribution.exact(swings, swing_mass),
    )


def _attacker_rows(low: LoweredBattle, counts: t.SideCounts, mass: np.ndarray) -> RowArrays:
    """The attacker's end states (``_survivors``) from its mass by outcome code and state."""
    cost, fighting = low.cost, _combatant(low, low.attacker)
    nothing = np.zeros((1, len(cost)), dtype=np.int64)
    a_none = mass[k.DEFENDER_WINS].sum() + mass[k.DRAW].sum()
    alive, damaged, gone = counts.alive, counts.damaged, counts.departed
    return _survivors(cost, fighting, (
        (np.array([a_none]), nothing, nothing, nothing, False),
        (mass[k.ATTACKER_WINS] + mass[k.STALEMATE], alive, damaged, gone, False),
        (mass[k.RETREAT], alive, damaged, gone, True),
        (mass[k.RETREAT_LEFT], gone, 0 * gone, gone, True)))


def _defender_rows(low: LoweredBattle, counts: t.SideCounts, mass: np.ndarray) -> RowArrays:
    """The defender's end states (``_survivors``) from its mass by outcome code and state."""
    cost, fighting = low.cost, _combatant(low, low.defender)
    alive, damaged, gone = counts.alive, counts.damaged, counts.departed
    return _survivors(cost, fighting, (
        (mass[k.DEFENDER_WINS] + mass[k.STALEMATE] + mass[k.RETREAT] + mass[k.RETREAT_LEFT], alive, damaged,
         gone, False),
        (mass[k.ATTACKER_WINS] + mass[k.DRAW], gone, 0 * gone, gone, False)))


def _survivors(cost: np.ndarray, fighting: np.ndarray,
               parts: tuple[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, bool], ...]) -> RowArrays:
    """A side's end states (for its ``SurvivorTable``), from ``parts`` of (probability per state,
    units left per state and type, damaged ones, those that left the battle early, whether the
    side retreated): the units a state leaves are those of it that fight (``fighting``)."""
    empty = np.zeros((0, len(cost)), dtype=np.int64)
    counts, damaged, departed = [empty], [empty], [empty]
    retreated, probability = [np.zeros(0, dtype=bool)], [np.zeros(0)]
    for mass, alive, hurt, gone, left in parts:
        states = np.flatnonzero(mass)
        counts.append(alive[states] * fighting)
        damaged.append(hurt[states])
        departed.append(gone[states])
        retreated.append(np.full(len(states), left))
        probability.append(mass[states])
    units = np.concatenate(counts)
    return (units, np.concatenate(damaged), np.concatenate(departed), np.concatenate(retreated),
            np.concatenate(probability), units @ cost)


def _combatant(low, side) -> np.ndarray:
    """Units that take part in combat rounds (a non-casualty AA gun does not survive as such)."""
    in_steps = np.zeros(len(low.cost), dtype=np.int64)
    in_steps[side.step_unit] = 1
    return in_steps
