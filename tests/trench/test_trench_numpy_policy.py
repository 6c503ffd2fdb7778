"""The optimal policies built with NumPy (a cold cache's first runs, ``trench.numpy_policy``) are
the compiled kernels' tables exactly, so a trench answer never depends on the cache's state."""

import numpy as np
import pytest

from oddsim._runtime import interpreted
from oddsim.trench import TrenchBattle
from oddsim.trench.numpy_policy import lexicographic_ranks
from oddsim.trench.play import PlayRules
from oddsim.trench.prepared import prepare

BATTLES = [
    TrenchBattle((5, 4, 3), (4, 4, 4), 1917, (2, 0, 1), (0, 0, 3)),
    TrenchBattle((5, 4, 3), (4, 4, 4), 1917, (2, 0, 1), (0, 0, 3), points=2),
    TrenchBattle((6, 2, 3), (3, 5, 4), 1916, (0, 0, 0), (1, 0, 2)),
    TrenchBattle("5,-,3", (4, 4, 4), 1915, (1, 0, 0), ("?", 0, 2)),
    TrenchBattle((4, 4, 4), (4, 4, 4), 1918, ("?", "?", 0), (0, "?", "?"), sea=True,
                 hidden_support_values="1:2,3:1"),
]
PLAYS = [
    {},
    {"roll_order": "attacker-first"},
    {"information": "full"},
    {"dice_fronts": "own", "destroy_margin": 5},
    {"tied_front": "defender", "support_fleet": "destroyed"},
    {"defender_policy": "greedy"},
]


@pytest.mark.parametrize("options", PLAYS, ids=[str(p) for p in PLAYS])
@pytest.mark.parametrize("battle", BATTLES, ids=range(len(BATTLES)))
def test_numpy_tables_equal_the_kernels(battle, options):
    play = PlayRules.of(**options)
    compiled = prepare(battle, play).tables
    with interpreted.interpreting():  # (what a cold cache's first run does)
        by_numpy = prepare(battle, play).tables
    for field in compiled.__dataclass_fields__:
        np.testing.assert_array_equal(getattr(by_numpy, field), getattr(compiled, field))


def test_lexicographic_ranks():
    rows = np.array([[1, 5], [0, 9], [1, 5], [1, -2], [-3, 100]])
    assert lexicographic_ranks(rows).tolist() == [3, 1, 3, 2, 0]
    assert lexicographic_ranks(rows.reshape(5, 1, 2)).shape == (5, 1)
