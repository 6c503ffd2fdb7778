"""Best casualties at sea with submarines: a game of ``casualties`` given the typed hits and first
strike of ``_sub_casualties`` (who may hit what, whose subs strike first, each side's options per
hit triple), solved and fought forward there."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from oddsim.engines.exact import _casualties as kc
from oddsim.engines.exact import _sub_casualties as ks
from oddsim.engines.exact.compositions import (
    CompositionTypes,
    fire_rules,
    fixed_losses,
    later_keeps,
    loss_steps,
    subset_lists,
)
from oddsim.engines.lowering import LoweredBattle, SideArrays

MAX_TYPED_ENTRIES = 10_000_000
"""Most entries of each of the attacker's two best-loss tables (pairs x the defender's hit
triples, 8 bytes each) taken on."""


class TypedGame(NamedTuple):
    """The typed game's tables: both sides' ``TypedSide`` and the edition's sub rules."""

    AT: ks.TypedSide  # noqa: N815 - the kernels' names
    DT: ks.TypedSide  # noqa: N815
    rules: ks.SubRules


def has_subs(low: LoweredBattle) -> bool:
    """Whether either side starts with a submarine."""
    return bool(((low.attacker.count + low.defender.count) * low.is_sub).any())


def _classes(low: LoweredBattle, types: CompositionTypes, last: np.ndarray) -> np.ndarray:
    u = types.unit
    return np.where(low.is_sub[u], ks.SUB, np.where(low.is_air[u], ks.AIR,
                                                    np.where(last, ks.LAST, ks.SURFACE))).astype(np.int64)


class GroupFire(NamedTuple):
    """A side's fire split by who rolls, each a ``FireRules`` where only those types fire: its subs
    (hits that never go to aircraft), its aircraft, the rest, and aircraft with the rest."""

    s: kc.FireRules
    x: kc.FireRules
    g: kc.FireRules
    xg: kc.FireRules


def group_fire(low: LoweredBattle, sa: SideArrays, types: CompositionTypes) -> GroupFire:
    """``GroupFire`` of one side (its composition ``types``)."""
    fire = fire_rules(low, sa, types.unit)
    sub, air = low.is_sub[types.unit], low.is_air[types.unit]
    return GroupFire(*(fire._replace(defenceless=fire.defenceless | ~mask)
                       for mask in (sub, air, ~sub & ~air, ~sub)))


def _table(counts: np.ndarray, fire: kc.FireRules, low_luck: bool, cap: int) -> np.ndarray:
    """Hits of one ``GroupFire`` group per composition, with a last row of no hit."""
    table = kc.hit_table(counts, fire, low_luck, cap)
    none = np.zeros((1, cap + 1))
    none[0, 0] = 1.0
    return np.ascontiguousarray(np.vstack((table, none)))


def _most(table: np.ndarray) -> int:
    return int(np.flatnonzero((table > 0.0).any(axis=0)).max())


def _fixed_walk(side: kc.CasualtySide, types: CompositionTypes, sa: SideArrays, cls: np.ndarray,
                dims: np.ndarray) -> np.ndarray:
    """Per composition and triple, what the order of loss keeps: S hits first (never on aircraft),
    then X (never on subs), then G, one at a time along the order, as the fixed-order engine."""
    step_k, step_kind = loss_steps(sa, types)
    later = later_keeps(sa, step_k, step_kind)
    counts, stride, move, pair = side.counts, side.stride, side.move, types.pair
    nxt = [fixed_losses(counts, stride, move, pair, step_k, step_kind, later, mask, 1)[:, 1]
           for mask in (cls != ks.AIR, cls != ks.SUB, np.ones(len(cls), dtype=np.bool_))]
    n_states = counts.shape[0]
    out = np.zeros((n_states, dims[0] + 1, dims[1] + 1, dims[2] + 1), dtype=np.int64)
    for s in range(n_states):
        for sh in range(dims[0] + 1):
            a = s
            for _ in range(sh):
                a = nxt[0][a]
            for xh in range(dims[1] + 1):
                b = a
                for _ in range(xh):
                    b = nxt[1][b]
                for gh in range(dims[2] + 1):
                    c = b
                    for _ in range(gh):
                        c = nxt[2][c]
                    out[s, sh, xh, gh] = c
    return out.ravel()


