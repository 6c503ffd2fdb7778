"""Advice: how the attacker should commit its hand to the three fronts.

Given the attacker's hand (army strengths and support cards; at sea, fleet cards only) and the
defender's committed cards, every way to commit the hand is solved exactly and ranked by the
objective: ``win`` (the attacker's chance to win the battle) or ``points`` (expected victory
point swing, the attacker's points minus the defender's: one token moves on one track). Equal
values are ranked by the other objective, then fewer attacker cards expected to be destroyed,
then fewer cards committed, then less strength committed (keep the strong cards for later
battles), then enumeration order.

A commitment puts at most one army card on each front, and at most one support card on a front
that has the side's army card (land). At sea only fleet cards are played, in the front slots and
in the support slots alike (docs/rules.md §17), so a sea hand is one list of fleet cards and has no
support cards.

If the defender's *hand* is given instead, the defender is assumed to commit after seeing the
attacker's commitment, with its strongest cards in the arrangement that is worst for the
attacker (a pessimistic bound: in the game the defender commits without seeing the attacker's
face-down supports). Adding or strengthening a card never lowers a side's chance to win under
optimal play, so for the ``win`` objective with optimal placement the strongest cards are the
defender's best answer; for ``points`` or greedy placement it is an assumption. Fronts are then
interchangeable, so commitments that differ only by the order of fronts are solved once.
Attacker commitments that cannot reach the top list are cut off early (alpha-beta).

Battles whose fronts have the same totals and cards present have the same odds, so each such
battle is solved once (with hidden supports: the same card leads and supports).

Advice follows the battle's information model (``information``): under ``hidden`` (the
default) the attacker places its dice without seeing the defender's support values, only where
they lie; the defender's supports written ``?`` are scored over ``hidden_support_values``, so
``--defender-support ?,0,?`` ranks the commitments as the attacker can, not knowing them.
"""

from __future__ import annotations

import heapq
import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from oddsim.trench.api import result_of
from oddsim.trench.exact import exact_counts
from oddsim.trench.model import (
    DEFAULT_BELIEF,
    N_FRONTS,
    DiceFronts,
    Fronts,
    Information,
    Policy,
    RollOrder,
    SupportFleet,
    Supports,
    TiedFront,
    TrenchBattle,
    TrenchError,
    check_points,
    check_year,
    describe_readings,
    parse_belief,
    parse_choice,
    parse_fronts,
    parse_hand,
    parse_supports,
)
from oddsim.trench.outcomes import DESTROY_MARGIN, category_of, victory_points
from oddsim.trench.play import PlayRules
from oddsim.trench.prepared import cards_lost, prepare
from oddsim.trench.result import TrenchCounts, TrenchResult

MAX_HAND = 12  # cards per side (the game's hand limit is 9, plus the cards drawn before battle)
MAX_BATTLES = 20_000  # distinct battles advice may solve (about 1 ms each)
DEFAULT_TOP = 5

Progress = Callable[[int, int], bool]
"""``on_progress(done, total)``: attacker commitments searched of all; True stops the search."""


class AdviceStopped(TrenchError):
    """The search was stopped by its ``on_progress`` callback (the caller asked it to)."""


class Objective(Enum):
    """What the advice maximises for the attacker."""

    WIN = "win"  # chance to win the battle
    POINTS = "points"  # expected victory points, attacker's minus the defender's


def parse_objective(value: Objective | str) -> Objective:
    return parse_choice(Objective, value, "objective")


@dataclass(frozen=True)
class Hand:
    """The cards a side holds: army (at sea: fleet) strengths and support values."""

    armies: tuple[int, ...]
    supports: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "armies", parse_hand(self.armies, "hand armies"))
        object.__setattr__(self, "supports", parse_hand(self.supports, "hand supports"))
        if len(self.armies) + len(self.supports) > MAX_HAND:
            raise TrenchError(f"a hand of {len(self.armies) + len(self.supports)} cards is more "
                              f"than {MAX_HAND}")


