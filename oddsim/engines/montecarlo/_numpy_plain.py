"""A plain battle's runs fought with NumPy, many at once: a first run's answer without compiling.

On a cold kernel cache, compiling the plain battle's loop (``_kernel._run_plain_block`` and the
two dozen helpers it calls) costs 1-3 s; ``run_plain_block`` fights the same battles with array
operations over the runs, a round at a time, and adds them to the same tallies, bit for bit:
each battle draws from its own xoroshiro128+ stream (``_rng.battle_words``) in the kernel's
order, through the same alias tables of the model's plain section. So an answer never depends
on which of the two fought it. Only for battles whose end states are counted one by one (not
``key_coarse``: there the slot an end state takes depends on the order battles are fought in).
"""

from __future__ import annotations

import numpy as np

from oddsim._runtime.splitmix import GOLDEN, mix64
from oddsim.engines.montecarlo._layout import (
    ATTACKER_WINS,
    CHAIN,
    CHAIN_WIDTH,
    DEFENDER_WINS,
    DRAW,
    HEADER,
    ONGOING,
    PLAIN,
    PLAIN_WIDTH,
    RETREAT,
    RETREAT_TABLE,
    RETREAT_TABLE_WIDTH,
    RULES,
    SCALARS,
    STALEMATE,
    STATS,
    STEP_WIDTH,
)
from oddsim.engines.montecarlo._rng import (
    _FRACTION_BITS,
    _FRACTION_MASK,
    CELL_FIELDS,
    low_luck_hits,
    step_words,
)

_mix64 = mix64.py_func  # (the kernels' own arithmetic, on arrays of words: NumPy wraps as they do)
_step_words = step_words.py_func
_low_luck_hits = low_luck_hits.py_func


SLICE = 2**16
"""Battles fought together at most (a chunk is fought in slices: its arrays stay a few MiB)."""


def run_plain_block(seed: np.uint64, first: int, last: int, stats: np.ndarray, hist_a: np.ndarray,
                    hist_d: np.ndarray, hist_s: np.ndarray, model: np.ndarray) -> None:
    """``_kernel._run_plain_block``'s tallies of battles ``first`` to ``last - 1``, added to one
    block's rows (its survivor histograms counting every end state: not ``key_coarse``), all
    at the end (a second Ctrl-C while the battles are fought leaves the rows as they were)."""
    rows = (stats, hist_a, hist_d, hist_s)
    sums = [np.zeros_like(row) for row in rows]
    for start in range(first, last, SLICE):
        for total, more in zip(sums, _tallies(seed, start, min(start + SLICE, last), rows, model),
                               strict=True):
            total += more
    for row, total in zip(rows, sums, strict=True):
        row += total


def _tallies(seed: np.uint64, first: int, last: int, rows: tuple[np.ndarray, ...],
             model: np.ndarray) -> list[np.ndarray]:
    """What battles ``first`` to ``last - 1`` add to each of ``rows`` (stats, then the attacker's,
    the defender's and the TUV swing's histograms)."""
    scalars = int(model[HEADER.scalars])  # (the attacker's)
    code, rounds, a_rec, d_rec = _fight(seed, np.arange(first, last, dtype=np.int64), model)
    lost_a = model[a_rec + PLAIN.cost]
    lost_d = model[d_rec + PLAIN.cost]
    retreated = code == RETREAT
    counts = np.zeros_like(rows[0])
    counts[: RETREAT + 1] = np.bincount(code, minlength=RETREAT + 1)  # (column 0, ONGOING: none)
    counts[STATS.battles] = last - first
    if model[model[HEADER.rules] + RULES.land_battle]:
        counts[STATS.takes] = np.count_nonzero((code == ATTACKER_WINS) & (model[a_rec + PLAIN.land] > 0))
    for total, squares, values in ((STATS.retreat_rounds, STATS.retreat_rounds_sq, rounds[retreated]),
                                   (STATS.attacker_ipc, STATS.attacker_ipc_sq, lost_a),
                                   (STATS.defender_ipc, STATS.defender_ipc_sq, lost_d),
                                   (STATS.rounds, STATS.rounds_sq, rounds)):
        counts[total], counts[squares] = values.sum(), (values * values).sum()
    key_a = model[a_rec + PLAIN.key] + retreated * model[scalars + SCALARS.keys]
    keys = (key_a, model[d_rec + PLAIN.key], model[scalars + SCALARS.total_ipc] + lost_d - lost_a)
    return [counts, *(np.bincount(k, minlength=row.size) for row, k in zip(rows[1:], keys, strict=True))]


