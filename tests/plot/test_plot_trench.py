"""The Longest Trench chart: fronts-won and card-loss bars equal the result's figures."""

from __future__ import annotations

import pytest

from oddsim.plot import trench_chart
from oddsim.trench import TrenchBattle, simulate_trench, solve_trench

BATTLE = TrenchBattle(attacker="5,-,3", defender="4,4,4", year=1917, attacker_support="2,0,1",
                      defender_support="0,0,3", points=2)


@pytest.fixture(scope="module")
def result():
    return solve_trench(BATTLE)


def bars_by_colour(ax) -> dict[tuple, list]:
    groups: dict[tuple, list] = {}
    for patch in ax.patches:
        groups.setdefault(tuple(round(c, 3) for c in patch.get_facecolor()), []).append(patch)
    return groups


def test_fronts_won_bars_equal_the_distribution(result):
    fig = trench_chart(result)
    fronts_ax, cards_ax = fig.axes
    assert len(fronts_ax.patches) == 8
    attacker, defender = (sorted(fronts_ax.patches, key=lambda p: p.get_x())[i::2]
                          for i in (0, 1))
    assert [p.get_height() for p in attacker] == pytest.approx(
        [100 * p for p in result.fronts_won.attacker])
    assert [p.get_height() for p in defender] == pytest.approx(
        [100 * p for p in result.fronts_won.defender])
    assert fronts_ax.get_xlabel() == "fronts won (number of fronts)"
    assert fronts_ax.get_ylabel() == "probability (%)"
    assert fronts_ax.get_title() == "Fronts won"
    assert [t.get_text() for t in fronts_ax.get_legend().get_texts()] == ["attacker", "defender"]


def test_card_loss_bars_skip_fronts_without_a_card(result):
    cards_ax = trench_chart(result).axes[1]
    assert result.cards_destroyed.attacker[1] is None
    assert len(cards_ax.patches) == 5  # the attacker has no card on front 2
    assert "no\ncard" in [t.get_text() for t in cards_ax.texts]
    heights = sorted(p.get_height() for p in cards_ax.patches)
    expected = [100 * p for side in ("attacker", "defender")
                for p in getattr(result.cards_destroyed, side) if p is not None]
    assert heights == pytest.approx(sorted(expected))
    assert cards_ax.get_ylabel() == "chance the card is destroyed (%)"
    assert cards_ax.get_title() == "Card destroyed (front lost by 4+)"


def test_title_names_the_battle_and_the_odds(result):
    title = trench_chart(result).get_suptitle()
    assert title.startswith(result.battle)
    assert f"attacker wins {100 * result.attacker_win:.1f}%" in title
    assert "(exact)" in title


def test_monte_carlo_result_gets_error_bars():
    mc = simulate_trench(BATTLE, runs=2_000, seed=1)
    fig = trench_chart(mc)
    assert "(Monte Carlo, 2,000 runs)" in fig.get_suptitle()
    fronts_ax = fig.axes[0]
    assert all(c.errorbar is not None for c in fronts_ax.containers
               if hasattr(c, "errorbar") and c.datavalues[0] > 0)
