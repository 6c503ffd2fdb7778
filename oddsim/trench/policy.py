"""Placement policies as lookup tables: which placement each side makes in every situation.

A side decides with what it can know (``Information``). Under ``hidden`` (the seed: supports lie
face down until the dice are placed) a side knows its own cards and supports, the enemy's army
cards, where the enemy laid face-down supports and the belief about their values
(``TrenchBattle.hidden_support_values``), the rolls and, for the defender, the attacker's placed
dice. Under ``full`` both sides see every support value.

The tables index placements in the side's catalogue (``artillery.Placements.vectors``):

* attacker table ``[ra, rd]``: its placement for attacker roll ``ra`` and defender roll ``rd``
  (under ``RollOrder.ATTACKER_FIRST`` every column of a row is the same), one table per
  attacker context (its own support values);
* defender table ``[a, rd]``: its answer to attacker placement ``a`` with its roll ``rd``, one
  per defender context (its own support values).

``optimal`` ranks outcomes by the components of ``outcomes`` compared in order (win, VP swing,
fewer own cards lost, more enemy cards destroyed, front margin, fronts won). A placement's value
is the weighted sum of the components over what the side cannot see, compared lexicographically
(exact whole numbers): the defender picks the smallest value over the attacker's face-down
supports (the prior belief; it does not infer them from the attacker's dice); the attacker picks
the largest value over the defender's face-down supports and the defender's optimal answer to
each (``ATTACKER_FIRST``: also over the defender's roll). With nothing face down this is the
full-information minimax. An optimal attacker assumes an optimal defender, whatever it meets.
Ties go to the first placement in catalogue order.

``greedy`` is a human-like rule. Valid dice are placed one at a time, largest face first, each on
the open front where it raises the side's standing the most, as the side sees it at that moment:
the attacker sees the defender's cards and supports but no defender dice yet; the defender sees
everything the attacker placed. A face-down enemy support counts as the belief's mean. A front's
standing for a side is, worst to best: lost by the destroy margin or more (own card destroyed),
lost, tied, won, won by the margin or more with the enemy card destroyed (where a tied front goes
to the defender, tied is lost for the attacker and won for the defender; a support-slot fleet
destroyed with its front's fleet does not weigh in: greedy sees standings, not cards). Equal
gains go to the front whose current margin is closest to zero (the most contested), then to the
lowest-numbered front.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from oddsim._runtime import interpreted
from oddsim._runtime.jit import jit
from oddsim.trench import numpy_policy
from oddsim.trench.artillery import DICE_PER_SIDE, Placements, Rolls
from oddsim.trench.model import UNKNOWN, Information, Policy, RollOrder, TrenchBattle, TrenchError
from oddsim.trench.outcomes import FrontClass, code_tables, front_class
from oddsim.trench.play import PlayRules

MAX_ADDED = 4 * DICE_PER_SIDE + 1  # a placement adds at most 3 dice x 4 to one front
MAX_COMBOS = 20_000  # support-value combinations scored (the product over '?' cards)
MAX_TOTAL_WEIGHT = 2**53 // 6**6  # counts times 46,656 roll pairs stay exact in a float64

Combo = tuple[tuple[int, int, int], int]  # support values per front, whole-number weight
PerFront = tuple[tuple[tuple[int, int], ...], ...]  # per front: (value, weight) options


@dataclass(frozen=True)
class PolicyTables:
    """Every table and, per scored combination ``k`` of support values: which attacker table
    (``attacker_index[k]``) and defender table (``defender_index[k]``) play, both sides'
    support values and the combination's weight."""

    attacker: np.ndarray  # (attacker contexts, n_rolls, n_rolls)
    defender: np.ndarray  # (defender contexts, n_attacker_placements, n_rolls)
    attacker_index: np.ndarray
    defender_index: np.ndarray
    attacker_support: np.ndarray  # (combos, 3)
    defender_support: np.ndarray  # (combos, 3)
    weight: np.ndarray  # (combos,)


# The policy kernels allocate nothing (their callers pass every array) and are called from Python,
# once per table: Numba's reference counts cost them nothing measurable (``benchmarks/trench.py``).
@jit
def _less(x, y) -> bool:
    """``x`` lexicographically before ``y``."""
    for c in range(x.shape[0]):
        if x[c] != y[c]:
            return x[c] < y[c]
    return False


