"""``oddsim battle --ool-attacker best`` (issue 33): the goal beside the fixed order, the advice."""

import json

from click.testing import CliRunner

from oddsim.cli import cli


def _run(*args):
    return CliRunner().invoke(cli, list(args))


def test_the_answer_says_the_goal_beside_the_fixed_order_and_the_advice():
    out = _run("battle", "-a", "2 inf, 1 arm, 1 ftr", "-d", "2 inf, 1 arm", "--ool-attacker", "best")
    assert out.exit_code == 0, out.output
    assert ("takes the territory 76.3% with the attacker choosing each loss; 57.8% by the order of loss"
            in out.output)
    assert "Round 1, the attacker takes hits and loses:" in out.output
    assert "2 infantry, 1 fighter" in out.output  # 3 hits: the fighter before the last land unit


def test_json_adds_the_casualty_policy():
    out = _run("battle", "-a", "3 inf, 1 arm", "-d", "2 inf, 2 art", "--ool-defender", "best",
               "--casualty-goal", "tuv", "--in-progress", "--json")
    assert out.exit_code == 0, out.output
    policy = json.loads(out.output)["casualty_policy"]
    assert policy["goal"] == "tuv" and policy["defender_best"] and policy["defender"]


def test_a_goal_without_a_best_side_exits_2_in_one_line():
    out = _run("battle", "-a", "3 inf", "-d", "2 inf", "--casualty-goal", "win")
    assert out.exit_code == 2 and out.output.count("\n") == 1 and "--ool-attacker best" in out.output
