"""The exact engine's TUV swing distribution against chances derived by hand, with both sides'
losses taken together (a convolution of the two sides' IPC-loss distributions gives other
chances in every battle here), its mean against ``tuv_swing`` and its sum against the
truncated mass."""

from fractions import Fraction as F

import pytest

import oddsim

TOL = 1e-12


def test_one_infantry_against_one_infantry():
    # attacker hits on 1 (1/6), defender on 2 (2/6), simultaneous; the round where nobody hits is
    # divided out: attacker only 1/6 * 4/6 = 4/36, defender only 5/6 * 2/6 = 10/36, both 2/36
    ends = 4 + 10 + 2
    chances = {3.0: F(4, ends), -3.0: F(10, ends), 0.0: F(2, ends)}  # +3: the defender's infantry
    r = oddsim.solve(oddsim.Battle("1942-2e", "1 inf", "1 inf"))
    assert r.tuv_swing_distribution() == pytest.approx({k: float(v) for k, v in sorted(chances.items())},
                                                       abs=TOL)
    assert list(r.tuv_swing_distribution()) == [-3.0, 0.0, 3.0]  # smallest first
    assert r.swing_distribution.mean == pytest.approx(r.tuv_swing, abs=TOL)
    assert r.tuv_swing_percentiles() == {5: -3.0, 50: -3.0, 95: 3.0}  # 5/8 at -3, 1/8 at 0, 1/4 at +3
    # the two sides' losses taken apart (attacker loses 0 with 1/4, defender 3 with 3/8) would
    # put 1/4 x 5/8 + 3/4 x 3/8 = 14/32 on a swing of 0, not the battle's 1/8
    apart = F(1, 4) * F(5, 8) + F(3, 4) * F(3, 8)
    assert r.tuv_swing_distribution()[0.0] != pytest.approx(float(apart))


def test_subs_against_a_fighter_and_a_destroyer_end_in_a_stalemate_with_both_sides_left():
    # 1942-2e: 2 subs (attack 2, 6 IPC) vs 1 fighter (defence 4, 10 IPC) and 1 destroyer (defence
    # 2, 8 IPC). The destroyer takes the subs' surprise strike and lets the fighter hit them;
    # subs cannot hit the fighter, so once it is sunk nobody can hit anybody (a stalemate).
    # Swings: stalemate with 2 subs +8, with 1 sub +8 - 6 = +2; subs all sunk with the destroyer
    # -12 + 8 = -4, without it -12.
    third = F(1, 3)
    defender_hits = {0: (1 - 2 * third) * (1 - third), 2: 2 * third * third}  # fighter 2/3, dd 1/3
    defender_hits[1] = 1 - defender_hits[0] - defender_hits[2]
    # one sub against both: it sinks the destroyer 1/3; the defender hits it 1 - 2/9 = 7/9
    one_loop = (1 - third) * defender_hits[0]
    one = {+2.0: third * defender_hits[0] / (1 - one_loop),
           -4.0: third * (1 - defender_hits[0]) / (1 - one_loop),
           -12.0: (1 - third) * (1 - defender_hits[0]) / (1 - one_loop)}
    sunk = 1 - (1 - third) ** 2  # two subs sink the destroyer
    loop = (1 - sunk) * defender_hits[0]
    to_one = (1 - sunk) * defender_hits[1] / (1 - loop)
    chances = {+8.0: sunk * defender_hits[0] / (1 - loop),
               +2.0: sunk * defender_hits[1] / (1 - loop) + to_one * one[+2.0],
               -4.0: sunk * defender_hits[2] / (1 - loop) + to_one * one[-4.0],
               -12.0: (1 - sunk) * defender_hits[2] / (1 - loop) + to_one * one[-12.0]}
    assert sum(chances.values()) == 1
    assert chances[8.0] + chances[2.0] == F(845, 1679)  # DESIGN.md's golden stalemate
    r = oddsim.solve(oddsim.Battle("1942-2e", "2 sub", "1 ftr, 1 dd", sea=True))
    assert r.tuv_swing_distribution() == pytest.approx(
        {k: float(v) for k, v in sorted(chances.items())}, abs=TOL)
    assert r.swing_distribution.mean == pytest.approx(r.tuv_swing, abs=TOL)
    assert r.stalemate == pytest.approx(float(F(845, 1679)), abs=TOL)


def test_a_retreat_after_round_one_leaves_both_sides_units():
    # 2 inf vs 2 inf, the attacker retreats after round 1: the end state is round 1's, each side's
    # hits binomial and independent (attacker 2 dice at 1/6, defender 2 at 2/6), swing 3 (k - m)
    def binomial(p):
        return {0: (1 - p) ** 2, 1: 2 * p * (1 - p), 2: p * p}

    attacker_hits, defender_hits = binomial(F(1, 6)), binomial(F(2, 6))
    chances: dict[float, F] = {}
    for k, pk in attacker_hits.items():
        for m, pm in defender_hits.items():
            chances[3.0 * (k - m)] = chances.get(3.0 * (k - m), F(0)) + pk * pm
    r = oddsim.solve(oddsim.Battle("1942-2e", "2 inf", "2 inf", retreat={"after_round": 1}))
    assert r.retreat == pytest.approx(float(F(35, 36) * F(32, 36)), abs=TOL)  # nobody wiped out
    assert r.tuv_swing_distribution() == pytest.approx(
        {k: float(v) for k, v in sorted(chances.items())}, abs=TOL)
    assert r.swing_distribution.mean == pytest.approx(r.tuv_swing, abs=TOL)


@pytest.mark.parametrize("battle", [
    oddsim.Battle("1942-2e", "3 inf, 2 art, 1 arm, 1 ftr, 1 bmb", "4 inf, 1 arm, 2 aa"),
    oddsim.Battle("anniversary", "2 sub, 1 dd, 2 ftr", "1 bb, 1 dd, 2 sub", sea=True, dice="lowluck"),
    oddsim.Battle("1942-2e", attacker=oddsim.Side("3 inf, 1 art, 1 arm, 1 ftr", landed="2 inf, 1 art"),
                  defender="4 inf, 1 aa", retreat={"after_round": 2}),
    oddsim.Battle("revised", attacker=oddsim.Side("3 sub, 1 bb", submerge="alone"), defender="2 sub, 1 dd",
                  sea=True, retreat={"after_round": 2}),
    oddsim.Battle("revised", "3 art", "2 ftr", retreat={"best": "tuv"}),
    oddsim.Battle("anniversary", "6 inf, 2 ftr, 1 bmb", "5 inf, 1 aa"),  # AA split by aircraft type
    oddsim.Battle("1942-2e", "30 inf, 10 arm, 5 ftr", "40 inf, 5 arm"),
], ids=["aa guns", "low luck subs", "landed units fight on", "submerging", "best retreat",
        "aa split", "large"])
def test_the_distribution_sums_to_one_and_its_mean_is_the_swing(battle):
    r = oddsim.solve(battle)
    dist = r.swing_distribution
    assert dist is not None
    assert dist.total == pytest.approx(1.0 - r.truncated_mass, abs=1e-9)
    assert dist.mean == pytest.approx(r.tuv_swing, abs=1e-9)
    assert list(dist.swings) == sorted(dist.swings)
    assert -r.attacker_ipc_total <= dist.swings[0] and dist.swings[-1] <= r.defender_ipc_total
