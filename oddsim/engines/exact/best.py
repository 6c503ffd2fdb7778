"""The best retreat: the attacker's optimal stopping policy, computed exactly over the DP's states.

``RetreatPolicy(best="tuv")`` maximises the expected TUV swing (defender IPC lost minus attacker
IPC lost); ``best="value"`` adds the territory's value when the attacker takes it. The exact
engine finds the policy here (``best_retreat_kernel``: value = max(retreat now, fight a round and
act best afterwards), ties fighting on; no retreat before round 1) and then fights the battle
under it like any state-based policy. The Monte Carlo engine plays the policy table the exact
engine computed: the one place where the engines share a decision rather than a rule.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import partial

import numpy as np

from oddsim.engines.exact import _kernel as k
from oddsim.engines.exact import _tables as t
from oddsim.engines.exact import array_pool
from oddsim.engines.exact._best import Objective, best_retreat_kernel, visited_states
from oddsim.model.battle import RetreatPolicy
from oddsim.model.names import describe_counts
from oddsim.results.battle_result import BattleResult, LazyRows, RetreatPlanRow, plan_row_dict, row_dict

MOVE_STORE_ENTRIES = 8_000_000
"""Most round-move entries the best retreat keeps for reuse (16 bytes each: 128 MB); states
beyond them have their moves computed again."""


@dataclass(frozen=True)
class BestRetreat:
    """The best policy of one battle: its expected objective from the start, whether it
    retreats in each joint state (the end of a round there), and the round moves found."""

    objective: float
    fights: np.ndarray  # int8 per joint state: 1 where it fights on, 0 where it retreats (the solve's
    # "win chance", against a threshold of 0.5: an eighth of the memory of a score of floats)
    moves: k.MoveStore  # the round moves of the states solved (and ``track_from``), for the solve under it


def best_retreat(policy: RetreatPolicy, p, prune: float, land_battle: bool,
                 crash_cost: np.ndarray | None = None) -> BestRetreat:
    """Solve the optimal stopping problem of ``policy``'s objective for the exact engine's
    prepared battle ``p`` (``solve.Prepared``). ``crash_cost`` (per defender state: the IPCs of
    the aircraft its carriers cannot hold, with ``--crash-fighters``) counts in the defender's
    IPC lost wherever it keeps units, as the result counts it, so the policy maximises exactly
    the TUV swing the result reports.
    Where the battle may reach only a small part of its joint states (``_every_state``: not),
    only those it reaches when fought to the end (found by a forward sweep) are solved: the
    policy's battles reach no others, since a retreat only ends some of them earlier, and the
    others keep the value 0. Elsewhere every state is solved, one backward sweep computing the
    round moves (the values of states reached with less than ``prune`` then count too: each is
    more exact, and the sweep that found the others cost more than the states it left out)."""
    low = p.low
    n = p.joint
    # each state's round moves are recorded where they are first computed: the backward sweep
    # and the solve under the policy read them instead of computing them again (up to a budget)
    room = k.record_room(p.a.n_states, p.d.n_states)
    moves = _move_store(n, min(MOVE_STORE_ENTRIES, n * room) + room, p.a.n_states)
    retreat_to = p.retreat_to
    if _every_state(p, land_battle):
        live = np.arange(n)
    else:
        live = _reached(p, prune, moves)
    a, d = p.a_counts, p.d_counts
    a_total, d_total = p.a.fighting_value, p.d.fighting_value  # the IPCs each side fights with
    # IPCs lost by a side destroyed: what it fought with but the units that left the battle early
    a_dead = a_total - a.departed @ low.cost
    d_dead = d_total - d.departed @ low.cost
    d_lost = d.ipc_lost if crash_cost is None else (d.ipc_lost + crash_cost).astype(d.ipc_lost.dtype)
    takes = (p.A.flags[:, t.F_LAND] == 1) & land_battle
    objective_of = Objective(a.ipc_lost, d_lost, a_total, a_dead, d_dead, takes, policy.territory_bonus)
    v_end, v_start, fights, retreats = best_retreat_kernel(
        p.A, p.D, p.rules, p.holds, p.submerge_to, retreat_to, live, p.start_idx, objective_of, moves)
    # plain sums, not BLAS dot products: on a busy machine BLAS threads can take milliseconds
    objective = float((p.start_val * v_start).sum())
    if p.end is not None:
        end = np.zeros(n)
        end[live] = v_end
        objective += float((p.end * end).sum())
    moves.used[1] = 0  # no more records: those of the live states are all cleared when given back
    best = BestRetreat(objective, fights, moves)
    if max(n, moves.idx.shape[0]) >= array_pool.MIN_POOLED_ENTRIES:  # some are pooled
        weakref.finalize(best, _give_back, moves, live)  # once the solve is done
    return best


def _every_state(p, land_battle: bool) -> bool:
    """Whether the battle reaches (nearly) every joint state of ``p``, so that solving them all
    costs less than a forward sweep to find those it reaches: a land battle whose sides are
    one layer each (no landed units that stay) and whose dice are rolled (Low Luck's nearly
    certain hits skip most casualty counts). At sea, where subs, aircraft and a kept destroyer
    split the states into classes, a battle reaches a few per cent of them."""
    return land_battle and not p.low.low_luck and p.a.layers == 1 and p.d.layers == 1


def _reached(p, prune: float, moves: k.MoveStore) -> np.ndarray:
    """The joint states the battle gets to (increasing) when fought to the end, recording their
    round moves in ``moves``; after a retreat that leaves the landed units fighting, also those
    they get to from there. They are marked in the store (``solve_kernel`` with no masses asked
    for), but where landed units may stay, whose mass a retreat moves on: a joint array of the
    masses then (another array of the joint size to go through)."""
    n = p.joint
    retreat_to = p.retreat_to
    landed = bool(p.a.leave[t.AIR] or p.a.leave[t.OTHER])  # landed units may stay: else every retreat ends it
    visited = array_pool.take("visited", n, np.zeros) if landed else np.zeros(0)
    # with no policy (None) the kernel compiles no retreat code and reads none of its inputs
    unused, no_moves = np.zeros(1), np.zeros(0, dtype=np.int64)
    untracked = replace(p, track_rounds=False)  # (rounds are not counted: no joint arrays for them)
    work = untracked.work(p.end)
    settings, between = k.DPSettings(p.holds, prune, False), k.BetweenRounds(p.submerge_to, no_moves, unused)
    ends, _, _ = k.solve_kernel(p.A, p.D, k.Start(p.start_idx, p.start_val), work, p.rules, settings, None,
                                unused, between, visited, moves)
    row_lo, row_hi = work.row_lo.copy(), work.row_hi.copy()  # where the sweeps visited states
    p.done(work, ends)
    if not landed:
        return visited_states(moves.at, row_lo, row_hi, p.d.n_states, False)  # (cleared when given back)
    partial = (retreat_to >= 0) & (retreat_to != np.arange(n)) & (visited > 0.0)
    if partial.any():
        after = np.zeros(n)
        np.add.at(after, retreat_to[partial], visited[partial])
        work = untracked.work(after)
        ends, _, _ = k.solve_kernel(p.A, p.D, k.Start(no_moves, np.zeros(0)), work, p.rules, settings, None,
                                    unused, between, visited, moves)
        np.minimum(row_lo, work.row_lo, out=row_lo)
        np.maximum(row_hi, work.row_hi, out=row_hi)
        p.done(work, ends)
    live = visited_states(visited, row_lo, row_hi, p.d.n_states, True)  # (and cleared)
    array_pool.give("visited", visited)
    return live


def _move_store(n_joint: int, capacity: int, n_attacker: int) -> k.MoveStore:
    """An empty ``_kernel.MoveStore`` of ``capacity`` entries (its spare room for one record
    included) for ``n_joint`` joint states, on kept arrays (``array_pool``); ``_give_back`` returns them.
    Rounds are weighted everywhere (``track_from``) until the policy is known."""
    return k.MoveStore(array_pool.take("at", n_joint, partial(np.zeros, dtype=np.int64)),
                       array_pool.take("idx", capacity, partial(np.empty, dtype=np.int64)),
                       array_pool.take("p", capacity, np.empty), np.array([0, 1], dtype=np.int64),
                       np.full(n_attacker, n_joint, dtype=np.int64))


def _give_back(store: k.MoveStore, states: np.ndarray) -> None:
    """Return ``store``'s arrays to the kept ones, the states the store recorded (among
    ``states``) cleared."""
    if store.at.shape[0] >= array_pool.MIN_POOLED_ENTRIES:
        store.at[states] = 0
    for name, part in zip(("at", "idx", "p"), store[:3], strict=True):
        array_pool.give(name, part)


SideCounts = t.SideCounts
"""Per side state: units alive, damaged and departed, and the IPC value lost (what ``retreat_plan``
reads of each side)."""


def retreat_plan(names: list[str], a_counts: t.SideCounts, d_counts: t.SideCounts, n_defender: int,
                 states: np.ndarray, mass: np.ndarray, weighted: np.ndarray) -> PlanRows:
    """The plan's rows: each state where the policy retreats and the battle gets there (units in
    the battle on each side), with the chance of retreating there and the mean round it happens
    (``states``: the joint states where it retreats with some mass, ``mass``/``weighted``: the
    retreat mass there, and the same weighted by rounds). Most likely first, ties by the texts
    (attacker's, then defender's). No row is made before it is read (``PlanRows``)."""
    return PlanRows(_Plan(names, a_counts, d_counts, states // n_defender, states % n_defender, mass,
                          weighted))


@dataclass
class _Plan:
    """What ``PlanRows`` makes its rows from: per row its side states, chance and rounds-weighted
    chance; the order of the rows and each side state's text, once worked out."""

    names: list[str]
    a_counts: t.SideCounts
    d_counts: t.SideCounts
    a_state: np.ndarray
    d_state: np.ndarray
    mass: np.ndarray
    weighted: np.ndarray
    order: list[int] | None = None
    texts: dict[tuple[int, int], str] = field(default_factory=dict)

    def text(self, side: int, state: int) -> str:
        """The units in the battle of one side state (0: the attacker's, 1: the defender's)."""
        key = (side, state)
        if key not in self.texts:
            counts = self.d_counts if side else self.a_counts
            units = counts.alive[state] - counts.departed[state]
            hurt = np.minimum(counts.damaged[state], units).tolist()
            self.texts[key] = describe_counts(
                [(name, n) for name, n in zip(self.names, units.tolist(), strict=True) if n > 0],
                {name: h for name, h in zip(self.names, hurt, strict=True) if h > 0})
        return self.texts[key]

    def sorted_rows(self) -> list[int]:
        """The rows by chance, most likely first; rows of equal chance (rare) by their texts."""
        if self.order is None:
            order = np.argsort(-self.mass, kind="stable")
            ordered = self.mass[order]
            rows = order.tolist()
            if (ordered[1:] == ordered[:-1]).any():
                chance = ordered.tolist()
                start = 0
                for end in range(1, len(rows) + 1):
                    if end == len(rows) or chance[end] != chance[start]:
                        rows[start:end] = sorted(rows[start:end], key=self._texts)
                        start = end
            self.order = rows
        return self.order

    def _texts(self, r: int) -> tuple[str, str]:
        return self.text(0, int(self.a_state[r])), self.text(1, int(self.d_state[r]))

    def row(self, r: int) -> RetreatPlanRow:
        """Row r (in the order given)."""
        p = float(self.mass[r])
        return _plan_row(*self._texts(r), p, float(self.weighted[r]) / p)


