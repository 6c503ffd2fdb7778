"""The JSON API answers exactly what the CLI prints, refuses bad requests with the CLI's line."""

from __future__ import annotations

import json
import time

import pytest
from click.testing import CliRunner
from web_jobs import wait_for

from oddsim.cli import cli
from oddsim.model.rules import builtin_names, load_ruleset

pytest.importorskip("starlette")


def cli_json(*args):
    result = CliRunner().invoke(cli, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def cli_error(*args):
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 2
    line = result.stderr.strip()
    assert line.startswith("oddsim: error: ")
    return line.removeprefix("oddsim: error: ")


BATTLES = [
    ({"attacker": "3 inf, 1 art, 2 arm", "defender": "4 inf, 1 arm"},
     ["-a", "3 inf, 1 art, 2 arm", "-d", "4 inf, 1 arm"]),
    ({"rules": "revised", "attacker": "2 sub, 1 ftr", "defender": "1 dd, 1 carrier", "sea": True,
      "attacker_submerge": "alone"},
     ["--rules", "revised", "-a", "2 sub, 1 ftr", "-d", "1 dd, 1 carrier", "--sea",
      "--attacker-submerge", "alone"]),
    ({"attacker": "4 inf, 2 arm, 1 ftr", "defender": "5 inf", "retreat": {"after_round": 2},
      "ool_attacker": "inf,arm,ftr", "keep_land": 1, "dice": "lowluck"},
     ["-a", "4 inf, 2 arm, 1 ftr", "-d", "5 inf", "--retreat-after-round", "2",
      "--ool-attacker", "inf,arm,ftr", "--keep-land", "1", "--dice", "lowluck"]),
    ({"attacker": "2 inf, 1 arm", "defender": "2 inf", "landed": "2 inf", "bombard": "1 bb"},
     ["-a", "2 inf, 1 arm", "-d", "2 inf", "--landed", "2 inf", "--bombard", "1 bb"]),
    ({"attacker": "3 inf, 1 ftr", "defender": "3 inf", "method": "mc", "runs": 20000, "seed": 7},
     ["-a", "3 inf, 1 ftr", "-d", "3 inf", "--method", "mc", "--runs", "20000", "--seed", "7",
      "--quiet"]),
    ({"attacker": "1 inf", "defender": "none"}, ["-a", "1 inf", "-d", "none"]),
    # auto picks exact for a small battle, runs and seed or not (before: the server said 400)
    ({"attacker": "2 inf", "defender": "1 inf", "runs": 1000, "seed": 3},
     ["-a", "2 inf", "-d", "1 inf", "--runs", "1000", "--seed", "3"]),
]


@pytest.mark.parametrize("body, args", BATTLES)
def test_battle_answers_what_the_cli_prints(client, body, args):
    response = client.post("/api/battle", json=body)
    assert response.status_code == 200, response.text
    assert response.json() == cli_json("battle", *args)


def test_a_counter_attack_answers_what_the_cli_prints(client):
    body = {"attacker": "1 arm", "defender": "none", "counter_attack": "1 inf"}
    response = client.post("/api/battle", json=body)
    assert response.status_code == 200, response.text
    data = response.json()
    # 1 armor (defense 3) against 1 infantry (attack 1): the infantry retakes it with
    # (1/6 x 1/2) / (1 - 5/6 x 1/2) = 1/7
    assert data["holds"] == pytest.approx(6 / 7, abs=1e-12)
    assert data == cli_json("battle", "-a", "1 arm", "-d", "none", "--counter-attack", "1 inf")
    bad = client.post("/api/battle", json={**body, "sea": True, "attacker": "1 bb", "defender": "1 dd"})
    assert bad.status_code == 400
    assert bad.json()["error"] == cli_error("battle", "-a", "1 bb", "-d", "1 dd", "--sea",
                                            "--counter-attack", "1 inf")
    too_large = client.post("/api/battle", json={"attacker": "60 inf, 40 arm", "defender": "50 inf",
                                                 "counter_attack": "80 inf", "method": "exact"})
    assert too_large.status_code == 400 and "too large" in too_large.json()["error"]


def test_amphibious_raid_and_trench_answer_what_the_cli_prints(client):
    amphibious = client.post("/api/amphibious", json={"fleet": "1 bb, 2 transport", "cargo": "2 inf, 1 art",
                                                      "defender": "2 inf", "sea_defender": "1 sub"})
    assert amphibious.json() == cli_json("amphibious", "--fleet", "1 bb, 2 transport", "--cargo",
                                         "2 inf, 1 art", "-d", "2 inf", "--sea-defender", "1 sub")
    raid = client.post("/api/raid", json={"bombers": 2, "territory_value": 6})
    assert raid.json() == cli_json("raid", "--bombers", "2", "--territory-value", "6")
    trench = client.post("/api/trench", json={"attacker": "5,4,3", "attacker_support": "2,0,1",
                                               "defender": "4,4,4", "year": 1917, "points": 2})
    assert trench.json() == cli_json("trench", "--attacker", "5,4,3", "--attacker-support", "2,0,1",
                                     "--defender", "4,4,4", "--year", "1917", "--points", "2")


def test_an_exact_raid_refuses_runs_and_a_seed_as_the_cli_does(client):
    """Before: the server solved it and dropped both without a word."""
    body = {"bombers": 1, "territory_value": 3, "method": "exact", "runs": 50, "seed": 4}
    response = client.post("/api/raid", json=body)
    assert response.status_code == 400
    assert response.json()["error"] == cli_error("raid", "--bombers", "1", "--territory-value", "3",
                                                 "--method", "exact", "--runs", "50", "--seed", "4")


@pytest.mark.parametrize("body, args", [
    ({"attacker": "3 zz", "defender": "1 inf"}, ["-a", "3 zz", "-d", "1 inf"]),
    ({"attacker": "1 inf", "defender": " "}, ["-a", "1 inf", "-d", " "]),
    ({"attacker": "1 inf", "defender": "1 inf", "sea": True}, ["-a", "1 inf", "-d", "1 inf", "--sea"]),
    ({"attacker": "1 inf", "defender": "1 inf", "ool_attacker": "inf,zeppelin"},
     ["-a", "1 inf", "-d", "1 inf", "--ool-attacker", "inf,zeppelin"]),
    ({"attacker": "1 inf", "defender": "1 inf", "method": "exact", "runs": 5},
     ["-a", "1 inf", "-d", "1 inf", "--method", "exact", "--runs", "5"]),
    ({"attacker": "1 inf", "defender": "1 inf", "attacker_tech": "warp"},
     ["-a", "1 inf", "-d", "1 inf", "--attacker-tech", "warp"]),
])
def test_a_bad_battle_gets_the_cli_line(client, body, args):
    response = client.post("/api/battle", json=body)
    assert response.status_code == 400
    assert response.json() == {"error": cli_error("battle", *args)}


@pytest.mark.parametrize("raw, status, words", [
    (b"{not json", 400, "not JSON"),
    (b"[1, 2]", 400, "JSON object"),
    (json.dumps({"attacker": "1 inf", "defender": "1 inf", "colour": "red"}).encode(), 400,
     "unknown field 'colour'"),
    (json.dumps({"rules": "/etc/oddsim.toml", "attacker": "1 inf", "defender": "1 inf"}).encode(), 400,
     "ruleset_toml"),
    (json.dumps({"attacker": "1 inf", "defender": "1 inf", "method": "mc", "runs": 10**9}).encode(),
     400, "5,000,000"),
    (json.dumps({"attacker": "100 sub, 100 dd, 100 ftr", "defender": "100 bb, 100 cv, 100 sub",
                 "sea": True, "method": "exact"}).encode(), 400, "too large"),
    (b"{" + b'"a": "' + b"x" * 300_000 + b'"}', 413, "KiB"),
])
def test_bad_requests_get_a_4xx_and_one_line(client, raw, status, words):
    response = client.post("/api/battle", content=raw, headers={"content-type": "application/json"})
    assert response.status_code == status
    error = response.json()["error"]
    assert words in error and "\n" not in error


@pytest.mark.parametrize("path, body, missing", [
    ("/api/battle", {"defender": "1 inf"}, "attacker"),
    ("/api/amphibious", {"cargo": "1 inf", "defender": "1 inf"}, "fleet"),
    ("/api/amphibious", {}, "fleet"),
])
def test_a_missing_field_is_named_not_a_python_signature(client, path, body, missing):
    response = client.post(path, json=body)
    assert response.status_code == 400
    error = response.json()["error"]
    assert f"missing field '{missing}'" in error
    assert "__init__" not in error and "positional" not in error
    assert " a amphibious" not in error  # "in the amphibious request"


def test_unknown_endpoints_and_methods_answer_json(client):
    assert client.get("/api/nothing").status_code == 404
    assert "GET /api" in client.get("/api/nothing").json()["error"]
    assert client.get("/api/battle").status_code == 405
    assert client.get("/api/rules/no-such-edition").status_code == 404


def test_unit_values_and_rule_changes_answer_what_the_cli_prints(client):
    body = {"attacker": "3 inf, 1 arm, 1 ftr", "defender": "4 inf", "unit_values": "ftr=14,arm=11",
            "rule": ["units.infantry.defense=1"], "retreat": {"best": "tuv"}}
    response = client.post("/api/battle", json=body)
    assert response.status_code == 200, response.text
    assert response.json() == cli_json("battle", "-a", "3 inf, 1 arm, 1 ftr", "-d", "4 inf", "--unit-values",
                                       "ftr=14,arm=11", "--rule", "units.infantry.defense=1",
                                       "--retreat-best", "tuv")
    plain = client.post("/api/battle", json={"attacker": "3 inf, 1 arm, 1 ftr", "defender": "4 inf"}).json()
    # a fighter at 14, an armor at 11 (not 10 and 6): the IPCs the attacker loses count them so
    assert response.json()["attacker_ipc_total"] == 3 * 3 + 11 + 14 != plain["attacker_ipc_total"]
    described = client.post("/api/rules", json={"rules": "1942-2e", "unit_values": "ftr=14"}).json()
    assert {u["name"]: u["cost"] for u in described["units"]}["fighter"] == 14


@pytest.mark.parametrize("extra, args", [
    ({"unit_values": "zeppelin=3"}, ["--unit-values", "zeppelin=3"]),
    ({"unit_values": "ftr=ten"}, ["--unit-values", "ftr=ten"]),
    ({"unit_values": "ftr"}, ["--unit-values", "ftr"]),
    ({"rule": ["combat.repair"]}, ["--rule", "combat.repair"]),
    ({"rule": ["combat.nothing.here=1"]}, ["--rule", "combat.nothing.here=1"]),
    ({"rule": ["units.infantry.attack=9"]}, ["--rule", "units.infantry.attack=9"]),
])
def test_a_bad_unit_value_or_rule_change_gets_the_cli_line(client, extra, args):
    response = client.post("/api/battle", json={"attacker": "1 inf", "defender": "1 inf", **extra})
    assert response.status_code == 400
    assert response.json() == {"error": cli_error("battle", "-a", "1 inf", "-d", "1 inf", *args)}


def test_a_purchase_job_with_unit_values_pays_the_editions_prices(client):
    from oddsim.model.rules import with_changes
    from oddsim.purchase import sweep

    body = {"budget": 20, "units": "inf,arm,ftr", "against": "3 inf, 1 arm", "goal": "tuv",
            "unit_values": "ftr=14", "top": 0}
    started = client.post("/api/purchase", json=body, headers={"x-oddsim-client": "t-purchase-values"})
    assert started.status_code == 202, started.text
    job = wait_for(client, started.json()["id"])
    assert job["state"] == "done", job
    valued = with_changes("1942-2e", {"units.fighter.cost": 14})
    expected = sweep(valued, 20, "inf,arm,ftr", "3 inf, 1 arm", goal="tuv", prices="1942-2e").records()
    rows = job["result"]["rows"]
    for row in rows:
        row.pop("value_error_text")
    assert rows == json.loads(json.dumps(expected))
    # a fighter valued at 14 still costs 10
    assert {row["cost"] for row in rows if row["purchase"] == "2 fighters"} == {20}


def test_rule_changes_come_as_a_list_of_lines(client):
    response = client.post("/api/battle", json={"attacker": "1 inf", "defender": "1 inf", "rule": {"a": 1}})
    assert response.status_code == 400 and "rule: a list of rule changes" in response.json()["error"]


def test_rules_endpoints_describe_each_edition(client):
    editions = client.get("/api/rules").json()["editions"]
    assert [e["name"] for e in editions] == builtin_names()
    for name in builtin_names():
        data = client.get(f"/api/rules/{name}").json()
        rules = load_ruleset(name)
        assert [(u["name"], u["cost"], u["attack"], u["defense"], u["domain"]) for u in data["units"]] == [
            (u.name, u.cost, u.attack, u.defense, u.domain.value) for u in rules.units]
        assert data["technologies"] == [t.name for t in rules.tech]


def test_a_user_ruleset_arrives_as_toml_text(client):
    from importlib import resources

    text = resources.files("oddsim.rulesets").joinpath("revised.toml").read_text(encoding="utf-8")
    described = client.post("/api/rules", json={"ruleset_toml": text}).json()
    assert described.pop("source") == "ruleset_toml"  # where it came from: the request, no path
    builtin = client.get("/api/rules/revised").json()
    builtin.pop("source")
    assert described == builtin
    by_text = client.post("/api/battle", json={"ruleset_toml": text, "attacker": "2 inf, 1 ftr",
                                               "defender": "2 inf"})
    by_name = client.post("/api/battle", json={"rules": "revised", "attacker": "2 inf, 1 ftr",
                                               "defender": "2 inf"})
    assert by_text.json() == by_name.json()
    bad = client.post("/api/rules", json={"ruleset_toml": "name = [unclosed"})
    assert bad.status_code == 400 and "not valid TOML" in bad.json()["error"]


def test_a_purchase_job_ranks_the_same_rows_as_the_python_api(client):
    from oddsim.purchase import sweep

    body = {"budget": 15, "units": "inf,art,arm", "against": "3 inf", "goal": "take"}
    started = client.post("/api/purchase", json=body, headers={"x-oddsim-client": "t-purchase"})
    assert started.status_code == 202
    job = wait_for(client, started.json()["id"])
    assert job["state"] == "done" and job["done"] == job["total"] == job["result"]["purchases"]
    expected = sweep("1942-2e", 15, "inf,art,arm", "3 inf", goal="take").records()
    rows = job["result"]["rows"]
    assert [row.pop("value_error_text") for row in rows] == [""] * 10  # exact rows: no error shown
    assert rows == json.loads(json.dumps(expected[:10]))


@pytest.mark.parametrize("goal, extra, expected", [
    # 1 arm takes 2 inf with 2/7 x 1/2 = 1/7; 2 inf counter-attacking the armor win 179/329
    ("hold-after", {"counter_attack": "2 inf"}, 1 / 7 * 150 / 329),
    # 1 arm against 1 inf fights on (retreating is worth 0): wins 1/2 (+3 +6), loses 1/4 (-6),
    # both die 1/4 (+3 -6)
    ("value", {"territory_value": 6}, 1 / 2 * (3 + 6) - 1 / 4 * 6 + 1 / 4 * (3 - 6)),
])
def test_a_purchase_job_takes_the_goals_own_options(client, goal, extra, expected):
    against = "2 inf" if goal == "hold-after" else "1 inf"
    body = {"budget": 6, "units": "arm", "against": against, "goal": goal, "method": "exact", **extra}
    started = client.post("/api/purchase", json=body, headers={"x-oddsim-client": f"t-{goal}"})
    assert started.status_code == 202, started.text
    job = wait_for(client, started.json()["id"])
    assert job["state"] == "done", job
    assert job["result"]["rows"][0]["purchase"] == "1 armor"
    assert job["result"]["rows"][0]["value"] == pytest.approx(expected, abs=1e-12)


def test_one_job_per_client_and_cancel(client):
    body = {"attacker": "10 inf, 5 arm", "defender": "12 inf", "method": "mc", "runs": 5_000_000,
            "seed": 1}
    headers = {"x-oddsim-client": "t-cancel"}
    first = client.post("/api/jobs/battle", json=body, headers=headers)
    assert first.status_code == 202
    second = client.post("/api/jobs/battle", json=body, headers=headers)
    assert second.status_code == 429 and first.json()["id"] not in second.json()["error"]
    cancelled = client.delete(f"/api/jobs/{first.json()['id']}")
    assert cancelled.status_code == 200
    job = wait_for(client, first.json()["id"])
    assert job["state"] == "cancelled"
    if job["result"] is not None:  # stopped between chunks: the battles fought so far
        assert job["result"]["interrupted"] and job["result"]["runs"] < 5_000_000
    assert client.post("/api/jobs/battle", json={**body, "runs": 20000}, headers=headers).status_code == 202


def test_a_battle_job_reports_progress_and_answers_like_the_endpoint(client):
    body = {"attacker": "3 inf, 1 art", "defender": "3 inf", "method": "mc", "runs": 100_000, "seed": 3}
    started = client.post("/api/jobs/battle", json=body, headers={"x-oddsim-client": "t-progress"})
    job = wait_for(client, started.json()["id"])
    assert job["state"] == "done" and job["done"] == job["total"] == 100_000
    assert job["result"] == client.post("/api/battle", json=body).json()
    bad = client.post("/api/jobs/battle", json={"attacker": "1 zz", "defender": "1 inf"})
    assert bad.status_code == 400 and "unknown unit 'zz'" in bad.json()["error"]


KNOWN_1942 = ("infantry, artillery, armor, AA gun, fighter, bomber, transport, submarine, destroyer, "
              "cruiser, carrier, battleship")


@pytest.mark.parametrize("path, raw, error", [
    ("/api/battle", b'{"attacker": "\\ud800 inf", "defender": "1 inf"}',
     f"attacker: unknown unit '\\ud800 inf' in 1942-2e (known: {KNOWN_1942})"),
    ("/api/battle", b'{"attacker": {"\\ud800": 1}, "defender": "1 inf"}',
     f"attacker: unknown unit '\\ud800' in 1942-2e (known: {KNOWN_1942})"),
    ("/api/amphibious", b'{"fleet": "\\ud800", "cargo": "1 inf", "defender": "1 inf"}',
     f"fleet: unknown unit '\\ud800' in 1942-2e (known: {KNOWN_1942})"),
    ("/api/jobs/battle", b'{"attacker": "\\ud800 inf", "defender": "1 inf"}',
     f"attacker: unknown unit '\\ud800 inf' in 1942-2e (known: {KNOWN_1942})"),
    ("/api/purchase", b'{"budget": 6, "units": "inf", "against": "1 inf", "max_counts": {"\\ud800": 1}}',
     "max: '\\ud800' is not one of the units bought (infantry)"),
])
def test_a_lone_surrogate_in_the_request_is_quoted_as_its_escape(client, path, raw, error):
    """JSON's "\\ud800" is valid but no UTF-8 text: the error line writes it as the six characters
    of its escape, and the answer is the request's 400, not a 500 from encoding the answer."""
    response = client.post(path, content=raw, headers={"content-type": "application/json"})
    assert response.status_code == 400, response.text
    assert response.json() == {"error": error}


def test_an_unknown_field_named_by_a_lone_surrogate_is_refused_by_name(client):
    raw = b'{"attacker": "1 inf", "defender": "1 inf", "\\ud800": 1}'
    response = client.post("/api/battle", content=raw, headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.json()["error"].startswith("unknown field '\\ud800' in the battle request: use ")


def test_a_jobs_error_escapes_a_lone_surrogate_as_the_endpoint_does(client):
    """An amphibious job is checked before it queues: its 400 is the synchronous endpoint's line."""
    raw = b'{"fleet": "\\ud800", "cargo": "1 inf", "defender": "1 inf"}'
    headers = {"content-type": "application/json", "x-oddsim-client": "t-surrogate"}
    started = client.post("/api/jobs/amphibious", content=raw, headers=headers)
    assert started.status_code == 400, started.text
    assert started.json()["error"] == f"fleet: unknown unit '\\ud800' in 1942-2e (known: {KNOWN_1942})"
    assert client.post("/api/amphibious", content=raw, headers=headers).json() == started.json()


def test_the_page_and_its_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and "<title>oddsim" in page.text
    texts = [page.text] + [client.get(f"/static/{name}").text for name in ("app.js", "style.css")]
    for text in texts:  # offline: nothing fetched from another host (SVG's namespace is a name)
        text = text.replace('"http://www.w3.org/2000/svg"', "")
        assert "http://" not in text and "https://" not in text and "//cdn" not in text


def test_monte_carlo_answers_what_it_has_at_the_time_cap(client, monkeypatch):
    from oddsim.engines.montecarlo.simulate import FIRST_CHUNK
    from oddsim.web import work

    monkeypatch.setattr(work, "MC_SECONDS", 0.0)
    body = {"attacker": "3 inf, 1 art", "defender": "3 inf", "method": "mc", "runs": 5_000_000, "seed": 11}
    data = client.post("/api/battle", json=body).json()
    assert data["interrupted"] is True and data["runs"] == FIRST_CHUNK  # stopped after one chunk


def test_an_exact_amphibious_assault_with_a_sea_battle_answers_what_the_cli_prints(client):
    body = {"fleet": "1 bb, 1 dd, 2 transport", "cargo": "2 inf, 1 arm", "defender": "2 inf",
            "sea_defender": "1 dd", "method": "exact"}
    answer = client.post("/api/amphibious", json=body)
    assert answer.status_code == 200, answer.text
    assert answer.json()["sea"] is not None  # a sea battle was fought first
    assert answer.json() == cli_json("amphibious", "--fleet", "1 bb, 1 dd, 2 transport", "--cargo",
                                     "2 inf, 1 arm", "-d", "2 inf", "--sea-defender", "1 dd",
                                     "--method", "exact")


@pytest.mark.parametrize("raw, error", [
    (b'{"attacker": {"inf": 1e308}, "defender": "1 inf"}',
     "attacker: 1e+308 'inf' is too many: at most 1000 units per side"),
    (b'{"attacker": {"inf": 9007199254740993}, "defender": "1 inf"}',
     "attacker: 9007199254740993 'inf' is too many: at most 1000 units per side"),
    (b'{"attacker": "9007199254740993 inf", "defender": "1 inf"}',
     "attacker: 9007199254740993 'inf' is too many: at most 1000 units per side"),
])
def test_a_huge_count_is_quoted_as_sent(client, raw, error):
    """The API's counts go through the CLI's parser: exact, and no 309-digit number for 1e308."""
    response = client.post("/api/battle", content=raw, headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.json() == {"error": error}
    assert cli_error("battle", "-a", "9007199254740993 inf", "-d", "1 inf") == error.replace(
        "1e+308", "9007199254740993")


@pytest.mark.slow
def test_a_raid_job_reports_progress_and_stops_on_cancel(client):
    """Raids are drawn in chunks; between chunks the job reports progress and sees the cancel,
    and answers the raids drawn so far (before, it ran every raid and ignored the cancel)."""
    body = {"rules": "global-1940-2e", "bombers": 200, "escorts": 200, "interceptors": 199,
            "facility": "major", "method": "mc", "runs": 5_000_000}
    started = client.post("/api/jobs/raid", json=body, headers={"x-oddsim-client": "t-raid-cancel"})
    assert started.status_code == 202, started.text
    job_id = started.json()["id"]
    deadline = time.monotonic() + 120
    while client.get(f"/api/jobs/{job_id}").json()["done"] == 0:  # a chunk or more is done
        assert time.monotonic() < deadline
        time.sleep(0.05)
    running = client.get(f"/api/jobs/{job_id}").json()
    assert running["total"] == 5_000_000 and running["done"] % 2**18 == 0
    client.delete(f"/api/jobs/{job_id}")
    job = wait_for(client, job_id)
    assert job["state"] == "cancelled"
    assert job["result"]["interrupted"] is True and job["result"]["runs"] < 5_000_000


@pytest.mark.parametrize("path, body, module, chunk_name", [
    ("/api/raid", {"bombers": 3, "territory_value": 6, "method": "mc", "runs": 5000,
                   "seed": 2}, "oddsim.raid", "RAID_CHUNK"),
    ("/api/trench", {"attacker": "5,4,3", "defender": "4,4,4", "year": 1917, "method": "mc", "runs": 5000,
                     "seed": 2}, "oddsim.trench.montecarlo", "CALL_BATTLES"),
])
def test_raid_and_trench_monte_carlo_answer_what_they_have_at_the_time_cap(client, monkeypatch, path,
                                                                          body, module, chunk_name):
    import importlib

    from oddsim.web import work

    monkeypatch.setattr(importlib.import_module(module), chunk_name, 1000)
    monkeypatch.setattr(work, "MC_SECONDS", 0.0)
    response = client.post(path, json=body)
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["interrupted"] is True and data["runs"] == 1000  # stopped after one chunk


def test_an_amphibious_assault_answers_what_it_has_at_the_time_cap(client, monkeypatch):
    """Before: its Monte Carlo stages ran to the end whatever the cap, a cancel or a disconnect."""
    from oddsim.web import work

    monkeypatch.setattr(work, "MC_SECONDS", 0.0)
    body = {"fleet": "1 bb, 2 transport", "cargo": "2 inf, 1 arm", "defender": "3 inf",
            "sea_defender": "1 dd", "method": "mc", "runs": 4_000_000, "seed": 2}
    response = client.post("/api/amphibious", json=body)
    assert response.status_code == 200, response.text
    assert response.json()["interrupted"] is True


def test_exact_is_refused_for_a_split_battle_of_many_small_parts(client):
    """Before: 2,116 AA outcomes of a few states each were estimated under the cap and solved on
    the server (seconds of a worker thread: each part costs about a millisecond)."""
    body = {"rules": "revised", "attacker": "1 inf, 45 ftr, 45 bmb", "defender": "1 inf, 1 aa",
            "method": "exact"}
    response = client.post("/api/battle", json=body)
    assert response.status_code == 400 and "too large" in response.json()["error"]
