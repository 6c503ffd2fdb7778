"""Round 1's advice at sea with submarines, read from the typed game's solved tables (``sub_game``).

A round there has two phases: the surprise strike (subs of a side whose enemy has no destroyer)
and general fire. Hits come in groups, a triple (S, X, G): subs' (never on aircraft), aircraft's
that cannot hit subs (no friendly destroyer), the rest. Per phase and state it starts from, the
same grid as on land, made by the calls ``forward`` plays (``_sub_casualties._phase_moves``): per
triple the attacker scores, the composition the defender keeps (``_defender_keeps``: its best, or
its order's); per triple it takes and per triple scored, the one the attacker keeps
(``attacker_keeps``: it chooses last, knowing the defender's losses). The surprise strike is read
from the battle's start; general fire from every state the strike can leave (the start itself where
there is none).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from oddsim.engines.exact import _casualties as kc
from oddsim.engines.exact import _sub_casualties as ks
from oddsim.engines.exact import sub_game
from oddsim.engines.exact.casualties import Solved
from oddsim.results.casualty_policy import GroupChance, HitGroups

PHASES = ("surprise strike", "general fire")


class PhaseGrid(NamedTuple):
    """Round 1's choices in one phase fought from compositions (a, d), reached with chance
    ``probability``: per triple the attacker scores (``scored``), the defender's composition after
    its losses (``kept_d``); per triple the attacker takes that costs it a unit (``taken``) and
    per pair, the attacker's composition after its losses (``kept_a[i, j]`` for ``scored[i]``,
    ``taken[j]``). Triples rarer than the advice's least chance are left out."""

    phase: str
    a: int
    d: int
    probability: float
    scored: tuple[GroupChance, ...]
    kept_d: tuple[int, ...]
    taken: tuple[GroupChance, ...]
    kept_a: tuple[tuple[int, ...], ...]


class _Fire(NamedTuple):
    """One phase's hit lists from (a, d), whole: the attacker's triples on the defender and their
    chances, the defender's on the attacker, and the defender's composition after each of the
    attacker's (as ``_phase_moves`` plays it)."""

    ta: list[int]
    ta_p: list[float]
    td: list[int]
    td_p: list[float]
    kept_d: list[int]
    tops_a: tuple[int, int, int]
    tops_d: tuple[int, int, int]


