"""Round 1's advice at sea with submarines, read from the typed game's solved tables (``sub_game``).

A round there has two phases: the surprise strike (subs of a side whose enemy has no destroyer)
and general fire. Hits come in groups: subs' (never on aircraft), aircraft's that cannot hit subs
(no friendly destroyer), the rest. For each phase fought from the battle's start, and for each
group of hits a choosing side takes: the units it loses, as the solved policy picks them
(``_sub_casualties._defender_keeps`` and ``attacker_keeps``, the ones ``forward`` plays). General
fire is read from the start too: the advice after a surprise strike that sank nothing. The
attacker chooses knowing the defender's losses; its row is the loss after most of the attacker's
rolls (the largest chance), as on land.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from oddsim.engines.exact import _sub_casualties as ks
from oddsim.engines.exact.casualties import Solved

PHASES = ("surprise strike", "general fire")


class TypedChoice(NamedTuple):
    """A choosing ``side`` ("attacker"/"defender") taking ``hits`` (words by group, chance
    ``probability``; ``n_hits`` in all) in ``phase`` from its start composition keeps composition
    ``kept``."""

    side: str
    phase: str
    hits: str
    n_hits: int
    probability: float
    kept: int


def triple_hits(dims: np.ndarray, t: int) -> tuple[int, int, int]:
    """Triple index t (folded at ``dims``) as its hits (S, X, G)."""
    return (int(t // ((dims[1] + 1) * (dims[2] + 1))), int((t // (dims[2] + 1)) % (dims[1] + 1)),
            int(t % (dims[2] + 1)))


def hit_words(dims: np.ndarray, t: int) -> str:
    """Triple t in words: "1 from subs", "2 from aircraft, 1 from the rest"."""
    hits = zip(triple_hits(dims, t), ("subs", "aircraft", "the rest"), strict=True)
    return ", ".join(f"{n} from {who}" for n, who in hits if n) or "none"


def typed_choices(solved: Solved, min_chance: float) -> tuple[TypedChoice, ...]:
    """Round 1's choices of each choosing side, phase by phase (see the module), for the hits of
    chance ``min_chance`` or more that change its composition."""
    g, s = solved.game, solved.typed
    assert g.typed is not None and s is not None
    A, D, AT, DT, rules = g.A, g.D, g.typed.AT, g.typed.DT, g.typed.rules  # noqa: N806
    a, d = int(A.start), int(D.start)
    a_first, d_first = ks._strikes(A, D, AT, DT, rules, a, d)
    rows: list[TypedChoice] = []
    for k, (phase2, M, C) in enumerate(((False, s.M1, s.W), (True, s.M2, s.V))):  # noqa: N806
        start = len(rows)
        if not phase2 and not (a_first or d_first):
            continue
        ta_t, ta_p = np.zeros(ks._n_triples(DT), dtype=np.int64), np.zeros(ks._n_triples(DT))
        td_t, td_p = np.zeros(ks._n_triples(AT), dtype=np.int64), np.zeros(ks._n_triples(AT))
        a_apart = rules.air_needs_destroyer and not AT.destroyer[a] and DT.sub[d]
        d_apart = rules.air_needs_destroyer and not DT.destroyer[d] and AT.sub[a]
        n_ta, _ = ks._fire_list(AT, a, a_first, phase2, a_apart, DT, d, ta_t, ta_p)
        n_td, _ = ks._fire_list(DT, d, d_first, phase2, d_apart, AT, a, td_t, td_p)
        kept_d = [d if ks._unpaid(DT, d, int(t)) else
                  int(ks._defender_keeps(A, D, AT, DT, M, a, d, int(t), td_t, td_p, n_td)[0])
                  for t in ta_t[:n_ta].tolist()]
        if D.best:
            rows += [_choice("defender", PHASES[k], DT.dims, t, p, dp)
                     for t, p, dp in zip(ta_t[:n_ta].tolist(), ta_p[:n_ta].tolist(), kept_d, strict=True)
                     if p >= min_chance and not ks._unpaid(DT, d, t)]
        if A.best:
            for t, p in zip(td_t[:n_td].tolist(), td_p[:n_td].tolist(), strict=True):
                if p < min_chance or ks._unpaid(AT, a, t):
                    continue
                mass: dict[int, float] = {}
                for q, dp in zip(ta_p[:n_ta].tolist(), kept_d, strict=True):
                    ap = int(ks.attacker_keeps(A, AT, M, C, a, t, dp))
                    mass[ap] = mass.get(ap, 0.0) + q
                usual = max(mass, key=mass.__getitem__)
                rows.append(_choice("attacker", PHASES[k], AT.dims, t, p, usual))
        rows[start:] = sorted(rows[start:], key=lambda c: (c.side != "defender", c.n_hits))  # (fewest first)
    return tuple(rows)


def _choice(side: str, phase: str, dims: np.ndarray, t: int, p: float, kept: int) -> TypedChoice:
    return TypedChoice(side, phase, hit_words(dims, t), sum(triple_hits(dims, t)), p, kept)
