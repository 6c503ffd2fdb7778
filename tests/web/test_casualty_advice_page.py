"""The page's best-casualties advice in a real browser (issue 33): the table with the hits scored
that change the attacker's loss, the whole grid, and a battle in progress (test_browser.py's way)."""

from __future__ import annotations

import pytest

import oddsim
from oddsim.model.side import Side
from tests.web.test_browser import answer_for, open_group, set_counter


def _battle(**options):
    attacker = Side("2 inf, 2 ftr", order_of_loss="best")
    return oddsim.Battle("1942-2e", attacker, "2 inf", casualty_goal="value", casualty_value=8, **options)


@pytest.mark.slow
def test_the_advice_table_and_the_grid(page):
    """2 inf, 2 ftr against 2 inf, goal value, territory 8: with 2 hits taken after scoring 2 (the
    defender has nothing left), an infantry and a fighter (+1 against 0, by hand:
    tests/engines/exact/test_casualty_advice.py). In progress: the round is 'this round'."""
    page.goto(page.base + "/")
    page.click("#clear")
    set_counter(page, "attacker", "infantry", 2)
    set_counter(page, "attacker", "fighter", 2)
    set_counter(page, "defender", "infantry", 2)
    page.select_option("#ool_attacker-preset", "best")
    open_group(page, "engine")
    page.fill("#extra-casualty_goal", "value")
    page.fill("#extra-casualty_value", "8")
    answer_for(page, _battle(), timeout=240_000)
    when = page.locator("#out-casualty-attacker tr.when-scored")
    assert when.count() == 1
    assert [c.strip() for c in when.locator("td").all_inner_texts()] == \
        ["", "2 (defender left none)", "4.6%", "1 infantry, 1 fighter"]
    page.click("#out-casualty-grid > summary")
    heads = page.locator("#out-casualty-grid-0 thead th").all_inner_texts()  # scored 0 or 1: the same
    assert [h.split(" (")[0] for h in heads[1:]] == ["0 or 1", "2"]
    assert heads[2].endswith("defender left none")
    cells = page.locator("#out-casualty-grid-0 tbody tr").nth(1).locator("td").all_inner_texts()  # taken 2
    assert cells == ["2 infantry", "1 infantry, 1 fighter"]
    page.check("#in_progress")
    answer_for(page, _battle(in_progress=True))
    assert page.locator("#out-casualty-policy h5").last.inner_text() == "This round: the attacker, hit, loses"


@pytest.mark.slow
def test_at_sea_with_submarines_a_table_per_phase(page):
    """1 sub, 2 ftr against 2 sub, 1 dd, 1 transport, the attacker best: the defender's subs strike
    first, and their hits (never on aircraft) cost the only submarine; 1 hit 2 * 1/6 * 5/6.
    General fire's table is after a strike that sank nothing ((5/6)^2 = 25/36); "Every case"
    unfolds general fire after each outcome of the strike: nothing sunk 25/36, the attacker's only
    sub 11/36 (one hit or two)."""
    page.goto(page.base + "/")
    page.click("#clear")
    page.check("input[name=kind][value=sea]")
    set_counter(page, "attacker", "submarine", 1)
    set_counter(page, "attacker", "fighter", 2)
    set_counter(page, "defender", "submarine", 2)
    set_counter(page, "defender", "destroyer", 1)
    set_counter(page, "defender", "transport", 1)
    page.select_option("#ool_attacker-preset", "best")
    attacker = Side("1 sub, 2 ftr", order_of_loss="best")
    battle = oddsim.Battle("1942-2e", attacker, "2 sub, 1 dd, 1 trn", sea=True)
    answer_for(page, battle, timeout=240_000)
    first = page.locator("#out-casualty-attacker-surprise-strike tbody tr").first
    cells = first.locator("td").all_inner_texts()
    assert cells == ["1 from subs", "any", "27.8%", "1 submarine"]
    assert page.locator("#out-casualty-attacker-general-fire tbody tr").count() >= 1
    heads = page.locator("#out-casualty-policy > h5").all_inner_texts()
    after = "Round 1, general fire after a surprise strike that sank "
    assert after + "nothing: the attacker, hit, loses" in heads
    page.click("#out-casualty-typed-grid > summary")
    titles = page.locator("#out-casualty-typed-grid h5").all_inner_texts()
    assert titles == ["Round 1, surprise strike: 100.0%", after + "nothing: 69.4%",
                      after + "the attacker's 1 submarine: 30.6%"]
    assert page.locator("#out-casualty-typed-grid-2 tbody tr").count() >= 1