def triple_hits(dims: np.ndarray, t: int) -> tuple[int, int, int]:
    """Triple index t (folded at ``dims``) as its hits (S, X, G)."""
    return (int(t // ((dims[1] + 1) * (dims[2] + 1))), int((t // (dims[2] + 1)) % (dims[1] + 1)),
            int(t % (dims[2] + 1)))


def _phase_fire(solved: Solved, a: int, d: int, phase2: bool) -> _Fire:
    g, s = solved.game, solved.typed
    assert g.typed is not None and s is not None
    A, D, AT, DT, rules = g.A, g.D, g.typed.AT, g.typed.DT, g.typed.rules  # noqa: N806
    M = s.M2 if phase2 else s.M1  # noqa: N806
    bufs = (np.zeros(ks._n_triples(DT), dtype=np.int64), np.zeros(ks._n_triples(DT)),
            np.zeros(ks._n_triples(AT), dtype=np.int64), np.zeros(ks._n_triples(AT)))
    n_ta, _, n_td, _ = ks._both_fire(A, D, AT, DT, rules, a, d, phase2, bufs)
    ta, ta_p, td, td_p = (b.tolist() for b in bufs)
    ta, ta_p, td, td_p = ta[:n_ta], ta_p[:n_ta], td[:n_td], td_p[:n_td]
    kept_d = [d if ks._unpaid(DT, d, t) else
              int(ks._defender_keeps(A, D, AT, DT, M, a, d, t, bufs[2], bufs[3], n_td)[0]) for t in ta]
    a_first, d_first = ks._strikes(A, D, AT, DT, rules, a, d)
    a_apart = rules.air_needs_destroyer and not AT.destroyer[a] and DT.sub[d]
    d_apart = rules.air_needs_destroyer and not DT.destroyer[d] and AT.sub[a]
    return _Fire(ta, ta_p, td, td_p, kept_d, _tops(solved, True, a, a_first, phase2, a_apart),
                 _tops(solved, False, d, d_first, phase2, d_apart))


def _tops(solved: Solved, attacking: bool, f: int, first: bool, phase2: bool,
          apart: bool) -> tuple[int, int, int]:
    """The most hits of each group (S, X, G) a side in composition f can score in a phase, before
    its hit tables fold them at what the target can take."""
    g = solved.game
    assert g.typed is not None
    side, F, sa, types = ((g.A, g.typed.AT, g.low.attacker, g.a_types) if attacking  # noqa: N806
                          else (g.D, g.typed.DT, g.low.defender, g.d_types))
    rs, rx, rg, merged = ks._phase_fire(F, f, first, phase2, apart)
    fire = sub_game.group_fire(g.low, sa, types)
    counts = side.counts[f:f + 1]
    tops = []
    for row, rules in ((rs, fire.s), (rx, fire.x), (rg, fire.xg if merged else fire.g)):
        dice = int((counts[0] * rules.dice).sum())
        table = kc.hit_table(counts, rules, g.low.low_luck, dice) if row != F.ps.shape[0] - 1 else None
        tops.append(0 if table is None else int(np.flatnonzero(table[0] > 0.0).max()))
    return tops[0], tops[1], tops[2]


def _triple(dims: np.ndarray, tops: tuple[int, int, int], t: int, p: float) -> GroupChance:
    """Triple t (folded at ``dims``) with its chance: a group's count at its fold stands for that
    many or more where the firing side can score more."""
    hits = triple_hits(dims, t)
    s, x, g = (h == int(dim) and top > h for h, dim, top in zip(hits, dims.tolist(), tops, strict=True))
    return GroupChance(HitGroups(*hits, (s, x, g)), p)


def _attacker_keeps(solved: Solved, phase2: bool, a: int, t: int, dp: int) -> int:
    """The attacker's composition after the defender's triple t against dp (as ``_phase_moves``)."""
    g, s = solved.game, solved.typed
    assert g.typed is not None and s is not None
    if ks._unpaid(g.typed.AT, a, t):
        return a
    M, C = (s.M2, s.V) if phase2 else (s.M1, s.W)  # noqa: N806
    return int(ks.attacker_keeps(g.A, g.typed.AT, M, C, a, t, dp))


def phase_grid(solved: Solved, a: int, d: int, phase2: bool, probability: float, min_chance: float,
               fire: _Fire) -> PhaseGrid:
    """The grid of one phase fought from (a, d) (see the module), whose hit lists are ``fire``
    (``_phase_fire``)."""
    g = solved.game
    assert g.typed is not None
    AT, DT = g.typed.AT, g.typed.DT  # noqa: N806
    rows = [i for i, p in enumerate(fire.ta_p) if p >= min_chance]
    cols = [j for j, (t, p) in enumerate(zip(fire.td, fire.td_p, strict=True))
            if p >= min_chance and not ks._unpaid(AT, a, t)]
    by_hits = sorted(rows, key=lambda i: (sum(triple_hits(DT.dims, fire.ta[i])), fire.ta[i]))
    cols.sort(key=lambda j: (sum(triple_hits(AT.dims, fire.td[j])), fire.td[j]))  # (fewest hits first)
    return PhaseGrid(PHASES[phase2], a, d, probability,
                     tuple(_triple(DT.dims, fire.tops_a, fire.ta[i], fire.ta_p[i]) for i in by_hits),
                     tuple(fire.kept_d[i] for i in by_hits),
                     tuple(_triple(AT.dims, fire.tops_d, fire.td[j], fire.td_p[j]) for j in cols),
                     tuple(tuple(_attacker_keeps(solved, phase2, a, fire.td[j], fire.kept_d[i]) for j in cols)
                           for i in by_hits))


def strike_outcomes(solved: Solved, a: int, fire: _Fire) -> dict[tuple[int, int], float]:
    """The compositions (a', d') the surprise strike from (a, d) leaves, with their chances (every
    pair of hit triples, as ``forward`` plays them; (a, d) itself where it sinks nothing), given
    its hit lists ``fire`` (``_phase_fire``)."""
    out: dict[tuple[int, int], float] = {}
    for dp, q in zip(fire.kept_d, fire.ta_p, strict=True):
        for t, p in zip(fire.td, fire.td_p, strict=True):
            pair = (_attacker_keeps(solved, False, a, t, dp), dp)
            out[pair] = out.get(pair, 0.0) + q * p
    return out


def phase_grids(solved: Solved, min_chance: float) -> tuple[PhaseGrid, ...]:
    """Round 1's grids: the surprise strike from the start (where a side's subs strike first), then
    general fire from each state the strike leaves where the battle goes on (chance ``min_chance``
    or more; the likeliest first, always one), or from the start where no sub strikes first."""
    g = solved.game
    assert g.typed is not None
    a, d = int(g.A.start), int(g.D.start)
    a_first, d_first = ks._strikes(g.A, g.D, g.typed.AT, g.typed.DT, g.typed.rules, a, d)
    if not (a_first or d_first):
        return (phase_grid(solved, a, d, True, 1.0, min_chance, _phase_fire(solved, a, d, True)),)
    strike = _phase_fire(solved, a, d, False)  # (its grid, and the states it leaves)
    grids = [phase_grid(solved, a, d, False, 1.0, min_chance, strike)]
    after = sorted(((p, pair) for pair, p in strike_outcomes(solved, a, strike).items()
                    if kc._outcome(g.A, g.D, pair[0], pair[1]) == kc.ONGOING), key=lambda o: -o[0])
    for p, (ap, dp) in after:
        if p < min_chance and len(grids) > 1:
            break
        grids.append(phase_grid(solved, ap, dp, True, p, min_chance, _phase_fire(solved, ap, dp, True)))
    return tuple(grids)
