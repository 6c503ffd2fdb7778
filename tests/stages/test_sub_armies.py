"""The lattice sweep of sub-armies against one exact solve per sub-army, to 1e-12: land and sea,
AA fire, bombardments, two-hit battleships, carriers, subs that strike first (every round, round
1 only, taken away by a destroyer at the start), Low Luck, technology, both sides swept."""

from fractions import Fraction

import numpy as np
import pytest

from oddsim import solve
from oddsim.engines.exact.lattice import solve_armies
from oddsim.errors import BattleError
from oddsim.model.battle import Battle, Side
from oddsim.model.forces import Force, parse_force
from oddsim.model.options import battle_from
from oddsim.stages.sub_armies import (
    SubArmyOdds,
    joined,
    solve_sub_armies,
    solve_sub_armies_one_by_one,
    sub_armies,
)

TOLERANCE = 1e-12

# (edition, attacker, defender, battle options, pool, side, base)
CASES = [
    ("1942-2e", "1 inf", "3 inf, 1 art", {}, "3 inf, 2 art, 1 arm", "attacker", None),
    ("1942-2e", "1 inf", "2 inf, 1 arm", {}, "2 inf, 1 art, 2 arm, 1 ftr, 1 bmb", "attacker", "1 inf"),
    ("1942-2e", "1 inf", "3 inf, 1 art, 1 aa", {}, "2 inf, 1 art, 1 arm, 2 ftr, 1 bmb", "attacker", None),
    ("1942-2e", "1 inf", "2 inf, 2 aa", {}, "1 inf, 2 ftr, 2 bmb", "attacker", "1 arm"),
    ("1942-2e", "1 inf", "3 inf, 1 art", {"dice": "lowluck"}, "3 inf, 2 art, 1 arm, 1 ftr", "attacker", None),
    ("1942-2e", "1 inf", "2 inf, 1 aa", {"dice": "lowluck"}, "2 inf, 1 art, 2 ftr", "attacker", None),
    ("1942-2e", "2 inf", "3 inf, 1 art", {"landed": "2 inf", "bombard": "1 bb, 1 cru"},
     "2 inf, 2 art, 1 arm", "attacker", "2 inf"),
    ("1942-2e", "2 inf", "2 inf, 1 arm", {"landed": "2 inf", "bombard": "1 cru", "dice": "lowluck"},
     "1 inf, 1 art, 1 arm", "attacker", "2 inf"),
    ("revised", "2 inf", "3 inf", {"landed": "1 inf", "bombard": "1 bb"}, "2 inf, 1 art, 1 arm",
     "attacker", "2 inf"),
    ("1942-2e", "2 inf, 1 art", "1 inf", {"landed": "2 inf", "bombard": "2 bb"}, "3 inf, 1 art, 1 arm",
     "defender", "1 inf"),
    ("1942-2e", "1 inf", "2 inf, 1 art", {"ool_attacker": "art,inf"}, "2 inf, 2 art, 1 arm", "attacker",
     None),
    ("anniversary", "1 inf", "2 inf, 1 arm", {"attacker_tech": "heavy-bombers"}, "2 inf, 1 arm, 1 bmb",
     "attacker", None),
    ("global-1940-2e", "1 inf", "2 inf, 1 ftr, 1 aa", {"defender_tech": "jets,radar"}, "3 inf, 1 arm, 1 ftr",
     "attacker", None),
    ("anniversary", "1 inf", "2 inf", {"attacker_tech": "improved-artillery"}, "3 inf, 2 art", "attacker",
     None),
    ("anniversary", "1 sub", "1 dd, 1 cru", {"sea": True, "attacker_tech": "super-subs"}, "2 sub, 1 dd",
     "attacker", None),
    ("revised", "1 inf", "3 inf, 1 art, 1 aa", {}, "2 inf, 1 arm, 1 ftr", "attacker", None),
    ("revised", "1 inf", "2 inf, 1 aa", {}, "2 inf, 1 arm, 1 ftr, 1 bmb", "attacker", None),  # some AA-split
    ("anniversary", "1 inf", "2 inf, 1 art, 1 aa", {}, "2 inf, 1 art, 1 arm, 1 ftr", "attacker", None),
    ("global-1940-2e", "1 inf", "3 inf, 1 mech, 1 aa", {}, "2 inf, 1 mech, 1 art, 1 tac, 1 ftr", "attacker",
     None),
    ("europe-1999", "1 inf", "3 inf, 1 aa", {}, "2 inf, 1 arm, 1 ftr", "attacker", None),
    ("1942-2e", "3 inf, 1 arm, 1 ftr", "1 inf", {}, "3 inf, 1 art, 1 arm, 1 aa", "defender", "1 inf"),
    ("1942-2e", "2 inf, 1 ftr, 1 bmb", "1 inf", {}, "2 inf, 1 arm, 1 ftr, 2 aa", "defender", "1 inf"),
    ("1942-2e", "3 inf, 2 art", "1 inf", {"dice": "lowluck"}, "3 inf, 1 art, 1 arm", "defender", None),
    ("1942-2e", "1 sub", "1 sub, 1 dd, 1 cv, 1 ftr", {"sea": True}, "2 sub, 1 dd, 1 bb, 1 ftr, 1 bmb",
     "attacker", None),
    ("1942-2e", "1 dd", "2 sub, 1 bb", {"sea": True}, "2 sub, 1 dd, 1 cru, 1 ftr", "attacker", None),
    ("1942-2e", "2 ftr", "1 sub, 1 ftr", {"sea": True}, "2 sub, 1 dd, 1 bb, 1 cv", "defender", None),
    ("1942-2e", "1 bb, 1 sub", "1 dd", {"sea": True}, "2 sub, 1 dd, 2 bb", "defender", "1 cv"),
    ("1942-2e", "1 sub", "2 bb, 1 cv, 2 ftr", {"sea": True, "dice": "lowluck"}, "2 sub, 1 dd, 1 bb",
     "attacker", None),
    ("1942-2e", "1 ftr", "1 dd, 1 trn", {"sea": True}, "1 sub, 1 dd, 1 cru, 1 ftr", "attacker", None),
    ("1942-2e", "1 sub", "1 dd, 1 sub", {"sea": True, "defender_destroyer_last": True},
     "2 sub, 1 dd, 1 ftr", "attacker", None),
    ("anniversary", "1 sub", "1 sub, 1 dd", {"sea": True}, "2 sub, 1 dd, 1 cru", "attacker", None),
    ("anniversary", "1 dd", "2 sub, 1 cru", {"sea": True}, "2 sub, 1 dd, 1 ftr", "defender", None),
    ("europe-1999", "1 sub", "1 sub, 1 trn", {"sea": True}, "2 sub, 1 dd, 1 ftr", "attacker", None),
    ("europe-1999", "2 sub", "1 bb", {"sea": True}, "1 sub, 2 dd, 1 ftr", "defender", None),
    ("revised", "1 sub", "1 sub, 1 bb, 1 ftr", {"sea": True}, "2 sub, 1 dd, 1 bb, 1 ftr", "attacker", None),
    ("global-1940-2e", "1 sub", "1 sub, 1 dd, 1 cv, 1 ftr", {"sea": True}, "2 sub, 1 dd, 1 cru, 1 tac",
     "attacker", None),
    ("1942-2e", "1 inf", "2 inf", {"in_progress": True}, "2 inf, 1 art, 1 arm, 1 ftr", "attacker", None),
]


