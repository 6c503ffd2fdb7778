"""Private Numba kernel of the Monte Carlo engine: sample rolls, look placements up, resolve.

The kernel knows no policy: it is handed the policy tables (see ``policy``) and only samples
dice, looks up both placements and resolves the fronts itself. Battle ``i`` draws its six dice
from a splitmix64 counter stream at positions ``8 i + 1 .. 8 i + 6`` after the seed's offset
and, where '?' supports are scored over a belief, their combination from position ``8 i + 7``
(``x % total weight`` against the cumulative weights; bias below 1e-15), so
every battle's dice depend on (seed, i) alone and the counts do not depend on how many threads
run or how the battles are split. A die is ``1 + x % 6`` of a 64-bit output (bias below 1e-18).
Battles are split into a fixed number of chunks; each chunk counts into its own row.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from oddsim._runtime.jit import jit, parallel_jit
from oddsim._runtime.splitmix import splitmix64

STREAM_STRIDE = np.uint64(8)  # counter positions reserved per battle (six or seven are used)
N_COUNTS = 22  # 16 joint (attacker fronts * 4 + defender fronts), 3 + 3 cards destroyed


@jit
def _ordered_roll(offset: np.uint64, first: np.uint64) -> int:
    """Index 36 (d1 - 1) + 6 (d2 - 1) + (d3 - 1) of three dice from counter positions."""
    six = np.uint64(6)
    k = 0
    for j in range(3):
        die = splitmix64(offset + first + np.uint64(j)) % six
        k = k * 6 + int(die)
    return k


@jit
def _combination(offset: np.uint64, position: np.uint64, cumulative) -> int:
    """The scored support combination of one battle, by weight (0 when there is one)."""
    if cumulative.shape[0] == 1:
        return 0
    x = np.int64(splitmix64(offset + position) % np.uint64(cumulative[-1]))
    k = 0
    while cumulative[k] <= x:
        k += 1
    return k


@parallel_jit
def simulate_counts(offset, runs, n_chunks, of_ordered, attacker_tables, defender_tables,
                    attacker_index, defender_index, cumulative, attacker_vectors,
                    defender_vectors, attacker_base, defender_base, attacker_card, defender_card,
                    margin, tie_to_defender):
    """Counts (n_chunks x N_COUNTS) of ``runs`` battles; ``offset`` is the seed's stream start;
    a front with equal totals goes to nobody, or to the defender with ``tie_to_defender``.

    ``attacker_base[k]``/``defender_base[k]``: card + support per front of support combination
    ``k``, whose tables are ``attacker_index[k]``/``defender_index[k]`` and whose cumulative
    weight is ``cumulative[k]``."""
    counts = np.zeros((n_chunks, N_COUNTS), dtype=np.int64)
    for c in prange(n_chunks):
        start = runs * c // n_chunks
        stop = runs * (c + 1) // n_chunks
        for i in range(start, stop):
            first = np.uint64(i) * STREAM_STRIDE + np.uint64(1)
            ra = of_ordered[_ordered_roll(offset, first)]
            rd = of_ordered[_ordered_roll(offset, first + np.uint64(3))]
            k = _combination(offset, first + np.uint64(6), cumulative)
            a = attacker_tables[attacker_index[k], ra, rd]
            d = defender_tables[defender_index[k], a, rd]
            attacker_fronts = 0
            defender_fronts = 0
            for f in range(3):
                lead = (attacker_base[k, f] + attacker_vectors[a, f]
                        - defender_base[k, f] - defender_vectors[d, f])
                if lead > 0:
                    attacker_fronts += 1
                    if lead >= margin and defender_card[f]:
                        counts[c, 19 + f] += 1
                elif lead < 0 or tie_to_defender:
                    defender_fronts += 1
                    if lead <= -margin and attacker_card[f]:
                        counts[c, 16 + f] += 1
            counts[c, attacker_fronts * 4 + defender_fronts] += 1
    return counts
