"""Random numbers for the Monte Carlo kernel: a per-battle xoroshiro128+ stream and binomial draws.

Each battle gets its own generator, seeded by splitmix64 from (seed, global battle index), so a
battle's dice never depend on which thread fights it or how the runs are split into chunks. A
group of ``n`` rolls that each hit with chance ``p`` (a die that hits on ``v`` or less: v/sides) is
rolled at once: one 51-bit random integer picks the hit count from Binomial(n, p) through
Walker's alias table, in integer arithmetic and without a branch (the comparison indexes the
answer, so a random outcome costs no mispredicted jump). A generator's two words live in an
int64 array next to the battle's other state.
"""

from __future__ import annotations

import numpy as np

from oddsim._runtime.jit import jit
from oddsim._runtime.splitmix import GOLDEN, mix64

DIE_FACES = 6
MAX_DICE = 2**12 - 1
"""Most dice one roll may have: a 51-bit random fraction times (dice + 1) must fit in 63 bits."""

_FRACTION_BITS = 51
_FRACTION_MASK = (1 << _FRACTION_BITS) - 1
CELL_FIELDS = 3  # an alias cell: threshold (out of 2**51), its own hit count, its alias


@jit
def get(array, i):
    """``array[i]`` for an index known not to be negative (spares Numba's wraparound code)."""
    return array[np.uint64(i)]


@jit
def put(array, i, value):
    """``array[i] = value`` for an index known not to be negative."""
    array[np.uint64(i)] = value


@jit
def add(array, i, amount):
    """``array[i] += amount`` for an index known not to be negative."""
    array[np.uint64(i)] += amount


@jit
def battle_words(seed, index):
    """The two words of the generator of battle ``index`` of ``seed``."""
    base = mix64(seed + GOLDEN)
    step = np.uint64(index) * np.uint64(2)
    s0 = mix64(base + (step + np.uint64(1)) * GOLDEN)
    s1 = mix64(base + (step + np.uint64(2)) * GOLDEN)
    if s0 == np.uint64(0) and s1 == np.uint64(0):
        s0 = GOLDEN  # the all-zero state is the one xoroshiro128+ cannot leave
    return s0, s1


@jit
def seed_battle(state, rng_at, seed, index):
    """Set the generator in ``state[rng_at:rng_at + 2]`` to the stream of battle ``index`` of
    ``seed``."""
    s0, s1 = battle_words(seed, index)
    state[rng_at] = np.int64(s0)
    state[rng_at + 1] = np.int64(s1)


@jit
def step_words(s0, s1):
    """One step of xoroshiro128+ on its two words held in registers: (output, s0, s1)."""
    result = s0 + s1
    s1 ^= s0
    return (result, ((s0 << np.uint64(24)) | (s0 >> np.uint64(40))) ^ s1 ^ (s1 << np.uint64(16)),
            (s1 << np.uint64(37)) | (s1 >> np.uint64(27)))


@jit
def next_word(state, rng_at):
    """Next 64-bit output of the xoroshiro128+ generator in ``state[rng_at:rng_at + 2]``."""
    s0 = np.uint64(get(state, rng_at))
    s1 = np.uint64(get(state, rng_at + 1))
    result = s0 + s1
    s1 ^= s0
    put(state, rng_at, np.int64(((s0 << np.uint64(24)) | (s0 >> np.uint64(40))) ^ s1
                                ^ (s1 << np.uint64(16))))
    put(state, rng_at + 1, np.int64((s1 << np.uint64(37)) | (s1 >> np.uint64(27))))
    return result


def hit_chance(value: int, sides: int, dice: int = 1, best_of: bool = False) -> float:
    """Chance that one roll hits: a ``sides``-sided die that hits on ``value`` or less, or the
    best of ``dice`` such dice."""
    p = min(max(value, 0), sides) / sides
    return 1.0 - (1.0 - p) ** dice if best_of else p


@jit
def binomial_tables(chances: np.ndarray, max_dice: np.ndarray):
    """Alias tables of Binomial(n, p) for each p in ``chances``, n = 0..max_dice[i].

    Returns ``(row_start, cells)``: the table of (chance i, n) is the n + 1 cells from
    ``row_start[i, n]``; cell c of ``cells`` (CELL_FIELDS each) yields its own hit count when
    the 51-bit fraction drawn inside it is below its threshold, else its alias. Rows not built
    are -1.
    """
    largest = max(0, max_dice.max()) if len(chances) else 0
    row_start = np.full((max(1, len(chances)), largest + 1), -1, dtype=np.int64)
    size = 0
    for i in range(len(chances)):
        size += (max_dice[i] + 1) * (max_dice[i] + 2) // 2
    cells = np.zeros((size, CELL_FIELDS), dtype=np.int64)
    pmf = np.zeros(largest + 1)
    scratch = _alias_scratch(largest + 1)
    at = 0
    for i in range(len(chances)):
        pmf[:] = 0.0
        pmf[0] = 1.0
        for n in range(max_dice[i] + 1):
            if n > 0:
                _add_roll(pmf, n, chances[i])
            row_start[i, n] = at
            at = _write_alias(pmf, n + 1, cells, at, scratch)
    return row_start, cells


@jit
def _alias_scratch(size):
    """Work arrays for ``_alias_row``: threshold, alias, scaled, small, large."""
    return (np.zeros(size), np.zeros(size, dtype=np.int64), np.zeros(size),
            np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64))


