"""Bombardment, submerging subs and landed units in the Monte Carlo engine, against odds derived
by hand (fractions; the derivations are in the comments), at fixed seeds, within 4.5 standard
errors. A START edition (anniversary: the boundary between rounds also comes before round 1) and
the END edition (revised: subs submerge only at the end of a round) are both covered.
"""

import importlib
import math
from fractions import Fraction as F

import pytest
from oracle import duel, landed_retreat_rounds
from readings import every_round_strike

from oddsim.model.options import battle_from
from oddsim.stages.pipeline import simulate

RUNS = 200_000
Z = 4.5


def B(rules, attacker, defender=None, **options):
    """A battle with its options by their flat names, as the command line gives them."""
    return battle_from(rules, attacker, defender, options)
GENERAL = ["plain path", "general path"]


def close(got: float, p: F, n: int = RUNS) -> bool:
    """``got`` is within Z standard errors of the exact probability ``p``."""
    return abs(got - float(p)) <= Z * math.sqrt(float(p * (1 - p)) / n) + 1e-12


def check_outcomes(r, attacker_win=F(0), defender_win=F(0), draw=F(0), retreat=F(0),
                   stalemate=F(0)) -> None:
    assert attacker_win + defender_win + draw + retreat + stalemate == 1
    for name, p in (("attacker_win", attacker_win), ("defender_win", defender_win), ("draw", draw),
                    ("retreat", retreat), ("stalemate", stalemate)):
        assert close(getattr(r, name), p), (name, getattr(r, name), float(p))


def check_rows(rows, expected: dict[str, F]) -> None:
    """The survivor rows are exactly ``expected``'s labels, each with its probability."""
    assert sum(expected.values()) == 1
    got = {row.units: row.probability for row in rows}
    assert set(got) == set(expected), (sorted(got), sorted(expected))
    for units, p in expected.items():
        assert close(got[units], p), (units, got[units], float(p))


def check_mean(r, name: str, value: F) -> None:
    assert abs(getattr(r, name) - float(value)) <= Z * r.std_error[name] + 1e-9, (
        name, getattr(r, name), float(value))


@pytest.fixture
def path(request, monkeypatch):
    """Run on the plain path (casualty counts) or force the general one."""
    if request.param == "general path":
        monkeypatch.setattr(importlib.import_module("oddsim.engines.montecarlo._model"), "MAX_PLAIN_WORK", -1)
    return request.param


# --- bombardment -------------------------------------------------------------------------------

@pytest.mark.parametrize("path", GENERAL, indirect=True)
def test_bombardment_casualties_do_not_fire_back_in_revised(path):
    # The battleship hits on 4 before round 1 (2/3): the defender is gone, no round is fought.
    # Else 1 inf @1 against 1 inf @2 is fought out: duel(1, 2) = (1/4, 5/8, 1/8).
    r = simulate(B("revised", "1 inf", "1 inf", landed="1 inf", bombard="1 bb"), runs=RUNS, seed=31)
    a, d, draw = duel(1, 2)
    check_outcomes(r, F(2, 3) + F(1, 3) * a, F(1, 3) * d, F(1, 3) * draw)
    assert r.attacker_win == pytest.approx(0.75, abs=Z * math.sqrt(0.75 * 0.25 / RUNS))
    assert close(r.takes_territory, F(3, 4))
    check_rows(r.attacker_survivors, {"1 infantry": F(3, 4), "none": F(1, 4)})
    # rounds: none after a bombardment hit; else the duel's rounds, 1 / (decisive chance 4/9)
    check_mean(r, "expected_rounds", F(1, 3) * F(9, 4))


