"""What a player tripped over on the page (issue 35), each in a real browser at a laptop's
(1366x768) and a phone's (390x844) size: the answer kept in sight while an input changes, no
table cut sideways without a cue, later waves answered per wave (what each leaves), an empty
attacker answered with what to do, the other tabs' counters and CLI lines, and the smaller
details (decimals, damaged battleships, casualties, the trench's words, chart text, axe's minor
findings)."""

from __future__ import annotations

import json

import pytest

import oddsim
from tests.web.conftest import paste_link

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
    """Open ``tab`` with the request ``req`` (as a pasted link does) and wait for its answer (not
    one to what was asked before, still out when the link came: conftest.paste_link)."""
    page.evaluate("window.scrollTo(0, 0)")
    paste_link(page, tab, req)
    if tab in ("advise", "purchase", "plan"):
        page.wait_for_function(f"() => document.querySelector('#tab-{tab}')"
                               ".getAttribute('aria-selected') === 'true'")
        page.click(f"#panel-{tab} .start")
    page.wait_for_selector(f"#panel-{tab} .results[data-state=done]", timeout=120_000)


def in_sight(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= page.size[1]


@pytest.mark.slow
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
                           " && document.querySelector('#battle-results h3')"
                           ".textContent.includes('after round 2')",
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
@pytest.mark.slow
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
                              Wave(attacker="1 inf, 1 ftr", ool_attacker="inf",
                                   defender_reinforcements="1 inf")])
    cards = page.locator("#out-waves .wave-card")
    assert cards.count() == 4  # three waves and the whole attack
    for i, wave in enumerate(total.waves, start=1):
        assert float(page.get_attribute(f"#out-wave-{i}-fights", "data-value")) == pytest.approx(
            wave["fights"], abs=1e-12)
        assert float(page.get_attribute(f"#out-wave-{i}-attacker_win", "data-value")) == pytest.approx(
            wave["attacker_win"], abs=1e-12)
        text = cards.nth(i - 1).inner_text()
        assert "reaches the battle" in text and "IPC lost" in text
    whole = cards.nth(3).inner_text()
    assert "The whole attack" in whole and f"{100 * total.takes_territory:.2f}%" in whole
    assert float(page.get_attribute("#out-waves-takes", "data-value")) == pytest.approx(
        total.takes_territory, abs=1e-12)
    # the territory taken by the end of each wave: the same attack cut after it
    page.wait_for_selector("#out-wave-2-takes[data-value]", timeout=60_000)
    by_now = [oddsim.solve(first).takes_territory,
              run_waves(first, [Wave(attacker="2 arm", ool_attacker="inf")]).takes_territory,
              total.takes_territory]
    for i, expected in enumerate(by_now, start=1):
        shown = float(page.get_attribute(f"#out-wave-{i}-takes", "data-value"))
        assert shown == pytest.approx(expected, abs=1e-12)
    # counters: the second wave's attacker is two armor on counters; one more makes three
    assert page.input_value("#wave-2-attacker-armor") == "2"
    page.click("button[aria-label='one more armor (wave 2)']")
    page.wait_for_function("() => document.querySelector('#cli-command').textContent.includes('\"3 armor\"')")
    page.click("#clear")
    page.wait_for_function("() => !document.querySelector('#waves .wave')")


