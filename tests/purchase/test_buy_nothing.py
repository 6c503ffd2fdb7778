"""A sweep with no existing units includes buying nothing (no attack: a row the frontier starts
from), ties in the ranking go to the cheaper purchase, and ``oddsim purchase --json`` answers
what the server's purchase job does (issue 34)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from oddsim.cli import cli
from oddsim.purchase import sweep

TOL = 1e-12


@pytest.mark.parametrize("method", ["exact", "auto"])
def test_buying_nothing_is_a_row_and_starts_the_frontier(method):
    # 1942-2e: nothing (no attack: takes 0, the defender keeps all) or 1 inf against 1 inf,
    # which takes it 1/4 (1/6 x 4/6 over 1 - 5/6 x 4/6 = 16/36)
    table = sweep("1942-2e", 3, "inf", "1 inf", goal="take", method=method)
    by_purchase = {row.purchase: row for row in table.rows}
    assert set(by_purchase) == {"nothing", "1 infantry"}
    nothing = by_purchase["nothing"]
    assert (nothing.cost, nothing.value, nothing.defender_win) == (0, 0.0, 1.0)
    assert (nothing.attacker_ipc_lost, nothing.defender_ipc_lost, nothing.method) == (0.0, 0.0, "exact")
    assert by_purchase["1 infantry"].value == pytest.approx(1 / 4, abs=TOL)
    assert [row.purchase for row in table.frontier()] == ["nothing", "1 infantry"]


def test_buying_nothing_scores_zero_for_every_goal():
    for goal in ("clear", "tuv", "value"):
        table = sweep("1942-2e", 3, "inf", "1 inf", goal=goal)
        nothing = next(row for row in table.rows if row.purchase == "nothing")
        assert nothing.value == 0.0, goal


def test_ties_in_the_ranking_go_to_the_cheaper_purchase():
    # an undefended territory: 1 inf (3 IPCs) and 1 art (4) both take it for sure; the infantry,
    # cheaper, ranks first; buying nothing takes nothing
    table = sweep("1942-2e", 4, "inf,art", "none", goal="take")
    assert [(row.purchase, row.value) for row in table.rows] == [
        ("1 infantry", 1.0), ("1 artillery", 1.0), ("nothing", 0.0)]


def test_purchase_json_answers_what_the_server_does():
    out = CliRunner().invoke(cli, ["purchase", "--budget", "3", "--units", "inf", "--against", "1 inf",
                                   "--quiet", "--json", "--top", "0"])
    assert out.exit_code == 0, out.output
    answer = json.loads(out.stdout)
    assert answer["purchases"] == 2 and answer["goal"] == "take" and answer["readings"] == {}
    assert [row["purchase"] for row in answer["rows"]] == ["1 infantry", "nothing"]
    assert sorted(row["purchase"] for row in answer["frontier"]) == ["1 infantry", "nothing"]
    assert answer["rows"][0]["value"] == pytest.approx(1 / 4, abs=TOL)
    assert "Pareto frontier" in answer["report"]
