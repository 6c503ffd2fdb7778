"""Request bodies: JSON oddsim takes (no duplicate keys, no integer past Python's digit limit),
one rule for an empty defender, and every job checked before its 202."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

import oddsim  # noqa: E402
from oddsim.errors import OddsimError  # noqa: E402

POSTS = ["battle", "amphibious", "raid", "trench", "rules", "purchase", "jobs/battle", "jobs/raid",
         "jobs/trench"]
EMPTY = "defender: the army is empty: write 'none' for an undefended territory"


def _line(response, status=400):
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert "\n" not in error and "Traceback" not in error
    return error


@pytest.mark.parametrize("endpoint", POSTS)
def test_an_integer_of_more_than_4300_digits_is_a_400(client, endpoint):
    """Before: a 500 and a traceback on all nine POST endpoints."""
    raw = b'{"attacker": "1 inf", "defender": "1 inf", "runs": ' + b"9" * 5000 + b"}"
    error = _line(client.post(f"/api/{endpoint}", content=raw, headers={"content-type": "application/json"}))
    assert "not JSON" in error and "digits" in error


def test_a_key_given_twice_is_refused(client):
    """Before: the last one won without a word."""
    raw = b'{"attacker": "9 arm", "defender": "1 inf", "attacker": "1 inf"}'
    error = _line(client.post("/api/battle", content=raw, headers={"content-type": "application/json"}))
    assert '"attacker" is given twice' in error


def test_an_empty_wave_plan_is_refused(tmp_path):
    """Before: ``wave = []`` ran a plain battle."""
    from oddsim.stages.wave_plan import load_wave_plan

    for name, text in (("plan.toml", "wave = []\n"), ("plan.json", '{"wave": []}')):
        (tmp_path / name).write_text(text)
        with pytest.raises(OddsimError, match="the list of waves is empty"):
            load_wave_plan(tmp_path / name)
    (tmp_path / "twice.json").write_text('{"wave": [{"attacker": "1 inf"}], "wave": []}')
    with pytest.raises(OddsimError, match="given twice"):
        load_wave_plan(tmp_path / "twice.json")


@pytest.mark.parametrize("defender", [None, {}, {"inf": 0}, "0 inf", "", "  "])
def test_an_empty_defender_follows_the_clis_rule_everywhere(client, defender):
    """Before: the web and Python APIs took these as an undefended territory."""
    assert _line(client.post("/api/battle", json={"attacker": "1 inf", "defender": defender})) == EMPTY
    assert _line(client.post("/api/jobs/battle", json={"attacker": "1 inf", "defender": defender},
                             headers={"x-oddsim-client": "empty-defender"})) == EMPTY
    with pytest.raises(OddsimError) as refused:
        oddsim.Battle("1942-2e", "1 inf", defender)
    assert str(refused.value) == EMPTY
    assembled = {"fleet": "1 transport", "cargo": "1 inf", "defender": defender}
    assert _line(client.post("/api/amphibious", json=assembled)) == EMPTY


def test_an_empty_defender_on_the_command_line_is_the_same_line():
    from click.testing import CliRunner

    from oddsim.cli import cli

    for defender in ("", "0 inf"):
        result = CliRunner().invoke(cli, ["battle", "-a", "1 inf", "-d", defender])
        assert result.exit_code == 2 and result.stderr.strip() == f"oddsim: error: {EMPTY}"


def test_none_is_still_an_undefended_territory(client):
    data = client.post("/api/battle", json={"attacker": "1 inf", "defender": "none"}).json()
    assert data["attacker_win"] == 1.0
    assert oddsim.solve(oddsim.Battle("1942-2e", "1 inf", "none")).attacker_win == 1.0


@pytest.mark.parametrize("kind, body, words", [
    ("raid", {"bombers": 0, "territory_value": 3}, "bomber"),
    ("raid", {"bombers": 2, "territory_value": 3, "colour": "red"}, "unknown field 'colour'"),
    ("trench", {"attacker": "3,-,-", "defender": "2,-,-", "year": 1066}, "1066"),
    ("trench", {"attacker": "3,-,-", "year": 1915}, "missing defender"),
    ("amphibious", {"fleet": "1 transport", "cargo": "1 zeppelin", "defender": "1 inf"}, "zeppelin"),
])
def test_raid_trench_and_amphibious_jobs_are_checked_before_the_202(client, kind, body, words):
    """Before: they were queued (202) and failed only when they ran."""
    response = client.post(f"/api/jobs/{kind}", json=body, headers={"x-oddsim-client": f"check-{kind}"})
    assert words in _line(response)
