"""One Longest Trench battle as a validated value, and the enums that name its options.

A battle has exactly three fronts. On each front each side has at most one army card (at sea:
fleet card), given by its effective strength, or ``None`` for no card; and a support value
(land: the support card's value, at sea: the strength of the fleet card laid in the support
slot; 0 for none). Everything is checked here, once, so the engines can trust their input.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from oddsim.errors import OddsimError

N_FRONTS = 3
FIRST_YEAR, LAST_YEAR = 1914, 1918
FOUR_IS_VALID_FROM = 1917  # from the 1917 battles on, a 4 is a valid artillery die too
MAX_STRENGTH = 999  # far above any card; keeps every total a small integer
MAX_POINTS = 999
NO_CARD_MARKS = ("-", "none")

Fronts = tuple[int | None, int | None, int | None]
Supports = tuple[int, int, int]


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


def parse_choice(kind: type[Enum], value: Enum | str, what: str) -> Enum:
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


def _parse_int(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise TrenchError(f"{what}: {text!r} is not a whole number") from None


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
    cards = []
    for i, raw in enumerate(_three(value, what), start=1):
        if raw is None or (isinstance(raw, str) and raw.strip().lower() in NO_CARD_MARKS):
            cards.append(None)
        else:
            cards.append(_strength(raw, f"{what}, front {i}"))
    return tuple(cards)  # type: ignore[return-value]


def parse_supports(value: str | Sequence, what: str) -> Supports:
    """Three support values from ``"2,0,1"``; ``0`` or ``-`` is no support card."""
    values = []
    for i, raw in enumerate(_three(value, what), start=1):
        if raw is None or (isinstance(raw, str) and raw.strip().lower() in NO_CARD_MARKS):
            values.append(0)
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
    ``"5,-,3"``. Supports: three values >= 0 (0 = none), only on fronts where that side has a
    card. ``points``: the battle's printed victory points. ``sea``: a sea battle, where the
    support slots hold fleet cards (their strength is the support value).
    """

    attacker: Fronts
    defender: Fronts
    year: int
    attacker_support: Supports = (0, 0, 0)
    defender_support: Supports = (0, 0, 0)
    points: int = 1
    sea: bool = False

    def __post_init__(self) -> None:
        slot = "fleet in the support slot" if self.sea else "support"
        for side in ("attacker", "defender"):
            cards = parse_fronts(getattr(self, side), side)
            support = parse_supports(getattr(self, f"{side}_support"), f"{side} {slot}")
            for i, (card, extra) in enumerate(zip(cards, support, strict=True), start=1):
                if card is None and extra:
                    raise TrenchError(f"{side} {slot} {extra} on front {i}, where the {side} "
                                      f"has no {'fleet' if self.sea else 'army'} card")
            object.__setattr__(self, side, cards)
            object.__setattr__(self, f"{side}_support", support)
        object.__setattr__(self, "year", check_year(self.year))
        object.__setattr__(self, "points", check_points(self.points))
        if not isinstance(self.sea, bool):
            raise TrenchError(f"sea must be True or False, not {self.sea!r}")

    @property
    def four_is_valid(self) -> bool:
        return self.year >= FOUR_IS_VALID_FROM

    @property
    def max_valid_face(self) -> int:
        """The highest artillery face that counts: 3, or 4 from 1917 on."""
        return 4 if self.four_is_valid else 3

    def has_card(self, side: str) -> tuple[bool, bool, bool]:
        return tuple(c is not None for c in getattr(self, side))  # type: ignore[return-value]

    def base_totals(self, side: str) -> tuple[int, int, int]:
        """Card plus support per front, before artillery (0 where the side has no card)."""
        cards = getattr(self, side)
        support = getattr(self, f"{side}_support")
        return tuple((c or 0) + s for c, s in zip(cards, support, strict=True))  # type: ignore

    def describe(self) -> str:
        """One line, e.g. ``1917 land, 2 VP: attacker 5+2 | - | 3+1 vs defender 4 | 4 | 4+3``."""
        def side(cards: Fronts, support: Supports) -> str:
            return " | ".join("-" if c is None else (f"{c}+{s}" if s else f"{c}")
                              for c, s in zip(cards, support, strict=True))

        where = "sea" if self.sea else "land"
        return (f"{self.year} {where}, {self.points} VP: attacker "
                f"{side(self.attacker, self.attacker_support)} vs defender "
                f"{side(self.defender, self.defender_support)}")