@dataclass(frozen=True)
class Commitment:
    """One side's cards on the three fronts: army (fleet) strength or ``None``, and support."""

    cards: Fronts
    support: Supports = (0, 0, 0)

    if TYPE_CHECKING:  # what the constructor accepts (the dataclass writes it at run time)
        def __init__(self, cards: str | Sequence[int | None],
                     support: str | Sequence[int] = (0, 0, 0)) -> None: ...

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", parse_fronts(self.cards, "cards"))
        object.__setattr__(self, "support", parse_supports(self.support, "support"))

    @property
    def cards_used(self) -> int:
        return sum(c is not None for c in self.cards) + sum(s != 0 for s in self.support)

    @property
    def strength_used(self) -> int:
        return sum(c or 0 for c in self.cards) + sum(max(s, 0) for s in self.support)

    def describe(self) -> str:
        return " | ".join("-" if c is None else (f"{c}+{'?' if s < 0 else s}" if s else f"{c}")
                          for c, s in zip(self.cards, self.support, strict=True))

    def to_dict(self) -> dict:
        return {"cards": list(self.cards), "support": list(self.support)}


@dataclass(frozen=True)
class AdviceOption:
    """One ranked commitment, the defender's cards it meets, and its exact odds."""

    rank: int
    attacker: Commitment
    defender: Commitment
    result: TrenchResult
    equivalents: int = 0  # other commitments with the same odds (same leads, fronts reordered)

    @property
    def points_swing(self) -> float:
        return self.result.expected_points.attacker - self.result.expected_points.defender

    def to_dict(self) -> dict:
        return {"rank": self.rank, "attacker": self.attacker.to_dict(),
                "defender": self.defender.to_dict(), "attacker_win": self.result.attacker_win,
                "points_swing": self.points_swing, "equivalents": self.equivalents,
                "result": self.result.to_dict()}


@dataclass(frozen=True)
class Advice:
    """The best commitments, best first.

    ``considered``: attacker commitments. Commitments that give the same battle up to the order
    of the fronts (the same leads and cards present, e.g. 5+2 where 6+1 would do) have the same
    odds; each option is the one of its group with the fewest cards and least strength, and
    ``equivalents`` counts the others. ``battles_solved``: distinct battles solved.
    ``readings``: the readings the odds were computed under (as ``TrenchResult.readings``).
    """

    objective: Objective
    defender_hand: bool
    play: str
    considered: int
    battles_solved: int
    options: tuple[AdviceOption, ...]
    readings: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"objective": self.objective.value,
                "defender": "hand (answers the commitment)" if self.defender_hand
                else "committed", "play": self.play, "readings": dict(self.readings),
                "considered": self.considered,
                "battles_solved": self.battles_solved,
                "options": [o.to_dict() for o in self.options]}

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    def to_table(self) -> str:
        head = (f"best attacker commitments by {self.objective.value} "
                f"({self.considered:,} considered; {self.play})")
        if self.defender_hand:
            head += "; defender answers with its strongest cards"
        lines = [head, *([describe_readings(self.readings)] if self.readings else []),
                 f"{'#':>2s}  {'attacker':22s} {'defender':22s} {'win':>7s} {'draw':>7s} "
                 f"{'lose':>7s} {'VP swing':>8s} {'cards lost':>10s} {'same odds':>9s}"]
        for o in self.options:
            r = o.result
            lost = sum(p or 0.0 for p in r.cards_destroyed.attacker
                       + r.support_fleets_destroyed.attacker)
            lines.append(f"{o.rank:2d}  {o.attacker.describe():22s} {o.defender.describe():22s} "
                         f"{100 * r.attacker_win:6.2f}% {100 * r.draw:6.2f}% "
                         f"{100 * r.defender_win:6.2f}% {o.points_swing:+8.3f} {lost:10.3f} "
                         f"{o.equivalents:9d}")
        return "\n".join(lines)


def _fill(pool: Sequence[int], open_slots: Sequence[bool]) -> list[tuple[int | None, ...]]:
    """Every way to lay distinct cards from ``pool`` in the open slots, by value (None: empty)."""
    found: set[tuple[int | None, ...]] = set()
    left = Counter(pool)

    def lay(slot: int, laid: tuple[int | None, ...]) -> None:
        if slot == len(open_slots):
            found.add(laid)
            return
        lay(slot + 1, laid + (None,))
        if open_slots[slot]:
            for value in [v for v, n in left.items() if n > 0]:
                left[value] -= 1
                lay(slot + 1, laid + (value,))
                left[value] += 1

    lay(0, ())
    return sorted(found, key=lambda t: tuple(-1 if v is None else v for v in t), reverse=True)


