"""The best splits of a pool over targets, proven best: a dynamic programme over the targets whose
state is how much of the pool the targets so far have used.

Every unit type of the pool (its damaged units apart) is one axis of a lattice; a split gives
each target one point ``s_t`` of it, with ``sum s_t <= pool`` (what is not sent stays home and
scores nothing). ``score[t][s]`` is what target t contributes when sent s (NaN: s may not go
there, by ``--reach``).

- Additive goals: ``G_t(u) = max_{s <= u} G_{t-1}(u - s) + score_t(s)``; multiplied goals
  (independent chances that must all come true) the same with a product (the scores are
  chances, >= 0, so the best continuation of a state does not depend on how it was reached).
  Each state keeps its ``keep`` best values with where they came from, so the ``keep`` best
  splits come out exactly (the runners-up): any split that is not among a state's ``keep`` best
  partial splits is beaten by ``keep`` others with the same rest of the plan.
- ``at least K`` goals: K = 1 is one minus the smallest product of the chances to miss, and K =
  the number of targets is the product of the chances (both as above). Otherwise the state
  carries, for each partial split, the distribution of the number of targets taken (capped at
  K) as its tails P(>= 1), ..., P(>= K); a partial split is dropped only when ``keep`` others at
  the same state dominate it in every tail (then for any rest of the plan those ``keep`` do at
  least as well), so again the ``keep`` best are exact.

The lattice of a pool of 12 inf, 4 art, 4 arm, 3 ftr, 1 bmb has 2,600 points; a target's step
visits each point s once with array operations over the points it fits (NumPy).

``stop`` (a callable; True: stop) is asked between steps (every ``STOP_EVERY`` points of a
target, every chunk of partial splits): a stopped search raises PlanError (a server's job
cancelled, abandoned or out of time must not search on for minutes).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from oddsim.plan import _at_least as _kernels
from oddsim.plan.goals import Combine, PlanError

Point = tuple[int, ...]
Stop = Callable[[], bool] | None
"""Asked between the optimiser's steps; True stops it (PlanError)."""
STOP_EVERY = 256
"""Points of a target's step between two questions to ``stop``."""
GROW_PAIRS = 4_000_000
"""(partial split, option) pairs the ``at least K`` kernels try between two questions to ``stop``."""


def check_stop(stop: Stop) -> None:
    """Raise PlanError when ``stop`` says so."""
    if stop is not None and stop():
        raise PlanError("plan stopped while its best split was sought")


@dataclass(frozen=True)
class Split:
    """One split: its objective and the point of the lattice each target is sent."""

    objective: float
    sent: tuple[Point, ...]


def best_splits(scores: Sequence[np.ndarray], combine: Combine, keep: int, k: int = 0,
                stop: Stop = None) -> list[Split]:
    """The ``keep`` best splits (best first; fewer when there are fewer splits) of the lattice
    that ``scores`` (one array per target, all of the lattice's shape) are drawn on; ``stop``
    asked between steps."""
    if not scores:
        return [Split(0.0 if combine is Combine.ADD else 1.0, ())]
    # the target with the most points first: the first step from the empty start is free
    order = sorted(range(len(scores)), key=lambda t: -int(np.count_nonzero(~np.isnan(scores[t]))))
    ordered = [scores[t] for t in order]
    if combine is Combine.AT_LEAST and k == len(scores):  # all of them: the product
        found = _scalar(ordered, True, keep, stop=stop)
    elif combine is Combine.AT_LEAST and k == 1:  # one at least: 1 - the product of the misses
        missed = _scalar([1.0 - score for score in ordered], True, keep, start=-1.0, stop=stop)
        found = [Split(1.0 + split.objective, split.sent) for split in missed]
    elif combine is Combine.AT_LEAST:
        found = _at_least(ordered, keep, k, stop)
    else:
        found = _scalar(ordered, combine is Combine.MULTIPLY, keep, stop=stop)
    back = sorted(range(len(order)), key=lambda i: order[i])
    return [Split(split.objective, tuple(split.sent[i] for i in back)) for split in found]


