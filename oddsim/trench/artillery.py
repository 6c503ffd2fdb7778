"""Artillery dice: the distinct rolls of three dice and the ways a side can place them.

A side rolls three six-sided dice; faces up to ``max_face`` (3, or 4 from 1917) are valid, the
rest are discarded. Only the multiset of valid faces matters, so a roll is that multiset, with
its multiplicity out of the 6**3 ordered rolls. A placement is what the dice add to each front
(an "addition vector"); a side may only place dice on fronts where it has a card, and must place
every valid die (a die only ever helps its own side, so placing all of them loses nothing).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache

import numpy as np

DICE_PER_SIDE = 3
FACES = 6
ORDERED_ROLLS = FACES**DICE_PER_SIDE  # 216 equally likely ordered rolls per side


def _frozen(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)
    return array


@dataclass(frozen=True)
class Rolls:
    """The distinct artillery rolls of one side for one year.

    ``faces[r]``: the valid faces of roll ``r``, largest first. ``weight[r]``: how many of the
    216 ordered rolls give it. ``of_ordered[k]``: the roll of ordered roll ``k``, where
    ``k = 36 (d1 - 1) + 6 (d2 - 1) + (d3 - 1)``.
    """

    faces: tuple[tuple[int, ...], ...]
    weight: np.ndarray
    of_ordered: np.ndarray

    def __len__(self) -> int:
        return len(self.faces)


@cache
def rolls(max_face: int) -> Rolls:
    """All rolls when faces ``1..max_face`` are valid, ordered by (number of dice, faces)."""
    keyed: dict[tuple[int, ...], int] = {}
    of_ordered = np.empty(ORDERED_ROLLS, dtype=np.int64)
    for k, dice in enumerate(itertools.product(range(1, FACES + 1), repeat=DICE_PER_SIDE)):
        valid = tuple(sorted((d for d in dice if d <= max_face), reverse=True))
        of_ordered[k] = keyed.setdefault(valid, len(keyed))
    order = sorted(keyed, key=lambda faces: (len(faces), faces))
    rank = np.array([order.index(faces) for faces in keyed], dtype=np.int64)
    of_ordered = rank[of_ordered]
    weight = np.bincount(of_ordered, minlength=len(order)).astype(np.int64)
    return Rolls(tuple(order), _frozen(weight), _frozen(of_ordered))


@dataclass(frozen=True)
class Placements:
    """Every way one side can place every roll, for one set of fronts with its cards.

    ``vectors[v]``: what placement ``v`` adds to fronts 1-3, in catalogue order: largest
    additions on front 1 first, then front 2, then front 3 (lexicographically descending), which
    is also the order in which equally good placements are preferred. ``of_roll[r, j]``: the
    ``j``-th placement open to roll ``r`` (ascending catalogue index); rows shorter than the
    widest are padded by repeating their first entry, so a first-occurrence arg-max/arg-min over
    a row still picks the earliest placement. ``count[r]``: the row's real length.
    """

    vectors: np.ndarray
    of_roll: np.ndarray
    count: np.ndarray


@cache
def placements(max_face: int, fronts: tuple[bool, bool, bool]) -> Placements:
    """Placements of every roll when the side has a card on ``fronts`` (dice go only there)."""
    open_fronts = [i for i, card in enumerate(fronts) if card]
    per_roll: list[set[tuple[int, ...]]] = []
    for faces in rolls(max_face).faces:
        if not open_fronts:  # no card anywhere: every die is discarded
            per_roll.append({(0, 0, 0)})
            continue
        vectors: set[tuple[int, ...]] = set()
        for targets in itertools.product(open_fronts, repeat=len(faces)):
            added = [0, 0, 0]
            for face, front in zip(faces, targets, strict=True):
                added[front] += face
            vectors.add(tuple(added))
        per_roll.append(vectors)
    catalogue = sorted(set().union(*per_roll), reverse=True)
    index = {v: i for i, v in enumerate(catalogue)}
    width = max(len(vs) for vs in per_roll)
    of_roll = np.empty((len(per_roll), width), dtype=np.int64)
    count = np.empty(len(per_roll), dtype=np.int64)
    for r, vectors in enumerate(per_roll):
        row = sorted(index[v] for v in vectors)
        of_roll[r] = row + [row[0]] * (width - len(row))
        count[r] = len(row)
    return Placements(_frozen(np.array(catalogue, dtype=np.int64).reshape(-1, 3)),
                      _frozen(of_roll), _frozen(count))
