"""Best casualties on the Purchase and Plan tabs in a browser: a side set to "best: choose each
loss" there sends ``ool_... = "best"``, the page's figure is the Python API's for the same sweep or
plan (and the "Copy as CLI" line prints it too), the answer says which order of loss each side
took, the casualty goal is offered only while a side chooses, and a sweep over the server's limit
for best casualties shows the server's one-line refusal."""

from __future__ import annotations

import json
import subprocess
import urllib.parse

import pytest

import oddsim.plan
from oddsim.errors import TooLargeError
from oddsim.model.battle import CASUALTY_GOALS
from oddsim.purchase import sweep
from oddsim.web.purchase_requests import purchase_spec
from tests.web.test_page_views import shown_request

PURCHASE = "#panel-purchase form"
PLAN = "#panel-plan form"
ATTACKER_CHOOSES = ("Order of loss: the attacker chooses each loss for goal take; the defender loses by "
                    "the default order.")


@pytest.fixture(scope="module")
def page(browser, live_server):
    opened = browser.new_page(viewport={"width": 1366, "height": 900})
    opened.errors = []
    opened.on("pageerror", lambda exc: opened.errors.append(str(exc)))
    opened.base = live_server
    opened.goto(live_server + "/")
    opened.wait_for_selector("body[data-ready]", timeout=120_000)
    # (the first battle's answer: it writes the link, and would overwrite a tab's asked before it)
    opened.wait_for_selector("#panel-battle .results[data-state=done]", timeout=120_000)
    yield opened
    assert not opened.errors, opened.errors
    opened.close()


def run(page, tab: str) -> str:
    """Start the tab's job and wait for its answer or its error; the state it ended in."""
    page.evaluate(f"document.querySelector('#panel-{tab} .results').dataset.state = ''")
    page.click(f"#panel-{tab} .start")
    page.wait_for_selector(f"#panel-{tab} .results[data-state=done], #panel-{tab} .results[data-state=error]",
                           timeout=120_000)
    return page.get_attribute(f"#panel-{tab} .results", "data-state")


