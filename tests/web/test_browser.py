"""The page in a real browser (Debian's chromium driven by Playwright) against a live server.

Every tab at a desktop's and a phone's size, with screenshots: test_page_views.py.
Skipped, saying why, only where chromium is not installed (CI installs it); Playwright comes
with the test extras and drives that chromium: it never downloads a browser.
"""

from __future__ import annotations

import pytest

import oddsim
from oddsim.model.rules import with_changes
from oddsim.purchase.goals import Goal


def answer_for(page, battle: oddsim.Battle, timeout: float = 60_000, how: str = "") -> None:
    """Wait until the page shows the result of ``battle`` (its title line), answered ``how``
    ("Monte Carlo, 20,000 runs": not the exact answer shown before the method changed)."""
    page.wait_for_function(
        "([title, how]) => { const box = document.querySelector('#battle-results');"
        " const h = box.querySelector('h3'); const status = box.querySelector('.status');"
        " return h && h.textContent === title && box.dataset.state === 'done'"
        " && status && status.textContent.includes(how); }",
        arg=[battle.describe(), how], timeout=timeout)


def set_counter(page, side: str, unit: str, n: int) -> None:
    page.fill(f"#{side}-{unit}", str(n))


def shown(page, key: str) -> float:
    return float(page.get_attribute(f"#out-{key}", "data-value"))


def open_group(page, group: str) -> None:
    """Unfold one of the battle's option groups (retreat, landing, sea, counter, engine)."""
    if page.get_attribute(f"#group-{group}", "open") is None:
        page.click(f"#group-{group} > summary")


@pytest.mark.slow
def test_counters_give_the_odds_of_oddsim_solve(page):
    page.goto(page.base + "/")
    page.click("#clear")
    set_counter(page, "attacker", "infantry", 2)
    page.click("button[aria-label='one more artillery']")  # a + button: 1 artillery
    page.click("button[aria-label='one more fighter']")
    set_counter(page, "defender", "infantry", 3)
    battle = oddsim.Battle("1942-2e", attacker="2 inf, 1 art, 1 ftr", defender="3 inf")
    answer_for(page, battle)
    expected = oddsim.solve(battle)
    for key in ("attacker_win", "defender_win", "draw", "takes_territory", "attacker_ipc_lost",
                "defender_ipc_lost", "tuv_swing"):
        assert shown(page, key) == pytest.approx(getattr(expected, key), abs=1e-12), key
    for side in ("attacker", "defender"):  # units left: the expected count of each type, summed
        left = sum(getattr(expected, f"{side}_units_left").values())
        assert shown(page, f"{side}_units_left") == pytest.approx(left, abs=1e-9)
    legend = page.inner_text("#out-attacker_win")
    assert f"{100 * expected.attacker_win:.2f}%" in legend
    command = page.inner_text("#cli-command")
    assert command == 'oddsim battle -a "2 infantry, 1 artillery, 1 fighter" -d "3 infantry"'


def test_monte_carlo_shows_standard_errors(page):
    page.goto(page.base + "/")
    open_group(page, "engine")
    page.select_option("#method", "mc")
    page.fill("#runs", "20000")
    page.fill("#seed", "5")
    battle = oddsim.Battle("1942-2e", attacker="3 inf, 1 art, 2 arm", defender="4 inf, 1 arm")
    # (done: the answer with seed 5, not one with the page's seed that landed before it was typed)
    answer_for(page, battle, how="Monte Carlo, 20,000 runs")
    expected = oddsim.simulate(battle, runs=20_000, seed=5)
    assert shown(page, "attacker_win") == expected.attacker_win
    se = expected.std_error["attacker_win"]
    # with its % sign, as the command line writes it ("51.90% ± 1.6%")
    assert (f"{100 * expected.attacker_win:.2f}% ± {Goal.TAKE.format_error(se)}"
            in page.inner_text("#out-attacker_win"))
    assert page.inner_text("#cli-command").endswith("--method \"mc\" --runs 20000 --seed 5")


