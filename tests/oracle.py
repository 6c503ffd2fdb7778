"""An independent oracle for tests: exact odds of one unit against one unit, in Fractions.

It knows nothing of oddsim's engines: a round is written out by hand (simultaneous fire, or one
side firing first and its casualty removed before the other fires) and the "nothing happened"
self-loop is divided out.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache


def hit(value: int) -> Fraction:
    """Chance that one die hits on ``value`` or less."""
    return Fraction(value, 6)


def duel(attack: int, defense: int, attacker_hp: int = 1, defender_hp: int = 1,
         first: str = "none") -> tuple[Fraction, Fraction, Fraction]:
    """(attacker wins, defender wins, draw) of one unit against one unit; ``first`` is
    "none", "attacker" or "defender": who fires first each round (casualties do not fire back)."""
    return duel_p(hit(attack), hit(defense), attacker_hp, defender_hp, first)


def duel_p(pa: Fraction, pd: Fraction, attacker_hp: int = 1, defender_hp: int = 1,
           first: str = "none") -> tuple[Fraction, Fraction, Fraction]:
    """``duel`` with each side's chance to score a hit in a round given directly."""

    @cache
    def value(ha: int, hd: int) -> tuple[Fraction, Fraction, Fraction]:
        if ha == 0 and hd == 0:
            return (Fraction(0), Fraction(0), Fraction(1))
        if hd == 0:
            return (Fraction(1), Fraction(0), Fraction(0))
        if ha == 0:
            return (Fraction(0), Fraction(1), Fraction(0))
        moves: dict[tuple[int, int], Fraction] = {}

        def add(state, p):
            moves[state] = moves.get(state, Fraction(0)) + p

        for a_hit, p_a in ((1, pa), (0, 1 - pa)):
            for d_hit, p_d in ((1, pd), (0, 1 - pd)):
                p = p_a * p_d
                if first == "attacker" and a_hit and hd - 1 == 0:
                    add((ha, 0), p)  # the defender died before firing back
                elif first == "defender" and d_hit and ha - 1 == 0:
                    add((0, hd), p)
                else:
                    add((ha - d_hit, hd - a_hit), p)
        stay = moves.pop((ha, hd), Fraction(0))
        total = [Fraction(0)] * 3
        for state, p in moves.items():
            for i, v in enumerate(value(*state)):
                total[i] += p * v / (1 - stay)
        return tuple(total)

    return value(attacker_hp, defender_hp)
