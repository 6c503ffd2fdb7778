"""An independent oracle for tests: exact odds of one unit against one unit, in Fractions (and
of one small battle with landed units and a retreat, ``landed_retreat_rounds``).

It knows nothing of oddsim's engines: a round is written out by hand (simultaneous fire, or one
side firing first and its casualty removed before the other fires) and the "nothing happened"
self-loop is divided out.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import comb


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


def landed_retreat_rounds() -> tuple[Fraction, Fraction]:
    """1942-2e, 1 inf (landed) + 1 armor attack 2 inf, retreating after round 2 or at 1 unit
    left or fewer: (chance the battle ends in a retreat, mean round of the retreat given one).
    The landed inf is lost first. After round 1 an armor alone retreats (round 1); after round 2
    every battle still fought retreats (round 2): the armor alone, or the armor leaving the inf
    to fight on, a retreat if the inf is then destroyed (``_inf_lost``)."""
    retreat = rounds = Fraction(0)
    for (inf, arm, d), p in _round(1, 1, 2).items():
        if d == 0 or inf + arm == 0:
            continue
        if inf + arm <= 1:
            retreat, rounds = retreat + p, rounds + p
            continue
        for (inf2, arm2, d2), p2 in _round(inf, arm, d).items():
            if d2 > 0 and inf2 + arm2 > 0:
                q = p * p2 * (_inf_lost(d2) if inf2 else 1)
                retreat, rounds = retreat + q, rounds + 2 * q
    return retreat, rounds / retreat


def _binomial(n: int, p: Fraction) -> list[Fraction]:
    return [comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


def _round(inf: int, arm: int, d: int) -> dict[tuple[int, int, int], Fraction]:
    """One round of inf (attack 1) and armor (attack 3) against d inf (defence 2), the inf
    lost first: chance of each (inf, armor, defenders) left."""
    attack = [Fraction(0)] * (inf + arm + 1)
    for hi, pi in enumerate(_binomial(inf, hit(1))):
        for ha, pa in enumerate(_binomial(arm, hit(3))):
            attack[hi + ha] += pi * pa
    out: dict[tuple[int, int, int], Fraction] = {}
    for ha, pa in enumerate(attack):
        for hd, pd in enumerate(_binomial(d, hit(2))):
            lost_inf = min(hd, inf)
            key = (inf - lost_inf, arm - min(hd - lost_inf, arm), max(d - ha, 0))
            out[key] = out.get(key, Fraction(0)) + pa * pd
    return out


def _inf_lost(d: int) -> Fraction:
    """Chance that 1 inf (attack 1) fighting d inf (defence 2) to the end is destroyed."""
    if d == 0:
        return Fraction(0)
    defence = _binomial(d, hit(2))
    stay = (1 - hit(1)) * defence[0]
    return (hit(1) * defence[0] * _inf_lost(d - 1) + sum(defence[1:])) / (1 - stay)


def normal_quantile_975() -> float:
    """The standard normal distribution's 97.5% quantile (a 95% band is this many standard errors
    either side), from SciPy rather than from oddsim's own constant."""
    from scipy.stats import norm

    return float(norm.ppf(0.975))
