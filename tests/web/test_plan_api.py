"""Plans as a job (``POST /api/jobs/plan``): the Python API's answer, progress, and for each bad
request a 4xx with the line ``oddsim plan`` prints; the server's own caps."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from web_jobs import wait_for

pytest.importorskip("starlette")

import oddsim.cli  # noqa: E402
import oddsim.plan  # noqa: E402
from oddsim.model.rules import load_ruleset, with_changes  # noqa: E402

FLAGS = {"targets": "--target", "threats": "--threat", "values": "--value", "stands": "--stands",
         "counter_attack": "--counter-attack"}
RETREAT_FLAGS = {"units_left": "--retreat-units", "territory_value": "--territory-value"}


def as_args(body: dict) -> list[str]:
    """A plan request as ``oddsim plan``'s options: a list is its option repeated, ``true`` a
    flag, the retreat its ``--retreat-...`` options."""
    args = []
    for name, value in body.items():
        flag = FLAGS.get(name, "--" + name.replace("_", "-"))
        if isinstance(value, list):
            for entry in value:
                args += [flag, entry]
        elif name == "retreat":
            for key, given in value.items():
                args += [RETREAT_FLAGS.get(key, f"--retreat-{key.replace('_', '-')}"), str(given)]
        elif value is True:
            args.append(flag)
        else:
            args += [flag, str(value)]
    return args


def cli_line(body: dict) -> tuple[int, str]:
    """(exit status, the error line) of ``oddsim plan`` given the request's options."""
    result = CliRunner().invoke(oddsim.cli.cli, ["plan", *as_args(body)])
    return result.exit_code, result.stderr.strip().removeprefix("oddsim: error: ")


def start(client, body: dict, who: str):
    return client.post("/api/jobs/plan", json=body, headers={"x-oddsim-client": who})


def solved(client, body: dict, who: str) -> dict:
    started = start(client, body, who)
    assert started.status_code == 202, started.text
    job = wait_for(client, started.json()["id"])
    assert job["state"] == "done", job
    return job


ISSUE = {"pool": "12 inf, 4 art, 4 arm, 3 ftr, 1 bmb",
         "targets": ["Ukraine=6 inf, 2 arm, 1 aa", "Belarus=3 inf", "Baltic States=2 inf, 1 art"],
         "values": ["Ukraine=3", "Belarus=2"], "reach": ["ftr=Ukraine,Belarus", "bmb=Ukraine"],
         "goal": "value"}
"""Issue 26's example."""
DEFENCE = ["Karelia=5 inf, 2 arm, 1 ftr", "Archangel=3 inf, 1 arm"]


@pytest.mark.parametrize("body, expected", [
    (ISSUE, lambda: oddsim.plan.attack(
        "1942-2e", "12 inf, 4 art, 4 arm, 3 ftr, 1 bmb",
        {"Ukraine": "6 inf, 2 arm, 1 aa", "Belarus": "3 inf", "Baltic States": "2 inf, 1 art"},
        values={"Ukraine": 3, "Belarus": 2}, reach={"ftr": "Ukraine,Belarus", "bmb": "Ukraine"})),
    ({"pool": "6 inf, 2 arm, 2 ftr", "targets": ["Ukraine=3 inf, 1 arm", "Belarus=2 inf"],
      "reach": ["ftr=Ukraine"], "goal": "take-all", "alternatives": 2, "dice": "lowluck",
      "ool_attacker": "inf, arm"},
     lambda: oddsim.plan.attack("1942-2e", "6 inf, 2 arm, 2 ftr", ["Ukraine=3 inf, 1 arm", "Belarus=2 inf"],
                                goal="take-all", reach=["ftr=Ukraine"], alternatives=2, dice="lowluck",
                                ool_attacker="inf, arm")),
    ({"defend": True, "pool": "4 inf, 1 arm", "threats": DEFENCE, "stands": ["Karelia=2 inf"],
      "goal": "hold-at-least:1"},
     lambda: oddsim.plan.defend("1942-2e", "4 inf, 1 arm", DEFENCE, goal="hold-at-least:1",
                                stands=["Karelia=2 inf"])),
    ({"pool": "3 inf, 1 arm", "targets": ["A=2 inf", "B=1 inf"], "values": ["A=4"],
      "retreat": {"best": "value"}},
     lambda: oddsim.plan.attack("1942-2e", "3 inf, 1 arm", ["A=2 inf", "B=1 inf"], values=["A=4"],
                                retreat={"best": "value"})),
    ({"pool": "3 inf, 1 arm, 1 ftr", "targets": ["A=2 inf", "B=1 inf"], "goal": "tuv",
      "unit_values": "ftr=14", "rule": ["units.armor.defense=2"]},
     lambda: oddsim.plan.attack(with_changes("1942-2e", {"units.armor.defense": 2, "units.fighter.cost": 14}),
                                "3 inf, 1 arm, 1 ftr", ["A=2 inf", "B=1 inf"], goal="tuv")),
], ids=["issue", "take-all", "defend", "best-retreat", "unit-values"])
@pytest.mark.slow
def test_the_job_answers_what_the_python_api_does(client, body, expected):
    job = solved(client, body, "t-plan-same")
    # (the same floats: JSON keeps every digit), with the readings of the plan's rules where
    # they differ from the edition's (unit-values: the armor's defence, the fighter's value)
    readings = {"units.armor.defense": {"value": "2", "rulebook": "3"},
                "units.fighter.cost": {"value": "14", "rulebook": "10"}} if "rule" in body else {}
    assert job["result"] == {**expected().to_dict(), "readings": readings}
    assert job["done"] == job["total"] == len(body.get("targets") or body.get("threats"))


