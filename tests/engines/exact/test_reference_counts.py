"""The exact DP's kernels run once per joint state (the best retreat's too) count no array
references: Numba's pruning removes every increment/decrement pair from their LLVM IR
(``_kernel._held`` says how they are written for it). Unpruned, these atomic operations doubled
a warm solve (land 66 vs 61: 2.4 ms -> 5.6 ms), which Numba's private ``_nrt=False`` option used
to hide.

The IR is read with ``inspect_llvm`` (public), which needs a fresh compile: the kernels are
compiled in a child process with an empty cache (some minutes), so the test is in the slow lane.
"""

import json
import os
import subprocess
import sys

import pytest

PER_STATE = {
    "_kernel": ["_moves", "_spread", "_joint_outcome", "_arrivals", "_arrived", "_battle_over", "_moved",
                "_widen", "_record_moves"],
    "_lattice": ["_gather", "_terminal"],
    "_best": ["_value", "_gather_lists"],
}
"""The kernels called once per joint state (or per state and phase), by module; the best retreat's
(``_record_moves``, ``_gather_lists``) by its sweeps: unpruned, they made its solve 12-25% slower."""

CHILD = """
import json, re, sys
import numba
import oddsim
from oddsim.engines.exact import _best, _kernel, _lattice
from oddsim.model.forces import parse_force
from oddsim.stages.sub_armies import solve_sub_armies

oddsim.solve(oddsim.Battle("1942-2e", "6 inf, 2 art, 2 arm, 1 ftr", "7 inf, 1 arm, 1 ftr"))
oddsim.solve(oddsim.Battle("1942-2e", "2 sub, 2 dd, 1 cru, 2 ftr", "1 bb, 1 cv, 2 ftr, 2 sub", sea=True))
oddsim.solve(oddsim.Battle("1942-2e", "6 inf, 2 art, 2 arm", "7 inf, 1 arm", retreat={"best": "tuv"}))
battle = oddsim.Battle("1942-2e", "1 inf", "3 inf")
solve_sub_armies(battle, parse_force("4 inf, 2 art, 1 arm", battle.rules), "attacker", None)
modules = {"_kernel": _kernel, "_lattice": _lattice, "_best": _best}
counts = {}
for module, names in json.loads(sys.argv[1]).items():
    for name in names:
        dispatcher = getattr(modules[module], name)
        for ir in dispatcher.inspect_llvm().values():
            tag = f"{len(name)}{name}B"
            own = [d for d in ir.split("\\ndefine ")
                   if re.match(r"[^@]*@_ZN(?!7cpython)\\S*" + re.escape(tag), d)]
            assert own, (module, name)
            ops = sum(d.count("call void @NRT_incref") + d.count("call void @NRT_decref") for d in own)
            counts[f"{module}.{name}"] = counts.get(f"{module}.{name}", 0) + ops
print(json.dumps(counts))
"""


@pytest.mark.slow
def test_the_kernels_run_per_state_count_no_references(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "ODDSIM_QUICK_START": "0"}
    done = subprocess.run([sys.executable, "-c", CHILD, json.dumps(PER_STATE)], env=env, capture_output=True,
                          text=True, timeout=1800)
    assert done.returncode == 0, done.stderr
    counts = json.loads(done.stdout.strip().splitlines()[-1])
    assert set(counts) == {f"{m}.{n}" for m, names in PER_STATE.items() for n in names}
    assert {name: n for name, n in counts.items() if n} == {}
