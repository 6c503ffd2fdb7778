"""One Longest Trench battle as a validated value, and the enums that name its options.

A battle has exactly three fronts. On each front each side has at most one army card (at sea:
fleet card), given by its effective strength, or ``None`` for no card; and a support value
(land: the support card's value, at sea: the strength of the fleet card laid in the support
slot; 0 for none), or ``?`` (``UNKNOWN``) for a face-down card whose value is unknown: it is
scored over ``hidden_support_values``, the belief about a face-down card (values with whole-number
weights). Everything is checked here, once, so the engines can trust their input.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, TypeVar

from oddsim._runtime.ascii_integers import ASCII_DIGITS_HINT, other_digits, whole_number
from oddsim.errors import OddsimError

N_FRONTS = 3
FIRST_YEAR, LAST_YEAR = 1914, 1918
FOUR_IS_VALID_FROM = 1917  # from the 1917 battles on, a 4 is a valid artillery die too
MAX_STRENGTH = 999  # far above any card; keeps every total a small integer
MAX_POINTS = 999
NO_CARD_MARKS = ("-", "none")
UNKNOWN = -1  # a support card laid face down whose value is not given: "?"
UNKNOWN_MARK = "?"
DEFAULT_BELIEF = ((1, 1), (2, 1), (3, 1))  # a face-down support card: 1, 2 or 3, equally likely
MAX_BELIEF_VALUES = 12
MAX_WEIGHT = 1000
DESTROY_MARGINS = (4, 5)  # "by 4 or more" (the combat step) or "by more than 4" (the evaluation)

Fronts = tuple[int | None, int | None, int | None]
Supports = tuple[int, int, int]
Belief = tuple[tuple[int, int], ...]  # (value, weight) pairs, values ascending


class TrenchError(OddsimError):
    """A Longest Trench battle, hand or option that cannot be used; the message is one line."""


class Policy(Enum):
    """How a side places its valid artillery dice."""

    OPTIMAL = "optimal"  # best play, both sides seeing all cards (see oddsim.trench.policy)
    GREEDY = "greedy"  # human-like: each die, largest first, where it gains the most right now


class RollOrder(Enum):
    """When the rolls are made relative to the placements (the seed: both roll, then place)."""

    BOTH_FIRST = "both-first"  # both roll; attacker places; defender places, seeing all of it
    ATTACKER_FIRST = "attacker-first"  # attacker rolls and places; then the defender rolls


class Information(Enum):
    """What each side knows of the enemy's support cards when it places its dice."""

    HIDDEN = "hidden"  # the seed: supports lie face down until the dice are placed
    FULL = "full"  # both sides see every support value (the reading before issue 14)


class DiceFronts(Enum):
    """Where a side may place its valid dice."""

    ANY = "any"  # the seed: "Platné kostky se přidělí k jednotlivým frontám", no restriction
    OWN = "own"  # only on fronts where the side has a card


class TiedFront(Enum):
    """Who takes a front whose totals are equal (the seed is silent: it says only that a drawn
    *battle* counts as the defender's win, "Pokud bitva skončí remízou, pokládá se to za
    vítězství obránce")."""

    NOBODY = "nobody"  # our assumption (the reading before issue 22): nobody wins the front
    DEFENDER = "defender"  # the defender takes it, as it takes a drawn battle


class SupportFleet(Enum):
    """At sea, whether the fleet card laid in a front's support slot is destroyed with the
    front's fleet when that front is lost by the destroy margin (the seed names "the loser's
    army card", "karta armády poraženého", and sends support cards to the discard pile with the
    other cards, but does not say which a fleet in a support slot is)."""

    SURVIVES = "survives"  # our assumption (the reading before issue 22): it is discarded
    DESTROYED = "destroyed"  # it goes out of play with the front's fleet


E = TypeVar("E", bound=Enum)


def parse_choice(kind: type[E], value: E | str, what: str) -> E:
    """``value`` as a member of ``kind`` (names are case-insensitive); TrenchError naming the
    choices otherwise."""
    try:
        return value if isinstance(value, kind) else kind(str(value).strip().lower())
    except ValueError:
        names = ", ".join(member.value for member in kind)
        raise TrenchError(f"unknown {what} {value!r}: use one of {names}") from None