def _battle(edition, attacker, defender, options) -> Battle:
    return battle_from(edition, attacker, defender, options)


def _forces(battle, pool, base):
    return parse_force(pool, battle.rules), None if base is None else parse_force(base, battle.rules)


def _worst(fast: dict[Force, SubArmyOdds], slow: dict[Force, SubArmyOdds]) -> float:
    """The largest difference of any figure, relative to the figure where it is over 1."""
    worst = 0.0
    for army, odds in slow.items():
        for name in SubArmyOdds.__dataclass_fields__:
            want = getattr(odds, name)
            worst = max(worst, abs(getattr(fast[army], name) - want) / max(1.0, abs(want)))
    return worst


@pytest.mark.parametrize("edition, attacker, defender, options, pool, side, base", CASES)
def test_the_sweep_equals_one_solve_per_sub_army(edition, attacker, defender, options, pool, side, base):
    battle = _battle(edition, attacker, defender, options)
    pool, base = _forces(battle, pool, base)
    fast = solve_sub_armies(battle, pool, side, base)
    slow = solve_sub_armies_one_by_one(battle, pool, side, base)
    assert list(fast) == list(slow)
    assert _worst(fast, slow) <= TOLERANCE


@pytest.mark.parametrize("edition, attacker, defender, options, pool, side, base",
                         [c for c in CASES if c[0] != "revised" or c[4] != "2 inf, 1 arm, 1 ftr, 1 bmb"])
def test_those_battles_are_swept_not_solved_apart(edition, attacker, defender, options, pool, side, base):
    battle = _battle(edition, attacker, defender, options)
    pool, base = _forces(battle, pool, base)
    names = tuple(u.name for u in battle.rules.units)
    forces = [joined(base, army) for army in sub_armies(pool) if not joined(base, army).is_empty()]
    counts = np.array([[f.count(n) for n in names] for f in forces])
    swept = solve_armies(battle, side, counts)
    assert swept is not None
    assert not swept[1].any()