@jit
def _add_roll(pmf, n, p):
    """Turn ``pmf`` of the hits of n - 1 rolls into that of n rolls, one more hitting with ``p``:
    pmf_n(k) = (1 - p) pmf_{n-1}(k) + p pmf_{n-1}(k - 1)."""
    q = 1.0 - p
    for k in range(n, 0, -1):
        pmf[k] = q * pmf[k] + p * pmf[k - 1]
    pmf[0] = q * pmf[0]


@jit
def _write_alias(pmf, n_cells, cells, at, scratch):
    """Write the alias table of ``pmf[:n_cells]`` into ``cells`` from row ``at``; returns the row
    after it."""
    threshold, alias, scaled, small, large = scratch
    _alias_row(pmf, n_cells, threshold, alias, scaled, small, large)
    for j in range(n_cells):
        cells[at + j, 0] = min(np.int64(threshold[j] * (1 << _FRACTION_BITS)), 1 << _FRACTION_BITS)
        cells[at + j, 1] = j
        cells[at + j, 2] = alias[j]
    return at + n_cells


@jit
def _alias_row(pmf, cells, threshold, alias, scaled, small, large):
    """Vose's construction of one alias table over ``pmf[:cells]``."""
    n_small = n_large = 0
    for j in range(cells):
        scaled[j] = pmf[j] * cells
        alias[j] = j
        threshold[j] = 1.0
        if scaled[j] < 1.0:
            small[n_small] = j
            n_small += 1
        else:
            large[n_large] = j
            n_large += 1
    while n_small > 0 and n_large > 0:
        n_small -= 1
        lo = small[n_small]
        hi = large[n_large - 1]
        threshold[lo] = scaled[lo]
        alias[lo] = hi
        scaled[hi] = (scaled[hi] + scaled[lo]) - 1.0
        if scaled[hi] < 1.0:
            n_large -= 1
            small[n_small] = hi
            n_small += 1
    # cells left in either list keep threshold 1: rounding, not probability, put them there


@jit
def hits_of(word, table, row, dice):
    """Hits scored by ``dice`` rolls for the random 64-bit ``word``. ``table[row + n]`` is where
    the cells of the alias table for n rolls (of the chance they hit with) start in ``table``:
    ``binomial_tables`` built them, the caller placed them."""
    draw = np.int64(word >> np.uint64(64 - _FRACTION_BITS)) * (dice + 1)
    cell = get(table, row + dice) + CELL_FIELDS * (draw >> _FRACTION_BITS)
    return get(table, cell + 1 + np.int64((draw & _FRACTION_MASK) >= get(table, cell)))


@jit
def sum_tables(chances, dice):
    """Alias tables of the hits of several groups of rolls fired together: row c is the sum of
    Binomial(dice[c, j], chances[j]) over the groups j. Returns ``(row_start, row_cells,
    cells)``: row c is the ``row_cells[c]`` cells (CELL_FIELDS each) from ``row_start[c]``,
    drawn by ``alias_hits``."""
    n_rows = dice.shape[0]
    size = 0
    largest = 0
    for c in range(n_rows):
        total = 0
        for j in range(len(chances)):
            total += dice[c, j]
        size += total + 1
        largest = max(largest, total)
    row_start = np.zeros(n_rows, dtype=np.int64)
    row_cells = np.zeros(n_rows, dtype=np.int64)
    cells = np.zeros((size, CELL_FIELDS), dtype=np.int64)
    pmf = np.zeros(largest + 1)
    scratch = _alias_scratch(largest + 1)
    at = 0
    for c in range(n_rows):
        pmf[:] = 0.0
        pmf[0] = 1.0
        n = 0
        for j in range(len(chances)):
            for _ in range(dice[c, j]):
                n += 1
                _add_roll(pmf, n, chances[j])
        row_start[c] = at
        row_cells[c] = n + 1
        at = _write_alias(pmf, n + 1, cells, at, scratch)
    return row_start, row_cells, cells


@jit
def alias_hits(word, table, at, n_cells):
    """The hit count drawn for the random 64-bit ``word`` from the alias table of ``n_cells``
    cells that starts at ``table[at]`` (see ``sum_tables``)."""
    draw = np.int64(word >> np.uint64(64 - _FRACTION_BITS)) * n_cells
    cell = at + CELL_FIELDS * (draw >> _FRACTION_BITS)
    return get(table, cell + 1 + np.int64((draw & _FRACTION_MASK) >= get(table, cell)))


@jit
def low_luck_hits(word, strength, sides):
    """Low Luck hits of a group of ``strength`` (its dice's values summed) for the random 64-bit
    ``word`` with ``sides``-sided dice: ``strength // sides`` sure hits, plus one more with chance
    ``(strength % sides) / sides`` (sides <= 120: the products stay under 2**58)."""
    fraction = np.int64(word >> np.uint64(64 - _FRACTION_BITS))
    extra = strength % sides
    return strength // sides + np.int64(fraction * sides < extra << _FRACTION_BITS)


@jit
def roll(state, rng_at, table, row, dice):
    """``hits_of`` with the next word of the generator in ``state[rng_at:rng_at + 2]``."""
    return hits_of(next_word(state, rng_at), table, row, dice)
