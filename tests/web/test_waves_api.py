"""Later waves through ``POST /api/battle`` (``waves``): what ``oddsim battle --wave`` and
``--wave-plan`` print, the same checks as a plan file, and the server's limits."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from oddsim.cli import cli

pytest.importorskip("starlette")


def cli_json(*args):
    result = CliRunner().invoke(cli, ["battle", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_waves_as_armies_answer_what_wave_prints(client):
    # the first battle's order of loss and kept land units go with each wave, as --wave does
    body = {"attacker": "2 inf, 1 arm", "defender": "3 inf, 1 arm", "ool_attacker": "arm,inf", "keep_land": 1,
            "waves": ["2 arm", "1 inf, 1 ftr"]}
    answer = client.post("/api/battle", json=body)
    assert answer.status_code == 200, answer.text
    expected = cli_json("-a", "2 inf, 1 arm", "-d", "3 inf, 1 arm", "--ool-attacker", "arm,inf",
                        "--keep-land", "1", "--wave", "2 arm", "--wave", "1 inf, 1 ftr")
    assert answer.json() == expected


def test_waves_with_options_answer_what_a_wave_plan_prints(client, tmp_path):
    waves = [{"attacker": "2 arm", "retreat": {"after_round": 1}},
             {"attacker": "1 inf, 1 ftr", "defender_reinforcements": "1 inf", "dice": "lowluck"}]
    plan = tmp_path / "waves.json"
    plan.write_text(json.dumps({"wave": waves}))
    answer = client.post("/api/battle", json={"attacker": "2 inf", "defender": "3 inf", "waves": waves})
    assert answer.status_code == 200, answer.text
    assert answer.json() == cli_json("-a", "2 inf", "-d", "3 inf", "--wave-plan", str(plan))


@pytest.mark.parametrize("waves, words", [
    ("2 arm", "waves is a list"),
    ([{"atacker": "2 arm"}], "waves[0]: unknown option 'atacker'"),
    ([{"keep_land": 1}], "waves[0]: every wave needs an attacker"),
    ([{"attacker": "2 arm", "reinforce_emptied": "yes"}], "waves[0]: reinforce_emptied is true or false"),
    (["2 arm"] * 21, "at most 20 later waves"),
])
def test_bad_waves_get_one_line(client, waves, words):
    answer = client.post("/api/battle", json={"attacker": "2 inf", "defender": "3 inf", "waves": waves})
    assert answer.status_code == 400 and words in answer.json()["error"], answer.text


def test_waves_and_a_counter_attack_are_refused_as_the_cli_refuses_them(client):
    answer = client.post("/api/battle", json={"attacker": "2 inf", "defender": "3 inf", "waves": ["2 arm"],
                                              "counter_attack": "2 inf"})
    assert answer.status_code == 400 and "a counter-attack follows one battle" in answer.json()["error"]


def test_exact_waves_over_the_servers_limit_are_refused(client):
    # a first battle of a fraction of a millisecond, then a wave of 25 ms against each of the
    # 61 x 21 compositions the defender may have left: over the 2 s limit
    answer = client.post("/api/battle", json={"attacker": "1 inf", "defender": "60 inf, 20 arm",
                                              "waves": ["60 inf, 20 arm"], "method": "exact"})
    assert answer.status_code >= 400, answer.text
    assert "too large to solve exactly on the server" in answer.json()["error"]
    assert "with the later waves" in answer.json()["error"]


def test_an_auto_battle_answered_exactly_is_one_answer_whatever_the_seed(client):
    """The page sends a seed with every "auto" battle (for a Monte Carlo answer's CLI line): an
    exact answer does not depend on it, and is kept once."""
    from oddsim.web.battle_requests import ANSWERS, battle_spec

    body = {"attacker": "2 inf, 1 art", "defender": "2 inf", "method": "auto"}
    first = client.post("/api/battle", json={**body, "seed": 1}).text
    assert client.post("/api/battle", json={**body, "seed": 2}).text == first
    request = battle_spec(body)
    assert ANSWERS.get((request.fight, request.method, request.runs, None, None)) == first
