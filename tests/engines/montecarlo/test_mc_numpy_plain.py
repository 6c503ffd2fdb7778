"""The plain battle fought with NumPy (a cold cache's first runs) gives the Numba kernel's tallies
exactly: the same battles, drawn from the same per-battle streams, so an answer never depends on
whether the kernel cache was warm."""

import numpy as np
import pytest

from oddsim._runtime import interpreted
from oddsim.engines.lowering import lower
from oddsim.engines.montecarlo import _kernel, _numpy_plain, simulate
from oddsim.engines.montecarlo._layout import HEADER
from oddsim.engines.montecarlo._model import KernelModel
from oddsim.engines.montecarlo.simulate import _Tallies
from oddsim.model.options import battle_from


def B(rules, attacker, defender=None, **options):
    return battle_from(rules, attacker, defender, options)


PLAIN = [
    B("1942-2e", "3 inf, 1 art, 1 arm", "4 inf, 1 arm"),
    B("1942-2e", "3 inf, 1 art, 2 arm, 1 ftr", "4 inf, 1 arm, 1 aa"),
    B("revised", "3 inf, 2 ftr", "4 inf, 1 aa"),
    B("anniversary", "6 inf, 2 art, 1 bmb", "5 inf, 1 arm", attacker_tech="heavy-bombers"),
    B("revised", "4 inf, 2 arm", "5 inf", dice="lowluck"),
    B("1942-2e", "2 inf, 2 ftr", "3 inf, 1 aa", dice="lowluck"),
    B("1942-2e", "3 inf, 2 arm", "5 inf", retreat={"below_win": 0.3, "after_round": 3}),
    B("1942-2e", "6 inf, 3 arm", "8 inf", retreat={"after_round": 2}),
    B("1942-2e", "6 inf, 3 arm", "8 inf", retreat={"units_left": 3}),
    B("1942-2e", "6 inf, 3 arm", "8 inf", retreat={"strafe": 2}),
    B("1942-2e", "4 inf, 2 arm", "6 inf", retreat={"best": "tuv"}),
    B("1942-2e", "1 bb, 2 dd", "2 dd, 1 cru", sea=True),
    B("revised", "2 inf, 1 art", "3 inf", landed="2 inf", bombard="2 bb"),
    B("1942-2e", "3 inf, 1 art", "3 inf", landed="3 inf, 1 art", bombard="1 bb, 1 cru"),
    B("europe-1999", "2 inf, 1 arm", "3 inf", landed="2 inf", bombard="1 bb, 1 dd", dice="lowluck"),
    B("1942-2e", "1 ftr", "1 aa"),
    B("1942-2e", "1 inf", "1 inf"),
]


def _model(battle):
    spec = KernelModel.build(battle, lower(battle))
    assert spec.model[HEADER.plain] >= 0 and not spec.key_coarse  # (a plain battle's section)
    return spec


@pytest.mark.parametrize("battle", PLAIN, ids=[b.describe() for b in PLAIN])
def test_numpy_tallies_equal_the_kernels(battle):
    spec = _model(battle)
    for seed, first, last in ((1, 0, 20_000), (2**64 - 1, 60_000, 140_000), (77, 0, 1)):  # (slices)
        kernel, numpy = _Tallies.zeros(1, spec), _Tallies.zeros(1, spec)
        _kernel._run_plain_block(np.uint64(seed), first, last, *(a[0] for a in kernel.arrays()), spec.model)
        stats, hist_a, hist_d, _, _, hist_s = (a[0] for a in numpy.arrays())
        _numpy_plain.run_plain_block(np.uint64(seed), first, last, stats, hist_a, hist_d, hist_s, spec.model)
        for ours, theirs in zip(numpy.arrays(), kernel.arrays(), strict=True):
            np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("battle", PLAIN[:3], ids=[b.describe() for b in PLAIN[:3]])
def test_a_cold_cache_answers_as_a_warm_one(battle, monkeypatch):
    """Through ``simulate``, chunks and threads and all: the NumPy path where the cache is cold
    (tables interpreted too), the kernel where it is warm."""
    warm = simulate(battle, runs=50_000, seed=9)
    monkeypatch.setattr(interpreted, "cold", lambda: True)
    monkeypatch.setattr(interpreted, "_tables_spent", 0.0)
    called = []
    monkeypatch.setattr(_numpy_plain, "run_plain_block",
                        lambda *a, f=_numpy_plain.run_plain_block: called.append(1) or f(*a))
    cold = simulate(battle, runs=50_000, seed=9)
    assert called  # (the NumPy path ran)
    assert cold.to_dict() == warm.to_dict()
