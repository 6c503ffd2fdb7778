"""The Monte Carlo kernels run once per round, or per battle, count no array references: Numba's
pruning removes every increment/decrement pair from their LLVM IR (the module doc of
``montecarlo._kernel`` says how they are written for it), but for ``_fight``'s own arrays, once
per battle. Unpruned, these atomic operations made the general path (naval battles) 1.6-1.7x as
slow, which Numba's private ``_nrt=False`` option used to hide.

The kernels compile in a child process with an empty cache (a minute or more): the test is in the slow lane.
"""

import pytest
from reference_counts import reference_counts

PER_ROUND = ["_volley", "_take_hits", "_take_any_hits", "_outcome", "_both_fight_on", "_first_strike",
             "_waits", "_submerges", "_depart", "_retreats", "_landed_left", "_count_lines"]
"""The general path's helpers, called in each round (``_count_lines`` where support changed)."""
PER_BATTLE = ["_end_state", "_tally", "_count_end_state", "_count_swing", "_fight_plain", "_plain_hits",
              "_plain_outcome", "_plain_retreats", "_record_plain"]
"""The kernels called once per battle, both paths', but ``_fight`` (``FIGHT_MOST``)."""
FIGHT_MOST = 8
"""``_fight`` may count its own four arrays (state, start, counts, model) once per battle, as it
calls helpers that LLVM does not inline (the rounds are written out in it for that)."""

COMPILE = """
import oddsim
from oddsim.model.options import battle_from

for spec in [("1942-2e", "2 sub, 2 dd, 1 cru, 2 ftr", "1 bb, 1 cv, 2 ftr, 2 sub", {"sea": True}),
             ("1942-2e", "2 sub, 1 cru, 3 ftr, 1 bmb", "3 sub, 1 cv, 2 ftr, 1 trn",
              {"sea": True, "dice": "lowluck"}),
             ("anniversary", "4 inf, 2 art, 2 arm, 1 ftr", "6 inf, 1 arm, 1 aa",
              {"landed": "3 inf, 1 art", "retreat_units": 2}),
             ("1942-2e", "6 inf, 2 art, 2 arm, 1 ftr", "7 inf, 1 arm, 1 ftr", {"retreat_after_round": 2})]:
    oddsim.simulate(battle_from(*spec), runs=1000, seed=1)
"""


@pytest.mark.slow
def test_the_kernels_run_per_round_count_no_references(tmp_path):
    names = [*PER_ROUND, *PER_BATTLE, "_fight"]
    counts = reference_counts(COMPILE, {"oddsim.engines.montecarlo._kernel": names}, tmp_path)
    assert counts.pop("_fight") <= FIGHT_MOST
    assert {name: n for name, n in counts.items() if n} == {}
