"""Editions read the other way where a test's hand-derived value assumes that reading.

Europe-1999's subs lose the strike for the whole battle to a destroyer the enemy has when it
starts (``sub_strike_destroyer = "at_attack"``: its rules summary decides it). (Anniversary's
subs strike first every round, its rulebook's reading, since issue 34.) A test derived by hand
for subs that strike first in every round in which the enemy has no destroyer fights under
``every_round_strike(edition)``, so that it keeps its meaning.
"""

from __future__ import annotations

import dataclasses

import oddsim
from oddsim.model.rules import Ruleset, SubStrikeDestroyer, SubStrikeRounds


def every_round_strike(rules: str | Ruleset) -> Ruleset:
    """``rules`` (an edition's name or a Ruleset) with the first strike of every round in which
    the enemy has no destroyer (``sub_strike_rounds = "every"``, ``sub_strike_destroyer =
    "each_round"``: the rulebooks as TripleA reads them, and a file that says neither)."""
    loaded = oddsim.load_ruleset(rules)
    combat = dataclasses.replace(loaded.combat, sub_strike_rounds=SubStrikeRounds.EVERY,
                                 sub_strike_destroyer=SubStrikeDestroyer.EACH_ROUND)
    return dataclasses.replace(loaded, combat=combat)