def test_each_wave_card_says_what_is_left(view):
    """Each wave's card says what is left of its attacker (and where it fights), what the
    defender keeps, and the defender the next wave finds, the likeliest first: run_waves'
    figures, never worked out again on the page; the cards fit their box at both sizes."""
    from oddsim.api import run_waves
    from oddsim.stages.waves import Wave
    from tests.web.test_page_views import SCREENSHOTS

    page = view
    go(page, "battle", WAVES)
    first = oddsim.Battle("1942-2e", attacker=oddsim.Side("2 inf", order_of_loss="inf"), defender="3 inf")
    later = [Wave(attacker="2 arm", ool_attacker="inf"),
             Wave(attacker="1 inf, 1 ftr", ool_attacker="inf", defender_reinforcements="1 inf")]
    total = run_waves(first, later)
    cards = page.locator("#out-waves .wave-card")
    for n, wave in enumerate(total.waves, start=1):
        for side in ("attacker", "defender"):
            shown = json.loads(page.get_attribute(f"#out-wave-{n}-{side}-left", "data-units"))
            assert shown == pytest.approx(wave[f"{side}_units_left"], abs=1e-12)
        rows = json.loads(page.get_attribute(f"#out-wave-{n}-meets", "data-rows"))
        assert [label for label, _ in rows] == [r["label"] for r in wave["defender_survivors"]]
        text = cards.nth(n - 1).inner_text()
        assert "its units left" in text and "the defender keeps" in text
        assert ("the defender at the end" if n == 3 else f"the defender left for wave {n + 1}") in text
        likeliest = wave["defender_survivors"][0]
        label = "nothing" if likeliest["label"] == "none" else likeliest["label"]
        assert f"{label} {100 * likeliest['probability']:.2f}%" in text
    # the armor of wave 2, where it fights and on average (whole where wave 1 took the territory)
    armor = total.waves[1]["given_it_fights"]["attacker_units_left"]["armor"]
    assert f"{armor:.2f} armor" in page.inner_text("#out-wave-2-attacker-left-if")
    assert page.locator("#out-wave-1-attacker-left-if").count() == 0  # (wave 1 always fights)
    wide = page.evaluate("() => [...document.querySelectorAll('#out-waves .wave-card')]"
                         ".filter(c => c.scrollWidth > c.clientWidth + 1).length")
    assert wide == 0 and page.evaluate("document.documentElement.scrollWidth") <= page.size[0]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot = SCREENSHOTS / f"wave-cards-{page.size[0]}x{page.size[1]}.png"
    page.locator("#out-waves").screenshot(path=str(shot))
    # Monte Carlo: the same figures from the same runs, each with its standard error
    go(page, "battle", {**WAVES, "method": "mc", "runs": 5000, "seed": 3})
    mc = run_waves(first, later, method="mc", runs=5000, seed=3)
    second = mc.waves[1]
    assert json.loads(page.get_attribute("#out-wave-2-attacker-left", "data-units")) == \
        second["attacker_units_left"]
    error = second["std_error"]["attacker_units_left"]["armor"]
    assert error > 0 and " ± " in page.inner_text("#out-wave-2-attacker-left")
    assert " ± " in page.inner_text("#out-wave-2-meets")
    for n, wave in enumerate(mc.waves, start=1):  # (before: "…" under Monte Carlo but for the last)
        assert float(page.get_attribute(f"#out-wave-{n}-takes", "data-value")) == wave["takes_territory"]
    page.locator("#out-waves").screenshot(path=str(shot).replace("wave-cards-", "wave-cards-mc-"))


@pytest.mark.slow
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
    page.wait_for_function("() => (document.querySelector('#battle-hint')?.textContent || '')"
                           ".includes('sea battle')",
                           timeout=30_000)
    assert in_sight(page, "#battle-hint")
    page.wait_for_timeout(500)
    assert page.bad == [], page.bad
    page.check("input[name=kind][value=land]")
    page.wait_for_selector("#battle-summary #out-attacker_win", timeout=60_000)


