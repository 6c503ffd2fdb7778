"""The advice of best casualties on the command line (issue 33): the table collapsed from the grid,
``--json``'s whole grid, and the advice for a battle given ``--in-progress``."""

import json

import pytest
from click.testing import CliRunner

from oddsim.cli import cli

VALUE_8 = ("battle", "-a", "2 inf, 2 ftr", "-d", "2 inf", "--ool-attacker", "best",
           "--casualty-goal", "value", "--casualty-value", "8")
IN_PROGRESS = ("battle", "-a", "1 inf, 1 ftr", "-d", "1 inf", "--ool-attacker", "best", "--in-progress")


def _run(*args):
    return CliRunner().invoke(cli, list(args))


def test_the_table_names_the_hits_scored_that_change_the_loss():
    """Having scored 2 hits the defender has nothing left: with 2 hits taken, an infantry and a
    fighter (+8 - 7 = +1 against 0: tests/engines/exact/test_casualty_advice.py); 59/1296 = 4.6%."""
    out = _run(*VALUE_8)
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert "        after scoring 2 (defender left none) (4.6%): 1 infantry, 1 fighter" in lines


def test_json_carries_the_whole_grid():
    out = _run(*VALUE_8, "--json")
    assert out.exit_code == 0, out.output
    policy = json.loads(out.output)["casualty_policy"]
    (start,) = policy["grid"]  # (no AA fire: one start)
    assert [s["hits"] for s in start["scored"]] == [0, 1, 2] and [t["hits"] for t in start["taken"]] == [1, 2]
    assert start["scored"][2]["defender_left"] == "none"
    assert start["attacker"][2][1] == "1 infantry, 1 fighter"  # scored 2, taken 2
    assert [(c["scored"], c["first"]) for c in start["columns"]] == [([0, 1], 0), ([2], 2)]  # the same loss
    row = next(r for r in policy["attacker"] if r["hits"] == 2)
    assert row["when_scored"][0]["scored"] == [2] and row["when_scored"][0]["scored_words"] == "2"
    assert policy["in_progress"] is False


def test_in_progress_gives_the_advice_for_the_state_given():
    """1 inf, 1 ftr against 1 inf: one hit costs the fighter (1/4 against 0, by hand), though from
    2 inf, 1 ftr it costs an infantry; the defender's infantry hits with 1/3."""
    out = _run(*IN_PROGRESS)
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert "  This round, the attacker takes hits and loses:" in lines
    assert "     1 hit  ( 33.3%): 1 fighter" in lines
    out = _run(*IN_PROGRESS, "--json")
    assert json.loads(out.output)["casualty_policy"]["in_progress"] is True


SUBS = ("battle", "--sea", "-a", "1 sub, 2 ftr", "-d", "2 sub, 1 dd, 1 trn", "--ool-attacker", "best")


def test_at_sea_with_submarines_the_table_goes_by_phase_and_group_of_hits():
    """The defender's subs strike first (no attacking destroyer): their hits never go to aircraft,
    so 1 or 2 of them cost the attacker's only submarine; 2 subs defending at 1: 1 hit 2 * 1/6 *
    5/6 = 10/36, 2 hits 1/36. --json lists the rows in casualty_policy.typed."""
    out = _run(*SUBS)
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    at = lines.index("  Round 1, surprise strike, the attacker takes hits and loses:")
    assert lines[at + 1:at + 3] == ["    1 from subs ( 27.8%): 1 submarine",
                                    "    2 from subs (  2.8%): 1 submarine"]
    policy = json.loads(_run(*SUBS, "--json").output)["casualty_policy"]
    assert policy["advice"] == "typed" and policy["grid"] == []
    first = policy["typed"][0]
    assert (first["side"], first["phase"], first["hits"]) == ("attacker", "surprise strike", "1 from subs")
    assert first["probability"] == pytest.approx(10 / 36) and first["lose"] == "1 submarine"
    assert json.loads(_run(*VALUE_8, "--json").output)["casualty_policy"]["advice"] == "grid"