def shrunk(scores: Sequence[np.ndarray], axis: int) -> list[np.ndarray]:
    """The scores on the lattice of a pool with one unit fewer along ``axis``."""
    return [s[tuple(slice(0, n - 1) if i == axis else slice(None) for i, n in enumerate(s.shape))]
            for s in scores]


def _scalar(scores: Sequence[np.ndarray], multiply: bool, keep: int,
            start: float | None = None, stop: Stop = None) -> list[Split]:
    """The ``keep`` best sums (or products) of one score per target. ``start``: the value before
    any target (0 for a sum, 1 for a product); a product started at -1 of scores >= 0 is the
    smallest product, maximised (a nonnegative factor keeps the order of what it multiplies)."""
    if start is None:
        start = 1.0 if multiply else 0.0
    shape = scores[0].shape
    best = np.full(shape + (keep,), -np.inf)
    steps: list[tuple[np.ndarray, np.ndarray]] = []
    ranks = np.arange(keep)
    for index, score in enumerate(scores):
        value = np.full_like(best, -np.inf)
        came_by = np.full(best.shape, -1, dtype=np.int64)  # the flat index of s
        came_from = np.full(best.shape, -1, dtype=np.int64)  # the rank it extends
        if index == 0:  # from the empty start, sending s uses exactly s: one way to each state
            value[..., 0] = np.where(np.isnan(score), -np.inf, start * score if multiply else start + score)
            came_by[..., 0] = np.arange(score.size).reshape(shape)
            came_from[..., 0] = 0
            steps.append((came_by, came_from))
            best = value
            continue
        for number, flat in enumerate(np.flatnonzero(~np.isnan(score))):
            if number % STOP_EVERY == 0:
                check_stop(stop)
            s = np.unravel_index(flat, shape)
            gain = score[s]
            source = best[tuple(slice(0, n - si) for n, si in zip(shape, s, strict=True))]
            here = tuple(slice(si, n) for n, si in zip(shape, s, strict=True))
            if multiply:
                with np.errstate(invalid="ignore"):  # (-inf x 0: a state not reached stays so)
                    offered = np.where(source == -np.inf, -np.inf, source * gain)
            else:
                offered = source + gain
            if keep == 1:  # (the margins: the best alone, no ranks to merge)
                old, by = value[here], came_by[here]
                better = offered > old
                old[better] = offered[better]
                by[better] = flat
                came_from[here][better] = 0
                continue
            pooled = np.concatenate([value[here], offered], axis=-1)
            order = np.argsort(-pooled, axis=-1, kind="stable")[..., :keep]
            value[here] = np.take_along_axis(pooled, order, -1)
            by = np.concatenate([came_by[here], np.full(offered.shape, flat)], axis=-1)
            came_by[here] = np.take_along_axis(by, order, -1)
            ranked = np.concatenate([came_from[here], np.broadcast_to(ranks, offered.shape)], axis=-1)
            came_from[here] = np.take_along_axis(ranked, order, -1)
        steps.append((came_by, came_from))
        best = value
    flat_all = best.reshape(-1)
    top = [i for i in np.argsort(-flat_all, kind="stable")[:keep] if flat_all[i] > -np.inf]
    out = []
    for index in top:
        *used, last = np.unravel_index(index, best.shape)
        point: Point = tuple(int(u) for u in used)
        rank = int(last)
        sent: list[Point] = []
        for came_by, came_from in reversed(steps):
            step: Point = tuple(int(x) for x in np.unravel_index(came_by[point + (rank,)], shape))
            rank = int(came_from[point + (rank,)])
            sent.append(step)
            point = tuple(u - si for u, si in zip(point, step, strict=True))
        out.append(Split(float(flat_all[index]), tuple(reversed(sent))))
    return out


