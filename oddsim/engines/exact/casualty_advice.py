"""The advice best casualties give a player at the table, read from a solved game (``casualties``).

For the round a battle starts with (round 1, or the round a battle ``in_progress`` resumes at),
from each state the AA fire can leave the attacker in: the defender's loss for each number of hits
the attacker scores, and the attacker's loss for each pair (hits it scored, hits it takes). The
attacker chooses last, knowing the defender's state after the defender's losses, and the hits it
scored decide that state (by the defender's best choice or its order), so the pair is all its
choice depends on.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from oddsim.engines.exact import _casualties as kc
from oddsim.engines.exact.casualties import Game, Solved, _units_text, aa_rolled_per_aircraft
from oddsim.engines.exact.compositions import WHOLE, CompositionTypes
from oddsim.engines.exact.sub_advice import PhaseGrid, phase_grids
from oddsim.engines.lowering import unit_names
from oddsim.results.casualty_policy import (
    CasualtyPolicy,
    Chance,
    Loss,
    PhaseAdvice,
    RoundAdvice,
    Scored,
    TypedScored,
    collapse,
)

ADVICE_MIN_CHANCE = 1e-4
"""Hit counts (scored or taken) and AA outcomes rarer than this in the round are left out of the
advice."""



class RoundChoices(NamedTuple):
    """Both sides' choices in one round from compositions (a, d): per number of hits the attacker
    scores (``scored``, chance ``scored_p``), the defender's composition after its losses
    (``kept_d``); per number of hits the attacker takes (``taken``, chance ``taken_p``) and per
    pair, the attacker's composition after its losses (``kept_a[i, j]`` for ``scored[i]``,
    ``taken[j]``). Hit counts of no chance, or rarer than ``min_chance``, are left out."""

    a: int
    d: int
    scored: np.ndarray
    scored_p: np.ndarray
    kept_d: np.ndarray
    taken: np.ndarray
    taken_p: np.ndarray
    kept_a: np.ndarray


def round_choices(solved: Solved, a: int, d: int, min_chance: float = ADVICE_MIN_CHANCE) -> RoundChoices:
    """The choices of a round fought from (a, d) under the solved policies (a side that follows its
    order of loss: its order's losses). The defender's casualties still fire, so the hits the
    attacker takes do not depend on those it scored: a pair's chance is the product of theirs."""
    g = solved.game
    A, D, M = g.A, g.D, solved.M  # noqa: N806
    d_units, a_units = int(D.capacity[d]), int(A.capacity[a])
    scored = [r for r in range(d_units + 1) if _some(kc._capped(A.hit, a, r, d_units), min_chance)]
    taken = [h for h in range(1, a_units + 1) if _some(kc._capped(D.hit, d, h, a_units), min_chance)]
    kept_d = [d if r == 0 else int(kc.defender_choice(A, D, M, g.subsets, a, d, r)) for r in scored]
    kept_a = np.array([[int(kc.attacker_choice(A, M, a, h, dp)) for h in taken] for dp in kept_d],
                      dtype=np.int64).reshape(len(scored), len(taken))
    return RoundChoices(a, d, np.array(scored, dtype=np.int64),
                        np.array([kc._capped(A.hit, a, r, d_units) for r in scored]),
                        np.array(kept_d, dtype=np.int64), np.array(taken, dtype=np.int64),
                        np.array([kc._capped(D.hit, d, h, a_units) for h in taken]), kept_a)


def _some(chance: float, least: float) -> bool:
    return chance > 0.0 and chance >= least


def policy(solved: Solved, fixed: float) -> CasualtyPolicy:
    """The policy's figures and the advice for the battle's first round: the aircraft the attacker
    loses to AA fire where it chooses them, then the round from each state the AA fire leaves."""
    g = solved.game
    names = unit_names(g.battle.rules)
    if g.typed is not None:  # (at sea with subs: hits are typed, round 1's advice by phase and group)
        grids = phase_grids(solved, ADVICE_MIN_CHANCE)
        struck = grids[0].phase == "surprise strike"
        phases = tuple(_phase_advice(names, g, grid, struck and k > 0) for k, grid in enumerate(grids))
        return CasualtyPolicy(g.battle.casualty_goal or "take", solved.value, fixed, g.A.best, g.D.best,
                              (), (), g.battle.in_progress, phases=phases)
    a_start, d0 = g.A.start, g.D.start
    chosen_aa = g.A.best and not aa_rolled_per_aircraft(g.battle)
    aa = collapse([(h, p, _lost(names, g.a_types, g.A.counts[a_start], g.A.counts[s]), ())
                   for h, p, s in solved.aa if h > 0 and p >= ADVICE_MIN_CHANCE]) if chosen_aa else ()
    starts: list[RoundAdvice] = []
    for h, p, a0 in sorted(solved.aa, key=lambda o: -o[1]):  # (the likeliest first)
        if p < ADVICE_MIN_CHANCE and starts:
            break
        c = round_choices(solved, a0, d0)
        scored = tuple(Scored(r, float(q), _lost(names, g.d_types, g.D.counts[d0], g.D.counts[dp]),
                              _units_text(names, g.d_types, g.D.counts[dp]))
                       for r, q, dp in zip(c.scored.tolist(), c.scored_p.tolist(), c.kept_d.tolist(),
                                           strict=True))
        taken = tuple(Chance(t, float(q)) for t, q in zip(c.taken.tolist(), c.taken_p.tolist(), strict=True))
        lose = tuple(tuple(_lost(names, g.a_types, g.A.counts[a0], g.A.counts[ap]) for ap in row)
                     for row in c.kept_a.tolist()) if g.A.best else ()
        aa_lost = _lost(names, g.a_types, g.A.counts[a_start], g.A.counts[a0]).text()
        starts.append(RoundAdvice(h, float(p), aa_lost, scored, taken, lose))
    return CasualtyPolicy(g.battle.casualty_goal or "take", solved.value, fixed, g.A.best, g.D.best,
                          aa, tuple(starts), g.battle.in_progress)


def _phase_advice(names: tuple[str, ...], g: Game, grid: PhaseGrid, after_strike: bool) -> PhaseAdvice:
    """A phase's grid as advice: losses from the phase's start (a, d), and where it follows a
    surprise strike, what the strike sank from the battle's start."""
    A, D = g.A, g.D  # noqa: N806
    scored = tuple(TypedScored(c.hits, c.probability, _lost(names, g.d_types, D.counts[grid.d], D.counts[dp]),
                               _units_text(names, g.d_types, D.counts[dp]))
                   for c, dp in zip(grid.scored, grid.kept_d, strict=True))
    lose = tuple(tuple(_lost(names, g.a_types, A.counts[grid.a], A.counts[ap]) for ap in row)
                 for row in grid.kept_a) if A.best else ()
    struck = ((_lost(names, g.a_types, A.counts[A.start], A.counts[grid.a]),
               _lost(names, g.d_types, D.counts[D.start], D.counts[grid.d])) if after_strike else None)
    return PhaseAdvice(grid.phase, grid.probability, struck, scored, grid.taken, lose)


def _lost(names: tuple[str, ...], types: CompositionTypes, before: np.ndarray, after: np.ndarray) -> Loss:
    """What a side loses going from composition ``before`` to ``after``: units removed, and
    two-hit units damaged ("1 battleship damaged"). Of two-hit units, the damaged ones are the
    ones lost first: from a whole and a damaged battleship to one damaged battleship is "1
    battleship, 1 battleship damaged" (the damaged one sunk, the other hit), two hits either way."""
    removed: dict[int, int] = {}
    hurt: dict[int, int] = {}
    for k, (u, role) in enumerate(zip(types.unit.tolist(), types.role.tolist(), strict=True)):
        if role == 0:
            removed[u] = int(before[k] - after[k])
        elif role == WHOLE:
            p = int(types.pair[k])
            dead = int(before[k] + before[p] - after[k] - after[p])
            removed[u] = dead
            hurt[u] = int(before[k] - after[k]) - max(0, dead - int(before[p]))  # (whole ones hit once)
    return Loss(tuple((names[u], n, False) for u, n in removed.items())
                + tuple((names[u], n, True) for u, n in hurt.items()))