def cli_json(page, line_selector: str, command: str, tmp_path) -> dict:
    """What the tab's "Copy as CLI" line prints with --json."""
    line = page.inner_text(line_selector)
    assert line.startswith(command + " ")
    done = subprocess.run(["bash", "-c", line + " --json"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def fill_purchase(page, budget: str, units: str, existing: str, against: str) -> None:
    page.click("#tab-purchase")
    page.click("#panel-purchase .clear")
    for name, value in (("budget", budget), ("units", units), ("existing", existing), ("against", against)):
        page.fill(f"{PURCHASE} [name={name}]", value)
    page.select_option(f"{PURCHASE} [name=goal]", "take")
    if not page.is_visible("#purchase-ool_attacker-best"):
        page.click("#purchase-losses summary")


@pytest.mark.slow
def test_a_purchase_sweep_with_the_attacker_choosing_each_loss_is_the_apis(page, tmp_path):
    # 3 fighters and what the budget buys against 3 infantry: by the default order the
    # infantry bought is lost first and the fighters cannot take the territory; choosing, the
    # attacker keeps it
    fill_purchase(page, "7", "inf,art", "3 ftr", "3 inf")
    assert not page.is_visible(f"{PURCHASE} [name=casualty_goal]")  # (no side chooses yet)
    page.select_option("#purchase-ool_attacker-best", "best")
    assert page.input_value(f"{PURCHASE} [name=ool_attacker]") == "best"
    assert page.is_visible(f"{PURCHASE} [name=casualty_goal]")
    assert run(page, "purchase") == "done"
    tab, request = shown_request(page)
    assert tab == "purchase", request
    assert request["ool_attacker"] == "best" and "ool_defender" not in request

    same = dict(existing="3 ftr", goal="take")
    expected = sweep("1942-2e", 7, "inf,art", "3 inf", ool_attacker="best", **same).best
    fixed = sweep("1942-2e", 7, "inf,art", "3 inf", **same).best
    shown = float(page.get_attribute("#out-purchase-best", "data-value"))
    assert shown == pytest.approx(expected.value, abs=1e-12)
    assert shown > fixed.value + 0.1  # (the choice was made: 97.9% against 58.6% by the order)
    assert page.inner_text("#out-purchase-rows tbody tr:nth-child(1) td:nth-child(2)") == expected.purchase
    assert page.inner_text("#out-purchase-losses") == ATTACKER_CHOOSES

    line = page.inner_text("#purchase-cli")
    assert '--ool-attacker "best"' in line and "--casualty-goal" not in line
    printed = cli_json(page, "#purchase-cli", "oddsim purchase", tmp_path)
    assert printed["rows"][0]["value"] == pytest.approx(expected.value, abs=1e-12)
    assert printed["casualty_goal"] == "take"


def test_the_casualty_goal_is_sent_only_while_a_side_chooses(page):
    fill_purchase(page, "7", "inf,art", "3 ftr", "3 inf")
    page.select_option("#purchase-ool_defender-best", "best")
    page.select_option(f"{PURCHASE} [name=casualty_goal]", "win")
    assert page.input_value(f"{PURCHASE} [name=ool_defender]") == "best"
    assert '--ool-defender "best" --casualty-goal "win"' in page.inner_text("#purchase-cli")
    page.fill(f"{PURCHASE} [name=ool_defender]", "inf, art")  # an order typed: no side chooses
    assert page.input_value("#purchase-ool_defender-best") == ""
    assert not page.is_visible(f"{PURCHASE} [name=casualty_goal]")
    assert "--casualty-goal" not in page.inner_text("#purchase-cli")
    page.fill(f"{PURCHASE} [name=ool_defender]", "best")  # typed, the choice follows
    assert page.input_value("#purchase-ool_defender-best") == "best"


@pytest.mark.slow
def test_a_plan_with_the_attacker_choosing_each_loss_is_the_apis(page, tmp_path):
    # the closing note's plan: 2 inf, 2 ftr against A = 2 inf and B = 1 inf, take both
    page.click("#tab-plan")
    page.click("#panel-plan .clear")
    page.fill(f"{PLAN} [name=pool]", "2 inf, 2 ftr")
    page.fill(f"{PLAN} [name=reach]", "")
    while page.locator("#plan-targets .plan-target").count() > 2:
        page.click("#plan-targets .plan-target:last-child .remove-wave")
    for row, (name, army) in enumerate((("A", "2 inf"), ("B", "1 inf")), start=1):
        page.fill(f"#plan-target-{row}-name", name)
        page.fill(f"#plan-target-{row}-army", army)
        page.fill(f"#plan-target-{row}-value", "")
    page.select_option("#plan-goal", "take-all")
    if not page.is_visible("#plan-ool_attacker-best"):
        page.click("#plan-battle-options summary")
    page.select_option("#plan-ool_attacker-best", "best")
    assert page.is_visible(f"{PLAN} [name=casualty_goal]")
    assert run(page, "plan") == "done"
    _, request = shown_request(page)
    assert request["ool_attacker"] == "best" and request["targets"] == ["A=2 inf", "B=1 inf"]

    expected = oddsim.plan.attack("1942-2e", "2 infantry, 2 fighters", {"A": "2 infantry", "B": "1 infantry"},
                                  goal="take-all", ool_attacker="best")
    fixed = oddsim.plan.attack("1942-2e", "2 infantry, 2 fighters", {"A": "2 infantry", "B": "1 infantry"},
                               goal="take-all")
    shown = float(page.get_attribute("#out-plan-objective", "data-value"))
    assert shown == pytest.approx(expected.objective, abs=1e-12)
    assert shown > fixed.objective + 0.1  # (34.2% against 10.4% by the default order)
    assert page.inner_text("#out-plan-losses") == ATTACKER_CHOOSES
    printed = cli_json(page, "#plan-cli", "oddsim plan", tmp_path)
    assert printed["objective"] == pytest.approx(expected.objective, abs=1e-12)
    assert printed["choosers"] == "the attacker chooses each loss for goal take"


@pytest.mark.slow
def test_a_sweep_too_large_for_best_casualties_on_the_server_shows_its_refusal(page):
    fill_purchase(page, "80", "inf,art,arm,ftr", "none", "12 inf, 2 art, 2 arm, 2 ftr")
    page.select_option("#purchase-ool_attacker-best", "best")
    page.select_option("#purchase-ool_defender-best", "best")
    with pytest.raises(TooLargeError) as refused:  # the server's check, asked directly
        purchase_spec({"rules": "1942-2e", "budget": 80, "units": "inf,art,arm,ftr", "existing": "none",
                       "against": "12 inf, 2 art, 2 arm, 2 ftr", "goal": "take",
                       "ool_attacker": "best", "ool_defender": "best"})
    assert "30 s" in str(refused.value)
    assert run(page, "purchase") == "error"
    assert page.inner_text("#panel-purchase .results .error") == str(refused.value)


def test_the_casualty_goals_offered_are_the_declared_options(client, page):
    declared = client.get("/api").json()["battle_options"]["casualty_goal"]
    assert declared["choices"] == list(CASUALTY_GOALS) and declared["kind"] == "choice"
    offered = page.eval_on_selector_all(f"{PURCHASE} [name=casualty_goal] option",
                                        "options => options.map(o => o.value)")
    assert offered == ["", *CASUALTY_GOALS]  # (first: the sweep's own goal)


def test_a_link_with_best_casualties_fills_the_choices(page):
    req = {"rules": "1942-2e", "budget": 7, "units": "inf,art", "existing": "3 ftr", "against": "3 inf",
           "goal": "take", "ool_defender": "best", "casualty_goal": "win"}
    page.goto(page.base + "/#purchase=" + urllib.parse.quote(json.dumps(req)))
    page.wait_for_selector("body[data-ready]", timeout=120_000)
    assert page.input_value("#purchase-ool_defender-best") == "best"
    assert page.input_value("#purchase-ool_attacker-best") == ""
    assert page.input_value(f"{PURCHASE} [name=casualty_goal]") == "win"
    assert '--ool-defender "best" --casualty-goal "win"' in page.inner_text("#purchase-cli")
