"""The Monte Carlo engine: validated wrapper around the private Numba kernel."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from oddsim._runtime.interrupt import stop_on_interrupt
from oddsim.limits import check_runs as _check_runs
from oddsim.limits import seed_or_random
from oddsim.trench._kernel import STREAM_STRIDE, simulate_counts, splitmix64
from oddsim.trench.model import TiedFront, TrenchError
from oddsim.trench.prepared import PreparedBattle
from oddsim.trench.result import TrenchCounts

DEFAULT_RUNS = 1_000_000
N_CHUNKS = 256  # fixed, so the split of battles never depends on the number of threads
CALL_BATTLES = 2**22
"""Battles per kernel call: between calls Ctrl-C is noticed (the split changes no count, as
every battle's dice depend on the seed and its index alone)."""


def check_runs(runs) -> int:
    return _check_runs(runs, TrenchError)


def check_seed(seed) -> int:
    """The seed, or a random one for ``None``; a seed outside 0..2**64 - 1 is refused."""
    return seed_or_random(seed, TrenchError)


def mc_counts(prepared: PreparedBattle, runs: int, seed: int,
              on_chunk: Callable[[int], bool] | None = None) -> tuple[TrenchCounts, bool]:
    """Outcome counts of ``runs`` sampled battles, the same for any number of threads, and
    whether Ctrl-C, or ``on_chunk`` returning True, stopped it early (then the counts are of the
    battles done). ``on_chunk`` is called after each kernel call with the battles done so far."""
    battle, t = prepared.battle, prepared.tables
    offset = int(splitmix64(np.uint64(seed)))
    arrays = (prepared.rolls.of_ordered, t.attacker, t.defender, t.attacker_index,
              t.defender_index, np.cumsum(t.weight),
              prepared.attacker.vectors, prepared.defender.vectors,
              np.ascontiguousarray(np.array(battle.cards("attacker"), dtype=np.int64)
                                   + t.attacker_support),
              np.ascontiguousarray(np.array(battle.cards("defender"), dtype=np.int64)
                                   + t.defender_support),
              np.array(battle.has_card("attacker"), dtype=np.bool_),
              np.array(battle.has_card("defender"), dtype=np.bool_),
              np.int64(prepared.play.destroy_margin),
              np.bool_(prepared.play.tied_front is TiedFront.DEFENDER))
    counts = np.zeros(22, dtype=np.int64)
    done = 0
    with stop_on_interrupt() as stop:
        while done < runs:
            n = min(CALL_BATTLES, runs - done)
            # battle ``done + i`` of the whole run is battle ``i`` of a stream moved on by ``done``
            start = np.uint64((offset + int(STREAM_STRIDE) * done) % 2**64)
            counts += simulate_counts(start, np.int64(n), np.int64(min(N_CHUNKS, n)),
                                      *arrays).sum(axis=0)
            done += n
            if (stop.is_set() or (on_chunk is not None and on_chunk(done))) and done < runs:
                break
    return TrenchCounts.of(counts[:16].reshape(4, 4), counts[16:19], counts[19:22], done), done < runs