def _remove(pool: Sequence[int], used: Sequence[int | None]) -> list[int]:
    left = Counter(pool)
    left.subtract(v for v in used if v is not None)
    return sorted(left.elements(), reverse=True)


def commitments(hand: Hand, sea: bool) -> list[Commitment]:
    """Every distinct commitment of ``hand`` (by card values), strongest first."""
    found = []
    for cards in _fill(hand.armies, [True] * N_FRONTS):
        pool = _remove(hand.armies, cards) if sea else hand.supports
        for support in _fill(pool, [c is not None for c in cards]):
            found.append(Commitment(cards, tuple(s or 0 for s in support)))
    return sorted(found, key=lambda c: -c.strength_used)


def strongest_answers(hand: Hand, sea: bool) -> list[Commitment]:
    """The defender's commitments that use its strongest cards in every arrangement."""
    slots = 2 * N_FRONTS if sea else N_FRONTS
    armies = hand.armies[:slots] if sea else hand.armies[:N_FRONTS]
    answers = set()
    for cards in _fill(armies, [True] * N_FRONTS):
        if sum(c is not None for c in cards) != min(len(armies), N_FRONTS):
            continue
        pool = _remove(armies, cards) if sea else hand.supports[:N_FRONTS]
        pool = pool[:sum(c is not None for c in cards)]
        for support in _fill(pool, [c is not None for c in cards]):
            if sum(s is not None for s in support) == len(pool):
                answers.add(Commitment(cards, tuple(s or 0 for s in support)))
    return sorted(answers, key=lambda c: (c.cards_used, c.strength_used, c.describe()),
                  reverse=True)


class _Solver:
    """Exact counts of battles, solved once per distinct (totals, cards present) pair."""

    def __init__(self, year: int, points: int, sea: bool, play: PlayRules, belief) -> None:
        self.year, self.points, self.sea, self.play = year, points, sea, play
        self.belief = belief
        self.cache: dict[tuple, tuple[TrenchCounts, int]] = {}  # counts, attacker cards lost
        fronts = np.arange(4)
        attacker_vp, defender_vp = victory_points(
            category_of(fronts[:, None], fronts[None, :]), points)
        self.swing = attacker_vp - defender_vp
        self.wins = (fronts[:, None] > fronts[None, :]).astype(np.int64)

    def battle(self, attacker: Commitment, defender: Commitment) -> TrenchBattle:
        return TrenchBattle(attacker.cards, defender.cards, self.year, attacker.support,
                            defender.support, self.points, self.sea, self.belief)

    def counts(self, attacker: Commitment, defender: Commitment) -> tuple[TrenchCounts, int]:
        """Counts of the battle or of one with its fronts reordered (the same joint counts),
        and how many attacker cards are destroyed in them (a support-slot fleet that goes with
        its front's fleet counts too)."""
        key = battle_class(attacker, defender, self.play.information, self.fleets_count)
        if key not in self.cache:
            if len(self.cache) >= MAX_BATTLES:
                raise TrenchError(f"advice would solve more than {MAX_BATTLES:,} battles: "
                                  f"give fewer cards")
            battle = self.battle(attacker, defender)
            counts = exact_counts(prepare(battle, self.play))
            lost = sum(c * w for c, w in zip(counts.destroyed.attacker,
                                             cards_lost(battle, "attacker", self.play),
                                             strict=True))
            self.cache[key] = (counts, lost)
        return self.cache[key]

    @property
    def fleets_count(self) -> bool:
        """Whether a support-slot fleet is lost with its front (then where one lies matters)."""
        return self.sea and self.play.support_fleet is SupportFleet.DESTROYED

    def values(self, solved: tuple[TrenchCounts, int],
               objective: Objective) -> tuple[Fraction, ...]:
        """(objective, other objective, minus attacker cards destroyed), as exact fractions of
        the counts; larger is better for the attacker."""
        counts, cards = solved
        joint = np.array(counts.joint, dtype=np.int64)
        n = counts.total
        wins, swings = int((joint * self.wins).sum()), int((joint * self.swing).sum())
        win, swing, lost = Fraction(wins, n), Fraction(swings, n), Fraction(-cards, n)
        return (win, swing, lost) if objective is Objective.WIN else (swing, win, lost)

    def result(self, attacker: Commitment, defender: Commitment) -> TrenchResult:
        battle = self.battle(attacker, defender)
        return result_of(battle, self.play, exact_counts(prepare(battle, self.play)), "exact",
                         self.play.describe())


