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
    or not, and stays so when the battle answers; the Game tab (no link of its own) has none."""
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
    page.click("#tab-game")
    assert page.evaluate("location.hash") == ""
