"""The page's link (its URL's hash) always describes the open tab: an answer for another tab (the
Battle tab's, which the page asks at load whichever tab is open) never rewrites it, and a job's tab
(Purchase, Plan, Advise: nothing asked until Start) links its fields as they stand."""

from __future__ import annotations

import json
import urllib.parse

import pytest

pytest.importorskip("playwright")


def shown_link(page) -> tuple[str, dict]:
    """The tab and request the page's URL holds."""
    tab, _, raw = page.evaluate("location.hash").lstrip("#").partition("=")
    return tab, json.loads(urllib.parse.unquote(raw)) if raw else {}


def hold_battles(page) -> list:
    """Hold every /api/battle request until released (the routes, to continue)."""
    held: list = []

    def hold(route):
        held.append(route)

    page.route("**/api/battle", hold)
    return held


def release(page, held: list) -> None:
    page.unroute("**/api/battle")
    from playwright.sync_api import Error as PlaywrightError

    for route in held:
        try:
            route.continue_()
        except PlaywrightError:  # (dropped already by the page: nothing to answer)
            pass


@pytest.mark.slow
def test_a_battle_answered_after_a_switch_leaves_the_open_tabs_link(page):
    """The first Battle answer lands after the user opened the Raid tab (and Raid answered): the
    link stays the raid's (before: it became the battle's, and a copied link opened the Battle tab)."""
    held = hold_battles(page)
    with page.expect_request("**/api/battle"):
        page.goto(page.base + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.click("#tab-raid")
    page.wait_for_selector("#panel-raid .results[data-state=done]", timeout=120_000)
    raid = shown_link(page)
    assert raid[0] == "raid" and raid[1]["bombers"] == 2  # (the form's default: independently known)
    release(page, held)
    page.wait_for_selector("#battle-results[data-state=done]", state="attached", timeout=120_000)
    assert shown_link(page) == raid
    page.click("#tab-battle")  # the Battle tab open again: its link
    page.wait_for_selector("#battle-results[data-state=done]", timeout=120_000)
    assert shown_link(page)[0] == "battle"


@pytest.mark.slow
def test_a_jobs_tab_links_its_fields_and_an_answer_elsewhere_leaves_them(page):
    """The Purchase tab opened while the battle is out: the link is the purchase's fields, edited
    or not, with the edition picked, and stays so when the battle answers; the Game tab (no link
    of its own) has none."""
    held = hold_battles(page)
    with page.expect_request("**/api/battle"):
        page.goto(page.base + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.click("#tab-purchase")
    assert shown_link(page)[0] == "purchase"
    page.fill("#panel-purchase [name=budget]", "17")
    tab, req = shown_link(page)
    assert tab == "purchase" and req["budget"] == 17
    release(page, held)
    page.wait_for_selector("#battle-results[data-state=done]", state="attached", timeout=120_000)
    assert shown_link(page) == (tab, req)
    edition = page.eval_on_selector_all("#edition option", "os => os.map(o => o.value)")[-1]
    assert edition != req["rules"]
    page.select_option("#edition", edition)  # (the battle answers again, meanwhile)
    # (the link follows the edition, and in the same step the battle is asked again: the next
    # answer marked done is that one)
    page.wait_for_function("e => location.hash.includes(encodeURIComponent(JSON.stringify(e)))", arg=edition)
    page.wait_for_selector("#battle-results[data-state=done]", state="attached", timeout=120_000)
    assert shown_link(page) == (tab, {**req, "rules": edition})
    page.click("#tab-game")
    assert page.evaluate("location.hash") == ""


@pytest.mark.slow
def test_amphibious_best_casualties_give_the_odds_of_the_python_api(page):
    """The Amphibious tab's "best" menu (best-casualties.js, as on Purchase and Plan): the attacker
    choosing each landing loss for goal win over an order that loses its armor first, the page's
    figures those of oddsim's own run, the CLI line and link the same request; no goal "value"
    (the form has no territory value to give it)."""
    from oddsim.api import run_amphibious
    from oddsim.stages.amphibious import Amphibious

    def assault(**orders) -> Amphibious:
        return Amphibious(rules="1942-2e", fleet="1 bb, 2 transport", cargo="2 inf, 1 art, 1 arm",
                          defender="3 inf", **orders)

    def shown(key: str) -> float:
        return float(page.get_attribute(f"#out-amphibious-{key}", "data-value"))

    page.goto(page.base + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.click("#tab-amphibious")
    page.select_option("#panel-amphibious [name=method]", "exact")
    page.click("#amphibious-landing > summary")
    assert not page.is_visible("#panel-amphibious [name=casualty_goal]")  # (no side chooses yet)
    page.fill("#panel-amphibious [name=ool_attacker]", "arm, art, inf")
    page.wait_for_selector("#panel-amphibious .results[data-state=done]", timeout=120_000)
    worst = run_amphibious(assault(ool_attacker="arm, art, inf"), method="exact")
    assert shown("takes_territory") == pytest.approx(worst.takes_territory, abs=1e-12)
    page.select_option("#amphibious-ool_attacker-best", "best")
    assert page.input_value("#panel-amphibious [name=ool_attacker]") == "best"
    goals = page.eval_on_selector_all("#panel-amphibious [name=casualty_goal] option",
                                      "os => os.map(o => o.value)")
    assert goals == ["", "take", "win", "tuv"]
    page.select_option("#panel-amphibious [name=casualty_goal]", "win")
    page.wait_for_selector("#panel-amphibious .results[data-state=done]", timeout=120_000)
    expected = run_amphibious(assault(ool_attacker="best", casualty_goal="win"), method="exact")
    assert expected.takes_territory > worst.takes_territory + 0.05  # (the choice is seen)
    for key in ("takes_territory", "defender_destroyed", "attacker_ipc_lost_land", "defender_ipc_lost_land"):
        assert shown(key) == pytest.approx(getattr(expected, key), abs=1e-12), key
    line = page.inner_text("#amphibious-cli")
    assert "--ool-attacker" in line and "best" in line and "--casualty-goal" in line and "win" in line
    assert shown_link(page)[1]["ool_attacker"] == "best"