@pytest.mark.slow
def test_an_answer_to_a_form_since_changed_is_never_shown(page):
    """An input changes while a request is out: the request is dropped at once and its answer
    never shown, not even until the next request starts (before: it landed in that quarter
    second, marked done, and its battle went into the link, the CLI line and the history); an
    answer in sight is no longer "done" once the form differs from what it answers."""
    page.goto(page.base + "/")
    page.wait_for_selector("#battle-results[data-state=done]", timeout=120_000)
    set_counter(page, "attacker", "infantry", 4)
    assert page.get_attribute("#battle-results", "data-state") == "stale"
    answer_for(page, oddsim.Battle("1942-2e", attacker="4 inf, 1 art, 2 arm", defender="4 inf, 1 arm"))
    page.evaluate("""() => { const box = document.querySelector('#battle-results');
        window.doneTitles = [];  // each answer marked done, by its title
        new MutationObserver(() => { if (box.dataset.state === 'done')
            window.doneTitles.push(box.querySelector('h3').textContent); })
        .observe(box, { attributes: true, attributeFilter: ['data-state'] }); }""")
    from playwright.sync_api import Error as PlaywrightError

    held: list = []

    def hold(route):
        held.append(route)

    page.route("**/api/battle", hold)
    with page.expect_request("**/api/battle"):
        set_counter(page, "attacker", "infantry", 2)  # asked, and held out
    set_counter(page, "attacker", "infantry", 1)  # the form changes while it is out
    page.unroute("**/api/battle")
    for route in held:  # the first answer comes back before the next request is sent
        try:
            route.continue_()
        except PlaywrightError:  # (dropped already by the page: nothing to answer)
            pass
    later = oddsim.Battle("1942-2e", attacker="1 inf, 1 art, 2 arm", defender="4 inf, 1 arm")
    answer_for(page, later)
    assert page.evaluate("window.doneTitles") == [later.describe()]
    assert shown(page, "attacker_win") == pytest.approx(oddsim.solve(later).attacker_win, abs=1e-12)
    assert '-a "1 infantry, 1 artillery, 2 armor"' in page.inner_text("#cli-command")


@pytest.mark.slow
def test_a_battle_in_progress_and_a_strafe(page):
    """Two options from their groups (dice and engine; retreat) reach the server and the CLI line."""
    page.goto(page.base + "/")
    page.click("#clear")
    set_counter(page, "attacker", "infantry", 4)
    set_counter(page, "attacker", "fighter", 1)
    set_counter(page, "defender", "infantry", 3)
    open_group(page, "engine")
    page.check("#in_progress")
    open_group(page, "retreat")
    page.fill("#retreat-strafe", "1")
    battle = oddsim.Battle("1942-2e", attacker="4 inf, 1 ftr", defender="3 inf", in_progress=True,
                           retreat={"strafe": 1})
    answer_for(page, battle)
    expected = oddsim.solve(battle)
    assert shown(page, "attacker_win") == pytest.approx(expected.attacker_win, abs=1e-12)
    assert shown(page, "retreat") == pytest.approx(expected.retreat, abs=1e-12)
    assert page.inner_text("#cli-command").endswith("--in-progress --retreat-strafe 1")


@pytest.mark.slow
def test_the_url_keeps_the_battle_and_swap_sides(page, browser):
    page.goto(page.base + "/")
    page.click("#clear")
    page.check("input[name=kind][value=sea]")
    set_counter(page, "attacker", "destroyer", 2)
    set_counter(page, "defender", "submarine", 2)
    open_group(page, "sea")
    page.select_option("#defender_submerge", "always")
    battle = oddsim.Battle("1942-2e", attacker="2 dd", defender=oddsim.Side("2 sub", submerge="always"),
                           sea=True)
    answer_for(page, battle)
    link = page.url
    other = browser.new_page()
    other.goto(link)  # a shared link, or a reload
    answer_for(other, battle)
    assert other.input_value("#attacker-destroyer") == "2"
    assert other.input_value("#defender_submerge") == "always"
    assert shown(other, "attacker_win") == pytest.approx(oddsim.solve(battle).attacker_win, abs=1e-12)
    other.close()
    page.select_option("#defender_submerge", "never")
    page.click("#swap")
    swapped = oddsim.Battle("1942-2e", attacker="2 sub", defender="2 dd", sea=True)
    answer_for(page, swapped)
    assert shown(page, "attacker_win") == pytest.approx(oddsim.solve(swapped).attacker_win, abs=1e-12)