def parse_policy(value: Policy | str) -> Policy:
    return parse_choice(Policy, value, "placement policy")


def parse_roll_order(value: RollOrder | str) -> RollOrder:
    return parse_choice(RollOrder, value, "roll order")


def parse_information(value: Information | str) -> Information:
    return parse_choice(Information, value, "information model")


def parse_dice_fronts(value: DiceFronts | str) -> DiceFronts:
    return parse_choice(DiceFronts, value, "dice fronts")


def parse_tied_front(value: TiedFront | str) -> TiedFront:
    return parse_choice(TiedFront, value, "tied-front reading")


def parse_support_fleet(value: SupportFleet | str) -> SupportFleet:
    return parse_choice(SupportFleet, value, "support-fleet reading")


READINGS: dict[str, dict[Any, str]] = {
    "dice_fronts": {"any": "dice on any front (the seed)",
                    "own": "dice only on a side's own fronts (the other reading)"},
    "tied_front": {"nobody": "a tied front is nobody's (our assumption: the seed is silent)",
                   "defender": "a tied front is the defender's (the other reading)"},
    "support_fleet": {"survives": "a sea support-slot fleet survives (our assumption)",
                      "destroyed": "a sea support-slot fleet is destroyed with its front's "
                                   "fleet (the other reading)"},
    "destroy_margin": {4: "lost by 4 or more destroys (the seed's battle phase)",
                       5: "lost by more than 4 destroys (the seed's evaluation step)"},
}
"""What each reading's value means, as the answers print it."""


def describe_readings(readings: dict) -> str:
    """One line naming each reading and where it comes from (the seed, or our assumption)."""
    return "readings: " + "; ".join(READINGS[name][value] for name, value in readings.items())


def check_destroy_margin(value) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) \
            or int(value) not in DESTROY_MARGINS:
        raise TrenchError(f"destroy margin {value!r}: use 4 (won by 4 or more) or 5 (by more "
                          f"than 4)")
    return int(value)


def parse_belief(value: str | Sequence | dict, what: str = "hidden support values") -> Belief:
    """A belief about a face-down support card: ``"1,2,3"`` (equally likely), ``"1:2,3:1"``
    (value:weight, whole-number weights), ``[1, 2, 3]``, ``{1: 2, 3: 1}`` or ``[(1, 2), (3, 1)]``."""
    items: list[tuple[Any, Any]]  # (value, weight) as given, checked below
    if isinstance(value, dict):
        items = list(value.items())
    else:
        items = []
        for raw in _split(value, what):
            if isinstance(raw, str) and ":" in raw:
                v, _, w = raw.partition(":")
                items.append((v.strip(), w.strip()))
            elif isinstance(raw, tuple | list) and len(raw) == 2:
                items.append(tuple(raw))
            else:
                items.append((raw, 1))
    if not items:
        raise TrenchError(f"{what}: give at least one value, e.g. 1,2,3")
    belief: dict[int, int] = {}
    for v, given in items:
        card = _strength(v, what)
        weight = _parse_int(given, f"{what}, weight of {card}") if isinstance(given, str) else given
        if (isinstance(weight, bool) or not isinstance(weight, numbers.Integral)
                or not 1 <= int(weight) <= MAX_WEIGHT):
            raise TrenchError(f"{what}: weight {weight!r} of {card} must be a whole number from 1 "
                              f"to {MAX_WEIGHT}")
        belief[card] = belief.get(card, 0) + int(weight)
    if len(belief) > MAX_BELIEF_VALUES:
        raise TrenchError(f"{what}: at most {MAX_BELIEF_VALUES} distinct values")
    return tuple(sorted(belief.items()))


