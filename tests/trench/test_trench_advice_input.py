"""advice_sides: the checks ``oddsim trench advise`` and the web's advice job share."""

import pytest

from oddsim.trench import Commitment, Hand, TrenchError
from oddsim.trench.advice_input import advice_sides


def test_committed_defender_and_defender_hand():
    hand, against = advice_sides("6,5", "1", defender="4,-,3", defender_support="0,?,1",
                                 year=1916)
    assert hand == Hand((6, 5), (1,))
    assert against == Commitment((4, None, 3), (0, -1, 1))
    hand, against = advice_sides([5, 6], defender_hand=[4, 4, 2], defender_hand_support="2",
                                 year=1916)
    assert hand == Hand((6, 5)) and against == Hand((4, 4, 2), (2,))


@pytest.mark.parametrize("kwargs, message", [
    (dict(attacker_hand=None, defender="4,4,4"), "missing --attacker-hand"),
    (dict(defender="4,4,4", year=None), "missing --year"),
    (dict(), "one of the two"),
    (dict(defender="4,4,4", defender_hand="4"), "one of the two"),
    (dict(defender="4,4,4", defender_hand_support="1"), "goes with --defender-hand"),
    (dict(defender_hand="4", defender_support="1,0,0"), "goes with --defender,"),
    (dict(attacker_hand="", defender="4,4,4"), "attacker"),
    (dict(attacker_hand="5,x", defender="4,4,4"), "--attacker-hand, card 2"),
])
def test_bad_sides_name_the_option(kwargs, message):
    args = dict(attacker_hand="5", year=1915) | kwargs
    with pytest.raises(TrenchError, match=message):
        advice_sides(args.pop("attacker_hand"), **args)
