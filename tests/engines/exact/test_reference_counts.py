"""The exact DP's kernels run once per joint state (the best retreat's too) count no array
references: Numba's pruning removes every increment/decrement pair from their LLVM IR
(``_kernel._held`` says how they are written for it). Unpruned, these atomic operations doubled
a warm solve (land 66 vs 61: 2.4 ms -> 5.6 ms), which Numba's private ``_nrt=False`` option used
to hide.

The kernels compile in a child process with an empty cache (some minutes): the test is in the slow lane.
"""

import pytest
from reference_counts import reference_counts

PER_STATE = {
    "_kernel": ["_moves", "_spread", "_joint_outcome", "_arrivals", "_arrived", "_battle_over", "_moved",
                "_widen", "_record_moves"],
    "_lattice": ["_gather", "_terminal"],
    "_best": ["_value", "_gather_lists"],
}
"""The kernels called once per joint state (or per state and phase), by module; the best retreat's
(``_record_moves``, ``_gather_lists``) by its sweeps: unpruned, they made its solve 12-25% slower."""

COMPILE = """
import oddsim
from oddsim.model.forces import parse_force
from oddsim.stages.sub_armies import solve_sub_armies

oddsim.solve(oddsim.Battle("1942-2e", "6 inf, 2 art, 2 arm, 1 ftr", "7 inf, 1 arm, 1 ftr"))
oddsim.solve(oddsim.Battle("1942-2e", "2 sub, 2 dd, 1 cru, 2 ftr", "1 bb, 1 cv, 2 ftr, 2 sub", sea=True))
oddsim.solve(oddsim.Battle("1942-2e", "6 inf, 2 art, 2 arm", "7 inf, 1 arm", retreat={"best": "tuv"}))
battle = oddsim.Battle("1942-2e", "1 inf", "3 inf")
solve_sub_armies(battle, parse_force("4 inf, 2 art, 1 arm", battle.rules), "attacker", None)
"""


@pytest.mark.slow
def test_the_kernels_run_per_state_count_no_references(tmp_path):
    kernels = {f"oddsim.engines.exact.{module}": names for module, names in PER_STATE.items()}
    counts = reference_counts(COMPILE, kernels, tmp_path)
    assert {name: n for name, n in counts.items() if n} == {}