def test_a_bad_input_shows_its_message(page, client):
    page.goto(page.base + "/")
    page.fill("#ool_attacker", "inf,zeppelin")
    page.wait_for_selector("#battle-summary .error", timeout=60_000)
    message = page.inner_text("#battle-summary .error")
    api = client.post("/api/battle", json={"attacker": "3 infantry, 1 artillery, 2 armor",
                                           "defender": "4 infantry, 1 armor", "ool_attacker": "inf,zeppelin"})
    assert message == api.json()["error"]
    assert "unknown unit 'zeppelin'" in message


@pytest.mark.slow
def test_unit_values_reach_the_figures_the_link_and_the_cli_line(page, browser, client):
    page.goto(page.base + "/")
    page.click("#clear")
    set_counter(page, "attacker", "infantry", 2)
    set_counter(page, "attacker", "fighter", 1)
    set_counter(page, "defender", "infantry", 2)
    page.fill("#unit-values", "ftr=14")
    battle = oddsim.Battle(with_changes("1942-2e", {"units.fighter.cost": 14}), attacker="2 inf, 1 ftr",
                           defender="2 inf")
    answer_for(page, battle)
    expected = oddsim.solve(battle)
    for key in ("attacker_ipc_lost", "tuv_swing"):  # a fighter lost counts 14
        assert shown(page, key) == pytest.approx(getattr(expected, key), abs=1e-12), key
    assert expected.attacker_ipc_total == 2 * 3 + 14
    # the readings line names the value that differs from the rulebook (issue 34)
    assert page.inner_text("#battle-results .readings") == "readings: units.fighter.cost=14 (rulebook: 10)"
    assert page.inner_text("#cli-command") == ('oddsim battle -a "2 infantry, 1 fighter" -d "2 infantry" '
                                               '--unit-values "ftr=14"')
    other = browser.new_page()
    other.goto(page.url)  # the link keeps them
    answer_for(other, battle)
    assert other.input_value("#unit-values") == "ftr=14"
    other.close()
    page.fill("#unit-values", "")
    answer_for(page, oddsim.Battle("1942-2e", attacker="2 inf, 1 ftr", defender="2 inf"))
    assert page.locator("#battle-results .readings").count() == 0  # the rulebook: no line
    page.fill("#unit-values", "zz=1")
    page.wait_for_selector("#battle-summary .error", timeout=60_000)
    api = client.post("/api/battle", json={"attacker": "2 infantry, 1 fighter", "defender": "2 infantry",
                                           "unit_values": "zz=1"})
    assert page.inner_text("#battle-summary .error") == api.json()["error"]
    assert "unknown unit 'zz'" in api.json()["error"]


@pytest.mark.slow
def test_tabs_by_keyboard(page):
    """Arrow keys walk the tabs (each answers as it opens); screenshots: test_page_views."""
    page.goto(page.base + "/")
    answer_for(page, oddsim.Battle("1942-2e", attacker="3 inf, 1 art, 2 arm", defender="4 inf, 1 arm"))
    page.focus("#tab-battle")
    for tab in ("amphibious", "raid", "trench"):
        page.keyboard.press("ArrowRight")
        assert page.get_attribute(f"#tab-{tab}", "aria-selected") == "true"
        assert page.evaluate("document.activeElement.id") == f"tab-{tab}"
        page.wait_for_selector(f"#panel-{tab} .results[data-state=done]", timeout=60_000)
    trench = oddsim.trench.api.solve_trench(oddsim.trench.model.TrenchBattle(
        attacker="5,4,3", attacker_support="2,0,1", defender="4,4,4", defender_support="0,0,3",
        year=1917, points=2))
    assert shown(page, "trench-attacker_win") == pytest.approx(trench.attacker_win, abs=1e-12)
    page.keyboard.press("ArrowRight")  # the advice: a job, started by its button
    assert page.get_attribute("#tab-advise", "aria-selected") == "true"
    page.click("#panel-advise .start")
    page.wait_for_selector("#panel-advise .results[data-state=done]", timeout=120_000)
    from oddsim.trench.advice import Commitment, Hand, advise

    advice = advise(Hand((6, 5, 3), (2,)), Commitment("5,4,-", "0,?,0"), year=1917, points=2)
    first = advice.options[0]
    row = page.inner_text("#out-advise-options tbody tr:first-child")
    assert f"{100 * first.result.attacker_win:.2f}%" in row
    assert [line.split(": ")[1] for line in page.inner_text(
        "#out-advise-options tbody tr:first-child td:nth-child(2)").splitlines()] == [
        "no card" if c is None else f"{c} + {s}" if s else str(c)
        for c, s in zip(first.attacker.cards, first.attacker.support, strict=True)]
    page.focus("#tab-advise")
    page.keyboard.press("ArrowRight")
    page.click("#panel-purchase .start")
    page.wait_for_selector("#panel-purchase .results[data-state=done]", timeout=120_000)
    from oddsim.purchase import sweep

    best = sweep("1942-2e", 24, "inf,art,arm", "4 inf, 1 arm", goal="take").best
    assert page.inner_text("#out-purchase-rows tbody tr:nth-child(1) td:nth-child(2)") == best.purchase
    assert f"{100 * best.value:.2f}%" in page.inner_text("#out-purchase-rows tbody tr:nth-child(1)")
    page.focus("#tab-purchase")
    page.keyboard.press("Home")
    assert page.get_attribute("#tab-battle", "aria-selected") == "true"