def _parse_int(text: str, what: str) -> int:
    """A whole number as the army parser reads a count (``_runtime.ascii_integers``): ASCII digits only."""
    value = whole_number(text, _PARSE_CAP)
    if value is not None:
        return value
    if other_digits(text.strip()):
        raise TrenchError(f"{what}: {text!r}: {ASCII_DIGITS_HINT}")
    raise TrenchError(f"{what}: {text!r} is not a whole number")


_PARSE_CAP = 10**9
"""Past every trench limit: a longer number reads as one past it (and is refused as too large)."""


def _split(value: str | Sequence, what: str) -> list:
    if isinstance(value, str):
        parts = [p.strip() for p in value.split(",")]
        return [] if parts == [""] else parts
    if isinstance(value, Sequence):
        return list(value)
    raise TrenchError(f"{what}: expected a list of three fronts, got {type(value).__name__}")


def _strength(raw, what: str) -> int:
    if isinstance(raw, bool) or not isinstance(raw, numbers.Integral | str):
        raise TrenchError(f"{what}: {raw!r} is not a whole number")
    if isinstance(raw, str) and not raw.strip():
        raise TrenchError(f"{what} is empty: write a strength, or - for no card")
    value = _parse_int(raw.strip(), what) if isinstance(raw, str) else int(raw)
    if value < 0:
        raise TrenchError(f"{what}: strength {value} is negative")
    if value > MAX_STRENGTH:
        raise TrenchError(f"{what}: strength {value} is above {MAX_STRENGTH}")
    return value


def _three(value: str | Sequence, what: str) -> list:
    parts = _split(value, what)
    if len(parts) != N_FRONTS:
        raise TrenchError(f"{what}: {len(parts)} fronts given; a battle has exactly three "
                          f"(write - for a front without a card, e.g. 5,-,3)")
    return parts


def parse_fronts(value: str | Sequence, what: str) -> Fronts:
    """Three army (fleet) strengths from ``"5,-,3"`` or ``[5, None, 3]``; ``-`` is no card."""
    cards: list[int | None] = []
    for i, raw in enumerate(_three(value, what), start=1):
        if raw is None or (isinstance(raw, str) and raw.strip().lower() in NO_CARD_MARKS):
            cards.append(None)
        else:
            cards.append(_strength(raw, f"{what}, front {i}"))
    return tuple(cards)  # type: ignore[return-value]


def parse_supports(value: str | Sequence, what: str) -> Supports:
    """Three support values from ``"2,0,1"``; ``0`` or ``-`` is no support card, ``?`` a
    face-down card of unknown value (``UNKNOWN``)."""
    values = []
    for i, raw in enumerate(_three(value, what), start=1):
        if raw is None or (isinstance(raw, str) and raw.strip().lower() in NO_CARD_MARKS):
            values.append(0)
        elif (isinstance(raw, str) and raw.strip() == UNKNOWN_MARK) or \
                (isinstance(raw, numbers.Integral) and not isinstance(raw, bool) and raw == UNKNOWN):
            values.append(UNKNOWN)
        else:
            values.append(_strength(raw, f"{what}, front {i}"))
    return tuple(values)  # type: ignore[return-value]


def parse_hand(value: str | Sequence, what: str) -> tuple[int, ...]:
    """Card strengths in a hand, ``"6,5,4"`` or ``[6, 5, 4]``, strongest first."""
    cards = [_strength(raw, f"{what}, card {i}")
             for i, raw in enumerate(_split(value, what), start=1)]
    return tuple(sorted(cards, reverse=True))


def check_year(year) -> int:
    if isinstance(year, bool) or not isinstance(year, numbers.Integral):
        raise TrenchError(f"year {year!r} is not a whole number")
    year = int(year)
    if not FIRST_YEAR <= year <= LAST_YEAR:
        raise TrenchError(f"year {year} is outside {FIRST_YEAR}-{LAST_YEAR}")
    return year


def check_points(points) -> int:
    if isinstance(points, bool) or not isinstance(points, numbers.Integral):
        raise TrenchError(f"points {points!r} is not a whole number")
    points = int(points)
    if points < 0:
        raise TrenchError(f"points {points} is negative: a battle's victory points are >= 0")
    if points > MAX_POINTS:
        raise TrenchError(f"points {points} is above {MAX_POINTS}")
    return points


