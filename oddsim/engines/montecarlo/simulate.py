"""Validated public wrapper of the Monte Carlo engine: lower one plain battle, fight it in chunks, report.

One plain battle in, one ``BattleResult`` out: the answer of a battle that takes more than that
(split by its AA outcomes, crashed fighters, the defender's units that hold the territory without
fighting, the best retreat's objective and plan) is made around this by ``oddsim.stages.pipeline``
(``oddsim.simulate``).

Memory stays bounded however many runs are asked for: battles are fought in chunks of at most
``LARGEST_CHUNK`` by the kernel, which adds them into small per-block tallies and survivor
histograms; nothing is stored per battle. A chunk's blocks run on threads, one per Numba thread.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np

from oddsim._runtime import interpreted as _interpreted
from oddsim._runtime.interrupt import stop_on_interrupt
from oddsim._runtime.progress import ProgressBar
from oddsim.engines.lowering import LoweredBattle, lower
from oddsim.engines.montecarlo import _kernel as k
from oddsim.engines.montecarlo import _numpy_plain
from oddsim.engines.montecarlo._layout import (
    ATTACKER_WINS,
    DEFENDER_WINS,
    DRAW,
    HEADER,
    RETREAT,
    RULES,
    SCALARS,
    STALEMATE,
    STATS,
    STATS_WIDTH,
)
from oddsim.engines.montecarlo._model import KernelModel, SurvivorCodec
from oddsim.errors import BattleError
from oddsim.limits import MAX_RUNS, check_runs, seed_or_random
from oddsim.model.battle import Battle
from oddsim.results.battle_result import BattleResult, Method
from oddsim.results.estimates import standard_error_of_mean, swing_error_bound
from oddsim.results.swing import SwingDistribution

FIRST_CHUNK = 2**14
"""The first chunk is small, so a progress bar (and Ctrl-C) respond quickly; chunks then double."""
LARGEST_CHUNK = 2**20
MAX_HISTOGRAM_CELLS = 2**23
PILOT_RUNS = 2**14
"""Battles of the pilot that chooses which end states a battle with too many keeps."""
"""Per side, blocks x keys of the histograms is kept under this (64 MiB): huge key spaces get
fewer blocks, i.e. fewer threads."""


def simulate(battle: Battle, runs: int = 100_000, seed: int | None = None,
             progress: bool = False, on_chunk: Callable[[int], bool] | None = None) -> BattleResult:
    """Monte Carlo estimate of ``battle``'s outcome from ``runs`` simulated battles.

    Fights the battle as the README's "How a battle is fought" says, with technology, Low Luck,
    retreat, bombardment, submerging subs and landed units. Retreat rules that need exact odds,
    and the best retreat, are decisions the exact engine computed: this engine plays its policy
    table (the one place where the engines share a decision, not a rule). The same ``seed`` gives the same
    result on any number of threads (``None``: a random seed). ``std_error`` holds the standard
    error of every probability and mean.
    Survivors are exact end states; a side with more than ``_model.MAX_EXACT_KEYS`` of them
    (huge mixed fleets) keeps those a pilot run saw one by one and counts the rarer rest in one
    "other end states" row (see ``_choose_kept_states``), so memory stays bounded. With
    ``progress``, a bar is drawn on stderr when it is a terminal and the run is long. Ctrl-C
    stops early and returns the battles fought so far (``interrupted=True``); so does
    ``on_chunk`` returning True (it is called after every chunk with the battles fought so far:
    a server's progress report and cancel button).
    """
    if not isinstance(battle, Battle):
        raise BattleError(f"simulate needs a Battle, not {type(battle).__name__}")
    runs = check_runs(runs, BattleError)
    seed = seed_or_random(seed, BattleError)
    low = lower(battle)
    spec = KernelModel.build(battle, low)
    arrays = 2 if spec.key_coarse else 1  # a histogram row, and which end state each slot keeps
    n_blocks = max(1, min(numba.get_num_threads(), MAX_HISTOGRAM_CELLS // (arrays * max(spec.n_keys))))
    tallies = _Tallies.zeros(n_blocks, spec)
    if spec.key_coarse:
        _choose_kept_states(spec, seed, tallies)
    bar = ProgressBar(runs, enabled=progress, min_seconds=2.0)
    interrupted = False
    try:
        with stop_on_interrupt() as stop:
            for start, size in iter_chunks(runs, FIRST_CHUNK, LARGEST_CHUNK):
                _fight_chunk(np.uint64(seed), start, size, *tallies.arrays(), spec.model)
                tallies.fold()
                bar.update(tallies.battles)
                if stop.is_set() or (on_chunk is not None and on_chunk(tallies.battles)):
                    interrupted = True
                    break
    except KeyboardInterrupt:
        tallies.fold()
        interrupted = True
        if tallies.battles == 0:
            raise
    finally:
        bar.close()
    return _result(battle, low, spec, tallies, interrupted)


def _choose_kept_states(spec: KernelModel, seed: int, tallies: _Tallies) -> None:
    """In a battle with too many end states to count each (see ``_model.MAX_EXACT_KEYS``), each
    side keeps, one by one, the end states seen in a pilot of ``PILOT_RUNS`` battles (on one
    thread and battle numbers after the last real one, so the choice is the same on any number
    of threads); the runs then count each of those exactly and every other end state as "other".
    The likely end states come early in the pilot, so they are the ones kept."""
    pilot = _Tallies.zeros(1, spec)
    _fight_chunk(np.uint64(seed), MAX_RUNS, PILOT_RUNS, *pilot.arrays(), spec.model)
    for side in range(2):
        held = pilot.ipc_left[side][0].copy()
        held[held == 0] = -1  # a slot nobody took stays closed
        held[0] = 0
        tallies.ipc_left[side][:] = held


def iter_chunks(runs: int, first: int = FIRST_CHUNK, largest: int = LARGEST_CHUNK
                ) -> Iterator[tuple[int, int]]:
    """``(first battle index, battles)`` of each chunk: sizes double from ``first`` up to
    ``largest``; together they cover ``range(runs)`` exactly once."""
    start = 0
    size = first
    while start < runs:
        n = min(size, runs - start)
        yield start, n
        start += n
        size = min(2 * size, largest)


def _fight_chunk(seed: np.uint64, first: int, n_battles: int, stats: np.ndarray, hist_a: np.ndarray,
                 hist_d: np.ndarray, ipc_a: np.ndarray, ipc_d: np.ndarray, hist_s: np.ndarray,
                 model: np.ndarray) -> None:
    """Fight battles ``first .. first + n_battles - 1`` and add them to the tallies, which have one
    row per block of battles, each block on a thread of its own (the kernels release the GIL).
    Only the kernel this battle needs is called, so a first run compiles only that one, the plain
    battle's or the general one (a parallel kernel choosing at run time compiled both, and Numba's
    parallel machinery: seconds more); on a cold cache a plain battle compiles none: its runs are
    fought with NumPy (``_numpy_plain``: the same tallies, in one block) while that fits the quick
    start's budget (``interpreted.tables``)."""
    plain = model[HEADER.plain] >= 0
    if plain and not model[model[HEADER.rules] + RULES.key_coarse]:
        with _interpreted.tables():  # a cold cache: the same battles in NumPy, compiling nothing
            if _interpreted.active():
                _numpy_plain.run_plain_block(seed, first, first + n_battles, stats[0], hist_a[0],
                                             hist_d[0], hist_s[0], model)
                return
    kernel = k._run_plain_block if plain else k._run_block
    n_blocks = len(stats)
    bounds = [first + (b * n_battles) // n_blocks for b in range(n_blocks + 1)]
    blocks: list[tuple[Any, ...]] = [
        (seed, bounds[b], bounds[b + 1], stats[b], hist_a[b], hist_d[b], ipc_a[b], ipc_d[b], hist_s[b], model)
        for b in range(n_blocks)]
    if n_blocks == 1:
        kernel(*blocks[0])
        return
    pool = _block_pool()
    futures = [pool.submit(kernel, *block) for block in blocks]
    try:
        for future in futures:
            future.result()
    finally:  # every block ends before this returns, even on Ctrl-C: a chunk is counted whole
        wait(futures)


_POOL: ThreadPoolExecutor | None = None
_POOL_LOCK = threading.Lock()


def _block_pool() -> ThreadPoolExecutor:
    """The block threads, started once per process (as many as Numba may use): starting threads
    for every chunk cost more than a small chunk's battles on two threads. Concurrent runs (the
    web server's) share them; each waits only for its own blocks."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(max_workers=getattr(numba.config, "NUMBA_NUM_THREADS", 2),
                                       thread_name_prefix="oddsim-mc")
        return _POOL


@dataclass
class _Tallies:
    """Kernel outputs (one row per block) and the running totals folded out of them."""

    stats: np.ndarray
    hist: tuple[np.ndarray, np.ndarray]  # per side
    ipc_left: tuple[np.ndarray, np.ndarray]
    swing: np.ndarray  # runs by TUV swing: entry (attacker's total IPC + s) counts swing s
    totals: list[int]

    @classmethod
    def zeros(cls, n_blocks: int, spec: KernelModel) -> _Tallies:
        a_ipc, d_ipc = spec.n_keys if spec.key_coarse else (1, 1)
        a_keys, d_keys = spec.n_keys
        return cls(
            stats=np.zeros((n_blocks, STATS_WIDTH), dtype=np.int64),
            hist=(np.zeros((n_blocks, a_keys), dtype=np.int64),
                  np.zeros((n_blocks, d_keys), dtype=np.int64)),
            ipc_left=(np.zeros((n_blocks, a_ipc), dtype=np.int64),
                      np.zeros((n_blocks, d_ipc), dtype=np.int64)),
            swing=np.zeros((n_blocks, spec.swing_values), dtype=np.int64),
            totals=[0] * STATS_WIDTH,
        )

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return (self.stats, *self.hist, *self.ipc_left, self.swing)

    def fold(self) -> None:
        """Move the kernel's per-chunk sums into Python integers (which never overflow)."""
        chunk = self.stats.sum(axis=0)
        self.stats[:] = 0
        for column, amount in enumerate(chunk):
            self.totals[column] += int(amount)

    @property
    def battles(self) -> int:
        return self.totals[STATS.battles]


def _result(battle: Battle, low: LoweredBattle, spec: KernelModel, tallies: _Tallies,
            interrupted: bool) -> BattleResult:
    n = tallies.battles
    t = tallies.totals
    share = {name: t[code] / n for name, code in (
        ("attacker_win", ATTACKER_WINS), ("defender_win", DEFENDER_WINS), ("draw", DRAW),
        ("stalemate", STALEMATE), ("takes_territory", STATS.takes), ("retreat", RETREAT))}
    means = {name: (t[total] / n, standard_error_of_mean(t[total], t[squares], n))
             for name, total, squares in (
                 ("attacker_ipc_lost", STATS.attacker_ipc, STATS.attacker_ipc_sq),
                 ("defender_ipc_lost", STATS.defender_ipc, STATS.defender_ipc_sq),
                 ("expected_rounds", STATS.rounds, STATS.rounds_sq))}
    std_error = {name: math.sqrt(p * (1.0 - p) / n) for name, p in share.items()}
    std_error.update({name: se for name, (_, se) in means.items()})
    std_error["tuv_swing"] = swing_error_bound(std_error)  # (each side's losses are summed apart)
    if battle.sea:
        std_error["takes_territory"] = 0.0
    if not spec.retreats:  # no retreat policy, nor units that may leave the battle early
        del std_error["retreat"]
    retreats = t[RETREAT]
    if retreats:
        std_error["retreat_round"] = standard_error_of_mean(
            t[STATS.retreat_rounds], t[STATS.retreat_rounds_sq], retreats)
    names = [u.name for u in battle.rules.units]
    survivors = [
        SurvivorCodec(low, layout, spec.key_coarse, names).table(
            tallies.hist[row].sum(axis=0), _held(tallies.ipc_left[row]), n)
        for row, layout in enumerate(spec.sides)]
    return BattleResult(
        battle=battle.describe(),
        method=Method.MC,
        attacker_win=share["attacker_win"],
        defender_win=share["defender_win"],
        draw=share["draw"],
        stalemate=share["stalemate"],
        retreat=share["retreat"],
        retreat_round=t[STATS.retreat_rounds] / retreats if retreats else None,
        takes_territory=None if battle.sea else share["takes_territory"],
        attacker_ipc_lost=means["attacker_ipc_lost"][0],
        defender_ipc_lost=means["defender_ipc_lost"][0],
        expected_rounds=means["expected_rounds"][0],
        attacker_survivors=survivors[0],
        defender_survivors=survivors[1],
        runs=n,
        std_error=std_error,
        interrupted=interrupted,
        attacker_ipc_total=int(spec.sides[0].scalars[SCALARS.total_ipc]),
        defender_ipc_total=int(spec.sides[1].scalars[SCALARS.total_ipc]),
        swing_distribution=SwingDistribution.from_histogram(
            tallies.swing.sum(axis=0), -int(spec.sides[0].scalars[SCALARS.total_ipc]), n),
    )


def _held(held: np.ndarray) -> np.ndarray:
    """Which end state each slot keeps (the same in every block) and, in slot 0, the IPCs left
    of the other end states summed over the blocks."""
    out = held[0].copy()
    out[0] = held[:, 0].sum()
    return out
