"""The exact engine: every pair of artillery rolls, weighted by how many ordered rolls give it.

Each side's roll is the multiset of its valid faces, with its multiplicity out of the 216
ordered rolls of three dice; the rolls of the two sides are independent, so a roll pair's
weight is the product, out of 6**6 = 46,656. For each pair the policy tables say which
placements are made; the outcome is read from the pair outcomes and counted with that weight.
Counts are whole numbers, so every probability is an exact fraction over 46,656.
"""

from __future__ import annotations

import numpy as np

from oddsim.trench.artillery import ORDERED_ROLLS
from oddsim.trench.prepared import PreparedBattle
from oddsim.trench.result import TrenchCounts

ROLL_PAIRS = ORDERED_ROLLS * ORDERED_ROLLS


def exact_counts(prepared: PreparedBattle) -> TrenchCounts:
    """Outcome counts over the 46,656 equally likely ordered roll pairs."""
    weight = prepared.rolls.weight
    pair_weight = np.outer(weight, weight)  # [ra, rd]
    attacker = prepared.tables.attacker  # [ra, rd] -> attacker placement
    rd = np.broadcast_to(np.arange(len(weight))[None, :], attacker.shape)
    defender = prepared.tables.defender[attacker, rd]  # [ra, rd] -> defender placement
    code = prepared.outcomes.code[attacker, defender]  # [ra, rd] -> class triple of the fronts
    tables = prepared.outcomes.tables
    attacker_fronts = tables.attacker_fronts[code]
    defender_fronts = tables.defender_fronts[code]
    joint = np.bincount((attacker_fronts * 4 + defender_fronts).ravel(),
                        weights=pair_weight.ravel(), minlength=16)
    joint = np.rint(joint).astype(np.int64).reshape(4, 4)
    bits = np.array([1, 2, 4], dtype=np.int64)

    def destroyed(mask: np.ndarray) -> np.ndarray:
        lost = (mask[:, :, None] & bits) > 0
        return (lost * pair_weight[:, :, None]).sum(axis=(0, 1))

    return TrenchCounts.of(joint, destroyed(tables.attacker_lost[code]),
                           destroyed(tables.defender_lost[code]), ROLL_PAIRS)
