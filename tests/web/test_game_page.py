"""The Game tab in a real browser: a game file picked or dropped lists the board's battles, and
each opens in the Battle tab with its armies and the map's rules (the small war, tests/triplea/games,
under the map's own rules)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.web.test_page_views import SCREENSHOTS, SIZES

SMALL_WAR = Path(__file__).parents[1] / "triplea" / "games" / "small_war.xml"



@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(viewport={"width": 1200, "height": 1000})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda exc: errors.append(str(exc)))
    opened.goto(live_server + "/")
    opened.wait_for_selector("body[data-ready=true]", timeout=120_000)
    opened.click("#tab-game")
    yield opened
    context.close()
    assert not errors, errors


def row(page, territory: str):
    return page.locator(f'#game-battles tr[data-territory="{territory}"]')


def test_a_picked_file_lists_its_battles_and_one_opens_in_the_battle_tab(page):
    assert "Pick or drop a game file" in page.inner_text("#game-summary")
    page.set_input_files("#game-file", str(SMALL_WAR))
    page.wait_for_selector("#game-battles", timeout=120_000)
    assert page.inner_text("#game-summary") == "Small War, round 3: 4 battles answered, 2 not"
    karelia = row(page, "Karelia")
    assert "Germans: 3 infantry, 1 armour" in karelia.inner_text()
    assert row(page, "Sweden").locator(".attacker-win").inner_text() == "50.00%"  # 1/2, by hand
    assert "--attacker PLAYER" in page.inner_text("#game-battles")  # the sea zones, until one is named
    page.select_option("#game-attacker", "Germans")
    page.wait_for_selector('#game-battles tr[data-territory="Sea Zone 6"]', timeout=120_000)
    assert row(page, "Sea Zone 6").locator(".attacker-win").inner_text() == "80.00%"  # 4/5, by hand
    # the TUV swing with its sign, as the Battle tab shows it (before: "10" and "0.75", unsigned);
    # Sweden: the defender loses its infantry (3) 3/4 of the time, the attacker its armour (6) 1/2
    swings = {t: row(page, t).locator("td[data-label='TUV swing']").inner_text()
              for t in ("Sweden", "Sea Zone 6")}
    assert swings == {"Sweden": "-0.75", "Sea Zone 6": "+10"}
    karelia.locator(".open-battle").click()
    page.wait_for_function(
        "() => { const box = document.querySelector('#battle-results'); const h = box.querySelector('h3');"
        " return h && h.textContent === 'Small War land battle: 3 infantry, 1 armour attack 2 infantry'"
        " && box.dataset.state === 'done'; }", timeout=120_000)
    assert page.get_attribute("#tab-battle", "aria-selected") == "true"
    assert page.eval_on_selector("#edition", "e => e.value").startswith("game:")


def test_a_dropped_file_is_listed_and_a_bad_one_is_one_line(page):
    drop = page.evaluate_handle(
        "text => { const dt = new DataTransfer(); dt.items.add(new File([text], 'small_war.xml',"
        " { type: 'text/xml' })); return dt; }", SMALL_WAR.read_text(encoding="utf-8"))
    page.dispatch_event("#game-drop", "drop", {"dataTransfer": drop})
    page.wait_for_selector("#game-battles", timeout=120_000)
    assert row(page, "Karelia").count() == 1
    bad = page.evaluate_handle(
        "() => { const dt = new DataTransfer(); dt.items.add(new File(['<nope/>'], 'x.xml')); return dt; }")
    page.dispatch_event("#game-drop", "drop", {"dataTransfer": bad})
    page.wait_for_selector("#game-summary .error", timeout=120_000)
    assert "not a TripleA game" in page.inner_text("#game-summary .error")


@pytest.mark.slow
@pytest.mark.parametrize("name", list(SIZES))
def test_the_game_tab_reads_at_each_size(browser, live_server, name):
    """The small war with the Germans attacking at sea, at a phone's and a desktop's size: no
    sideways scrolling, nothing serious for axe, and a screenshot among every tab's
    (``game-phone.png``, ``game-desktop.png``: test_page_views' folder, CI's artifacts)."""
    from axe_playwright_python.sync_playwright import Axe

    size = SIZES[name]
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    opened = context.new_page()
    opened.goto(live_server + "/")
    opened.wait_for_selector("body[data-ready=true]", timeout=120_000)
    opened.click("#tab-game")
    opened.set_input_files("#game-file", str(SMALL_WAR))
    opened.wait_for_selector("#game-battles", timeout=120_000)
    opened.select_option("#game-attacker", "Germans")
    opened.wait_for_selector('#game-battles tr[data-territory="Sea Zone 6"]', timeout=120_000)
    assert opened.evaluate("document.documentElement.scrollWidth") <= size[0], "sideways scrolling"
    results = Axe().run(opened)
    serious = [f"{v['id']}: {v['help']}" for v in results.response["violations"]
               if v["impact"] in ("serious", "critical")]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot = SCREENSHOTS / f"game-{name}.png"
    opened.screenshot(path=str(shot), full_page=True)
    context.close()
    assert not serious, serious
    assert shot.stat().st_size > 10_000


@pytest.mark.slow
def test_a_game_battles_cli_line_names_its_file_and_its_link_opens_it_again(page, browser, live_server):
    """Before: a battle opened from a game copied as ``--rules undefined ... --game "<token>"``,
    and its link opened under the edition the page had. Now the line names the game file (run
    where it is: the same odds), a note says so, and the link opens the same battle under the
    map's rules while the server keeps the game; a link to a game it does not keep says so."""
    import urllib.parse

    from tests.web.test_page_trips import run_line

    page.set_input_files("#game-file", str(SMALL_WAR))
    page.wait_for_selector("#game-battles", timeout=120_000)
    row(page, "Karelia").locator(".open-battle").click()
    page.wait_for_function("() => document.querySelector('#battle-results').dataset.state === 'done'"
                           " && document.querySelector('#battle-results h3')?.textContent"
                           ".startsWith('Small War')",
                           timeout=120_000)
    line = page.inner_text("#cli-command")
    assert line.startswith('oddsim battle --rules "small_war.xml" -a "3 infantry, 1 armour" -d "2 infantry"')
    assert "game" not in line.replace("small_war", "")
    assert "run the line where that file is" in page.inner_text("#cli-note")
    shown = float(page.get_attribute("#out-attacker_win", "data-value"))
    assert run_line(line, SMALL_WAR.parent)["attacker_win"] == pytest.approx(shown, abs=1e-12)
    link = page.evaluate("location.hash")
    assert link.startswith("#battle=")
    other = browser.new_page(viewport={"width": 1200, "height": 1000})
    errors: list[str] = []
    other.on("pageerror", lambda exc: errors.append(str(exc)))
    other.goto(live_server + "/" + link)
    other.wait_for_selector("#battle-results[data-state=done]", timeout=120_000)
    assert float(other.get_attribute("#out-attacker_win", "data-value")) == shown
    assert other.eval_on_selector("#edition", "e => e.value").startswith("game:")
    assert "GAME_FILE.xml" in other.inner_text("#cli-command")  # (this page was not given the file)
    assert "Put the path of the game file" in other.inner_text("#cli-note")
    gone = {"game": "0" * 64, "attacker": "3 infantry", "defender": "2 infantry"}
    other.evaluate("hash => { location.hash = hash; }", "#battle=" + urllib.parse.quote(json.dumps(gone)))
    other.wait_for_selector("#battle-summary .error", timeout=60_000)
    assert "pick the game file again" in other.inner_text("#battle-summary .error")
    other.close()
    assert not errors, errors
