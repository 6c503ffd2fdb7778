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
    5/6 = 10/36, 2 hits 1/36. --json lists the rows in casualty_policy.typed (the whole grids in
    casualty_policy.typed_grid)."""
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


ISSUE_SEA = ("battle", "--rules", "1942-2e", "--sea", "-a", "2 sub, 1 ftr, 1 bmb",
             "-d", "1 sub, 1 dd, 1 carrier, 1 ftr", "--ool-attacker", "best", "--ool-defender", "best")


def test_at_sea_the_attacker_rows_name_the_rolls_that_call_for_another_loss():
    """The issue's sea battle, both choosing. The defender's sub strikes first (no attacking
    destroyer), 1/6, and its hit can only sink a sub. General fire follows from what the strike
    leaves: nothing sunk (5/6), the text's table; a sub sunk (1/6), in --json's typed_grid. There
    the attacker's aircraft cannot hit the sub (no destroyer of theirs): exactly 1 of their hits
    and none of the subs', 1/2 x 1/3 + 1/2 x 2/3 = 1/2 by (2/3)^2 = 2/9. The attacker's rows list
    the hits scored after which another loss is better (checked against the brute-force solver
    in tests/engines/exact/test_casualty_advice.py)."""
    out = _run(*ISSUE_SEA)
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    at = lines.index("  Round 1, surprise strike, the attacker takes hits and loses:")
    assert lines[at + 1] == "    1 from subs ( 16.7%): 1 submarine"
    head = "  Round 1, general fire after a surprise strike that sank nothing, the {} takes hits and loses:"
    defender, attacker = lines.index(head.format("defender")), lines.index(head.format("attacker"))
    assert lines[defender + 1].startswith("    1 from aircraft ") and "( 22.2%)" in lines[defender + 1]
    assert any(line.startswith("        after scoring ") for line in lines[attacker + 1:])
    assert lines[-1] == ("  (general fire after each outcome of the surprise strike: --json's "
                         "casualty_policy.typed_grid)")
    policy = json.loads(_run(*ISSUE_SEA, "--json").output)["casualty_policy"]
    grids = policy["typed_grid"]
    after = "general fire after a surprise strike that sank "
    assert [g["title"] for g in grids] == ["surprise strike", after + "nothing",
                                           after + "the attacker's 1 submarine"]
    assert [g["probability"] for g in grids] == pytest.approx([1.0, 5 / 6, 1 / 6], abs=1e-15)
    assert [len(row) for row in grids[2]["attacker"]] == [len(grids[2]["taken"])] * len(grids[2]["scored"])
    assert any(r["when_scored"] for r in policy["typed"] if r["side"] == "attacker")


def test_at_sea_hits_past_what_the_side_can_take_read_2_or_more():
    """3 subs against 1 sub, 1 dd: 2 or 3 of the subs' hits, 7/27 (12/27 exactly 1)."""
    out = _run("battle", "--rules", "1942-2e", "--sea", "-a", "3 sub", "-d", "1 sub, 1 dd",
               "--ool-defender", "best")
    lines = out.output.splitlines()
    assert "    1 from subs         ( 44.4%): 1 submarine" in lines
    assert any(line.startswith("    2 or more from subs ( 25.9%): ") for line in lines)