@dataclass(frozen=True)
class TrenchBattle:
    """One battle: each side's card per front, support per front, year, victory points, sea.

    ``attacker``/``defender``: three strengths or ``None`` (no card), as a sequence or text
    ``"5,-,3"``. Supports: three values >= 0 (0 = none) or ``?`` (face down, value unknown),
    only on fronts where that side has a card. ``points``: the battle's printed victory points.
    ``sea``: a sea battle, where the support slots hold fleet cards (their strength is the
    support value). ``hidden_support_values``: the belief about a face-down card's value (see
    ``parse_belief``), used by a side that cannot see the enemy's cards and to score ``?``.
    """

    attacker: Fronts
    defender: Fronts
    year: int
    attacker_support: Supports = (0, 0, 0)
    defender_support: Supports = (0, 0, 0)
    points: int = 1
    sea: bool = False
    hidden_support_values: Belief = DEFAULT_BELIEF

    if TYPE_CHECKING:  # what the constructor accepts (the dataclass writes it at run time)
        def __init__(self, attacker: str | Sequence, defender: str | Sequence, year: int,
                     attacker_support: str | Sequence = (0, 0, 0),
                     defender_support: str | Sequence = (0, 0, 0), points: int = 1,
                     sea: bool = False,
                     hidden_support_values: Belief | str | Sequence | dict = DEFAULT_BELIEF,
                     ) -> None: ...

    def __post_init__(self) -> None:
        slot = "fleet in the support slot" if self.sea else "support"
        for side in ("attacker", "defender"):
            cards = parse_fronts(getattr(self, side), side)
            support = parse_supports(getattr(self, f"{side}_support"), f"{side} {slot}")
            for i, (card, extra) in enumerate(zip(cards, support, strict=True), start=1):
                if card is None and extra:
                    shown = UNKNOWN_MARK if extra == UNKNOWN else extra
                    raise TrenchError(f"{side} {slot} {shown} on front {i}, where the {side} "
                                      f"has no {'fleet' if self.sea else 'army'} card")
            object.__setattr__(self, side, cards)
            object.__setattr__(self, f"{side}_support", support)
        object.__setattr__(self, "year", check_year(self.year))
        object.__setattr__(self, "points", check_points(self.points))
        if not isinstance(self.sea, bool):
            raise TrenchError(f"sea must be True or False, not {self.sea!r}")
        object.__setattr__(self, "hidden_support_values", parse_belief(self.hidden_support_values))

    @property
    def four_is_valid(self) -> bool:
        return self.year >= FOUR_IS_VALID_FROM

    @property
    def max_valid_face(self) -> int:
        """The highest artillery face that counts: 3, or 4 from 1917 on."""
        return 4 if self.four_is_valid else 3

    def has_card(self, side: str) -> tuple[bool, bool, bool]:
        return tuple(c is not None for c in getattr(self, side))  # type: ignore[return-value]

    def cards(self, side: str) -> tuple[int, int, int]:
        """Card strength per front (0 where the side has no card)."""
        return tuple(c or 0 for c in getattr(self, side))  # type: ignore[return-value]

    def face_down(self, side: str) -> tuple[bool, bool, bool]:
        """Where the side laid a support card (face down until the dice are placed)."""
        return tuple(s != 0 for s in getattr(self, f"{side}_support"))  # type: ignore

    def describe(self) -> str:
        """One line, e.g. ``1917 land, 2 VP: attacker 5+2 | - | 3+1 vs defender 4 | 4 | 4+3``."""
        def side(cards: Fronts, support: Supports) -> str:
            return " | ".join("-" if c is None else (
                f"{c}+{UNKNOWN_MARK if s == UNKNOWN else s}" if s else f"{c}")
                for c, s in zip(cards, support, strict=True))

        where = "sea" if self.sea else "land"
        return (f"{self.year} {where}, {self.points} VP: attacker "
                f"{side(self.attacker, self.attacker_support)} vs defender "
                f"{side(self.defender, self.defender_support)}")