@pytest.mark.parametrize("path", GENERAL, indirect=True)
def test_bombardment_casualties_fire_back_in_1942(path):
    # Round 1: the defender dies w.p. 1 - (5/6)(2/6) = 26/36 (inf @1 and bb @4), the attacker
    # w.p. 1/3, independently. Both alive (10/36 x 2/3 = 20/108): duel(1, 2) goes on.
    r = simulate(B("1942-2e", "1 inf", "1 inf", landed="1 inf", bombard="1 bb"), runs=RUNS, seed=32)
    a, d, draw = duel(1, 2)
    on = F(10, 36) * F(2, 3)
    win = F(26, 36) * F(2, 3) + on * a
    assert win == F(19, 36)
    check_outcomes(r, win, F(10, 36) * F(1, 3) + on * d, F(26, 36) * F(1, 3) + on * draw)
    check_rows(r.defender_survivors, {"1 infantry": F(10, 108) + on * d,
                                      "none": 1 - F(10, 108) - on * d})


@pytest.mark.parametrize("path", GENERAL, indirect=True)
def test_low_luck_bombardment_is_one_group(path):
    # 1942-2e, Low Luck: the bb (4) and cruiser (3) score strength 7 as one group: 1 hit, and a
    # second w.p. 1/6; the two attacking inf (strength 2) are a group of their own: a hit w.p.
    # 1/3; the two defending inf (strength 4) hit w.p. 2/3. Round 1 kills both defenders w.p.
    # 1 - (5/6)(2/3) = 4/9 (they fire back first). Otherwise 1 defender is left against 2 inf
    # (1/3) or 1 inf (2/3): from (2, 1) each side hits w.p. 1/3 a round, giving (win 2 inf,
    # win 1 inf, to (1, 1)) = (2/5, 1/5, 2/5); from (1, 1): duel(1, 2).
    battle = B("1942-2e", "2 inf", "2 inf", landed="2 inf", bombard="1 bb, 1 cru", dice="lowluck")
    r = simulate(battle, runs=RUNS, seed=33)
    a, d, draw = duel(1, 2)
    from_21 = (F(3, 5) + F(2, 5) * a, F(2, 5) * d, F(2, 5) * draw)
    rest = [F(5, 9) * (F(1, 3) * x + F(2, 3) * y) for x, y in zip(from_21, (a, d, draw), strict=True)]
    assert (F(4, 9) + rest[0], rest[1], rest[2]) == (F(2, 3), F(5, 18), F(1, 18))
    check_outcomes(r, F(2, 3), F(5, 18), F(1, 18))


@pytest.mark.parametrize("path", GENERAL, indirect=True)
def test_low_luck_bombardment_fire_back_and_before_round_one(path):
    # Strength 7 always kills a lone defender. In 1942-2e it fires back in round 1 (strength 2:
    # a hit w.p. 1/3); in revised two battleships (strength 8) kill it before round 1.
    r = simulate(B("1942-2e", "2 inf", "1 inf", landed="2 inf", bombard="1 bb, 1 cru",
                   dice="lowluck"), runs=RUNS, seed=34)
    check_outcomes(r, attacker_win=F(1))
    check_rows(r.attacker_survivors, {"2 infantry": F(2, 3), "1 infantry": F(1, 3)})
    assert r.expected_rounds == 1
    r = simulate(B("revised", "1 inf", "1 inf", landed="1 inf", bombard="2 bb", dice="lowluck"),
                 runs=10_000, seed=35)
    assert (r.attacker_win, r.expected_rounds, r.attacker_ipc_lost) == (1.0, 0.0, 0.0)
    assert [(s.units, s.probability) for s in r.attacker_survivors] == [("1 infantry", 1.0)]


# --- submerging subs ---------------------------------------------------------------------------

def test_attacking_sub_submerges_after_round_one_in_revised():
    # The sub strikes first at 2 (1/3): the transport dies before it fires. Else the transport
    # fires at 1 (1/6); a surviving sub submerges at the end of round 1: a retreat.
    r = simulate(B("revised", "1 sub", "1 trn", sea=True, attacker_submerge="always"),
                 runs=RUNS, seed=41)
    check_outcomes(r, F(1, 3), F(1, 9), retreat=F(5, 9))
    check_rows(r.attacker_survivors, {"1 submarine (submerged)": F(5, 9), "1 submarine": F(1, 3),
                                      "none": F(1, 9)})
    check_rows(r.defender_survivors, {"1 transport": F(2, 3), "none": F(1, 3)})
    assert r.retreat_round == 1.0 and r.expected_rounds == 1.0
    check_mean(r, "attacker_ipc_lost", F(8, 9))
    assert r.std_error["retreat"] > 0


