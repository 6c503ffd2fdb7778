"""Placement policies as lookup tables: which placement each side makes in every situation.

Both tables index placements in the side's catalogue (``artillery.Placements.vectors``):

* ``attacker[ra, rd]``: the attacker's placement for attacker roll ``ra`` and defender roll
  ``rd``. Under ``RollOrder.ATTACKER_FIRST`` the attacker places before the defender rolls, so
  every column of a row is the same.
* ``defender[a, rd]``: the defender's answer to attacker placement ``a`` with its roll ``rd``.

``optimal`` is minimax on the key of ``outcomes`` (win first, see there), with both sides seeing
all cards: the defender picks the placement with the smallest key against what it sees; the
attacker picks the placement with the largest key after that answer (``BOTH_FIRST``: it sees the
defender's roll, so this is exact for each pair of rolls), or (``ATTACKER_FIRST``) with the
lexicographically largest expectation over the defender's roll of the key's components: win
chance, then expected VP swing, expected own cards lost (fewer), enemy cards destroyed, front
margin, fronts won. It maximises the win chance first whichever order holds.

``greedy`` is a human-like rule. Valid dice are placed one at a time, largest face first, each on
the front (among those with the side's card) where it raises the side's standing the most, as the
side sees it at that moment: the attacker sees the defender's cards and supports but no defender
dice yet; the defender sees everything the attacker placed. A front's standing for a side is,
worst to best: lost by 4 or more (own card destroyed), lost, tied, won, won by 4 or more with the
enemy card destroyed. Equal gains go to the front whose current margin is closest to zero (the
most contested), then to the lowest-numbered front.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from oddsim._jit import jit
from oddsim.trench.artillery import DICE_PER_SIDE, Placements, Rolls
from oddsim.trench.model import Policy, RollOrder, TrenchBattle
from oddsim.trench.outcomes import DESTROY_MARGIN, PairOutcomes

MAX_ADDED = 4 * DICE_PER_SIDE + 1  # a placement adds at most 3 dice x 4 to one front


@dataclass(frozen=True)
class PolicyTables:
    """``attacker`` (n_rolls x n_rolls) and ``defender`` (n_attacker_placements x n_rolls)."""

    attacker: np.ndarray
    defender: np.ndarray


def optimal_defender(outcomes: PairOutcomes, defender: Placements) -> np.ndarray:
    """The defender's best answer (smallest key) to every attacker placement, for every roll."""
    key = outcomes.key
    answer = np.empty((key.shape[0], defender.of_roll.shape[0]), dtype=np.int64)
    _smallest_in_rows(key, defender.of_roll, defender.count, answer)
    return answer


def optimal_attacker(outcomes: PairOutcomes, attacker: Placements, rolls: Rolls,
                     answer: np.ndarray, order: RollOrder) -> np.ndarray:
    """The attacker's best placement given how the defender will answer (``answer[a, rd]``)."""
    n_rolls = len(rolls)
    answered = outcomes.code[np.arange(answer.shape[0])[:, None], answer]  # (nA, n_rolls)
    if order is RollOrder.BOTH_FIRST:
        value = outcomes.tables.key[answered]  # (nA, n_rolls): key after the best answer
        chosen = np.empty((n_rolls, n_rolls), dtype=np.int64)
        _largest_per_roll(value, attacker.of_roll, attacker.count, chosen)
        return chosen
    components = outcomes.tables.components[answered]  # (nA, n_rolls, 6)
    expected = np.ascontiguousarray(np.einsum("arc,r->ac", components, rolls.weight))
    per_roll = np.empty(n_rolls, dtype=np.int64)
    _lexicographically_largest(expected, attacker.of_roll, attacker.count, per_roll)
    return np.repeat(per_roll[:, None], n_rolls, axis=1)


@jit
def _smallest_in_rows(key, of_roll, count, answer):
    """``answer[a, r]``: the first placement of row ``r`` with the smallest ``key[a, .]``."""
    for a in range(key.shape[0]):
        for r in range(of_roll.shape[0]):
            best = of_roll[r, 0]
            best_key = key[a, best]
            for j in range(1, count[r]):
                d = of_roll[r, j]
                if key[a, d] < best_key:
                    best = d
                    best_key = key[a, d]
            answer[a, r] = best


@jit
def _lexicographically_largest(value, of_roll, count, chosen):
    """``chosen[r]``: the first placement of row ``r`` whose ``value[a, :]`` is largest."""
    for r in range(of_roll.shape[0]):
        best = of_roll[r, 0]
        for j in range(1, count[r]):
            a = of_roll[r, j]
            for c in range(value.shape[1]):
                if value[a, c] != value[best, c]:
                    if value[a, c] > value[best, c]:
                        best = a
                    break
        chosen[r] = best


@jit
def _largest_per_roll(value, of_roll, count, chosen):
    """``chosen[ra, rd]``: the first placement of row ``ra`` with the largest ``value[., rd]``."""
    for ra in range(of_roll.shape[0]):
        for rd in range(value.shape[1]):
            best = of_roll[ra, 0]
            best_value = value[best, rd]
            for j in range(1, count[ra]):
                a = of_roll[ra, j]
                if value[a, rd] > best_value:
                    best = a
                    best_value = value[a, rd]
            chosen[ra, rd] = best