@jit
def _expected_by_lead(low, values, weights, n_options, comps, a_card, d_card, margin, tie, out, per_front):
    """``out[x0, x1, x2]``: the weighted sum of the components over the attacker's supports when
    its lead before them is ``low[f] + x_f`` on front f. Its supports are independent per front:
    ``values[f, :n_options[f]]`` with ``weights[f, ...]``, so each front's class is tabled first,
    in ``per_front`` (zeros, ``(3, largest out.shape[f], 5)``: made by the caller, as ``np.zeros``
    here would compile its overload on a first run, 0.2 s)."""
    for f in range(3):
        for x in range(out.shape[f]):
            for o in range(n_options[f]):
                per_front[f, x, front_class(low[f] + x + values[f, o], a_card[f], d_card[f],
                                            margin, tie)] += weights[f, o]
    for x0 in range(out.shape[0]):
        for x1 in range(out.shape[1]):
            for x2 in range(out.shape[2]):
                for c0 in range(5):
                    p0 = per_front[0, x0, c0]
                    if p0 == 0:
                        continue
                    for c1 in range(5):
                        p1 = per_front[1, x1, c1]
                        if p1 == 0:
                            continue
                        for c2 in range(5):
                            w = p0 * p1 * per_front[2, x2, c2]
                            if w == 0:
                                continue
                            code = c0 + 5 * c1 + 25 * c2
                            for c in range(comps.shape[1]):
                                out[x0, x1, x2, c] += w * comps[code, c]


@jit
def _best_answers(a_total, d_total, low, expected, of_roll, count, out):
    """``out[a, r]``: the defender's placement of roll ``r`` with the smallest expected
    components (``expected``, by the leads before the attacker's supports, see
    ``_expected_by_lead``) against attacker placement ``a``."""
    n_c = expected.shape[3]
    for a in range(a_total.shape[0]):
        for r in range(of_roll.shape[0]):
            b0 = b1 = b2 = 0
            for j in range(count[r]):
                d = of_roll[r, j]
                x0 = a_total[a, 0] - d_total[d, 0] - low[0]
                x1 = a_total[a, 1] - d_total[d, 1] - low[1]
                x2 = a_total[a, 2] - d_total[d, 2] - low[2]
                better = j == 0
                if not better:
                    for c in range(n_c):
                        diff = expected[x0, x1, x2, c] - expected[b0, b1, b2, c]
                        if diff != 0:
                            better = diff < 0
                            break
                if better:
                    b0, b1, b2 = x0, x1, x2
                    out[a, r] = d


@jit
def _best_placements(a_total, d_base, d_vectors, answers, weight, roll_weight, both_first, comps,
                     of_roll, count, a_card, d_card, margin, tie, out, scratch):
    """``out[ra, rd]``: the attacker's placement of roll ``ra`` with the largest expected
    components over the defender's supports ``d_base`` (card + support, one row per belief
    combination) and its answers ``answers[b, a, rd]``; not ``both_first``: also over ``rd``.
    ``scratch``: two rows of ``comps.shape[1]``, the best and the current sums (made by the
    caller: ``np.zeros`` here would compile its overload on a first run)."""
    n_c = comps.shape[1]
    n_rolls = of_roll.shape[0]
    best = scratch[0]
    cur = scratch[1]
    for ra in range(n_rolls):
        for rd_seen in range(n_rolls if both_first else 1):
            for j in range(count[ra]):
                a = of_roll[ra, j]
                for c in range(n_c):
                    cur[c] = 0
                for rd in range(n_rolls):
                    if both_first and rd != rd_seen:
                        continue
                    w_rd = 1 if both_first else roll_weight[rd]
                    for b in range(d_base.shape[0]):
                        d = answers[b, a, rd]
                        code = 0
                        scale = 1
                        for f in range(3):
                            code += scale * front_class(
                                a_total[a, f] - d_base[b, f] - d_vectors[d, f], a_card[f],
                                d_card[f], margin, tie)
                            scale *= 5
                        for c in range(n_c):
                            cur[c] += w_rd * weight[b] * comps[code, c]
                if j == 0 or _less(best, cur):
                    for c in range(n_c):  # (a slice copy would compile Numba's shape-error text: 2 s)
                        best[c] = cur[c]
                    if both_first:
                        out[ra, rd_seen] = a
                    else:
                        for rd in range(n_rolls):  # (a loop: a slice assignment compiles more)
                            out[ra, rd] = a