def test_attacking_sub_submerges_before_round_one_in_anniversary():
    # With no enemy destroyer the sub submerges before round 1; the destroyer (2) fights the
    # cruiser (3) alone: duel(2, 3) = (1/4, 1/2, 1/4). If the destroyer dies, the battle is a
    # retreat (the attacker's units in it are gone, the sub lives).
    r = simulate(B("anniversary", "1 sub, 1 dd", "1 cru", sea=True, attacker_submerge="always"),
                 runs=RUNS, seed=42)
    a, d, draw = duel(2, 3)
    assert (a, d, draw) == (F(1, 4), F(1, 2), F(1, 4))
    check_outcomes(r, a, retreat=d + draw)
    check_rows(r.attacker_survivors, {
        "1 submarine (submerged)": d + draw,
        "1 submarine, 1 destroyer (1 submarine submerged)": a})
    check_rows(r.defender_survivors, {"1 cruiser": d, "none": a + draw})
    check_mean(r, "attacker_ipc_lost", 8 * (d + draw))
    check_mean(r, "expected_rounds", F(3, 2))  # the duel is decided w.p. 2/3 a round


def test_no_retreat_before_round_one_and_retreat_after_a_submerge():
    # anniversary: the sub submerges before round 1, leaving 1 unit in the battle, but retreat
    # rules are checked at the end of rounds only. Round 1, dd @2 against cru @3: the dd alone
    # hits (1/6): a win; both live (1/3): the dd retreats, the sub had submerged; the dd dies
    # (1/2): a retreat of the units in the battle gone, the sub lives.
    r = simulate(B("anniversary", "1 sub, 1 dd", "1 cru", sea=True, attacker_submerge="always",
                   retreat={"units_left": 1}), runs=RUNS, seed=50)
    check_outcomes(r, F(1, 6), retreat=F(5, 6))
    check_rows(r.attacker_survivors, {
        "1 submarine, 1 destroyer (1 submarine submerged)": F(1, 6),
        "1 submarine, 1 destroyer (1 submarine submerged, the rest retreated)": F(1, 3),
        "1 submarine (submerged)": F(1, 2)})
    assert r.retreat_round == 1.0 and r.expected_rounds == 1.0


def test_attacking_sub_submerges_when_alone_in_anniversary():
    # Destroyer lost first. The sub strikes first (1/3: the cruiser dies before firing);
    # else dd @2 and cru @3 fire: dd hits -> win (with the dd if the cruiser missed); dd misses
    # and the cruiser hits -> the sub is alone and submerges: a retreat. Per round: win with
    # both 1/3 + 2/3 x 1/6 = 4/9, win with the sub 1/9, retreat 2/9, again 2/9. (The sub
    # strikes first every round: anniversary read so, its default being round 1 only.)
    r = simulate(B(every_round_strike("anniversary"), "1 sub, 1 dd", "1 cru", sea=True,
                   attacker_submerge="alone", ool_attacker="dd"), runs=RUNS, seed=43)
    check_outcomes(r, F(5, 7), retreat=F(2, 7))
    check_rows(r.attacker_survivors, {"1 submarine, 1 destroyer": F(4, 7), "1 submarine": F(1, 7),
                                      "1 submarine (submerged)": F(2, 7)})