@pytest.mark.parametrize("body", [
    {"pool": "2 inf, 1 zeppelin", "targets": ["A=1 inf"]},
    {"pool": "2 inf", "targets": ["A"]},
    {"pool": "2 inf", "targets": ["A=1 inf"], "goal": "glory"},
    {"pool": "2 inf", "targets": ["A=1 inf"], "goal": "take-at-least:2"},
    {"pool": "2 inf", "targets": ["A=1 inf"], "values": ["B=3"]},
    {"pool": "2 inf", "targets": ["A=1 inf"], "reach": ["ftr=A"]},
    {"pool": "2 inf", "targets": ["A=1 inf"], "keep_home": "3 inf"},
    {"pool": "2 inf", "threats": ["A=1 inf"]},
    {"pool": "2 inf", "defend": True, "targets": ["A=1 inf"]},
    {"pool": "2 inf", "targets": ["A=1 inf", "a=2 inf"]},
    {"pool": "30 inf, 10 art, 10 arm, 5 ftr", "targets": ["A=1 inf"]},
    {"pool": "2 inf", "targets": ["A=1 inf"], "retreat": {"best": "value", "territory_value": 3}},
    {"pool": "2 inf", "targets": ["A=1 inf"], "unit_values": "zz=3"},
    {"pool": "2 inf", "targets": ["A=1 inf"], "unit_values": "inf=-1"},
    {"pool": "2 inf", "targets": ["A=1 inf"], "rule": ["combat.nothing.here=1"]},
], ids=["unknown-unit", "no-equals", "unknown-goal", "k-too-large", "value-of-nothing", "reach-not-in-pool",
        "home-too-many", "threat-in-attack", "target-in-defence", "named-twice", "pool-too-large",
        "territory-value", "unit-value-unknown", "unit-value-negative", "rule-unknown-key"])
def test_bad_input_gets_the_cli_line_at_once(client, body):
    status, line = cli_line(body)
    assert status == 2 and line and "\n" not in line
    refused = start(client, body, "t-plan-bad")
    assert refused.status_code == 400, refused.text
    assert refused.json()["error"] == line


@pytest.mark.parametrize("extra, message", [
    ({"pool": "12 inf, 4 art, 4 arm, 3 ftr, 1 bmb", "goal": "take-at-least:2",
      "targets": ["A=4 inf, 2 arm", "B=3 inf", "C=2 inf", "D=1 inf"]},
     "goal take-at-least:2: the pool 12 infantry, 4 artillery, 4 armor, 3 fighters, 1 bomber has 2,600 "
     "sub-armies, more than the 600 the server plans for a goal of at least K of 4 targets"),
    ({"pool": "30 inf, 20 arm, 10 ftr", "retreat": {"best": "tuv"}},
     "the plan's battles are too large to solve on the server (about "),
    ({"hand": "5"}, "unknown field 'hand' in the plan request"),
    ({"defend": "yes"}, "defend must be true or false, not 'yes'"),
    ({"rules": "1066"}, "unknown edition '1066'"),
], ids=["counted-goal", "retreat-cost", "unknown-field", "defend-not-bool", "unknown-edition"])
def test_what_only_the_server_refuses(client, extra, message):
    body = {"pool": "2 inf", "targets": ["A=4 inf, 2 arm", "B=3 inf", "C=2 inf"], **extra}
    refused = start(client, body, "t-plan-server")
    assert refused.status_code == 400 and message in refused.json()["error"], refused.text


def test_plan_is_a_job_only(client):
    assert client.post("/api/plan", json={}).status_code in (404, 405)
    assert "plan" in client.get("/api").json()["endpoints"]["POST /api/jobs/{kind}"]


def test_the_time_cap_ends_a_long_plan(client, monkeypatch):
    from oddsim.web import plan_requests

    monkeypatch.setattr(plan_requests, "PLAN_SECONDS", 0.0)
    job = wait_for(client, start(client, {"pool": "3 inf", "targets": ["A=1 inf", "B=1 inf"]},
                                 "t-plan-cap").json()["id"])
    assert job["state"] == "failed", job
    assert job["error"].startswith("the plan took more than 0 s on the server (1 of 2 targets solved)")
    assert job["error"].endswith("run oddsim plan")


def test_cancel_between_targets_stops_it():
    """A plan told to stop (the job cancelled) stops before its next target."""
    from oddsim.plan import PlanError, parse_plan, solve_plan

    seen = []
    spec = parse_plan(load_ruleset("1942-2e"), "2 inf", ["A=1 inf", "B=1 inf", "C=1 inf"])
    with pytest.raises(PlanError, match="plan stopped after 1 of 3 targets solved"):
        solve_plan(spec, on_target=lambda done, total: seen.append(done) or done == 1)
    assert seen == [0, 1]
