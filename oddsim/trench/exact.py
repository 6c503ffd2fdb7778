"""The exact engine: every pair of artillery rolls, weighted by how many ordered rolls give it.

Each side's roll is the multiset of its valid faces, with its multiplicity out of the 216
ordered rolls of three dice; the rolls of the two sides are independent, so a roll pair's
weight is the product, out of 6**6 = 46,656. Support values written ``?`` are scored over the
belief: each combination of their values weighs its whole-number belief weights. For each
combination and roll pair the policy tables say which placements are made; the fronts are
resolved (a tied front as ``PlayRules.tied_front`` says) and the outcome counted with that
weight. Counts are whole numbers, so every
probability is an exact fraction over 46,656 times the total belief weight.
"""

from __future__ import annotations

import numpy as np

from oddsim.trench.artillery import ORDERED_ROLLS
from oddsim.trench.outcomes import FrontClass, code_tables, front_classes
from oddsim.trench.prepared import PreparedBattle
from oddsim.trench.result import TrenchCounts

ROLL_PAIRS = ORDERED_ROLLS * ORDERED_ROLLS


def exact_counts(prepared: PreparedBattle) -> TrenchCounts:
    """Outcome counts over the 46,656 equally likely ordered roll pairs (times the belief
    weight of the '?' supports)."""
    battle, t = prepared.battle, prepared.tables
    weight = prepared.rolls.weight
    n = len(weight)
    pair_weight = np.outer(weight, weight)[None, :, :] * t.weight[:, None, None]  # [k, ra, rd]
    attacker = t.attacker[t.attacker_index]  # [k, ra, rd] -> attacker placement
    k_idx = np.arange(len(t.weight))[:, None, None]
    rd = np.arange(n)[None, None, :]
    defender = t.defender[t.defender_index[k_idx], attacker, rd]  # [k, ra, rd]
    a_total = (np.array(battle.cards("attacker"))[None, :] + t.attacker_support)[:, None, None, :] \
        + prepared.attacker.vectors[attacker]
    d_total = (np.array(battle.cards("defender"))[None, :] + t.defender_support)[:, None, None, :] \
        + prepared.defender.vectors[defender]
    lead = a_total - d_total  # [k, ra, rd, front]
    margin = prepared.play.destroy_margin
    a_has = np.array(battle.has_card("attacker"))
    d_has = np.array(battle.has_card("defender"))
    front = front_classes(lead, a_has, d_has, margin, prepared.play.tie_class)
    code = front @ np.array([1, 5, 25])
    tables = code_tables(battle.points)
    attacker_fronts = tables.attacker_fronts[code]
    defender_fronts = tables.defender_fronts[code]
    joint = np.bincount((attacker_fronts * 4 + defender_fronts).ravel(),
                        weights=pair_weight.ravel(), minlength=16)
    joint = np.rint(joint).astype(np.int64).reshape(4, 4)
    a_lost = (front == FrontClass.ATTACKER_CARD_DESTROYED)
    d_lost = (front == FrontClass.DEFENDER_CARD_DESTROYED)
    destroyed = [np.rint((lost * pair_weight[..., None]).sum(axis=(0, 1, 2))).astype(np.int64)
                 for lost in (a_lost, d_lost)]
    return TrenchCounts.of(joint, destroyed[0], destroyed[1], ROLL_PAIRS * int(t.weight.sum()))
