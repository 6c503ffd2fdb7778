"""The exact engine's lattice sweep (every army of one side at once) on TripleA's features: d12
dice, bonus support, several dice, ships of 3 and 4 hit points entered damaged; each army's
figures equal its own solve to 1e-12."""

import numpy as np
import pytest

import oddsim
from oddsim.engines.exact.lattice import FIGURES, solve_armies
from tests.engines.montecarlo.test_mc_crosscheck_triplea import D12, B

NAMES = [u.name for u in D12.units]


def _vector(army: dict[str, int]) -> np.ndarray:
    out = np.zeros(len(NAMES), dtype=np.int64)
    for name, n in army.items():
        out[NAMES.index(name)] = n
    return out


@pytest.mark.parametrize("battle, side, armies, damaged", [
    (B(D12, "3 inf, 2 art, 1 tank, 1 heavy, 1 mech", "4 inf, 1 art, 1 fort"), "attacker",
     [{"inf": a, "art": b, "tank": 1, "heavy": 1, "mech": c}
      for a in range(4) for b in range(3) for c in range(2)], None),
    (B(D12, "1 bb, 2 dd", "1 bb, 1 monitor, 1 dd", sea=True), "defender",
     [{"bb": 1, "monitor": m, "dd": d} for m in range(2) for d in range(2)],
     [{"bb": 1, "monitor": m} for m in range(2) for _ in range(2)]),
])
def test_every_army_equals_its_own_solve(battle, side, armies, damaged):
    counts = np.array([_vector(a) for a in armies])
    hurt = None if damaged is None else np.array([_vector(d) for d in damaged])
    swept = solve_armies(battle, side, counts, hurt)
    assert swept is not None
    figures, _ = swept
    for row, army in enumerate(armies):
        typed = {name: n for name, n in army.items() if n}
        for name, n in (damaged[row] if damaged else {}).items():
            if n:
                typed[name] -= n
                typed[f"damaged {name}"] = n
                if not typed[name]:
                    del typed[name]
        alone = oddsim.solve(battle.with_armies(**{side: typed}))
        for column, name in enumerate(FIGURES):
            assert figures[row, column] == pytest.approx(getattr(alone, name) or 0.0, abs=1e-12), name