def _fight(seed: np.uint64, index: np.ndarray, model: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``_kernel._fight_plain``'s fight (its tally apart) for each battle of ``index``: (outcome
    code, rounds, where the attacker's and the defender's final records start). The battles
    still going on are fought one round at a time, together."""
    rules = int(model[HEADER.rules])
    rule = [int(v) for v in model[rules: rules + len(RULES)]]
    low_luck, sides = rule[RULES.low_luck], rule[RULES.dice_sides]
    n = index.size
    s0, s1 = _battle_words(seed, index)
    section = int(model[HEADER.plain])
    chain = np.full(n, section + CHAIN_WIDTH)
    if rule[RULES.aa_dice] > 0:  # (the attacker's chain after the aircraft AA shot down)
        word, s0, s1 = _step_words(s0, s1)
        if low_luck:
            chain += CHAIN_WIDTH * _low_luck_hits(word, rule[RULES.aa_strength], sides)
        else:
            aa_dice = rule[RULES.aa_dice]
            chain += CHAIN_WIDTH * _alias_hits(word, model, model[rule[RULES.aa_rows] + aa_dice], aa_dice + 1)
    a_slots = model[chain + CHAIN.slots]
    a_at = model[chain + CHAIN.at]
    d_slots = int(model[section + CHAIN.slots])
    d_at = int(model[section + CHAIN.at])
    bombard = np.zeros(n, dtype=np.int64)  # hits still to be removed with round 1's
    d_lost = np.zeros(n, dtype=np.int64)
    if rule[RULES.bombard_strength] > 0:
        word, s0, s1 = _step_words(s0, s1)
        if low_luck:
            bombard = _low_luck_hits(word, rule[RULES.bombard_strength], sides)
        else:
            bombard = _alias_hits(word, model, rule[RULES.bombard_row], rule[RULES.bombard_cells])
        if not rule[RULES.bombard_fire_back]:
            d_lost, bombard = np.minimum(bombard, d_slots), 0 * bombard
    a_rec = a_at.copy()
    d_rec = d_at + d_lost * PLAIN_WIDTH
    code = _outcome(a_rec, d_rec, a_slots > 0, d_lost < d_slots, rule, model)
    rounds = np.zeros(n, dtype=np.int64)
    live = np.flatnonzero(code == ONGOING)  # the battles going on: the arrays below hold theirs
    s0, s1, at, slots, a_lost, d_lost, bombard = (
        x[live] for x in (s0, s1, a_at, a_slots, np.zeros(n, dtype=np.int64), d_lost, bombard))
    fought = 0
    while live.size:
        fought += 1
        a_now = at + a_lost * PLAIN_WIDTH
        d_now = d_at + d_lost * PLAIN_WIDTH
        word, s0, s1 = _step_words(s0, s1)
        on_d = _side_hits(word, a_now, low_luck, sides, model) + (bombard if fought == 1 else 0)
        word, s0, s1 = _step_words(s0, s1)
        on_a = _side_hits(word, d_now, low_luck, sides, model)
        a_lost = np.minimum(a_lost + on_a, slots)
        d_lost = np.minimum(d_lost + on_d, d_slots)
        a_now = at + a_lost * PLAIN_WIDTH
        d_now = d_at + d_lost * PLAIN_WIDTH
        now = _outcome(a_now, d_now, a_lost < slots, d_lost < d_slots, rule, model)
        if _retreat_rules(rule, model):
            now[(now == ONGOING) & _retreats(a_now, d_now, fought, rule, model)] = RETREAT
        ended = now != ONGOING
        done = live[ended]
        code[done], rounds[done], a_rec[done], d_rec[done] = now[ended], fought, a_now[ended], d_now[ended]
        going = ~ended
        live, s0, s1, at, slots, a_lost, d_lost = (
            x[going] for x in (live, s0, s1, at, slots, a_lost, d_lost))
    # a destroyed side's final record is the one with all its slots taken
    a_rec = np.where((code == DEFENDER_WINS) | (code == DRAW), a_at + a_slots * PLAIN_WIDTH, a_rec)
    d_rec = np.where((code == ATTACKER_WINS) | (code == DRAW), d_at + d_slots * PLAIN_WIDTH, d_rec)
    return code, rounds, a_rec, d_rec


def _battle_words(seed: np.uint64, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``_rng.battle_words`` of each battle of ``index``."""
    base = _mix64(np.array([seed], dtype=np.uint64) + GOLDEN)
    step = index.astype(np.uint64) * np.uint64(2)
    s0 = _mix64(base + (step + np.uint64(1)) * GOLDEN)
    s1 = _mix64(base + (step + np.uint64(2)) * GOLDEN)
    return np.where((s0 == 0) & (s1 == 0), GOLDEN, s0), s1