@jit
def _standing(margin: float, own_card: bool, enemy_card: bool, destroy: int, tie: int) -> int:
    """A side's standing on a front from its margin there: 0 lost by ``destroy`` or more (own
    card destroyed), 1 lost, 2 tied (``tie``: 1 for the attacker, 3 for the defender where a
    tied front goes to the defender), 3 won, 4 won by ``destroy`` or more against a card."""
    if margin <= -destroy and own_card:
        return 0
    if margin < 0:
        return 1
    if margin == 0:
        return tie
    if margin >= destroy and enemy_card:
        return 4
    return 3


@jit
def _greedy(margins, faces, n_faces, open_front, own_card, enemy_card, lookup, destroy, tie, out):
    """``out[i, r]``: catalogue index of the greedy placement of roll ``r`` from ``margins[i]``.

    ``faces[r, :n_faces[r]]`` are the roll's valid faces, largest first; ``lookup`` maps an
    encoded placement vector to its catalogue index.
    """
    margin = np.zeros(3, dtype=np.float64)
    added = np.zeros(3, dtype=np.int64)
    for i in range(margins.shape[0]):
        for r in range(faces.shape[0]):
            for f in range(3):
                margin[f] = margins[i, f]
                added[f] = 0
            for k in range(n_faces[r]):
                face = faces[r, k]
                best = -1
                best_gain = -1
                best_distance = 0.0
                for f in range(3):
                    if not open_front[f]:
                        continue
                    gain = (_standing(margin[f] + face, own_card[f], enemy_card[f], destroy, tie)
                            - _standing(margin[f], own_card[f], enemy_card[f], destroy, tie))
                    distance = abs(margin[f])
                    if best < 0 or gain > best_gain or (gain == best_gain
                                                        and distance < best_distance):
                        best, best_gain, best_distance = f, gain, distance
                if best >= 0:
                    margin[best] += face
                    added[best] += face
            out[i, r] = lookup[(added[0] * MAX_ADDED + added[1]) * MAX_ADDED + added[2]]


