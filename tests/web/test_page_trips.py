"""What a player tripped over on the page (issue 35), each in a real browser at a laptop's
(1366x768) and a phone's (390x844) size: the answer kept in sight while an input changes, no
table cut sideways without a cue, later waves answered per wave, an empty attacker answered with
what to do, the other tabs' counters and CLI lines, and the smaller details (decimals, damaged
battleships, casualties, the trench's words, chart text, axe's minor findings)."""

from __future__ import annotations

import json
import urllib.parse

import pytest

import oddsim

LAPTOP, PHONE = (1366, 768), (390, 844)
SIZES = {"laptop": LAPTOP, "phone": PHONE}


@pytest.fixture(scope="module", params=list(SIZES))
def view(request, browser, live_server):
    """A page at one size, its errors, console errors and failed responses collected."""
    width, height = SIZES[request.param]
    page = browser.new_page(viewport={"width": width, "height": height})
    page.size = (width, height)
    page.base = live_server
    page.errors, page.bad = [], []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.on("console", lambda m: page.bad.append(m.text) if m.type == "error" else None)
    page.on("response", lambda r: page.bad.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.goto(live_server + "/")
    page.wait_for_selector("#panel-battle .results[data-state=done]", timeout=120_000)
    yield page
    assert not page.errors, page.errors
    page.close()


def go(page, tab: str, req: dict) -> None:
    """Open ``tab`` with the request ``req`` (as a pasted link does) and wait for its answer."""
    page.evaluate("window.scrollTo(0, 0)")
    page.evaluate("document.querySelectorAll('.results').forEach(r => { r.dataset.state = ''; })")
    page.evaluate("hash => { location.hash = hash; }", f"#{tab}=" + urllib.parse.quote(json.dumps(req)))
    if tab in ("advise", "purchase", "plan"):
        page.wait_for_function(f"() => document.querySelector('#tab-{tab}').getAttribute('aria-selected') === 'true'")
        page.click(f"#panel-{tab} .start")
    page.wait_for_selector(f"#panel-{tab} .results[data-state=done]", timeout=120_000)


def in_sight(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= page.size[1]


def test_the_answer_stays_in_sight_while_an_input_changes(view):
    """Typing in "Retreat after round" (far down the form on a laptop) keeps the win chance on
    the screen, as it was on a phone (issue 35: 407 px above the screen at 1366x768)."""
    page = view
    go(page, "battle", {"rules": "1942-2e", "attacker": "3 inf, 1 art, 2 arm", "defender": "4 inf, 1 arm"})
    for group in ("landing", "counter", "waves", "engine", "retreat"):
        if page.get_attribute(f"#group-{group}", "open") is None:
            page.click(f"#group-{group} > summary")
    page.evaluate("document.querySelector('#battle-results').dataset.state = ''")
    page.click("#retreat-after_round")
    page.keyboard.type("2")
    page.wait_for_function("() => document.querySelector('#battle-results').dataset.state === 'done'"
                           " && document.querySelector('#battle-results h3').textContent.includes('after round 2')",
                           timeout=60_000)
    assert page.evaluate("window.scrollY") > 0  # (the field is below the first screen)
    assert in_sight(page, "#out-attacker_win"), "the win chance scrolled out of sight"
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # and at the end of the details
    assert in_sight(page, "#out-attacker_win")
    page.fill("#retreat-after_round", "")
    for group in ("landing", "counter", "waves", "engine", "retreat"):
        page.click(f"#group-{group} > summary")


WAVES = {"rules": "1942-2e", "attacker": "2 inf", "defender": "3 inf", "ool_attacker": "inf",
         "waves": ["2 arm", {"attacker": "1 inf, 1 ftr", "defender_reinforcements": "1 inf"}]}
ADVICE = {"attacker_hand": "6,5,3", "attacker_hand_support": "2", "defender_hand": "5,4,4",
          "defender_hand_support": "2,1", "year": 1917, "points": 2, "top": 5}
PLAN = {"rules": "1942-2e", "pool": "12 inf, 4 art, 4 arm, 3 ftr, 1 bmb",
        "targets": ["Ukraine=6 inf, 2 arm, 1 aa", "Belarus=3 inf", "Baltic States=2 inf, 1 art"],
        "values": ["Ukraine=3", "Belarus=2", "Baltic States=2"], "goal": "value", "alternatives": 3}


@pytest.mark.parametrize("tab, req, table", [("battle", WAVES, "#out-waves"),
                                             ("advise", ADVICE, "#out-advise-options"),
                                             ("plan", PLAN, "#out-plan-split")])
def test_no_table_is_cut_sideways_without_a_cue(view, tab, req, table):
    """Later waves, trench advice (with the defender's answers, its widest) and the plan fit
    their box; anything else that scrolls sideways says so where it is seen."""
    page = view
    go(page, tab, req)
    fits = page.evaluate("sel => { const t = document.querySelector(sel); const box = t.closest('.results');"
                         " return t.getBoundingClientRect().right <= box.getBoundingClientRect().right + 1"
                         " && t.scrollWidth <= t.parentElement.clientWidth + 1; }", table)
    assert fits, f"{table} is wider than its box"
    page.wait_for_timeout(100)  # (tables.js fits what was drawn on the next frame)
    uncued = page.evaluate(f"""() => [...document.querySelectorAll('#panel-{tab} *')].filter(e =>
        e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1
        && ['auto', 'scroll'].includes(getComputedStyle(e).overflowX)
        && !(e.previousElementSibling && e.previousElementSibling.matches('.scroll-cue')
             && e.previousElementSibling.offsetParent !== null)).map(e => e.id || e.className)""")
    assert not uncued, f"{tab}: scrolls sideways without a cue: {uncued}"


def test_later_waves_answer_per_wave_and_for_the_whole_attack(view):
    """A card per wave (reaches the battle, wins, IPC lost) and one for the whole attack, its
    figures run_waves'; a wave's attacker entered with counters reaches the CLI line."""
    from oddsim.api import run_waves
    from oddsim.stages.waves import Wave

    page = view
    go(page, "battle", WAVES)
    first = oddsim.Battle("1942-2e", attacker=oddsim.Side("2 inf", order_of_loss="inf"), defender="3 inf")
    total = run_waves(first, [Wave(attacker="2 arm", ool_attacker="inf"),
                              Wave(attacker="1 inf, 1 ftr", ool_attacker="inf", defender_reinforcements="1 inf")])
    cards = page.locator("#out-waves .wave-card")
    assert cards.count() == 4  # three waves and the whole attack
    for i, wave in enumerate(total.waves, start=1):
        assert float(page.get_attribute(f"#out-wave-{i}-fights", "data-value")) == pytest.approx(wave["fights"], abs=1e-12)
        assert float(page.get_attribute(f"#out-wave-{i}-attacker_win", "data-value")) == pytest.approx(
            wave["attacker_win"], abs=1e-12)
        text = cards.nth(i - 1).inner_text()
        assert "reaches the battle" in text and "IPC lost" in text
    whole = cards.nth(3).inner_text()
    assert "The whole attack" in whole and f"{100 * total.takes_territory:.2f}%" in whole
    assert float(page.get_attribute("#out-waves-takes", "data-value")) == pytest.approx(total.takes_territory, abs=1e-12)
    # counters: the second wave's attacker is two armor on counters; one more makes three
    assert page.input_value("#wave-2-attacker-armor") == "2"
    page.click("button[aria-label='one more armor (wave 2)']")
    page.wait_for_function("() => document.querySelector('#cli-command').textContent.includes('\"3 armor\"')")
    page.click("#clear")
    page.wait_for_function("() => !document.querySelector('#waves .wave')")


def test_an_empty_attacker_says_what_to_do_where_the_answer_stands(view):
    """Clear, or Land -> Sea with a land army: a line in the page's words in the summary (in
    sight), no request the server refuses, no console error."""
    page = view
    go(page, "battle", {"rules": "1942-2e", "attacker": "3 inf, 1 art, 2 arm", "defender": "4 inf, 1 arm"})
    page.bad.clear()
    page.click("#clear")
    page.wait_for_selector("#battle-summary #battle-hint", timeout=30_000)
    hint = page.inner_text("#battle-hint")
    assert "+ buttons" in hint and "attacker:" not in hint and "'3 inf, 1 arm'" not in hint
    assert in_sight(page, "#battle-hint")
    assert page.locator("#battle-results .error").count() == 0
    page.fill("#attacker-infantry", "2")
    page.fill("#defender-infantry", "1")
    page.wait_for_selector("#battle-summary #out-attacker_win", timeout=60_000)
    page.check("input[name=kind][value=sea]")
    page.wait_for_function("() => (document.querySelector('#battle-hint')?.textContent || '').includes('sea battle')",
                           timeout=30_000)
    assert in_sight(page, "#battle-hint")
    page.wait_for_timeout(500)
    assert page.bad == [], page.bad
    page.check("input[name=kind][value=land]")
    page.wait_for_selector("#battle-summary #out-attacker_win", timeout=60_000)