def _alias_hits(word: np.ndarray, table: np.ndarray, at: np.ndarray | int, n_cells: np.ndarray | int
                ) -> np.ndarray:
    """``_rng.alias_hits`` of each word (its table's start and cells: one for all, or each its own)."""
    draw = (word >> np.uint64(64 - _FRACTION_BITS)).astype(np.int64) * n_cells
    cell = at + CELL_FIELDS * (draw >> _FRACTION_BITS)
    return table[cell + 1 + ((draw & _FRACTION_MASK) >= table[cell])]


def _side_hits(word: np.ndarray, record: np.ndarray, low_luck: int, sides: int,
               model: np.ndarray) -> np.ndarray:
    """``_kernel._plain_hits``: the hits of each side whose record starts at ``record``."""
    if low_luck:
        return _low_luck_hits(word, model[record + PLAIN.row], sides)
    return _alias_hits(word, model, model[record + PLAIN.row], model[record + PLAIN.cells])


def _outcome(a_rec: np.ndarray, d_rec: np.ndarray, a_left: np.ndarray, d_left: np.ndarray,
             rule: list[int], model: np.ndarray) -> np.ndarray:
    """``_kernel._plain_outcome`` (with ``_end_by_units``) of each battle."""
    a_weak = model[a_rec + PLAIN.fighting] == 0
    d_weak = model[d_rec + PLAIN.fighting] == 0
    neither = ~a_left & ~d_left
    code = np.select(
        [a_left & ~d_left, neither & (rule[RULES.defender_holds] == 0), ~a_left | ~d_left,
         d_weak & ~a_weak, a_weak & d_weak, a_weak],
        [ATTACKER_WINS, DRAW, DEFENDER_WINS, ATTACKER_WINS, STALEMATE, DEFENDER_WINS], ONGOING)
    if not rule[RULES.no_stalemate]:
        cannot = (model[a_rec + PLAIN.can_hit] == 0) & (model[d_rec + PLAIN.can_hit] == 0)
        code[(code == ONGOING) & cannot] = STALEMATE
    return code


def _retreat_rules(rule: list[int], model: np.ndarray) -> bool:
    """``_kernel._has_retreat_rules``."""
    return (rule[RULES.retreat_after] > 0 or rule[RULES.retreat_units] >= 0
            or rule[RULES.retreat_strafe] >= 0 or model[HEADER.retreat] >= 0)


def _retreats(a_rec: np.ndarray, d_rec: np.ndarray, rounds: int, rule: list[int],
              model: np.ndarray) -> np.ndarray:
    """``_kernel._plain_retreats`` of each battle after round ``rounds``."""
    after, units, strafe = rule[RULES.retreat_after], rule[RULES.retreat_units], rule[RULES.retreat_strafe]
    out = np.full(a_rec.size, after > 0 and rounds >= after)
    if units >= 0:
        out |= model[a_rec + PLAIN.units] <= units
    if strafe >= 0:
        out |= model[d_rec + PLAIN.units] <= strafe
    table = int(model[HEADER.retreat])
    if table >= 0:
        width = int(model[HEADER.step_side]) // STEP_WIDTH
        index = (model[a_rec + PLAIN.retreat] * model[table + RETREAT_TABLE.defender_states]
                 + model[d_rec + PLAIN.retreat])
        out |= model[table + RETREAT_TABLE_WIDTH + 2 * width + index] != 0
    return out