class _Builder:
    """Computes the tables of one battle, each context once."""

    def __init__(self, battle: TrenchBattle, rolls: Rolls, attacker: Placements,
                 defender: Placements, order: RollOrder, destroy: int, tie: int,
                 open_fronts: tuple[tuple[bool, ...], tuple[bool, ...]],
                 cards_lost: tuple[tuple[int, int, int], tuple[int, int, int]]) -> None:
        self.battle, self.rolls, self.order, self.destroy = battle, rolls, order, destroy
        self.tie = tie
        self.attacker, self.defender = attacker, defender
        self.open_fronts = open_fronts
        self.a_card = np.array(battle.cards("attacker"), dtype=np.int64)
        self.d_card = np.array(battle.cards("defender"), dtype=np.int64)
        self.a_has = np.array(battle.has_card("attacker"))
        self.d_has = np.array(battle.has_card("defender"))
        self.comps = code_tables(battle.points, *cards_lost).components
        self._answers: dict[tuple, np.ndarray] = {}
        self._by_lead: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
        given = [v for v in battle.defender_support if v != UNKNOWN]
        self.most_support = max([*given, *(v for v, _ in battle.hidden_support_values)])
        self.by_numpy = interpreted.active()  # (a cold cache: the same tables, nothing compiled)

    def optimal_defender(self, own: tuple[int, ...], belief: PerFront) -> np.ndarray:
        """The defender's best answers with its supports ``own`` against the attacker's supports
        ``belief`` (independent options per front)."""
        key = (own, belief)
        if key not in self._answers:
            out = np.empty((self.attacker.vectors.shape[0], len(self.rolls)), dtype=np.int64)
            a_total = self.a_card + self.attacker.vectors
            d_total = self.d_card + np.array(own, dtype=np.int64) + self.defender.vectors
            low, expected = self._expected(belief)
            (numpy_policy.best_answers if self.by_numpy else _best_answers)(
                a_total, d_total, low, expected, self.defender.of_roll, self.defender.count, out)
            self._answers[key] = out
        return self._answers[key]

    def _expected(self, belief: PerFront) -> tuple[np.ndarray, np.ndarray]:
        """The defender's expected components by lead (``_expected_by_lead``) over the attacker's
        supports ``belief``, for every lead any of the defender's support values can give."""
        if belief not in self._by_lead:
            width = max(len(options) for options in belief)
            values = np.zeros((3, width), dtype=np.int64)
            weights = np.zeros((3, width), dtype=np.int64)
            for f, options in enumerate(belief):
                for o, (value, weight) in enumerate(options):
                    values[f, o], weights[f, o] = value, weight
            a_total = self.a_card + self.attacker.vectors
            d_total = self.d_card + self.defender.vectors
            low = a_total.min(axis=0) - d_total.max(axis=0) - self.most_support
            size = a_total.max(axis=0) - d_total.min(axis=0) - low + 1
            expected = np.zeros((*size, self.comps.shape[1]), dtype=np.int64)
            (numpy_policy.expected_by_lead if self.by_numpy else _expected_by_lead)(
                low, values, weights, np.array([len(o) for o in belief]), self.comps, self.a_has,
                self.d_has, self.destroy, self.tie, expected,
                np.zeros((3, int(size.max()), 5), dtype=np.int64))
            self._by_lead[belief] = (low, expected)
        return self._by_lead[belief]

    def optimal_attacker(self, own: tuple[int, ...], belief: list[Combo],
                         answers: list[np.ndarray]) -> np.ndarray:
        """The attacker's best placements with its supports ``own``, against the defender's
        supports ``belief`` answering by ``answers`` (one table per belief combination)."""
        n = len(self.rolls)
        out = np.empty((n, n), dtype=np.int64)
        values, weights = _arrays(belief)
        (numpy_policy.best_placements if self.by_numpy else _best_placements)(
            self.a_card + np.array(own, dtype=np.int64) + self.attacker.vectors,
            self.d_card + values, self.defender.vectors, np.ascontiguousarray(np.stack(answers)),
            weights, self.rolls.weight, self.order is RollOrder.BOTH_FIRST, self.comps,
            self.attacker.of_roll, self.attacker.count, self.a_has, self.d_has, self.destroy,
            self.tie, out, np.zeros((2, self.comps.shape[1]), dtype=np.int64))
        return out

    def _greedy_table(self, margins: np.ndarray, side: int, placements: Placements) -> np.ndarray:
        rolls = self.rolls
        faces = np.zeros((len(rolls), DICE_PER_SIDE), dtype=np.int64)
        n_faces = np.zeros(len(rolls), dtype=np.int64)
        for r, roll in enumerate(rolls.faces):
            faces[r, :len(roll)] = roll
            n_faces[r] = len(roll)
        scale = np.array([MAX_ADDED * MAX_ADDED, MAX_ADDED, 1])
        lookup = np.full(MAX_ADDED**3, -1, dtype=np.int64)
        lookup[placements.vectors @ scale] = np.arange(placements.vectors.shape[0])
        own, enemy = (self.a_has, self.d_has) if side == 0 else (self.d_has, self.a_has)
        # a tied front as the side stands on it: tied, or lost (attacker) / won (defender)
        tie = 2 if self.tie == FrontClass.TIED else (1 if side == 0 else 3)
        out = np.empty((margins.shape[0], len(rolls)), dtype=np.int64)
        _greedy(np.ascontiguousarray(margins, dtype=np.float64), faces, n_faces,
                np.array(self.open_fronts[side]), own, enemy, lookup, self.destroy, tie, out)
        return out

    def greedy_attacker(self, own: tuple[int, ...], seen: np.ndarray) -> np.ndarray:
        """Greedy attacker with supports ``own``, seeing the defender's supports as ``seen``."""
        margin = self.a_card + np.array(own) - self.d_card - seen
        chosen = self._greedy_table(margin[None, :], 0, self.attacker)[0]
        return np.repeat(chosen[:, None], len(self.rolls), axis=1)

    def greedy_defender(self, own: tuple[int, ...], seen: np.ndarray) -> np.ndarray:
        """Greedy defender with supports ``own``, seeing the attacker's supports as ``seen``
        and every attacker placement."""
        attacker_total = self.a_card + seen + self.attacker.vectors
        margins = (self.d_card + np.array(own))[None, :] - attacker_total
        return self._greedy_table(margins, 1, self.defender)


def _arrays(combos: list[Combo]) -> tuple[np.ndarray, np.ndarray]:
    values = np.array([v for v, _ in combos], dtype=np.int64).reshape(-1, 3)
    weights = np.array([w for _, w in combos], dtype=np.int64)
    return values, weights


def _mean(combos: list[Combo]) -> np.ndarray:
    values, weights = _arrays(combos)
    return (values * weights[:, None]).sum(axis=0) / weights.sum()


def _combos(per_front: Sequence[Sequence[tuple[int, int]]]) -> list[Combo]:
    """Every combination of per-front (value, weight) options, weights multiplied."""
    return [(tuple(v for v, _ in pick), int(np.prod([w for _, w in pick])))  # type: ignore[misc]
            for pick in itertools.product(*per_front)]


