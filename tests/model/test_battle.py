"""Battle validation: a battle is checked once, and every problem is a specific error."""

import pytest

import oddsim


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(attacker="2 sub", defender="1 inf"), oddsim.BattleError,
     "submarine cannot fight in a land battle"),
    (dict(attacker="2 inf", defender="1 dd", sea=True), oddsim.BattleError,
     "infantry cannot fight in a sea battle"),
    (dict(attacker="1 aa", defender="1 inf"), oddsim.BattleError, "AA gun cannot attack"),
    (dict(attacker="none", defender="1 inf"), oddsim.BattleError, "the army is empty"),
    (dict(attacker=oddsim.Side("1 inf", keep_land=-1), defender="1 inf"), oddsim.BattleError, "keep_land"),
    (dict(attacker=oddsim.Side("1 dd", keep_land=1), defender="1 dd", sea=True), oddsim.BattleError,
     "land battles only"),
    (dict(attacker=oddsim.Side("1 inf", order_of_loss="inf,zeppelin"), defender="1 inf"),
     oddsim.OrderOfLossError, "unknown unit 'zeppelin'"),
    (dict(attacker="1 inf", defender=oddsim.Side("2 inf", keep_land=1)), oddsim.BattleError,
     "keep_land is the attacker's"),
    (dict(attacker="2 inf", defender=oddsim.Side("1 inf", landed="1 inf")), oddsim.BattleError,
     "landed is the attacker's"),
    (dict(attacker="1 inf", defender="1 inf", rules="axis-and-allies-1914"),
     oddsim.RulesetError, "unknown edition"),
])
def test_bad_battles(kwargs, error, message):
    kwargs.setdefault("rules", "1942-2e")
    with pytest.raises(error, match=message):
        oddsim.Battle(**kwargs)
    # the API's catch-all: the same input raises something the caller can catch as OddsimError
    with pytest.raises(oddsim.OddsimError) as caught:
        oddsim.Battle(**kwargs)
    assert type(caught.value) is error


def test_battle_is_a_normalised_value():
    a = oddsim.Battle(rules="1942-2e", attacker="3 inf, 1 tank", defender={"infantry": 2})
    b = oddsim.Battle(rules="1942-2e", attacker={"arm": 1, "inf": 3}, defender="2 inf")
    assert a == b and hash(a) == hash(b)
    assert a.describe() == "1942-2e land battle: 3 infantry, 1 armor attack 2 infantry"


def test_too_large_for_exact_refuses_fast():
    # (617 million joint states: land battles of at most 1,000 units a side now fit, see cost.py)
    big = oddsim.Battle(rules="1942-2e", attacker="100 sub, 100 dd, 100 ftr",
                        defender="100 bb, 100 cv, 100 sub", sea=True)
    with pytest.raises(oddsim.TooLargeError, match="limit"):
        oddsim.solve(big)


@pytest.mark.parametrize(("units", "text"), [(1, "at 1 unit or fewer"), (0, "at 0 units or fewer"),
                                             (2, "at 2 units or fewer")])
def test_retreat_policy_says_unit_in_the_singular_for_one(units, text):
    assert oddsim.RetreatPolicy(units_left=units).describe() == f"retreat {text}"


def test_choices_are_enums_and_their_strings_still_work():
    from oddsim.model.battle import Dice, Submerge
    from oddsim.results.battle_result import Method

    by_string = oddsim.Battle(rules="1942-2e", attacker=oddsim.Side("2 sub, 1 dd", submerge="alone"),
                              defender="1 sub, 1 cru", sea=True, dice="lowluck")
    by_enum = oddsim.Battle(rules="1942-2e", attacker=oddsim.Side("2 sub, 1 dd", submerge=Submerge.ALONE),
                            defender="1 sub, 1 cru", sea=True, dice=Dice.LOW_LUCK)
    assert by_string == by_enum
    assert by_string.dice is Dice.LOW_LUCK and by_string.attacker.submerge is Submerge.ALONE
    assert by_string.defender.submerge is Submerge.NEVER
    result = oddsim.solve(by_string)
    assert result.method is Method.EXACT and result.method == "exact"
    assert '"method": "exact"' in result.to_json()  # JSON keeps the plain string
    with pytest.raises(oddsim.BattleError, match="unknown dice mode 'loaded'"):
        oddsim.Battle(rules="1942-2e", attacker="1 inf", defender="1 inf", dice="loaded")