def test_attacking_sub_submerges_when_alone_in_revised():
    # The sub strikes first but cannot hit the fighter. dd @3, ftr @4 (takes the dd first):
    # dd hits -> win (with the dd if the fighter missed: 1/6; without: 1/3); dd misses and the
    # fighter hits (1/3): the sub is alone and submerges; both miss (1/6): again.
    r = simulate(B("revised", "1 sub, 1 dd", "1 ftr", sea=True, attacker_submerge="alone",
                   ool_attacker="dd"), runs=RUNS, seed=44)
    check_outcomes(r, F(3, 5), retreat=F(2, 5))
    check_rows(r.attacker_survivors, {"1 submarine": F(2, 5), "1 submarine, 1 destroyer": F(1, 5),
                                      "1 submarine (submerged)": F(2, 5)})
    check_mean(r, "expected_rounds", F(6, 5))


def test_defending_sub_submerges_always():
    # anniversary (start): it leaves before round 1, the attacker wins without a round;
    # revised (end): the fighter hits it w.p. 1/2 in round 1, else it submerges after it.
    r = simulate(B("anniversary", "1 cru", "1 sub", sea=True, defender_submerge="always"),
                 runs=10_000, seed=45)
    assert (r.attacker_win, r.expected_rounds, r.defender_ipc_lost) == (1.0, 0.0, 0.0)
    assert [(s.units, s.probability) for s in r.defender_survivors] == [
        ("1 submarine (submerged)", 1.0)]
    r = simulate(B("revised", "1 ftr", "1 sub", sea=True, defender_submerge="always"),
                 runs=RUNS, seed=46)
    check_outcomes(r, attacker_win=F(1))
    check_rows(r.defender_survivors, {"1 submarine (submerged)": F(1, 2), "none": F(1, 2)})
    assert r.expected_rounds == 1.0
    check_mean(r, "defender_ipc_lost", F(4))


def test_defending_sub_submerges_when_alone_in_anniversary():
    # Destroyer lost first. The sub strikes first at 1 (1/6: the cruiser dies). Else cru @3
    # and dd @2 fire: both hit (5/36) -> defender wins with the sub (the battle ends before the
    # subs may submerge); the cruiser alone hits (10/36) -> the sub is alone, submerges and the
    # attacker wins; the destroyer alone hits (5/36) -> defender wins with both; else again.
    # (The sub strikes first every round: anniversary read so, its default being round 1 only.)
    r = simulate(B(every_round_strike("anniversary"), "1 cru", "1 sub, 1 dd", sea=True,
                   defender_submerge="alone", ool_defender="dd"), runs=RUNS, seed=47)
    check_outcomes(r, F(5, 13), F(8, 13))
    check_rows(r.defender_survivors, {"1 submarine (submerged)": F(5, 13), "1 submarine": F(5, 26),
                                      "1 submarine, 1 destroyer": F(11, 26)})
    check_mean(r, "defender_ipc_lost", 8 * (F(5, 13) + F(5, 26)))


def test_defending_sub_submerges_when_alone_in_revised():
    # Transport (defends at 1) lost first; the sub's first strike cannot hit the fighter. Per
    # round: ftr hits, trn misses (5/12) -> the sub is alone and submerges, the attacker wins;
    # both hit (1/12) -> defender wins with the sub; trn alone hits (1/12) -> with both.
    r = simulate(B("revised", "1 ftr", "1 sub, 1 trn", sea=True, defender_submerge="alone",
                   ool_defender="trn"), runs=RUNS, seed=48)
    check_outcomes(r, F(5, 7), F(2, 7))
    check_rows(r.defender_survivors, {"1 submarine (submerged)": F(5, 7), "1 submarine": F(1, 7),
                                      "1 transport, 1 submarine": F(1, 7)})
    # anniversary: its transport is defenceless, so the sub is alone from the start: it leaves
    # before round 1 and the transport, left alone, is destroyed
    r = simulate(B("anniversary", "1 ftr", "1 sub, 1 trn", sea=True, defender_submerge="alone"),
                 runs=10_000, seed=49)
    assert (r.attacker_win, r.expected_rounds) == (1.0, 0.0)
    assert [(s.units, s.probability) for s in r.defender_survivors] == [
        ("1 submarine (submerged)", 1.0)]