def scored_supports(battle: TrenchBattle, side: str) -> list[Combo]:
    """The side's support values to score: as given, ``?`` over the belief."""
    belief = list(battle.hidden_support_values)
    return _combos([belief if s == UNKNOWN else [(s, 1)]
                    for s in getattr(battle, f"{side}_support")])


def believed_supports(battle: TrenchBattle, side: str) -> PerFront:
    """The side's supports as the enemy sees them, per front: the belief on each face-down
    card (``_combos`` gives their combinations)."""
    return tuple(battle.hidden_support_values if down else ((0, 1),)
                 for down in battle.face_down(side))


def _known(values: tuple[int, ...]) -> PerFront:
    """Supports the enemy sees (full information), per front."""
    return tuple(((v, 1),) for v in values)


def policy_tables(battle: TrenchBattle, attacker: Placements, defender: Placements, rolls: Rolls,
                  play: PlayRules, open_fronts: tuple[tuple[bool, ...], tuple[bool, ...]],
                  cards_lost: tuple[tuple[int, int, int], tuple[int, int, int]]) -> PolicyTables:
    """Both sides' tables for every combination of support values that is scored;
    ``cards_lost``: per side, the cards lost where its card on each front is destroyed."""
    attacker_policy, defender_policy = play.attacker_policy, play.defender_policy
    information = play.information
    build = _Builder(battle, rolls, attacker, defender, play.roll_order, play.destroy_margin,
                     play.tie_class, open_fronts, cards_lost)
    a_scored, d_scored = scored_supports(battle, "attacker"), scored_supports(battle, "defender")
    if len(a_scored) * len(d_scored) > MAX_COMBOS:
        raise TrenchError(f"{len(a_scored) * len(d_scored):,} combinations of '?' support values "
                          f"is above {MAX_COMBOS:,}: give fewer '?' or fewer hidden values")
    total = sum(w for _, w in a_scored) * sum(w for _, w in d_scored)
    if total > MAX_TOTAL_WEIGHT:
        raise TrenchError("the hidden support weights multiply past what counts exactly: give "
                          "smaller weights (e.g. 1:2,2:1 rather than 1:200,2:100)")
    a_tables: list[np.ndarray] = []
    d_tables: list[np.ndarray] = []
    a_index, d_index, weight, a_support, d_support = [], [], [], [], []
    if information is Information.HIDDEN:
        a_belief = believed_supports(battle, "attacker")
        d_belief = _combos([list(options) for options in believed_supports(battle, "defender")])
        for own, _ in d_scored:
            d_tables.append(build.optimal_defender(own, a_belief)
                            if defender_policy is Policy.OPTIMAL
                            else build.greedy_defender(own, _mean(_combos(list(a_belief)))))
        for own, _ in a_scored:
            if attacker_policy is Policy.OPTIMAL:
                answers = [build.optimal_defender(s, a_belief) for s, _ in d_belief]
                a_tables.append(build.optimal_attacker(own, d_belief, answers))
            else:
                a_tables.append(build.greedy_attacker(own, _mean(d_belief)))
        for (i, (sa, wa)), (j, (sd, wd)) in itertools.product(enumerate(a_scored),
                                                              enumerate(d_scored)):
            a_index.append(i)
            d_index.append(j)
            weight.append(wa * wd)
            a_support.append(sa)
            d_support.append(sd)
    else:
        for (sa, wa), (sd, wd) in itertools.product(a_scored, d_scored):
            best = build.optimal_defender(sd, _known(sa))
            if attacker_policy is Policy.OPTIMAL:
                a_tables.append(build.optimal_attacker(sa, [(sd, 1)], [best]))
            else:
                a_tables.append(build.greedy_attacker(sa, np.array(sd)))
            d_tables.append(best if defender_policy is Policy.OPTIMAL
                            else build.greedy_defender(sd, np.array(sa)))
            a_index.append(len(a_tables) - 1)
            d_index.append(len(d_tables) - 1)
            weight.append(wa * wd)
            a_support.append(sa)
            d_support.append(sd)

    def arr(values, shape=None) -> np.ndarray:
        out = np.ascontiguousarray(np.array(values, dtype=np.int64))
        return out.reshape(shape) if shape is not None else out

    return PolicyTables(arr(np.stack(a_tables)), arr(np.stack(d_tables)), arr(a_index),
                        arr(d_index), arr(a_support, (-1, 3)), arr(d_support, (-1, 3)),
                        arr(weight))
