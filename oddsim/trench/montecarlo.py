"""The Monte Carlo engine: validated wrapper around the private Numba kernel."""

from __future__ import annotations

from typing import cast

import numpy as np

from oddsim.trench._kernel import simulate_counts, splitmix64
from oddsim.trench.model import TrenchError
from oddsim.trench.prepared import PreparedBattle
from oddsim.trench.result import TrenchCounts

DEFAULT_RUNS = 1_000_000
MAX_RUNS = 10**10
N_CHUNKS = 256  # fixed, so the split of battles never depends on the number of threads


def check_runs(runs) -> int:
    if isinstance(runs, bool) or not isinstance(runs, int | np.integer) or runs < 1:
        raise TrenchError(f"runs must be a whole number >= 1, got {runs!r}")
    if runs > MAX_RUNS:
        raise TrenchError(f"runs {runs:,} is above the limit of {MAX_RUNS:,}")
    return int(runs)


def check_seed(seed) -> int:
    if seed is None:
        return int(cast(int, np.random.SeedSequence().entropy) % 2**63)  # an int when none is given
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise TrenchError(f"seed must be a whole number >= 0, got {seed!r}")
    return int(seed) % 2**64


def mc_counts(prepared: PreparedBattle, runs: int, seed: int) -> TrenchCounts:
    """Outcome counts of ``runs`` sampled battles, the same for any number of threads."""
    battle = prepared.battle
    offset = np.uint64(splitmix64(np.uint64(seed)))
    counts = simulate_counts(
        offset, np.int64(runs), np.int64(min(N_CHUNKS, runs)), prepared.rolls.of_ordered,
        prepared.tables.attacker, prepared.tables.defender,
        prepared.attacker.vectors, prepared.defender.vectors,
        np.array(battle.base_totals("attacker"), dtype=np.int64),
        np.array(battle.base_totals("defender"), dtype=np.int64),
        np.array(battle.has_card("attacker"), dtype=np.bool_),
        np.array(battle.has_card("defender"), dtype=np.bool_)).sum(axis=0)
    return TrenchCounts.of(counts[:16].reshape(4, 4), counts[16:19], counts[19:22], runs)
