"""A plan with best casualties (issue 33): each target's battle solved as a game for every
sub-army (never the lattice sweep, which knows only fixed orders), the plan's best split equal to
brute force over every split with each battle solved alone by the brute-force game solver of
tests/engines/exact/test_best_casualties.py; the casualty goal follows the plan's goal; sized and
refused in one line before any battle."""

import itertools

import numpy as np
import pytest

import oddsim.plan
from oddsim.errors import TooLargeError
from oddsim.model.battle import Battle
from oddsim.model.rules import load_ruleset
from oddsim.model.side import Side
from oddsim.plan.spec import check_best_size, parse_plan
from oddsim.stages.sub_armies import solve_armies, solve_sub_armies, solve_sub_armies_one_by_one
from tests.engines.exact.test_best_casualties import brute_force

RULES = load_ruleset("1942-2e")


def _take(inf, ftr, defenders, chooses=True):
    """The chance (inf, ftr) take ``defenders`` infantry, by the brute force alone."""
    if inf + ftr == 0:
        return 0.0
    return brute_force((inf, ftr), (defenders,), lambda c: [(c[0], 1 / 6), (c[1], 3 / 6)],
                       lambda d: [(d[0], 2 / 6)], att_land=(0,), att_order=None if chooses else (0, 1),
                       def_order=(0,))


def test_the_best_split_is_brute_force_over_every_split():
    """2 inf, 2 ftr split over A (2 inf) and B (1 inf), goal take-all, the attacker choosing each
    loss: every split of each type (to A, to B, or home) tried, each battle by the brute force."""
    plan = oddsim.plan.attack("1942-2e", "2 inf, 2 ftr", ["A=2 inf", "B=1 inf"], goal="take-all",
                              ool_attacker="best")
    splits = [(ia, fa, ib, fb) for ia, ib in itertools.product(range(3), repeat=2) if ia + ib <= 2
              for fa, fb in itertools.product(range(3), repeat=2) if fa + fb <= 2]
    best = max(_take(ia, fa, 2) * _take(ib, fb, 1) for ia, fa, ib, fb in splits)
    assert plan.objective == pytest.approx(best, abs=1e-12)
    by_order = max(_take(ia, fa, 2, False) * _take(ib, fb, 1, False) for ia, fa, ib, fb in splits)
    fixed = oddsim.plan.attack("1942-2e", "2 inf, 2 ftr", ["A=2 inf", "B=1 inf"], goal="take-all")
    assert fixed.objective == pytest.approx(by_order, abs=1e-12)
    assert plan.objective > fixed.objective + 0.01  # (choosing keeps the infantry to take with)


def test_every_sub_army_is_its_own_game():
    """The lattice sweep knows fixed orders only: with best casualties it declines (None) and each
    sub-army is solved alone, equal to one solve each."""
    battle = Battle(RULES, Side("1 inf, 3 ftr", "best"), "3 inf")
    names = tuple(u.name for u in RULES.units)
    counts = np.zeros((1, len(names)), dtype=np.int64)
    counts[0, names.index("infantry")], counts[0, names.index("fighter")] = 1, 3
    assert solve_armies(battle, "attacker", counts) is None
    pool = battle.attacker.army
    swept = solve_sub_armies(battle, pool)
    assert swept == solve_sub_armies_one_by_one(battle, pool)
    one = next(odds for army, odds in swept.items() if army.total == 4)
    assert one.takes_territory == pytest.approx(_take(1, 3, 3), abs=1e-12)


@pytest.mark.parametrize("goal, defend, expected", [
    ("value", False, ("value", 3.0)), ("tuv", False, ("tuv", None)),
    ("take-all", False, ("take", None)), ("hold-after", False, ("take", None)),
    ("hold-all", True, ("take", None)), ("value", True, ("value", 3.0)),
])
def test_the_battles_play_for_the_plans_goal(goal, defend, expected):
    order = {"ool_defender" if defend else "ool_attacker": "best"}
    spec = parse_plan(RULES, "2 inf, 1 arm", ["A=2 inf"], goal, values=["A=3"], defend=defend,
                      battle_options=order)
    battle = spec.targets[0].battle
    assert (battle.casualty_goal, battle.casualty_value) == expected
    assert (battle.defender if defend else battle.attacker).best_losses
    asked = parse_plan(RULES, "2 inf, 1 arm", ["A=2 inf"], goal, values=["A=3"], defend=defend,
                       battle_options={**order, "casualty_goal": "tuv"})
    assert asked.targets[0].battle.casualty_goal == "tuv"


def test_a_plan_too_large_is_refused_before_any_battle():
    spec = parse_plan(RULES, "1 inf, 2 ftr", ["A=2 inf", "B=1 inf"], "take-all",
                      battle_options={"ool_attacker": "best"})
    seconds = check_best_size(spec)
    # 2 x 3 sub-armies of the pool, less the empty one, for each of 2 targets
    with pytest.raises(TooLargeError, match=r"^the plan solves 10 battles with best casualties, about "):
        check_best_size(spec, limit=seconds / 2)
    with pytest.raises(TooLargeError, match=r"^target A, sub-army .*: its battle is too large for best"):
        parse_plan(RULES, "20 inf, 5 art, 5 arm, 3 ftr, 1 bmb", ["A=20 inf, 3 arm, 2 ftr"], "take-all",
                   reach=None, battle_options={"ool_attacker": "best"})


def test_the_cli_plans_with_best_casualties():
    from click.testing import CliRunner

    from oddsim.cli import cli

    out = CliRunner().invoke(cli, ["plan", "--pool", "1 inf, 3 ftr", "--target", "A=3 inf", "--goal",
                                   "take-all", "--ool-attacker", "best", "--casualty-goal", "take"])
    assert out.exit_code == 0, out.output
    first = out.stdout.splitlines()[0]
    assert f"{100 * _take(1, 3, 3):.2f}%" in first and "the attacker chooses each loss for goal take" in first


def test_hold_after_counts_the_counter_attack_with_best_casualties():
    """Goal hold-after: each target's chance to take and hold is its battle then the
    counter-attack on what stays, the stayers choosing each loss too (``run_counter_attack``
    of that sub-army alone)."""
    from oddsim.api import run_counter_attack

    plan = oddsim.plan.attack("1942-2e", "2 inf, 1 arm, 1 ftr", ["A=1 inf"], goal="hold-after",
                              counter_attack=["A=2 inf"], ool_attacker="best")
    sent = plan.split["A"].sent
    alone = run_counter_attack(Battle(RULES, Side(sent, "best"), "1 inf"), "2 inf", method="exact")
    assert plan.objective == pytest.approx(alone.holds, abs=1e-12)
    assert plan.split["A"].odds.holds == pytest.approx(alone.holds, abs=1e-12)