def advise(attacker: Hand, defender: Commitment | Hand, *, on_progress: Progress | None = None,
           **options: Any) -> Advice:
    """The ``top`` best ways for the attacker to commit ``attacker`` against ``defender``;
    ``options`` are ``prepare_advice``'s (``year``, ``points``, ``sea``, ``objective``, ``top``
    and the play options of ``solve_trench``). ``on_progress(done, total)`` is called before
    each distinct commitment is searched and once at the end (``total``: the distinct
    commitments); when it returns True the search raises ``AdviceStopped``."""
    return prepare_advice(attacker, defender, **options).run(on_progress)


@dataclass(frozen=True)
class AdviceSearch:
    """An advice request checked and laid out, before any commitment is searched: the solver,
    the attacker's distinct commitments (``groups``: each one's equals), the defender's answers."""

    solver: _Solver
    objective: Objective
    top: int
    defender_is_hand: bool
    options: int
    groups: list
    answers: list

    def run(self, on_progress: Progress | None = None) -> Advice:
        """Search every distinct commitment against every answer: the ``top`` best."""
        leaders = [members[0] for members in self.groups]
        ranked = _search(self.solver, leaders, self.answers, self.objective, self.top, on_progress)
        size = {id(members[0]): len(members) for members in self.groups}
        play = self.solver.play
        return Advice(self.objective, self.defender_is_hand, play.describe(), self.options,
                      len(self.solver.cache),
                      tuple(AdviceOption(i, o, d, self.solver.result(o, d), size[id(o)] - 1)
                            for i, (o, d) in enumerate(ranked, start=1)), play.readings())


def prepare_advice(attacker: Hand, defender: Commitment | Hand, *, year: int, points: int = 1,
                   sea: bool = False, policy: Policy | str = Policy.OPTIMAL,
                   defender_policy: Policy | str | None = None,
                   roll_order: RollOrder | str = RollOrder.BOTH_FIRST,
                   objective: Objective | str = Objective.WIN, top: int = DEFAULT_TOP,
                   information: Information | str = Information.HIDDEN,
                   dice_fronts: DiceFronts | str = DiceFronts.ANY, destroy_margin: int = DESTROY_MARGIN,
                   hidden_support_values=DEFAULT_BELIEF, tied_front: TiedFront | str = TiedFront.NOBODY,
                   support_fleet: SupportFleet | str = SupportFleet.SURVIVES) -> AdviceSearch:
    """``advise``'s request checked (every refusal it can make before searching, raised here)
    and laid out; ``.run()`` searches it. A server checks a request with it before queueing it."""
    if not isinstance(attacker, Hand):
        raise TrenchError("the attacker's cards must be a Hand (armies and supports)")
    if not isinstance(defender, Commitment | Hand):
        raise TrenchError("the defender's cards must be a Commitment (committed) or a Hand")
    year, points, objective = check_year(year), check_points(points), parse_objective(objective)
    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise TrenchError(f"top must be a whole number >= 1, got {top!r}")
    if sea:
        for side, cards in (("attacker", attacker), ("defender", defender)):
            if isinstance(cards, Hand) and cards.supports:
                raise TrenchError(f"at sea only fleet cards are played, in the front and the "
                                  f"support slots: list the {side}'s fleets, no support cards")
    play = PlayRules.of(policy, defender_policy, roll_order, information, dice_fronts,
                        destroy_margin, tied_front, support_fleet)
    solver = _Solver(year, points, bool(sea), play, parse_belief(hidden_support_values))
    options = commitments(attacker, sea)
    if isinstance(defender, Commitment):
        solver.battle(options[0], defender)  # validates the defender's cards once
        answers: list = [defender]
        groups = _group(options, lambda o: battle_class(o, defender, play.information,
                                                        solver.fleets_count))
    else:
        answers = strongest_answers(defender, sea)
        groups = _group(options, lambda o: hand_class(o, play.information, solver.fleets_count))
    if len(groups) * len(answers) > 50 * MAX_BATTLES:
        raise TrenchError(f"{len(groups):,} commitments against {len(answers):,} defender "
                          f"answers is too many to search: give fewer cards")
    return AdviceSearch(solver, objective, top, isinstance(defender, Hand), len(options), groups, answers)


