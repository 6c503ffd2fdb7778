"""The odds of one battle for every sub-army of a pool (what a plan or a purchase sweep needs): a stage,
since a battle the AA outcome splits, or one that does not fit the sweep, is fought by the pipeline.

A plan splits a pool of units over several targets, so it needs each target's battle for every
sub-army of the pool; a purchase sweep needs the battle of every purchase added to the existing
army. Solved one by one, each battle pays the exact engine's fixed cost and repeats the others'
work: a battle between rounds is a smaller battle in progress. ``solve_sub_armies`` solves them
together: with a fixed order of loss, a sub-army that takes casualties is another sub-army, so
one backward sweep over the lattice of the side's sub-armies against the other side's casualty
states gives the expectations of every sub-army at once (``oddsim.engines.exact.lattice``), with round 1's
own steps (AA fire, a bombardment, subs that strike first in round 1 only) applied on top per
sub-army. The figures equal those of one ``solve`` per sub-army to 1e-12.

Where a battle does not fit the sweep (a retreat policy, submerging subs, crash fighters,
``keep_land`` or a destroyer kept last on the swept side, sub-armies that differ in units that
hold the territory without fighting), each sub-army is solved apart, as are those whose battle
the AA outcome splits (``oddsim.stages.aa_split``): the answers are the same, only slower.
``solve_sub_armies_one_by_one`` is the reference: one ``solve`` per sub-army.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from oddsim.engines.exact.lattice import FIGURES, SIDES, battle_with, solve_armies
from oddsim.errors import BattleError
from oddsim.model.battle import Battle
from oddsim.model.forces import Force, parse_force
from oddsim.results.battle_result import BattleResult
from oddsim.stages.pipeline import solve

__all__ = ["FIGURES", "SubArmyOdds", "battle_with", "joined", "solve_armies", "solve_sub_armies",
           "solve_sub_armies_one_by_one", "sub_armies"]


@dataclass(frozen=True)
class SubArmyOdds:
    """The expectations of one battle, as ``solve`` gives them for it. The names are
    ``BattleResult``'s (its ``to_dict()`` keys), where the issue's interface wrote others:
    ``attacker_win`` (``attacker_wins``), ``defender_win``, ``draw``, ``takes_territory``
    (``takes``; 0.0 in a sea battle, where the result has None), ``attacker_ipc_lost``,
    ``defender_ipc_lost``, ``tuv_swing`` (defender IPC lost minus attacker IPC lost),
    ``expected_rounds`` (``rounds``), and ``stalemate`` (a purchase row's figure, which the
    interface left out)."""

    attacker_win: float
    defender_win: float
    draw: float
    takes_territory: float
    attacker_ipc_lost: float
    defender_ipc_lost: float
    tuv_swing: float
    expected_rounds: float
    stalemate: float

    @classmethod
    def of(cls, result: BattleResult) -> SubArmyOdds:
        """The figures of one solved battle."""
        return cls(attacker_win=float(result.attacker_win), defender_win=float(result.defender_win),
                   draw=float(result.draw), takes_territory=float(result.takes_territory or 0.0),
                   attacker_ipc_lost=float(result.attacker_ipc_lost),
                   defender_ipc_lost=float(result.defender_ipc_lost), tuv_swing=float(result.tuv_swing),
                   expected_rounds=float(result.expected_rounds), stalemate=float(result.stalemate))


def sub_armies(pool: Force) -> list[Force]:
    """Every sub-army of ``pool``: each count vector 0..pool per unit type, its damaged units
    counted apart (0..damaged of them and 0..whole of the rest), in the pool's unit order, the
    last type changing fastest; the empty army first."""
    choices = []
    for name, n in pool.counts:
        hurt = pool.damaged_count(name)
        choices.append([(whole, damaged) for whole in range(n - hurt + 1) for damaged in range(hurt + 1)])
    names = [name for name, _ in pool.counts]
    armies = []
    for picked in itertools.product(*choices):
        counts = tuple((name, w + d) for name, (w, d) in zip(names, picked, strict=True) if w + d)
        damaged = tuple((name, d) for name, (_, d) in zip(names, picked, strict=True) if d)
        armies.append(Force(counts, damaged))
    return armies


def joined(base: Force | None, extra: Force) -> Force:
    """``base`` plus ``extra`` (counts and damaged units added, ``base``'s unit order first)."""
    return extra if base is None or base.is_empty() else base.plus(extra)


def _checked(battle: Battle, pool: Force, side: str, base: Force | None) -> tuple[Force, Force | None]:
    """The pool and base, checked and normalised for the battle's edition (``parse_force``)."""
    if not isinstance(battle, Battle):
        raise BattleError(f"solve_sub_armies needs a Battle, not {type(battle).__name__}")
    if not isinstance(pool, Force):
        raise BattleError(f"solve_sub_armies needs the pool as a Force, not {type(pool).__name__}")
    if base is not None and not isinstance(base, Force):
        raise BattleError(f"solve_sub_armies needs the base as a Force or None, not {type(base).__name__}")
    if side not in SIDES:
        raise BattleError(f"side must be attacker or defender, not {side!r}")
    return (parse_force(pool, battle.rules, "pool"),
            None if base is None else parse_force(base, battle.rules, "base"))


def solve_sub_armies_one_by_one(battle: Battle, pool: Force, side: str = "attacker",
                                base: Force | None = None) -> dict[Force, SubArmyOdds]:
    """The reference algorithm of ``solve_sub_armies``: one exact ``solve`` per sub-army."""
    pool, base = _checked(battle, pool, side, base)
    out: dict[Force, SubArmyOdds] = {}
    for army in sub_armies(pool):
        force = joined(base, army)
        if not force.is_empty():
            out[army] = SubArmyOdds.of(solve(battle_with(battle, side, force)))
    return out


def solve_sub_armies(battle: Battle, pool: Force, side: str = "attacker",
                     base: Force | None = None) -> dict[Force, SubArmyOdds]:
    """For every sub-army s of ``pool`` (``sub_armies``: every count vector 0..pool per unit
    type; damaged units as the pool has them), the odds of ``battle`` with ``side``'s force
    replaced by ``base + s``, keyed by s; only entries whose side force is non-empty (the empty
    attacker fights no battle; an empty defender is the caller's business). Equal to ``solve``
    of each such battle to 1e-12: one lattice sweep where the battle fits it (see the module),
    else one solve per sub-army. Raises what ``solve`` raises (``TooLargeError``: a sub-army's
    battle is too large for the exact engine)."""
    pool, base = _checked(battle, pool, side, base)
    armies = [army for army in sub_armies(pool) if not joined(base, army).is_empty()]
    if not armies:
        return {}
    names = tuple(u.name for u in battle.rules.units)
    forces = [joined(base, army) for army in armies]
    counts = np.array([[f.count(n) for n in names] for f in forces], dtype=np.int64)
    damaged = np.array([[f.damaged_count(n) for n in names] for f in forces], dtype=np.int64)
    swept = solve_armies(battle, side, counts, damaged)
    out: dict[Force, SubArmyOdds] = {}
    for i, (army, force) in enumerate(zip(armies, forces, strict=True)):
        if swept is None or swept[1][i]:
            out[army] = SubArmyOdds.of(solve(battle_with(battle, side, force)))
        else:
            out[army] = SubArmyOdds(**dict(zip(FIGURES, swept[0][i].tolist(), strict=True)))
    return out
