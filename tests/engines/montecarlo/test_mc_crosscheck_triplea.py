"""The Monte Carlo engine against the exact engine on TripleA's features (issue 32): N-sided dice,
several dice per unit, the best of several, units of 3 and 4 hit points, bonus support of two
bonus types and several rules per unit, on defense too; the checks are ``test_mc_crosscheck``'s
own (each probability, mean, survivor and swing distribution), run on these battles."""

import copy
import tomllib

import pytest

import oddsim
from oddsim.model.options import battle_from
from oddsim.model.rules import parse_ruleset, resources, ruleset_from_keys
from oddsim.stages.pipeline import simulate
from tests.engines.montecarlo.test_mc_crosscheck import (  # noqa: F401  (run here on these battles)
    RUNS,
    test_expected_losses_and_rounds_agree,
    test_outcome_probabilities_agree,
    test_survivor_distributions_agree,
    test_tuv_swing_distributions_agree,
)

D12 = ruleset_from_keys(
    {"name": "d12", "combat.dice_sides": 12, "combat.aa_hit": 2,
     "support": [
         {"supporters": ["art"], "supported": ["inf", "mech"], "bonus": 2, "bonus_type": "artillery"},
         {"supporters": ["tank"], "supported": ["mech"], "bonus": 2, "bonus_type": "armour"},
         {"supporters": ["tank"], "supported": ["inf"], "bonus": 1, "bonus_type": "armour"},
         {"supporters": ["ace"], "supported": ["tank"], "bonus": 1},
         {"supporters": ["art"], "supported": ["inf"], "bonus": 1, "side": "defense"},
         {"supporters": ["fort"], "supported": ["inf", "art"], "bonus": -1, "side": "defense",
          "bonus_type": "cramped"}]},
    {"inf": {"cost": 3, "attack": 2, "defense": 4, "domain": "land"},
     "art": {"cost": 4, "attack": 4, "defense": 4, "domain": "land"},
     "mech": {"cost": 4, "attack": 2, "defense": 4, "domain": "land"},
     "tank": {"cost": 6, "attack": 6, "defense": 6, "domain": "land"},
     "fort": {"cost": 5, "attack": 0, "defense": 6, "defense_rolls": 2, "domain": "land",
              "can_attack": False},
     "aa": {"cost": 5, "attack": 0, "defense": 0, "domain": "land", "aa": True,
            "can_attack": False, "defenceless": True},
     "heavy": {"cost": 12, "attack": 8, "defense": 2, "attack_rolls": 2, "domain": "air"},
     "ace": {"cost": 10, "attack": 6, "defense": 8, "attack_rolls": 3, "choose_best_roll": True,
             "domain": "air"},
     "bb": {"cost": 20, "attack": 8, "defense": 8, "hits": 3, "domain": "sea"},
     "monitor": {"cost": 16, "attack": 5, "defense": 5, "hits": 4, "defense_rolls": 2,
                 "domain": "sea"},
     "dd": {"cost": 8, "attack": 4, "defense": 4, "domain": "sea", "destroyer": True}},
    "d12")


def _global_with_bonuses():
    """global-1940-2e with its support written as TripleA writes it: each artillery adds 1 to an
    infantry's or mech infantry's attack, a fighter or tank 1 to a tactical bomber's."""
    table = tomllib.loads((resources.files("oddsim.rulesets") / "global-1940-2e.toml").read_text())
    table = copy.deepcopy(table)
    table["name"] = "global-bonus"
    units = table["units"]
    for rule in table["support"]:
        rule["bonus"] = rule.pop("value") - units[rule["supported"][0]]["attack"]
    del table["tech"]["improved-mech-infantry"]
    return parse_ruleset(table, "global-bonus")


GLOBAL = _global_with_bonuses()


def B(rules, attacker, defender=None, **options):
    return battle_from(rules, attacker, defender, options)


BATTLES = [
    B(D12, "3 inf, 2 art, 2 mech, 1 tank, 1 heavy", "4 inf, 1 art, 1 fort, 1 aa"),
    B(D12, "3 inf, 2 art, 2 mech, 1 tank, 1 heavy", "6 inf, 2 art, 1 fort", dice="lowluck"),
    B(D12, "2 ace, 2 tank, 1 mech, 1 inf", "3 inf, 2 fort, 1 art"),
    B(D12, "2 ace, 1 tank, 1 inf", "3 inf, 1 fort", dice="lowluck"),
    B(D12, "1 bb, 2 dd", "1 damaged bb, 1 monitor, 1 dd", sea=True),
    B(D12, "1 monitor, 1 dd", "1 bb", sea=True, dice="lowluck"),
    B(GLOBAL, "2 inf, 1 art, 1 mech, 1 tac, 1 arm, 1 ftr", "3 inf, 1 art, 1 aa"),
]


@pytest.fixture(scope="module", params=range(len(BATTLES)), ids=[b.describe() for b in BATTLES])
def pair(request):
    battle = BATTLES[request.param]
    return battle, simulate(battle, runs=RUNS, seed=7000 + request.param), oddsim.solve(battle)


def test_global_support_as_bonuses_is_the_editions_support():
    """The edition's absolute values (artillery raises infantry to 2) and TripleA's bonuses (+1)
    are one rule: the same exact answer."""
    army = ("2 inf, 1 art, 1 mech, 1 tac, 1 arm, 1 ftr", "3 inf, 1 art, 1 aa")
    bonus, value = (oddsim.solve(B(rules, *army)) for rules in (GLOBAL, "global-1940-2e"))
    for name in ("attacker_win", "defender_win", "draw", "attacker_ipc_lost", "expected_rounds"):
        assert getattr(bonus, name) == pytest.approx(getattr(value, name), abs=1e-12)