def run_line(line: str, tmp_path) -> dict:
    """A page's CLI line run with --json, its "oddsim" this interpreter's."""
    import shlex
    import subprocess
    import sys

    here = f'oddsim() {{ {shlex.quote(sys.executable)} -m oddsim.cli "$@"; }}\n'
    done = subprocess.run(["bash", "-c", here + line + " --json"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, (line, done.stderr)
    return json.loads(done.stdout)


@pytest.mark.slow
def test_the_other_tabs_have_counters_and_a_cli_line_that_prints_their_answer(view, tmp_path):
    """Amphibious (with the landing's order of loss and retreat), Raid, Trench, Trench advice and
    Purchase: counters beside the typed fields, and a "Copy as CLI command" line whose --json
    answer is the page's."""
    page = view
    if page.size != LAPTOP:
        pytest.skip("the CLI lines once (the laptop's page); the counters on the phone's in the views test")
    go(page, "amphibious", {"rules": "1942-2e", "fleet": "1 bb, 2 transport", "cargo": "2 inf, 1 art, 1 arm",
                            "defender": "3 inf"})
    assert page.input_value("#amphibious-cargo-infantry") == "2"
    page.click("#panel-amphibious button[aria-label='one more infantry (cargo)']")
    page.click("#panel-amphibious button[aria-label='one more transport (fleet (ships and transports))']")
    page.click("#amphibious-landing > summary")
    page.fill("#panel-amphibious [name=ool_attacker]", "art, inf, arm")
    page.fill("#panel-amphibious [data-retreat=after_round]", "2")
    page.wait_for_function("() => document.querySelector('#panel-amphibious .results').dataset.state"
                           " === 'done' && document.querySelector('#panel-amphibious h3')"
                           ".textContent.includes('carrying 3 infantry') && document.querySelector"
                           "('#amphibious-cli').textContent.includes('--retreat-after-round 2')",
                           timeout=60_000)
    assert page.input_value("#panel-amphibious [name=cargo]") == "3 infantry, 1 artillery, 1 armor"
    line = page.inner_text("#amphibious-cli")
    assert '--ool-attacker "art, inf, arm"' in line
    shown = float(page.get_attribute("#out-amphibious-takes_territory", "data-value"))
    assert run_line(line, tmp_path)["takes_territory"] == pytest.approx(shown, abs=1e-12)
    page.click("#panel-amphibious .clear")

    go(page, "raid", {"rules": "1942-2e", "bombers": 2, "territory_value": 6})
    page.click("#panel-raid button[aria-label='more: strategic bombers']")
    page.wait_for_function("() => document.querySelector('#panel-raid .results').dataset.state === 'done'"
                           " && document.querySelector('#panel-raid h3').textContent.includes('3 bombers')",
                           timeout=60_000)
    line = page.inner_text("#raid-cli")
    assert "--bombers 3" in line
    shown = float(page.get_attribute("#out-raid-expected_damage", "data-value"))
    assert run_line(line, tmp_path)["expected_damage"] == pytest.approx(shown, abs=1e-12)

    go(page, "trench", {"attacker": "5,4,3", "attacker_support": "2,0,1", "defender": "4,4,4",
                        "defender_support": "0,0,3", "year": 1917, "points": 2})
    page.click("button[aria-label=\"more: Attacker's cards, front 3\"]")
    page.wait_for_function("() => document.querySelector('#panel-trench .results').dataset.state === 'done'"
                           " && document.querySelector('#panel-trench h3')"
                           ".textContent.includes('5+2 | 4 | 4+1')",
                           timeout=60_000)
    assert page.input_value("#panel-trench [name=attacker]") == "5,4,4"
    line = page.inner_text("#trench-cli")
    shown = float(page.get_attribute("#out-trench-attacker_win", "data-value"))
    assert run_line(line, tmp_path)["attacker_win"] == pytest.approx(shown, abs=1e-12)

    go(page, "advise", {"attacker_hand": "6,5,3", "attacker_hand_support": "2", "defender": "5,4,-",
                        "defender_support": "0,?,0", "year": 1917, "points": 2, "top": 3})
    line = page.inner_text("#advise-cli")
    assert line.startswith("oddsim trench advise --attacker-hand \"6,5,3\"")
    best = run_line(line, tmp_path)["options"][0]
    assert f"{100 * best['result']['attacker_win']:.2f}%" in page.inner_text("#out-advise-options tbody tr")

    go(page, "purchase", {"rules": "1942-2e", "budget": 12, "units": "inf,art", "existing": "none",
                          "against": "2 inf", "goal": "take"})
    assert page.input_value("#purchase-against-infantry") == "2"
    line = page.inner_text("#purchase-cli")
    assert line.startswith("oddsim purchase --budget 12 --units \"inf,art\"")
    best = run_line(line, tmp_path)["rows"][0]
    assert best["purchase"] in page.inner_text("#out-purchase-rows tbody tr")


@pytest.mark.slow
def test_decimals_damaged_battleships_and_casualties(view):
    """A choice of decimals, a damaged battleship's counter, the casualties of each survivors row."""
    page = view
    go(page, "battle", {"rules": "1942-2e", "attacker": "3 inf, 1 art, 2 arm", "defender": "4 inf, 1 arm"})
    expected = oddsim.solve(oddsim.Battle("1942-2e", attacker="3 inf, 1 art, 2 arm", defender="4 inf, 1 arm"))
    head = page.eval_on_selector_all("#out-attacker-survivors thead th", "ths => ths.map(t => t.textContent)")
    assert head[:2] == ["survivors", "casualties"]
    rows = page.eval_on_selector_all("#out-attacker-survivors tbody tr",
                                     "rs => rs.map(r => [r.cells[0].textContent, r.cells[1].textContent])")
    assert ["none", "3 infantry, 1 artillery, 2 armor"] in rows
    assert ["1 artillery, 2 armor", "3 infantry"] in rows
    page.select_option("#decimals", "1")
    assert f"attacker wins {100 * expected.attacker_win:.1f}%" in page.inner_text("#out-attacker_win")
    page.select_option("#decimals", "2")
    assert f"attacker wins {100 * expected.attacker_win:.2f}%" in page.inner_text("#out-attacker_win")
    page.click("#clear")
    page.wait_for_selector("#battle-hint")
    page.check("input[name=kind][value=sea]")
    page.fill("#attacker-damaged-battleship", "1")
    page.fill("#attacker-battleship", "1")
    page.fill("#defender-destroyer", "2")
    battle = oddsim.Battle("1942-2e", attacker="1 battleship, 1 damaged battleship", defender="2 dd",
                           sea=True)
    page.wait_for_function("t => document.querySelector('#battle-results h3')?.textContent === t"
                           " && document.querySelector('#battle-results').dataset.state === 'done'",
                           arg=battle.describe(), timeout=60_000)
    shown = float(page.get_attribute("#out-attacker_win", "data-value"))
    assert shown == pytest.approx(oddsim.solve(battle).attacker_win, abs=1e-12)
    assert '-a "1 damaged battleship, 1 battleship"' in page.inner_text("#cli-command")  # (entered so)
    page.check("input[name=kind][value=land]")


@pytest.mark.slow
def test_the_longest_trench_in_the_games_words(view):
    """No engine words; the Edition header gone on the trench tabs; a legend on Fronts won."""
    page = view
    go(page, "trench", {"attacker": "5,4,3", "attacker_support": "2,0,1", "defender": "4,4,4",
                        "defender_support": "0,?,3", "year": 1917, "points": 2})
    text = page.inner_text("#panel-trench")
    for engine_words in ("(the seed)", "both-first", "face-down support values", "1:1,2:1"):
        assert engine_words not in text
    assert "A tied front goes to nobody." in text and "guessed to be 1, 2 or 3, each as likely" in text
    assert not page.is_visible("#edition") and not page.is_visible("#unit-values")
    assert page.inner_text("#out-trench-fronts-legend").split() == ["attacker", "defender"]
    go(page, "advise", ADVICE)
    assert "both-first" not in page.inner_text("#panel-advise") and not page.is_visible("#edition")
    page.click("#tab-battle")
    assert page.is_visible("#edition")


@pytest.mark.slow
def test_the_charts_and_their_details(view):
    """The TUV swing on a value axis; the raid's damage by damage, its runs box in the page's
    words; the purchase chart's legend and ticks; the amphibious loss at sea explained; the
    plan's example sends something to every target."""
    page = view
    go(page, "battle", {"rules": "1942-2e", "attacker": "3 inf, 1 art, 2 arm", "defender": "4 inf, 1 arm",
                        "method": "exact"})
    bars = page.eval_on_selector_all("#out-tuv-swing-chart rect",
                                     "rs => rs.map(r => r.x.baseVal.value + r.width.baseVal.value / 2)")
    answer = oddsim.solve(oddsim.Battle("1942-2e", attacker="3 inf, 1 art, 2 arm", defender="4 inf, 1 arm"))
    swings = [r["swing"] for r in answer.to_dict()["tuv_swing_distribution"]]
    per_ipc = (bars[-1] - bars[0]) / (swings[-1] - swings[0])
    for x, swing in zip(bars, swings, strict=True):  # the place of a bar says its value
        assert x == pytest.approx(bars[0] + per_ipc * (swing - swings[0]), abs=0.01)
    go(page, "raid", {"rules": "1942-2e", "bombers": 2, "territory_value": 6})
    damage = page.eval_on_selector_all("#out-raid-damage tbody tr",
                                       "rs => rs.map(r => Number(r.cells[0].textContent))")
    assert damage == sorted(damage) and len(damage) > 3
    assert "CLI" not in page.get_attribute("#panel-raid [name=runs]", "placeholder")
    go(page, "purchase", {"rules": "1942-2e", "budget": 12, "units": "inf,art", "existing": "none",
                          "against": "2 inf", "goal": "take"})
    assert "Pareto frontier" in page.inner_text("#out-purchase-legend")
    ticks = page.eval_on_selector_all("#panel-purchase svg.chart text.tick",
                                      "ts => ts.map(t => t.textContent)")
    assert sum(t.endswith("%") for t in ticks) >= 3  # the goal's axis: round ticks, not two
    go(page, "amphibious", {"rules": "1942-2e", "fleet": "1 bb, 2 transport, 1 dd",
                            "cargo": "2 inf, 1 art, 1 arm", "defender": "3 inf",
                            "sea_defender": "1 sub, 1 dd"})
    from oddsim.model.rules import load_ruleset
    from oddsim.stages.amphibious import Amphibious
    from oddsim.stages.request import BattleRequest, run_request
    assault = Amphibious(rules=load_ruleset("1942-2e"), fleet="1 bb, 2 transport, 1 dd",
                         cargo="2 inf, 1 art, 1 arm", defender="3 inf", sea_defender="1 sub, 1 dd")
    result = run_request(BattleRequest(assault, method="exact")).to_dict()
    said = page.inner_text("#out-amphibious-sea-explained")
    assert f"{result['attacker_ipc_lost_sea']:.2f}" in said
    assert f"{result['sea']['attacker_ipc_lost']:.2f}" in said
    assert f"{result['cargo_lost']:.2f} of cargo" in said
    page.click("#tab-plan")
    page.click("#panel-plan .clear")
    page.evaluate("document.querySelector('#panel-plan .results').dataset.state = ''")
    page.click("#panel-plan .start")
    page.wait_for_selector("#panel-plan .results[data-state=done]", timeout=300_000)
    sent = page.eval_on_selector_all("#out-plan-split tbody tr", "rs => rs.map(r => r.dataset.units)")
    assert len(sent) == 3 and "none" not in sent
    page.click("#tab-battle")


@pytest.mark.parametrize("width", [768, 801, 1024])
def test_chart_text_and_no_sideways_scroll_between_a_phone_and_a_laptop(browser, live_server, width):
    """At the widths between the two tested everywhere (a tablet's), the battle's charts keep
    their text at 12 px or more without pushing the page sideways."""
    from tests.web.test_page_views import CHART_TEXT_SIZES

    page = browser.new_page(viewport={"width": width, "height": 900})
    page.goto(live_server + "/")
    page.wait_for_selector("#panel-battle .results[data-state=done]", timeout=120_000)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.evaluate(CHART_TEXT_SIZES, "battle") == []
    outside = page.evaluate("() => { const box = document.querySelector('#battle-results')"
                            ".getBoundingClientRect();"
                            " return [...document.querySelectorAll('#battle-results svg.chart')]"
                            ".filter(c => c.getBoundingClientRect().right > box.right + 1).length; }")
    assert outside == 0, "charts wider than the answer's column"

    page.close()