def _at_least(scores: Sequence[np.ndarray], keep: int, k: int, stop: Stop = None) -> list[Split]:
    """``keep`` best splits for the chance that at least ``k`` targets come true (each target's
    score is its chance; the battles are independent). Entries are grown and pruned target by
    target in the kernels of ``_at_least``; the last target is tried on every entry left."""
    shape = scores[0].shape
    sizes = np.array(shape, dtype=np.int64)
    points = np.zeros(1, dtype=np.int64)
    tails = np.zeros((1, k))
    steps: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # (parents, chosen options, option points)
    for index, score in enumerate(scores):
        options = np.flatnonzero(~np.isnan(score)).astype(np.int64)
        option_coords = np.ascontiguousarray(np.array(np.unravel_index(options, shape), dtype=np.int64).T)
        chances = np.ascontiguousarray(score.reshape(-1)[options], dtype=np.float64)
        coords = np.ascontiguousarray(np.array(np.unravel_index(points, shape), dtype=np.int64).T)
        check_stop(stop)
        if index == len(scores) - 1:
            values, entries, chosen = _best_last(tails, coords, option_coords, chances, sizes, keep, stop)
            out = []
            for value, entry, option in zip(values.tolist(), entries.tolist(), chosen.tolist(), strict=True):
                if entry < 0:
                    break
                sent = [options[option]]
                for parents, picked, offered in reversed(steps):
                    sent.append(offered[picked[entry]])
                    entry = parents[entry]
                out.append(Split(value, tuple(tuple(int(x) for x in np.unravel_index(flat, shape))
                                              for flat in reversed(sent))))
            return out
        new_points, new_tails, parents, chosen = _grow(points, tails, coords, options, option_coords,
                                                      chances, sizes, stop)
        order = np.lexsort(tuple(-new_tails[:, j] for j in range(k)) + (new_points,))
        kept = order[_kernels.undominated(new_points[order], np.ascontiguousarray(new_tails[order]), keep)]
        points, tails = new_points[kept], np.ascontiguousarray(new_tails[kept])
        steps.append((parents[kept], chosen[kept], options))
    raise AssertionError("unreachable: scores is not empty")


def _chunks(entries: int, options: int) -> list[slice]:
    """Slices of the entries, each with at most about ``GROW_PAIRS`` (entry, option) pairs."""
    size = max(1, GROW_PAIRS // max(1, options))
    return [slice(start, start + size) for start in range(0, max(entries, 1), size)]


def _grow(points, tails, coords, options, option_coords, chances, sizes, stop: Stop):
    """``_kernels.grow`` a chunk of entries at a time, ``stop`` asked between chunks (the same
    entries in the same order: a chunk's parents are offset by where it starts)."""
    parts = []
    for part in _chunks(points.shape[0], options.shape[0]):
        check_stop(stop)
        new_points, new_tails, parents, chosen = _kernels.grow(
            points[part], np.ascontiguousarray(tails[part]), np.ascontiguousarray(coords[part]), options,
            option_coords, chances, sizes)
        parts.append((new_points, new_tails, parents + part.start, chosen))
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(4))


def _best_last(tails, coords, option_coords, chances, sizes, keep: int, stop: Stop):
    """``_kernels.best_last`` a chunk of entries at a time, ``stop`` asked between chunks: each
    chunk's ``keep`` best, then the ``keep`` best of those (ties: the earlier chunk first, as the
    kernel meets them)."""
    found = []
    for part in _chunks(tails.shape[0], chances.shape[0]):
        check_stop(stop)
        values, entries, chosen = _kernels.best_last(np.ascontiguousarray(tails[part]),
                                                     np.ascontiguousarray(coords[part]), option_coords,
                                                     chances, sizes, keep)
        found.append((values, np.where(entries >= 0, entries + part.start, -1), chosen))
    values = np.concatenate([f[0] for f in found])
    entries = np.concatenate([f[1] for f in found])
    chosen = np.concatenate([f[2] for f in found])
    best = np.argsort(-values, kind="stable")[:keep]
    return values[best], entries[best], chosen[best]