@jit
def _standing(margin: int, enemy_card: bool) -> int:
    """A side's standing on a front from its margin there: 0 lost by 4 or more (own card
    destroyed), 1 lost, 2 tied, 3 won, 4 won by 4 or more against a card (destroyed)."""
    if margin <= -DESTROY_MARGIN:
        return 0
    if margin < 0:
        return 1
    if margin == 0:
        return 2
    if margin >= DESTROY_MARGIN and enemy_card:
        return 4
    return 3


@jit
def _greedy(margins, faces, n_faces, own_card, enemy_card, lookup, out):
    """``out[i, r]``: catalogue index of the greedy placement of roll ``r`` from ``margins[i]``.

    ``faces[r, :n_faces[r]]`` are the roll's valid faces, largest first; ``lookup`` maps an
    encoded placement vector to its catalogue index.
    """
    margin = np.zeros(3, dtype=np.int64)
    added = np.zeros(3, dtype=np.int64)
    for i in range(margins.shape[0]):
        for r in range(faces.shape[0]):
            for f in range(3):
                margin[f] = margins[i, f]
                added[f] = 0
            for k in range(n_faces[r]):
                face = faces[r, k]
                best = -1
                best_gain = -1
                best_distance = 0
                for f in range(3):
                    if not own_card[f]:
                        continue
                    gain = (_standing(margin[f] + face, enemy_card[f])
                            - _standing(margin[f], enemy_card[f]))
                    distance = abs(margin[f])
                    if best < 0 or gain > best_gain or (gain == best_gain
                                                        and distance < best_distance):
                        best, best_gain, best_distance = f, gain, distance
                if best >= 0:
                    margin[best] += face
                    added[best] += face
            out[i, r] = lookup[(added[0] * MAX_ADDED + added[1]) * MAX_ADDED + added[2]]


def _greedy_table(margins: np.ndarray, rolls: Rolls, own_card: tuple[bool, ...],
                  enemy_card: tuple[bool, ...], placements: Placements) -> np.ndarray:
    faces = np.zeros((len(rolls), DICE_PER_SIDE), dtype=np.int64)
    n_faces = np.zeros(len(rolls), dtype=np.int64)
    for r, roll in enumerate(rolls.faces):
        faces[r, :len(roll)] = roll
        n_faces[r] = len(roll)
    scale = np.array([MAX_ADDED * MAX_ADDED, MAX_ADDED, 1])
    lookup = np.full(MAX_ADDED**3, -1, dtype=np.int64)
    lookup[placements.vectors @ scale] = np.arange(placements.vectors.shape[0])
    out = np.empty((margins.shape[0], len(rolls)), dtype=np.int64)
    _greedy(np.ascontiguousarray(margins, dtype=np.int64), faces, n_faces,
            np.array(own_card), np.array(enemy_card), lookup, out)
    return out


def greedy_attacker(battle: TrenchBattle, attacker: Placements, rolls: Rolls) -> np.ndarray:
    """Greedy attacker: sees the defender's cards and supports, no defender dice yet."""
    margin = np.array(battle.base_totals("attacker")) - np.array(battle.base_totals("defender"))
    chosen = _greedy_table(margin[None, :], rolls, battle.has_card("attacker"),
                           battle.has_card("defender"), attacker)[0]
    return np.repeat(chosen[:, None], len(rolls), axis=1)


def greedy_defender(battle: TrenchBattle, attacker: Placements, defender: Placements,
                    rolls: Rolls) -> np.ndarray:
    """Greedy defender: answers every attacker placement, seeing it."""
    attacker_total = np.array(battle.base_totals("attacker")) + attacker.vectors
    margin = np.array(battle.base_totals("defender"))[None, :] - attacker_total
    return _greedy_table(margin, rolls, battle.has_card("defender"),
                         battle.has_card("attacker"), defender)


def policy_tables(battle: TrenchBattle, outcomes: PairOutcomes, attacker: Placements,
                  defender: Placements, rolls: Rolls, attacker_policy: Policy,
                  defender_policy: Policy, order: RollOrder) -> PolicyTables:
    """Both sides' tables. An optimal attacker assumes an optimal defender, whatever it meets."""
    best_answer = None
    if Policy.OPTIMAL in (attacker_policy, defender_policy):
        best_answer = optimal_defender(outcomes, defender)
    if attacker_policy is Policy.OPTIMAL:
        assert best_answer is not None
        attacker_table = optimal_attacker(outcomes, attacker, rolls, best_answer, order)
    else:
        attacker_table = greedy_attacker(battle, attacker, rolls)
    if defender_policy is Policy.OPTIMAL:
        defender_table = best_answer
    else:
        defender_table = greedy_defender(battle, attacker, defender, rolls)
    return PolicyTables(np.ascontiguousarray(attacker_table, dtype=np.int64),
                        np.ascontiguousarray(defender_table, dtype=np.int64))
