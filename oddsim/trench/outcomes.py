"""What happens on the fronts for every pair of placements, and how a side ranks the results.

For attacker placement ``a`` and defender placement ``d`` each front's total is card + support
+ dice. The higher total wins the front (equal: nobody, or with ``tied_front="defender"`` the
defender); a front won by 4 or more destroys the loser's card there, if it has one (at sea with
``support_fleet="destroyed"`` also the fleet in its support slot). The side with more fronts
wins the battle; equal is a draw.

(The margin is 4 by default, 5 with ``--destroy-margin 5``: the seed says both.)
A front therefore ends in one of five classes (``FrontClass``), and a pair of placements in one
of 5**3 = 125 class triples, its *code* ``c1 + 5 c2 + 25 c3``. Everything else (fronts won,
cards lost, points, the ranking key) is a small table indexed by code.

Placements are ranked by one integer key, larger is better for the attacker and worse for the
defender (the game is zero-sum). The key compares, in order:

1. the attacker wins the battle (the issue's objective: the attacker plays to win, the defender
   to stop it);
2. the victory-point swing, attacker's points minus the defender's (a crushing victory is worth
   one more point; a draw gives the defender exactly 1);
3. fewer attacker cards destroyed (a front's fleet and the fleet in its support slot count two
   where that fleet is destroyed with it);
4. more defender cards destroyed (likewise);
5. the front margin, fronts won by the attacker minus fronts won by the defender;
6. more fronts won by the attacker (fewer fronts left tied).

Placements that still tie are taken in catalogue order (see ``artillery.Placements``).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache

import numpy as np

from oddsim._runtime.jit import jit

DESTROY_MARGIN = 4  # by default a front won by this much or more destroys the loser's card
N_CODES = 125
N_COMPONENTS = 6
MAX_LOST = 6  # cards a side can lose: three fronts, each its card and a support-slot fleet
# number of values of each key component, most significant first
COMPONENT_RANGE = np.array([2, 5, MAX_LOST + 1, MAX_LOST + 1, 7, 4], dtype=np.int64)
ONE_EACH = (1, 1, 1)  # cards lost where a front's card is destroyed: the card alone
# battle outcome categories, worst to best for the attacker
DEFENDER_CRUSH, DEFENDER_WIN, DRAW, ATTACKER_WIN, ATTACKER_CRUSH = range(5)


class FrontClass(IntEnum):
    """How one front ends, worst to best for the attacker."""

    ATTACKER_CARD_DESTROYED = 0  # defender won it by 4 or more and the attacker had a card
    DEFENDER_WON = 1
    TIED = 2  # equal totals (with ``tied_front="defender"`` such a front is DEFENDER_WON)
    ATTACKER_WON = 3
    DEFENDER_CARD_DESTROYED = 4  # attacker won it by 4 or more and the defender had a card


def victory_points(category: np.ndarray, points: int) -> tuple[np.ndarray, np.ndarray]:
    """Points scored by the attacker and by the defender for each outcome category."""
    attacker = np.choose(category, [0, 0, 0, points, points + 1])
    defender = np.choose(category, [points + 1, points, 1, 0, 0])
    return attacker, defender


def category_of(attacker_fronts: np.ndarray, defender_fronts: np.ndarray) -> np.ndarray:
    """Outcome category from fronts won by each side (a draw when they won as many)."""
    return np.select(
        [attacker_fronts == 3, attacker_fronts > defender_fronts,
         attacker_fronts == defender_fronts, defender_fronts == 3],
        [ATTACKER_CRUSH, ATTACKER_WIN, DRAW, DEFENDER_CRUSH], DEFENDER_WIN)


def swing_rank(points: int) -> np.ndarray:
    """Dense rank of the victory-point swing of each category (ties share a rank)."""
    attacker, defender = victory_points(np.arange(5), points)
    _, rank = np.unique(attacker - defender, return_inverse=True)
    return rank.astype(np.int64)


def combine(components: np.ndarray, ranges: np.ndarray) -> np.ndarray:
    """One integer per row of ``components`` that orders rows lexicographically."""
    key = np.zeros(components.shape[:-1], dtype=np.int64)
    for c in range(components.shape[-1]):
        key = key * ranges[c] + components[..., c]
    return key


@dataclass(frozen=True)
class CodeTables:
    """Per code (see module docstring): fronts won, cards destroyed (bit ``f`` for front
    ``f + 1``), the six key components and the key.

    ``components`` hold the victory-point swing itself (to be summed over rolls, where only
    the points are right); ``key`` ranks one outcome, using the swing's rank.
    """

    attacker_fronts: np.ndarray
    defender_fronts: np.ndarray
    attacker_lost: np.ndarray
    defender_lost: np.ndarray
    components: np.ndarray
    key: np.ndarray


@lru_cache(maxsize=64)
def code_tables(points: int, attacker_cards: tuple[int, int, int] = ONE_EACH,
                defender_cards: tuple[int, int, int] = ONE_EACH) -> CodeTables:
    """The per-code tables of a battle worth ``points``; ``attacker_cards[f]``/``defender_cards[f]``:
    the cards a side loses where its card on front ``f + 1`` is destroyed (2 at sea where the
    fleet in that front's support slot goes with it, else 1), weighing components 3 and 4."""
    triples = np.array(list(itertools.product(range(5), repeat=3)))[:, ::-1]  # code order
    won = (triples >= FrontClass.ATTACKER_WON).sum(axis=1)
    lost = (triples <= FrontClass.DEFENDER_WON).sum(axis=1)
    bits = np.array([1, 2, 4])
    attacker_lost = (triples == FrontClass.ATTACKER_CARD_DESTROYED) @ bits
    defender_lost = (triples == FrontClass.DEFENDER_CARD_DESTROYED) @ bits
    category = category_of(won, lost)
    attacker_vp, defender_vp = victory_points(category, points)
    a_weight, d_weight = np.array(attacker_cards), np.array(defender_cards)
    components = np.stack([
        (won > lost).astype(np.int64),
        attacker_vp - defender_vp,
        a_weight.sum() - (triples == FrontClass.ATTACKER_CARD_DESTROYED) @ a_weight,
        (triples == FrontClass.DEFENDER_CARD_DESTROYED) @ d_weight,
        won - lost + 3,
        won,
    ], axis=-1).astype(np.int64)
    ranked = components.copy()
    ranked[:, 1] = swing_rank(points)[category]
    tables = [np.ascontiguousarray(t, dtype=np.int64) for t in (
        won, lost, attacker_lost, defender_lost, components, combine(ranked, COMPONENT_RANGE))]
    for table in tables:
        table.setflags(write=False)
    return CodeTables(*tables)


@jit
def front_class(lead, attacker_card, defender_card, margin, tie) -> int:
    """How one front ends (``FrontClass``) from the attacker's lead there and the card flags; a
    front won by ``margin`` or more destroys the loser's card, if it has one; a lead of 0 is
    class ``tie`` (``TIED``, or ``DEFENDER_WON`` where a tied front goes to the defender)."""
    if lead >= margin and defender_card:
        return 4
    if lead > 0:
        return 3
    if lead == 0:
        return tie
    if lead <= -margin and attacker_card:
        return 0
    return 1


def front_classes(lead: np.ndarray, attacker_card, defender_card, margin: int, tie: int) -> np.ndarray:
    """``front_class`` of every lead in an array (the card flags broadcast against it)."""
    return np.select([(lead >= margin) & defender_card, lead > 0, lead == 0,
                      (lead <= -margin) & attacker_card],
                     [FrontClass.DEFENDER_CARD_DESTROYED, FrontClass.ATTACKER_WON, tie,
                      FrontClass.ATTACKER_CARD_DESTROYED], FrontClass.DEFENDER_WON)
