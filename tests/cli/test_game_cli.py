"""``oddsim game battles``, ``oddsim battle --game`` and ``oddsim plan --game`` on the small war
(tests/triplea/games/small_war.xml)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from oddsim.cli import cli

SMALL_WAR = str(Path(__file__).parents[1] / "triplea" / "games" / "small_war.xml")



def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_game_battles_json_is_a_list_with_the_armies_and_the_battle_figures():
    result = run("game", "battles", SMALL_WAR, "--attacker", "Germans", "--json")
    assert result.exit_code == 0, result.output
    entries = json.loads(result.output)
    assert [e["territory"] for e in entries] == ["Karelia", "Ukraine", "Libya", "Sea Zone 5", "Sea Zone 6",
                                                 "Sweden"]
    sweden = entries[-1]
    assert sweden["attacker"] == {"armour": 1} and sweden["defender"] == {"infantry": 1}
    assert sweden["attacker_win"] == pytest.approx(0.5, abs=1e-12)  # 1/2: armour on 3 vs infantry on 2
    for key in ("takes_territory", "tuv_swing", "attacker_survivors", "method", "readings"):
        assert key in sweden


def test_game_battles_table():
    result = run("game", "battles", SMALL_WAR)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Small War, round 3: 4 battles answered, 2 not")
    assert "name the attacker at sea with --attacker PLAYER" in result.output


def test_game_battles_monte_carlo_gives_its_error():
    result = run("game", "battles", SMALL_WAR, "--method", "mc", "--runs", "2000", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert "±" in result.output and "Monte Carlo, 2,000 runs" in result.output


def test_battle_from_the_board():
    result = run("battle", "--game", SMALL_WAR, "--territory", "sea zone 6", "--attacker-player", "germans",
                 "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["battle"] == "Small War sea battle: 1 fighter, 1 destroyer attack 1 damaged battleship"
    assert data["attacker_win"] == pytest.approx(0.8, abs=1e-12)  # 4/5, tests/game/test_game_battles.py


def test_plan_from_the_board():
    result = run("plan", "--game", SMALL_WAR, "--from", "Ukraine,Sweden", "--attacker-player", "Russians",
                 "--target", "Poland", "--target", "Norway", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert "Poland" in json.dumps(data["split"])


@pytest.mark.parametrize("args, message", [
    (["game", "battles", SMALL_WAR, "--attacker", "Japanese"], "names player 'Japanese', not in this game"),
    (["game", "battles", "README.md"], "is not XML"),
    (["game", "battles", "no-such-file.xml"], "cannot read game file"),
    (["battle", "--game", SMALL_WAR, "--territory", "Berln"], "did you mean 'Berlin'"),
    (["battle", "--game", SMALL_WAR, "--territory", "Berlin"], "there is no battle in Berlin"),
    (["battle", "--game", SMALL_WAR, "--territory", "Sea Zone 5"], "with --attacker-player PLAYER"),
    (["battle", "--game", SMALL_WAR], "--game needs --territory NAME"),
    (["battle", "--game", SMALL_WAR, "--territory", "Karelia", "--rules", "revised"], "drop --rules"),
    (["battle", "--territory", "Karelia", "-a", "1 inf", "-d", "1 inf"], "--territory names what stands"),
    (["battle", "-a", "1 inf"], "Missing option '-d' / '--defender'"),
    (["plan", "--game", SMALL_WAR, "--target", "Poland"], "--game needs --from T1,T2"),
    (["plan", "--game", SMALL_WAR, "--from", "Ukraine", "--target", "Poland=1 inf"], "drop the '=...'"),
    (["plan", "--game", SMALL_WAR, "--from", "Ukraine", "--target", "Poland"], "--attacker-player PLAYER"),
    (["plan", "--from", "Ukraine", "--pool", "1 inf", "--target", "A=1 inf"], "--from names what stands"),
    (["serve", "--game", "README.md", "--port", "1"], "README.md is not XML"),
])
def test_bad_input_is_one_line_and_exit_2(args, message):
    result = run(*args)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("oddsim: error: ")
    assert message in lines[0]
