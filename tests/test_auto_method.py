"""``--method auto`` calibrated against measured solve times (issue 23): it solves exactly every
battle the exact engine takes under about a second (benchmarks/auto_calibration.py)."""

from __future__ import annotations

import pytest

import oddsim
from oddsim.api import AUTO_EXACT_SECONDS, engine_for
from oddsim.engines.exact import cost
from oddsim.stages.pipeline import PART_SECONDS, PART_WORK, estimate_seconds, estimate_work

REVISED_LAND = oddsim.Battle("revised", "40 inf, 10 art, 15 arm, 6 ftr, 3 bmb", "45 inf, 10 arm, 8 ftr, 1 aa")
G40_FLEET = oddsim.Battle("global-1940-2e", "12 sub, 8 dd, 4 cru, 10 ftr, 6 tac",
                          "4 bb, 3 cv, 6 ftr, 8 sub, 6 dd", sea=True)


@pytest.mark.parametrize("battle", [REVISED_LAND, G40_FLEET], ids=["revised land", "G40 fleet"])
def test_auto_solves_exactly_the_battles_it_sent_to_monte_carlo(battle):
    """Before: both went to Monte Carlo (estimated 2.9e9 and 4.4e9 units of work, over auto's
    5e8); warm, the exact engine solves them in 0.2 and 0.05 s."""
    assert engine_for(battle) == "exact"


def test_auto_still_sends_a_battle_of_many_aa_outcomes_to_monte_carlo():
    battle = oddsim.Battle("revised", "63 ftr, 63 bmb", "150 inf, 40 arm, 1 aa")
    assert estimate_seconds(battle) > AUTO_EXACT_SECONDS
    assert engine_for(battle) == "mc"


def test_the_seconds_are_the_cost_model_of_the_work():
    for battle in (G40_FLEET, oddsim.Battle("1942-2e", "3 inf", "2 inf")):
        assert estimate_seconds(battle) == cost.seconds(estimate_work(battle)[1])
    # split by its AA outcomes (7 x 4 parts): the parts' work together, and a millisecond a part
    parts = 7 * 4
    work = estimate_work(REVISED_LAND)[1] - parts * PART_WORK
    assert estimate_seconds(REVISED_LAND) == pytest.approx(cost.seconds(work) + parts * PART_SECONDS)
    assert cost.seconds(0) == 0.0
    assert cost.seconds(2e9) > cost.seconds(1e9) > 0  # more work, more seconds
