"""The optimal policies' three kernels in NumPy: a first run's tables without compiling them.

On a cold kernel cache, compiling ``policy``'s ``_expected_by_lead``, ``_best_answers`` and
``_best_placements`` costs 1-1.5 s; these compute the same tables from the same arguments with
array operations, in milliseconds (``policy._Builder`` takes them while ``interpreted.active()``,
see ``prepared.prepare``). Sums are whole numbers, so any order of adding gives the kernels'
values; the lexicographic choices compare each row's rank among the distinct rows
(``lexicographic_ranks``), ties going to the first placement as in the kernels.
"""

from __future__ import annotations

import numpy as np

from oddsim.trench.outcomes import front_classes

CODE_SCALE = np.array([1, 5, 25])  # a triple of front classes' code


def expected_by_lead(low, values, weights, n_options, comps, a_card, d_card, margin, tie, out,
                     per_front) -> None:
    """``policy._expected_by_lead``: the same ``out`` (and ``per_front``)."""
    for f in range(3):
        lead = np.arange(out.shape[f])[:, None]
        n = n_options[f]
        classes = front_classes(low[f] + lead + values[f, :n], a_card[f], d_card[f], margin, tie)
        np.add.at(per_front[f], (lead, classes), weights[f, :n])
    p0, p1, p2 = (per_front[f, : out.shape[f]] for f in range(3))
    # comps by code c0 + 5 c1 + 25 c2 is comps[c2, c1, c0] reshaped
    out += np.einsum("ia,jb,kc,cbaz->ijkz", p0, p1, p2, comps.reshape(5, 5, 5, -1), optimize=True)


def best_answers(a_total, d_total, low, expected, of_roll, count, out) -> None:
    """``policy._best_answers``: the same ``out`` (a padded row of ``of_roll`` repeats its first
    placement, so ``count`` is not needed)."""
    stride = np.array([expected.shape[1] * expected.shape[2], expected.shape[2], 1])
    at = (a_total @ stride - low @ stride)[:, None, None] - (d_total @ stride)[of_roll]  # [a, r, j]
    out[...] = of_roll[np.arange(of_roll.shape[0]), lexicographic_ranks(expected).ravel()[at].argmin(axis=-1)]


def best_placements(a_total, d_base, d_vectors, answers, weight, roll_weight, both_first, comps,
                    of_roll, count, a_card, d_card, margin, tie, out, scratch) -> None:
    """``policy._best_placements``: the same ``out`` (``count`` and ``scratch`` not needed)."""
    sums = np.zeros((a_total.shape[0], of_roll.shape[0], comps.shape[1]), dtype=np.int64)  # [a, rd]
    for b in range(d_base.shape[0]):
        lead = a_total[:, None, :] - d_base[b] - d_vectors[answers[b]]
        sums += weight[b] * comps[front_classes(lead, a_card, d_card, margin, tie) @ CODE_SCALE]
    rolls = np.arange(of_roll.shape[0])
    if both_first:  # [ra, rd]: the best placement of roll ra against roll rd
        best = lexicographic_ranks(sums)[of_roll].transpose(0, 2, 1).argmax(axis=-1)
        out[...] = of_roll[rolls[:, None], best]
    else:
        best = lexicographic_ranks(np.einsum("r,arc->ac", roll_weight, sums))[of_roll].argmax(axis=-1)
        out[...] = of_roll[rolls, best][:, None]


def lexicographic_ranks(rows: np.ndarray) -> np.ndarray:
    """Each row's (the last axis) place among the distinct rows in lexicographic order, from 0:
    equal rows share a rank, so a first arg-min or arg-max of ranks is a first lexicographic one."""
    flat = rows.reshape(-1, rows.shape[-1])
    order = np.lexsort(flat.T[::-1])  # (lexsort's primary key is its last)
    ordered = flat[order]
    rank = np.empty(len(flat), dtype=np.int64)
    rank[order] = np.concatenate(([0], np.cumsum((ordered[1:] != ordered[:-1]).any(axis=1))))
    return rank.reshape(rows.shape[:-1])
