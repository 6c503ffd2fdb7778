"""The odds of one battle for every sub-army of a pool (what a plan or a purchase sweep needs).

A plan splits a pool of units over several targets, so it needs each target's battle for every
sub-army of the pool. This module answers that question behind one function,
``solve_sub_armies``; its body here is the reference algorithm, one exact ``solve`` per
sub-army (``solve_sub_armies_one_by_one``), which a faster sweep over the lattice of sub-armies
replaces behind the same names and figures.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from oddsim.errors import BattleError
from oddsim.model.battle import Battle
from oddsim.model.forces import Force
from oddsim.results.battle_result import BattleResult

SIDES = ("attacker", "defender")


@dataclass(frozen=True)
class SubArmyOdds:
    """The expectations of one battle, as ``solve`` gives them for it. The names are
    ``BattleResult``'s (its ``to_dict()`` keys): ``attacker_win`` (the issue's interface wrote
    ``attacker_wins``), ``defender_win``, ``draw``, ``takes_territory`` (``takes``; 0.0 in a sea
    battle, where the result has None), ``attacker_ipc_lost``, ``defender_ipc_lost``,
    ``tuv_swing`` (defender IPC lost minus attacker IPC lost) and ``expected_rounds``
    (``rounds``)."""

    attacker_win: float
    defender_win: float
    draw: float
    takes_territory: float
    attacker_ipc_lost: float
    defender_ipc_lost: float
    tuv_swing: float
    expected_rounds: float

    @classmethod
    def of(cls, result: BattleResult) -> SubArmyOdds:
        """The figures of one solved battle."""
        return cls(attacker_win=float(result.attacker_win), defender_win=float(result.defender_win),
                   draw=float(result.draw), takes_territory=float(result.takes_territory or 0.0),
                   attacker_ipc_lost=float(result.attacker_ipc_lost),
                   defender_ipc_lost=float(result.defender_ipc_lost), tuv_swing=float(result.tuv_swing),
                   expected_rounds=float(result.expected_rounds))


def sub_armies(pool: Force) -> list[Force]:
    """Every sub-army of ``pool``: each count vector 0..pool per unit type, its damaged units
    counted apart (0..damaged of them, 0..whole of the rest), smallest first by the pool's
    unit order; the empty army included."""
    ranges = []
    for name, n in pool.counts:
        hurt = pool.damaged_count(name)
        ranges.append((name, range(n - hurt + 1), range(hurt + 1)))
    armies = []
    for choice in itertools.product(*(r for _, whole, hurt in ranges for r in (whole, hurt))):
        counts, damaged = [], []
        for i, (name, _, _) in enumerate(ranges):
            whole, hurt = choice[2 * i], choice[2 * i + 1]
            if whole + hurt:
                counts.append((name, whole + hurt))
            if hurt:
                damaged.append((name, hurt))
        armies.append(Force(tuple(counts), tuple(damaged)))
    return armies


def joined(base: Force | None, extra: Force) -> Force:
    """``base`` plus ``extra`` (counts and damaged units added; the pool's unit order kept)."""
    if base is None or base.is_empty():
        return extra
    counts = dict(base.counts)
    damaged = dict(base.damaged)
    for name, n in extra.counts:
        counts[name] = counts.get(name, 0) + n
    for name, n in extra.damaged:
        damaged[name] = damaged.get(name, 0) + n
    return Force(tuple(counts.items()), tuple(damaged.items()))


def _check(battle: Battle, pool: Force, side: str) -> None:
    if not isinstance(battle, Battle):
        raise BattleError(f"solve_sub_armies needs a Battle, not {type(battle).__name__}")
    if not isinstance(pool, Force):
        raise BattleError(f"solve_sub_armies needs the pool as a Force, not {type(pool).__name__}")
    if side not in SIDES:
        raise BattleError(f"side must be attacker or defender, not {side!r}")


def solve_sub_armies_one_by_one(battle: Battle, pool: Force, side: str = "attacker",
                                base: Force | None = None) -> dict[Force, SubArmyOdds]:
    """The reference algorithm of ``solve_sub_armies``: one exact ``solve`` per sub-army."""
    from oddsim.engines.exact.solve import solve

    _check(battle, pool, side)
    out: dict[Force, SubArmyOdds] = {}
    for army in sub_armies(pool):
        force = joined(base, army)
        if force.is_empty():
            continue
        fought = battle.with_armies(**{side: force})
        out[army] = SubArmyOdds.of(solve(fought))
    return out


def solve_sub_armies(battle: Battle, pool: Force, side: str = "attacker",
                     base: Force | None = None) -> dict[Force, SubArmyOdds]:
    """For every sub-army s of ``pool`` (``sub_armies``: every count vector 0..pool per unit
    type; damaged units as the pool has them), the odds of ``battle`` with ``side``'s force
    replaced by ``base + s``, keyed by s; only entries whose side force is non-empty (the empty
    attacker fights no battle; an empty defender is the caller's business). Equal to ``solve``
    of each such battle to 1e-12 (here: it is one solve per sub-army)."""
    return solve_sub_armies_one_by_one(battle, pool, side, base)