def test_a_tab_picked_while_the_page_loads_stays_picked(page):
    """A player (or a test) quicker than the page's first requests is not thrown back to Battle."""
    held: list = []

    def hold(route):  # the editions come back only after the tab is clicked
        held.append(route)

    page.route("**/api/rules", hold)
    page.goto(page.base + "/", wait_until="domcontentloaded")
    page.click("#tab-purchase")
    page.wait_for_timeout(100)
    assert held, "the page asked for the editions before the click"
    for route in held:
        route.continue_()
    page.wait_for_selector("body[data-ready]", state="attached")  # start() has run to its end
    assert page.get_attribute("#tab-purchase", "aria-selected") == "true"
    assert page.is_visible("#panel-purchase form [name=units]")


def _run_purchase(page, fills: dict[str, str], selects: dict[str, str]) -> None:
    """Fill the purchase tab's form (text fields, then drop-downs), start it and wait for it."""
    page.goto(page.base + "/")
    page.click("#tab-purchase")
    form = "#panel-purchase form"
    for name, value in fills.items():
        page.fill(f"{form} [name={name}]", value)
    for name, value in selects.items():
        page.select_option(f"{form} [name={name}]", value)
    page.click("#panel-purchase .start")
    page.wait_for_selector("#panel-purchase .results[data-state=done]", timeout=120_000)


@pytest.mark.slow
def test_purchase_tab_ranks_by_hold_after_a_counter_attack(page):
    _run_purchase(page, {"budget": "6", "units": "arm", "against": "2 inf", "counter_attack": "2 inf"},
                  {"goal": "hold-after", "method": "exact"})
    # 1 arm takes 2 inf 1/7 of the time; 2 inf counter-attacking the armor take it back 179/329
    row = page.inner_text("#out-purchase-rows tbody tr:nth-child(1)")
    assert "1 armor" in row and f"{100 / 7 * 150 / 329:.2f}%" in row


def test_the_retreat_plan_shows_chances_as_percentages(page):
    import json
    import urllib.parse

    req = {"rules": "1942-2e", "attacker": "3 inf, 2 arm", "defender": "4 inf",
           "retreat": {"best": "tuv"}}
    page.goto(page.base + "/#battle=" + urllib.parse.quote(json.dumps(req)))
    page.wait_for_selector("#battle-results[data-state=done]", timeout=60_000)
    plan = oddsim.solve(oddsim.Battle("1942-2e", attacker="3 inf, 2 arm", defender="4 inf",
                                      retreat={"best": "tuv"})).retreat_plan
    text = page.inner_text("#battle-results")
    assert len(plan) > 1
    for row in plan:  # each state's chance of a retreat there, 0.29% and 11.01% alike
        assert f"{100 * row.probability:.2f}%" in text


