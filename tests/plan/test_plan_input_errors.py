"""Odd plan inputs end in a PlanError (the CLI: exit 2, one line) that names the bad part, never
in Python's own message (issue 36: "invalid literal for int()", "'int' object is not iterable")."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from oddsim import plan
from oddsim.cli import cli
from oddsim.plan.goals import Goal, GoalKind, PlanError

POOL = "2 inf, 1 ftr"
TARGETS = ["A=1 inf"]


@pytest.mark.parametrize("goal", ["take-at-least:²", "take-at-least:" + "9" * 5000])
def test_a_goal_whose_number_is_no_plain_number_is_named(goal):
    result = CliRunner().invoke(cli, ["plan", "--pool", POOL, "--target", TARGETS[0], "--goal", goal])
    assert result.exit_code == 2
    assert "needs its number of targets" in result.output
    assert "Traceback" not in result.output and "int()" not in result.output


def test_a_goal_object_whose_number_is_not_an_integer_is_refused():
    with pytest.raises(PlanError, match="K must be"):
        plan.attack("1942-2e", POOL, TARGETS, goal=Goal(GoalKind.TAKE_AT_LEAST, "x"))  # type: ignore[arg-type]


@pytest.mark.parametrize("key", ["values", "reach", "counter_attack", "targets"])
@pytest.mark.parametrize("entries", [5, 1.5, True])
def test_entries_that_are_no_list_are_refused(key, entries):
    kwargs = {"targets": TARGETS, key: entries}
    with pytest.raises(PlanError, match="give a list of NAME=... entries"):
        plan.attack("1942-2e", POOL, **kwargs)


@pytest.mark.parametrize("retreat, message", [("after_round=2", "as a mapping"), (5, "as a mapping"),
                                              ({"sea": True}, "unknown retreat option 'sea'"),
                                              ({1: 2}, "unknown retreat option '1'")])
def test_a_retreat_that_is_not_retreat_options_is_refused(retreat, message):
    with pytest.raises(PlanError, match=message):
        plan.defend("1942-2e", POOL, TARGETS, retreat=retreat)