# --- landed units and partial retreat ----------------------------------------------------------

def test_landed_units_fight_on_when_the_others_retreat():
    # 1942-2e: the landed inf is lost before the armor. Round 1: the defender dies w.p.
    # 1 - (5/6)(1/2) = 7/12, the landed inf w.p. 1/3. After round 1 the attacker retreats: if the
    # landed inf is dead, a plain retreat; else the armor leaves and the inf fights on, duel(1, 2).
    r = simulate(B("1942-2e", "1 inf, 1 arm", "1 inf", landed="1 inf", retreat={"after_round": 1}),
                 runs=RUNS, seed=51)
    a, d, draw = duel(1, 2)
    fights_on = F(5, 12) * F(2, 3)
    check_outcomes(r, F(7, 12) + fights_on * a, retreat=F(5, 12) * F(1, 3) + fights_on * (d + draw))
    assert r.attacker_win == pytest.approx(47 / 72, abs=0.01)
    assert close(r.takes_territory, F(47, 72))
    check_rows(r.attacker_survivors, {
        "1 infantry, 1 armor": F(7, 12) * F(2, 3),
        "1 armor": F(7, 12) * F(1, 3),
        "1 armor (retreated)": F(5, 12) * F(1, 3),
        "1 armor (retreated; the landed units fought on and were destroyed)": fights_on * (d + draw),
        "1 infantry, 1 armor (1 armor retreated)": fights_on * a})
    landed = r.landed_after_retreat
    for name, p in (("won", fights_on * a), ("destroyed", fights_on * d),
                    ("both_destroyed", fights_on * draw)):
        assert close(landed[name], p), name
    check_rows(r.defender_survivors, {"1 infantry": F(5, 12) * F(1, 3) + fights_on * d,
                                      "none": 1 - F(5, 12) * F(1, 3) - fights_on * d})
    check_mean(r, "attacker_ipc_lost", 3 * (F(7, 12) * F(1, 3) + F(5, 12) * F(1, 3)
                                            + fights_on * (d + draw)))
    # every retreat leaves after round 1, also where the inf fought on and died (before: 1 + 9/4)
    assert r.retreat_round == 1.0 and r.std_error["retreat_round"] == 0.0


def test_retreat_round_is_the_round_the_others_left():
    # retreats after round 1 (the armor alone) or 2 (the armor alone, or leaving the landed inf
    # to fight on and die): the oracle's independent sum; the error is the retreats' own
    retreat, rounds = landed_retreat_rounds()
    r = simulate(B("1942-2e", "1 inf, 1 arm", "2 inf", landed="1 inf",
                   retreat={"after_round": 2, "units_left": 1}), runs=RUNS, seed=53)
    assert close(r.retreat, retreat)
    check_mean(r, "retreat_round", rounds)
    # the rounds of a retreat are 1 or 2: variance m(1 - m) for a mean 1 + m
    m = float(rounds) - 1
    assert r.std_error["retreat_round"] == pytest.approx(math.sqrt(m * (1 - m) / (r.retreat * RUNS)),
                                                         rel=0.05)


def test_units_left_rule_counts_units_in_the_battle():
    # Retreat at 1 unit or fewer in the battle: after a round in which the landed inf died the
    # armor retreats (a plain retreat); while both live nothing happens.
    battle = B("1942-2e", "1 inf, 1 arm", "1 inf", landed="1 inf", retreat={"units_left": 1})
    r = simulate(battle, runs=RUNS, seed=52)
    # Per round, from both alive against 1 inf: defender dies 7/12; the landed inf dies 1/3.
    # defender dead -> win; defender alive and inf dead (5/36) -> armor alone left: retreat;
    # neither (10/36) -> again. Landed inf never left alone, so no partial retreat here.
    check_outcomes(r, F(7, 12) / F(26, 36), retreat=F(5, 36) / F(26, 36))


# --- reproducibility ---------------------------------------------------------------------------