def _plan_rows(plan: _Plan) -> tuple[RetreatPlanRow, ...]:
    """All the plan's rows in order."""
    attacker, defender, mass, weighted = _plan_columns(plan)
    return tuple(_plan_row(attacker[r], defender[r], mass[r], weighted[r] / mass[r])
                 for r in plan.sorted_rows())


def _plan_columns(plan: _Plan) -> tuple[list[str], list[str], list[float], list[float]]:
    """Per row, in the order given: both sides' texts (each distinct side state described
    once), the chance and the chance weighted by rounds."""
    texts = []
    for side, states in enumerate((plan.a_state, plan.d_state)):
        distinct, where = np.unique(states, return_inverse=True)
        described = [plan.text(side, state) for state in distinct.tolist()]
        texts.append([described[w] for w in where.ravel().tolist()])
    return texts[0], texts[1], plan.mass.tolist(), plan.weighted.tolist()


def _plan_row(attacker: str, defender: str, probability: float, mean_round: float) -> RetreatPlanRow:
    """``RetreatPlanRow(attacker, defender, probability, mean_round)``, made without the frozen
    dataclass's ``__init__`` (which sets each field through ``object.__setattr__``: half the
    time of a plan's rows)."""
    row = object.__new__(RetreatPlanRow)
    row.__dict__.update(attacker=attacker, defender=defender, probability=probability, mean_round=mean_round)
    return row