def typed_game(low: LoweredBattle, A: kc.CasualtySide, a_types: CompositionTypes,  # noqa: N803
               D: kc.CasualtySide, d_types: CompositionTypes) -> TypedGame:  # noqa: N803
    """The typed tables of a sea battle with a submarine, its sides ``A`` and ``D`` as compositions."""
    made = []
    for side, types, sa, enemy in ((A, a_types, low.attacker, D), (D, d_types, low.defender, A)):
        fire = group_fire(low, sa, types)
        cap = int(enemy.capacity.max())
        tables = {name: _table(side.counts, f, low.low_luck, cap)
                  for name, f in zip(("ps", "px", "pg", "pxg"), fire, strict=True)}
        made.append((side, types, sa, _classes(low, types, side.last), tables))
    out = []
    for i, (side, types, sa, cls, _) in enumerate(made):
        enemy_tables = made[1 - i][4]
        cap = int(side.capacity.max())
        dims = np.array([min(_most(enemy_tables["ps"]), cap),
                         min(_most(enemy_tables["px"]), cap) if low.air_needs_destroyer else 0,
                         min(_most(enemy_tables["pxg"]), cap)], dtype=np.int64)
        no_last = np.zeros(len(cls), dtype=np.bool_)
        sub_start, sub_items, _ = subset_lists(side.counts, side.capacity, types.role, types.pair, no_last)
        opt_start, opt_items = ks.typed_options(side.counts, side.capacity, types.role, types.pair, cls,
                                                sub_start, sub_items, dims)
        fixed = _fixed_walk(side, types, sa, cls, dims)
        u = types.unit
        destroyer = (side.counts * low.is_destroyer[u]).sum(axis=1) > 0
        sub = (side.counts * low.is_sub[u]).sum(axis=1) > 0
        t = made[i][4]
        out.append(ks.TypedSide(cls, t["ps"], t["px"], t["pg"], t["pxg"], destroyer, sub, dims, opt_start,
                                opt_items, fixed))
    rules = ks.SubRules(bool(low.attacker_subs_first), bool(low.defender_subs_first),
                        bool(low.air_needs_destroyer))
    return TypedGame(out[0], out[1], rules)


def n_triples(side: ks.TypedSide) -> int:
    return int(np.prod(side.dims + 1))


class TypedSolved(NamedTuple):
    V: np.ndarray  # noqa: N815
    W: np.ndarray  # noqa: N815
    M1: np.ndarray  # noqa: N815
    M2: np.ndarray  # noqa: N815


def solve(A: kc.CasualtySide, D: kc.CasualtySide, goal: kc.Goal, t: TypedGame) -> TypedSolved:  # noqa: N803
    """Backward induction over every composition pair of the typed game."""
    n_a, n_d = A.counts.shape[0], D.counts.shape[0]
    V = np.zeros((n_d, n_a))  # noqa: N806
    W = np.zeros((n_d, n_a))  # noqa: N806
    M1 = np.zeros((n_a, n_d, n_triples(t.AT)))  # noqa: N806 - (phase 1: S triples only, read by index)
    M2 = np.zeros((n_a, n_d, n_triples(t.AT)))  # noqa: N806
    ks.solve_kernel(A, D, t.AT, t.DT, t.rules, goal, V, W, M1, M2)
    return TypedSolved(V, W, M1, M2)


def forward(A: kc.CasualtySide, D: kc.CasualtySide, t: TypedGame, s: TypedSolved,  # noqa: N803
            start_idx: np.ndarray, start_mass: np.ndarray) -> tuple[np.ndarray, float]:
    """The end masses (joint d * n_a + a) and expected rounds under both policies."""
    return ks.forward_kernel(A, D, t.AT, t.DT, t.rules, s.V, s.W, s.M1, s.M2, start_idx, start_mass)