def battle_class(attacker: Commitment, defender: Commitment,
                 information: Information = Information.FULL,
                 fleets_count: bool = False) -> tuple:
    """What decides a battle's odds up to the order of fronts: per front, who has a card and
    the attacker's lead before artillery (hidden supports: the card lead and both supports,
    since a side does not see the enemy's); with ``fleets_count`` (a support-slot fleet is
    destroyed with its front's fleet) also where each side has a support."""
    if information is Information.HIDDEN:
        return tuple(sorted(
            (a is not None, d is not None, (a or 0) - (d or 0), s, t)
            for a, s, d, t in zip(attacker.cards, attacker.support, defender.cards,
                                  defender.support, strict=True)))
    return tuple(sorted(
        (a is not None, d is not None, (a or 0) + s - (d or 0) - t,
         *((s != 0, t != 0) if fleets_count else ()))
        for a, s, d, t in zip(attacker.cards, attacker.support, defender.cards,
                              defender.support, strict=True)))


def hand_class(attacker: Commitment, information: Information = Information.FULL,
               fleets_count: bool = False) -> tuple:
    """Against a defender who answers with any arrangement: per front, card and total (hidden
    supports: card and support); with ``fleets_count`` also where the attacker has a support."""
    if information is Information.HIDDEN:
        return tuple(sorted((a is not None, a or 0, s)
                            for a, s in zip(attacker.cards, attacker.support, strict=True)))
    return tuple(sorted((a is not None, (a or 0) + s, *((s != 0,) if fleets_count else ()))
                        for a, s in zip(attacker.cards, attacker.support, strict=True)))


def _group(options: list[Commitment], class_of) -> list[list[Commitment]]:
    """Options with the same odds together, each group led by its cheapest member; groups in
    the order of their strongest member (strong first, so the search can cut early)."""
    groups: dict[tuple, list[Commitment]] = {}
    for option in options:
        groups.setdefault(class_of(option), []).append(option)
    for members in groups.values():
        members.sort(key=lambda c: (c.cards_used, c.strength_used))
    return sorted(groups.values(), key=lambda m: -max(c.strength_used for c in m))


def _search(solver: _Solver, options: list[Commitment], answers: list[Commitment],
            objective: Objective, top: int,
            on_progress: Progress | None = None) -> list[tuple[Commitment, Commitment]]:
    """The ``top`` best (commitment, defender's answer) pairs, alpha-beta over the answers;
    ``on_progress`` as ``advise`` calls it."""
    best: list[tuple] = []  # min-heap of rank keys, worst of the kept ones on top
    order = list(range(len(answers)))  # answers tried in order, last best answer first
    for index, option in enumerate(options):
        if on_progress is not None and on_progress(index, len(options)):
            raise AdviceStopped(f"advice stopped after {index:,} of {len(options):,} "
                                f"commitments")
        floor = best[0][0][0] if len(best) == top else None  # objective to beat (ties kept)
        worst, worst_answer, cut = None, None, False
        for a in order:
            values = solver.values(solver.counts(option, answers[a]), objective)
            if worst is None or values < worst:
                worst, worst_answer = values, a
            if floor is not None and worst[0] < floor:
                cut = True
                break
        assert worst is not None and worst_answer is not None  # order is never empty
        order.remove(worst_answer)
        order.insert(0, worst_answer)
        if cut:
            continue
        rank_key = (*worst, -option.cards_used, -option.strength_used, -index)
        entry = (rank_key, index, worst_answer)
        if len(best) < top:
            heapq.heappush(best, entry)
        elif entry > best[0]:
            heapq.heapreplace(best, entry)
    if on_progress is not None:
        on_progress(len(options), len(options))
    chosen = sorted(best, reverse=True)
    return [(options[index], answers[a]) for _, index, a in chosen]


__all__ = ["Advice", "AdviceOption", "AdviceStopped", "Commitment", "Hand", "Objective", "advise",
           "commitments", "strongest_answers"]