class PlanRows(LazyRows[RetreatPlanRow]):
    """The best retreat's plan rows (``LazyRows``), of which a count or a few rows are read
    without making the others: the command line shows ten of some thousand, which took longer
    than the solve under the policy when all were made (all are when iterated, compared,
    printed or pickled)."""

    __slots__ = ("_plan",)

    def __init__(self, plan: _Plan) -> None:
        super().__init__(partial(_plan_rows, plan))
        self._plan = plan

    def __len__(self) -> int:
        return len(self._plan.mass)

    def as_dicts(self) -> list[dict[str, object]]:
        """The rows as ``BattleResult.to_dict`` writes them, made from the arrays (no row
        objects when none were made: the JSON of a plan of thousands of rows)."""
        if self._build is None:
            return [row_dict(row) for row in self._rows]
        attacker, defender, mass, weighted = _plan_columns(self._plan)
        return [plan_row_dict(attacker[r], defender[r], mass[r], weighted[r] / mass[r])
                for r in self._plan.sorted_rows()]

    def __getitem__(self, i):  # type: ignore[override]
        if self._build is None:  # all made already
            return self._rows[i]
        order = self._plan.sorted_rows()
        if isinstance(i, slice):
            return tuple(self._plan.row(r) for r in order[i])
        return self._plan.row(order[i])


def mix_plans(parts: Sequence[tuple[float, BattleResult]]) -> tuple[RetreatPlanRow, ...]:
    """One plan from those of the parts of a battle split by its AA outcomes (``(probability,
    BattleResult)`` each): the same states add up, their mean rounds weighted."""
    rows: dict[tuple[str, str], list[float]] = {}
    for share, result in parts:
        for row in result.retreat_plan or ():
            entry = rows.setdefault((row.attacker, row.defender), [0.0, 0.0])
            entry[0] += share * row.probability
            entry[1] += share * row.probability * row.mean_round
    plan = [RetreatPlanRow(a, d, p, w / p) for (a, d), (p, w) in rows.items() if p > 0]
    return tuple(sorted(plan, key=lambda row: (-row.probability, row.attacker, row.defender)))
