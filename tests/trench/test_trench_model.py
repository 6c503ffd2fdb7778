"""Validation of battles: every bad input is a TrenchError with one clear line."""

import pytest

from oddsim.errors import OddsimError
from oddsim.trench import TrenchBattle, TrenchError
from oddsim.trench.artillery import placements, rolls


def make(**changes):
    fields = dict(attacker="5,4,3", defender="4,4,4", year=1917)
    return TrenchBattle(**(fields | changes))


def test_text_and_lists_give_the_same_battle():
    a = make(attacker="5,-,3", attacker_support="2,0,1")
    b = make(attacker=[5, None, 3], attacker_support=(2, 0, 1))
    assert a == b
    assert a.attacker == (5, None, 3) and a.defender_support == (0, 0, 0)
    assert a.cards("attacker") == (5, 0, 3) and a.face_down("attacker") == (True, False, True)
    assert a.has_card("attacker") == (True, False, True)
    assert a.describe() == "1917 land, 1 VP: attacker 5+2 | - | 3+1 vs defender 4 | 4 | 4"


@pytest.mark.parametrize("changes, message", [
    (dict(attacker="5,4,3,2"), "4 fronts given; a battle has exactly three"),
    (dict(defender="4,4"), "defender: 2 fronts given"),
    (dict(attacker="5,-2,3"), "attacker, front 2: strength -2 is negative"),
    (dict(defender=[4, 4.5, 4]), "defender, front 2: 4.5 is not a whole number"),
    (dict(attacker="5,x,3"), "'x' is not a whole number"),
    (dict(attacker="5,1000,3"), "above 999"),
    (dict(attacker_support="1,1,-1"), "attacker support, front 3: strength -1 is negative"),
    (dict(attacker="5,-,3", attacker_support="0,2,0"),
     "attacker support 2 on front 2, where the attacker has no army card"),
    (dict(defender="-,4,4", defender_support="1,0,0", sea=True),
     "defender fleet in the support slot 1 on front 1, where the defender has no fleet card"),
    (dict(year=1913), "year 1913 is outside 1914-1918"),
    (dict(year=1919), "year 1919 is outside 1914-1918"),
    (dict(year="1917"), "not a whole number"),
    (dict(points=-1), "points -1 is negative"),
])
def test_bad_battles(changes, message):
    with pytest.raises(TrenchError, match=message) as info:
        make(**changes)
    assert "\n" not in str(info.value)
    assert isinstance(info.value, OddsimError)


def test_rolls_cover_all_216_ordered_rolls():
    for top, n in ((3, 20), (4, 35)):
        r = rolls(top)
        assert len(r) == n and r.weight.sum() == 216
        assert r.faces[0] == () and r.weight[0] == (6 - top) ** 3


def test_dice_go_only_where_the_side_has_a_card():
    p = placements(3, (True, False, True))
    assert (p.vectors[:, 1] == 0).all()
    nowhere = placements(4, (False, False, False))
    assert nowhere.vectors.tolist() == [[0, 0, 0]]
    assert (nowhere.count == 1).all()


def test_a_face_down_support_without_a_card_is_named_as_written():
    """Before: 'defender support -1 on front 2' (the internal mark of a face-down card)."""
    with pytest.raises(TrenchError, match=r"defender support \? on front 2, where the defender has no"):
        TrenchBattle((5, 4, 3), (4, None, 4), 1917, defender_support=(0, "?", 0))