def test_an_aa_split_battle_is_solved_apart_and_the_rest_swept():
    battle = Battle("revised", "1 inf", "2 inf, 1 aa")
    names = tuple(u.name for u in battle.rules.units)
    both = [names.index("fighter"), names.index("bomber")]
    counts = np.zeros((3, len(names)), dtype=np.int64)
    counts[:, names.index("infantry")] = 2
    counts[1, both[0]] = 1
    counts[2, both] = 1  # a fighter and a bomber: AA picks its casualties by chance
    swept = solve_armies(battle, "attacker", counts)
    assert swept is not None
    assert swept[1].tolist() == [False, False, True]
    assert np.isnan(swept[0][2]).all()


def test_one_infantry_against_one_by_hand():
    # 1 inf (attack 1) against 1 inf (defense 2), 1942-2e: per round the attacker hits 1/6, the
    # defender 2/6; a round where nothing happens repeats. P(attacker alone survives) =
    # (1/6 * 4/6) / (1 - 5/6 * 4/6) = 4/16, both die: (1/6 * 2/6) / (8/18) = 2/16
    battle = Battle("1942-2e", "1 inf", "1 inf")
    odds = solve_sub_armies(battle, parse_force("1 inf", battle.rules))
    (only,) = odds.values()
    assert only.attacker_win == pytest.approx(float(Fraction(4, 16)), abs=1e-15)
    assert only.draw == pytest.approx(float(Fraction(2, 16)), abs=1e-15)
    assert only.expected_rounds == pytest.approx(float(1 / (1 - Fraction(5, 6) * Fraction(4, 6))), abs=1e-14)
    assert only.attacker_ipc_lost == pytest.approx(3 * (1 - 4 / 16), abs=1e-14)


@pytest.mark.parametrize("options", [{"retreat": {"units_left": 1}}, {"keep_land": 1}])
def test_a_battle_the_sweep_does_not_take_is_solved_one_by_one(options):
    battle = battle_from("1942-2e", "1 inf", "2 inf, 1 art", options)
    names = tuple(u.name for u in battle.rules.units)
    assert solve_armies(battle, "attacker", np.array([[1 if n == "infantry" else 0 for n in names]])) is None
    pool = parse_force("2 inf, 1 arm, 1 ftr", battle.rules)
    assert _worst(solve_sub_armies(battle, pool), solve_sub_armies_one_by_one(battle, pool)) == 0.0


def test_sub_armies_count_damaged_units_apart():
    rules = Battle("1942-2e", "1 bb", "1 dd", sea=True).rules
    pool = parse_force("2 bb, 1 damaged bb, 1 dd", rules)
    armies = sub_armies(pool)
    assert len(armies) == 3 * 2 * 2  # 0..2 whole battleships, 0..1 damaged, 0..1 destroyer
    assert parse_force("1 bb, 1 damaged bb, 1 dd", rules) in armies


def test_damaged_battleships_in_the_pool():
    battle = Battle("1942-2e", "1 sub", "1 dd, 1 ftr", sea=True)
    pool = parse_force("1 bb, 1 damaged bb, 1 sub", battle.rules)
    assert _worst(solve_sub_armies(battle, pool), solve_sub_armies_one_by_one(battle, pool)) <= TOLERANCE


def test_entries_are_the_non_empty_sub_armies_each_solved_as_its_battle():
    battle = Battle("1942-2e", "1 inf", "2 inf")
    pool = parse_force("1 inf, 1 arm", battle.rules)
    odds = solve_sub_armies(battle, pool)
    assert len(odds) == 3
    army = parse_force("1 inf, 1 arm", battle.rules)
    alone = SubArmyOdds.of(solve(Battle("1942-2e", "1 inf, 1 arm", "2 inf")))
    assert _worst({army: odds[army]}, {army: alone}) <= TOLERANCE


def test_bad_input_raises_a_battle_error():
    battle = Battle("1942-2e", "1 inf", "2 inf")
    with pytest.raises(BattleError, match="side must be attacker or defender"):
        solve_sub_armies(battle, parse_force("1 inf", battle.rules), side="both")
    with pytest.raises(BattleError, match="pool as a Force"):
        solve_sub_armies(battle, "1 inf")  # type: ignore[arg-type]
    with pytest.raises(BattleError, match="needs a Battle"):
        solve_sub_armies("battle", Force((("inf", 1),)))  # type: ignore[arg-type]


def test_a_sub_army_without_the_landed_units_is_refused_as_its_battle_is():
    battle = Battle("1942-2e", attacker=Side("2 inf", landed="2 inf", bombard="1 cru"), defender="2 inf")
    with pytest.raises(BattleError, match="landed"):
        solve_sub_armies(battle, parse_force("2 inf, 1 arm", battle.rules))


def test_an_undefended_territory():
    battle = Battle("1942-2e", "1 inf", "none")
    pool = parse_force("2 inf, 1 ftr", battle.rules)
    fast = solve_sub_armies(battle, pool)
    assert _worst(fast, solve_sub_armies_one_by_one(battle, pool)) <= TOLERANCE
    assert fast[parse_force("1 ftr", battle.rules)].takes_territory == 0.0  # aircraft alone take nothing
