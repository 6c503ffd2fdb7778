"""The two sides of an advice request, checked: the attacker's hand and the defender's cards.

``oddsim trench advise`` and the web's advice job both build their ``Hand`` and
``Commitment | Hand`` here, so a bad request gets the same one line from either (the messages
name the CLI's options; the web's fields are the same names with ``_`` for ``-``).
"""

from __future__ import annotations

from collections.abc import Sequence

from oddsim.trench.advice import Commitment, Hand
from oddsim.trench.model import TrenchError, parse_fronts, parse_hand, parse_supports

Cards = str | Sequence | None


def advice_sides(attacker_hand: Cards, attacker_hand_support: Cards = None, *,
                 defender: Cards = None, defender_support: Cards = None,
                 defender_hand: Cards = None, defender_hand_support: Cards = None,
                 year: object = None) -> tuple[Hand, Commitment | Hand]:
    """The attacker's ``Hand`` and the defender's committed cards (a ``Commitment``) or its
    ``Hand``: exactly one of ``defender`` and ``defender_hand``, each with its own supports.
    ``year`` is only checked to be given (``advise`` checks its value)."""
    if attacker_hand is None:
        raise TrenchError("missing --attacker-hand: the army strengths in the attacker's hand, "
                          "e.g. 6,5,4,3")
    if year is None:
        raise TrenchError("missing --year: the odds depend on it (from 1917 a 4 is valid)")
    if (defender is None) == (defender_hand is None):
        raise TrenchError("give the defender's committed cards (--defender) or its hand "
                          "(--defender-hand), one of the two")
    if defender is not None and defender_hand_support is not None:
        raise TrenchError("--defender-hand-support goes with --defender-hand, not --defender")
    if defender_hand is not None and defender_support is not None:
        raise TrenchError("--defender-support goes with --defender, not --defender-hand")
    hand = Hand(parse_hand(attacker_hand, "--attacker-hand"),
                parse_hand(attacker_hand_support or (), "--attacker-hand-support"))
    if not hand.armies:
        raise TrenchError("--attacker-hand: the hand has no army card to commit")
    if defender is not None:
        return hand, Commitment(parse_fronts(defender, "defender"),
                                parse_supports(defender_support or (0, 0, 0), "defender support"))
    assert defender_hand is not None
    return hand, Hand(parse_hand(defender_hand, "--defender-hand"),
                      parse_hand(defender_hand_support or (), "--defender-hand-support"))


__all__ = ["advice_sides"]