@pytest.mark.slow
def test_purchase_tab_shows_the_error_of_monte_carlo_rows(page):
    from oddsim.purchase import BattleCache, sweep

    _run_purchase(page, {"budget": "3", "units": "inf", "against": "1 inf"}, {"method": "mc"})
    best = sweep("1942-2e", 3, "inf", "1 inf", method="mc", cache=BattleCache()).best  # same seed
    row = page.inner_text("#out-purchase-rows tbody tr:nth-child(1)")
    assert f"{100 * best.value:.2f}% ± {Goal.TAKE.format_error(best.value_std_error)}" in row


@pytest.mark.slow
def test_purchase_tab_shows_the_interval_of_a_chance_no_run_saw(page):
    from oddsim.purchase import BattleCache, sweep

    _run_purchase(page, {"budget": "3", "units": "inf", "against": "8 inf, 2 arm"}, {"method": "mc"})
    table = sweep("1942-2e", 3, "inf", "8 inf, 2 arm", method="mc", cache=BattleCache())  # same seed
    # buying nothing (exact 0, cheaper) ranks first, then the infantry no run saw take it
    assert [row.purchase for row in table.rows] == ["nothing", "1 infantry"]
    best = table.rows[1]
    assert best.value == 0.0  # no run takes it: an error of 0 would say nothing
    row = page.inner_text("#out-purchase-rows tbody tr:nth-child(2)")
    assert f"0.00% {Goal.TAKE.error_text(best.value, best.value_std_error, best.runs)}" in row
    assert "95%: 0 to " in row and "±" not in row


def test_the_page_shows_standard_errors_as_the_command_line_does(page):
    # a significant digit, at least two decimals: never "± 0.00" for an error of 0.004%
    page.goto(page.base + "/")
    for error in (0.3, 0.0123, 0.0021, 4e-5, 3e-7):
        assert page.evaluate(f"errorText({error}, true)") + "%" == Goal.TAKE.format_error(error)
        assert page.evaluate(f"errorText({error}, false)") == Goal.TUV.format_error(error)


@pytest.mark.slow
@pytest.mark.parametrize("seed", ["9007199254740993", "18446744073709551615"])
def test_a_seed_above_two_to_the_53_reaches_the_server_exactly(page, browser, seed):
    """A JavaScript number would round it (to ...992, and 2**64 - 1 to 2**64, refused)."""
    page.goto(page.base + "/")
    open_group(page, "engine")
    page.select_option("#method", "mc")
    page.fill("#runs", "20000")
    page.fill("#seed", seed)
    battle = oddsim.Battle("1942-2e", attacker="3 inf, 1 art, 2 arm", defender="4 inf, 1 arm")
    answer_for(page, battle, how="Monte Carlo, 20,000 runs")
    expected = oddsim.simulate(battle, runs=20_000, seed=int(seed))
    rounded = oddsim.simulate(battle, runs=20_000, seed=int(float(seed)) % 2**64)
    assert expected.attacker_win != rounded.attacker_win  # the test tells the two seeds apart
    assert shown(page, "attacker_win") == expected.attacker_win
    assert page.inner_text("#cli-command").endswith(f"--runs 20000 --seed {seed}")
    other = browser.new_page()
    other.goto(page.url)  # the link keeps the seed's digits too
    answer_for(other, battle, how="Monte Carlo, 20,000 runs")
    assert other.input_value("#seed") == seed
    assert shown(other, "attacker_win") == expected.attacker_win
    other.close()


@pytest.mark.parametrize("defender, token, then", [("1 inf, 1 dd", "1 inf", "1 dd"),
                                                   ("1 bb, 1 destroyr", "1 destroyr", "1 bb, 1 dd")])
@pytest.mark.slow
def test_a_link_army_the_page_cannot_show_is_an_error_not_another_battle(page, defender, token, then):
    import json
    from urllib.parse import quote

    link = json.dumps({"rules": "1942-2e", "attacker": "1 bb, 1 cru", "defender": defender, "sea": True})
    page.goto(page.base + "/#battle=" + quote(link))
    page.wait_for_selector("#battle-summary .error", timeout=60_000)
    message = page.inner_text("#battle-summary .error")
    assert f"'{token}'" in message and "cannot show" in message
    assert page.query_selector("#battle-results h3") is None  # no answer to another battle
    page.click("#defender-counters button[aria-label='one more destroyer']")  # the user's battle now
    answer_for(page, oddsim.Battle("1942-2e", attacker="1 bb, 1 cru", defender=then, sea=True))
