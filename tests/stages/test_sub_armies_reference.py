"""The odds of every sub-army (``oddsim.stages.sub_armies``): the sub-armies are all of them,
once each, and each entry is the battle of that army solved on its own (hand-derived where small)."""

from math import prod

import pytest

from oddsim import Battle, parse_force, solve
from oddsim.errors import BattleError
from oddsim.model.forces import Force
from oddsim.stages.sub_armies import SubArmyOdds, solve_sub_armies, sub_armies

FIELDS = ("attacker_win", "defender_win", "draw", "takes_territory", "attacker_ipc_lost",
          "defender_ipc_lost", "tuv_swing", "expected_rounds")


def _same(odds: SubArmyOdds, battle: Battle) -> None:
    result = solve(battle)
    for name in FIELDS:
        assert getattr(odds, name) == pytest.approx(float(getattr(result, name) or 0.0), abs=1e-12), name


def test_every_sub_army_once_damaged_units_counted_apart():
    pool = parse_force("2 inf, 1 arm, 2 bb, 1 damaged bb", "1942-2e")
    armies = sub_armies(pool)
    # inf 0..2, arm 0..1, whole bb 0..2, damaged bb 0..1 (the text adds: 3 bb, 1 of them damaged)
    assert len(armies) == 3 * 2 * 3 * 2 == len(set(armies))
    assert Force(()) in armies and pool in armies
    assert Force((("battleship", 1),), (("battleship", 1),)) in armies


def test_one_infantry_each_hand_derived():
    # attacker hits 1/6, defender 2/6: per round 4/36 attacker wins, 10/36 defender, 2/36 both die;
    # a round where both miss (20/36) repeats, so each is its share of the 16/36 that ends it
    odds = solve_sub_armies(Battle("1942-2e", "1 inf", "1 inf"), parse_force("1 inf", "1942-2e"))
    (only,) = odds.values()
    assert only.attacker_win == pytest.approx(4 / 16, abs=1e-12)
    assert only.draw == pytest.approx(2 / 16, abs=1e-12)
    assert only.defender_win == pytest.approx(10 / 16, abs=1e-12)
    assert only.takes_territory == pytest.approx(4 / 16, abs=1e-12)


@pytest.mark.parametrize(("battle", "pool", "side", "base"), [
    (Battle("1942-2e", "1 inf", "2 inf, 1 aa"), "2 inf, 1 art, 1 ftr", "attacker", None),
    (Battle("1942-2e", "1 inf", "3 inf", dice="lowluck"), "2 arm, 1 art", "attacker", "1 inf"),
    (Battle("1942-2e", "1 dd", "1 sub, 1 dd", sea=True), "1 dd, 1 bb, 1 ftr", "attacker", None),
    (Battle("1942-2e", "3 inf, 1 arm", "1 inf"), "2 inf, 1 arm", "defender", "1 inf"),
])
def test_each_entry_is_its_battle_solved_alone(battle, pool, side, base):
    rules = battle.rules
    pool_force = parse_force(pool, rules)
    base_force = None if base is None else parse_force(base, rules)
    odds = solve_sub_armies(battle, pool_force, side, base_force)
    expected = prod(n + 1 for _, n in pool_force.counts) - (base is None)
    assert len(odds) == expected
    for army, entry in odds.items():
        text = ", ".join(f"{n} {name}" for name, n in army.counts + (base_force.counts if base else ()))
        alone = {side: text or "none"}
        other = "defender" if side == "attacker" else "attacker"
        _same(entry, Battle(rules.name, sea=battle.sea, dice=battle.dice,
                            **alone, **{other: getattr(battle, other)}))


def test_bad_side_is_refused():
    with pytest.raises(BattleError, match="side must be attacker or defender"):
        solve_sub_armies(Battle("1942-2e", "1 inf", "1 inf"), parse_force("1 inf", "1942-2e"), "both")
