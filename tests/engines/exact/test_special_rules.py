"""One test per special rule and edition, each showing the rule act, against hand-derived odds.

The expected values come from tests/oracle.py (a one-against-one Markov chain written out by
hand in Fractions) or from arithmetic in the test itself.
"""

from fractions import Fraction as F

import pytest
from oracle import duel
from readings import every_round_strike

import oddsim
from oddsim.model.options import battle_from
from oddsim.model.rules import with_changes

TOL = 1e-12


def solve(rules, attacker, defender, sea=False, **options):
    return oddsim.solve(battle_from(rules, attacker, defender, {"sea": sea, **options}))


def assert_odds(result, expected):
    win, loss, draw = expected
    assert result.attacker_win == pytest.approx(float(win), abs=TOL)
    assert result.defender_win == pytest.approx(float(loss), abs=TOL)
    assert result.draw == pytest.approx(float(draw), abs=TOL)


# --- submarines -------------------------------------------------------------------------------

# europe-1999 with the reading of its unit chart: transports defend at 1 (its default rolls no
# die for them, tests/test_readings.py)
EUROPE_CHART = with_changes("europe-1999", {"units.transport.defense": 1})


@pytest.mark.parametrize("rules", [EUROPE_CHART, "revised"])
def test_attacking_sub_strikes_first_without_enemy_destroyer(rules):
    # sub @2 against a transport that defends @1: the transport hit by the sub never fires back
    assert_odds(solve(rules, "1 sub", "1 trn", sea=True), duel(2, 1, first="attacker"))


@pytest.mark.parametrize("rules, sub, dd", [("europe-1999", 2, 3), ("revised", 2, 3),
                                            ("anniversary", 2, 2), ("1942-2e", 2, 2),
                                            ("global-1940-2e", 2, 2)])
def test_enemy_destroyer_makes_sub_casualties_fire_back(rules, sub, dd):
    assert_odds(solve(rules, "1 sub", "1 dd", sea=True), duel(sub, dd))


def test_europe_1999_defending_subs_fire_with_the_normal_defence():
    # battleship (2 hits, @4) against a defending sub (@2): no first strike for the defender
    assert_odds(solve("europe-1999", "1 bb", "1 sub", sea=True), duel(4, 2, 2, 1))


@pytest.mark.parametrize("rules, sub_defense", [("revised", 2), ("anniversary", 1),
                                                ("1942-2e", 1), ("global-1940-2e", 1)])
def test_defending_subs_strike_first_without_attacking_destroyer(rules, sub_defense):
    # the duel's sub strikes first every round: anniversary read so (its default is round 1 only)
    rules = every_round_strike(rules)
    assert_odds(solve(rules, "1 bb", "1 sub", sea=True), duel(4, sub_defense, 2, 1, first="defender"))
    # an attacking destroyer cancels it: then both fire together
    with_dd = solve(rules, "1 dd", "1 sub", sea=True)
    dd_attack = oddsim.load_ruleset(rules).unit("destroyer").attack
    assert_odds(with_dd, duel(dd_attack, sub_defense))


def test_revised_aircraft_always_hit_subs():
    result = solve("revised", "1 ftr", "1 sub", sea=True)
    assert result.attacker_win == pytest.approx(1.0, abs=TOL)  # the sub cannot hit the fighter


@pytest.mark.parametrize("rules", ["europe-1999", "anniversary", "1942-2e", "global-1940-2e"])
def test_aircraft_need_a_destroyer_to_hit_subs(rules):
    assert solve(rules, "1 ftr", "1 sub", sea=True).stalemate == pytest.approx(1.0, abs=TOL)
    # with a destroyer on their side they can; the dd is lost first (cheaper), the sub cannot
    # hit the fighter, so the attacker never loses the fighter
    result = solve(rules, "1 ftr, 1 dd", "1 sub", sea=True)
    assert result.attacker_win + result.stalemate == pytest.approx(1.0, abs=TOL)
    # each round: any attacking hit sinks the sub (a win); else a sub hit sinks the destroyer
    # (the fighter alone cannot hit the sub: a stalemate); else the round repeats
    ruleset = oddsim.load_ruleset(rules)
    hit = 1 - (1 - F(ruleset.unit("fighter").attack, 6)) * (1 - F(ruleset.unit("destroyer").attack, 6))
    sub_hit = F(ruleset.unit("submarine").defense, 6)
    assert result.attacker_win == pytest.approx(float(hit / (hit + (1 - hit) * sub_hit)), abs=TOL)


def test_sub_hits_never_take_aircraft():
    # defending sub @1 against fighter + destroyer: its hits may only take the destroyer
    # even with the fighter first in the order of loss. Each round the attack (ftr @3, dd @2)
    # hits with 1 - (1/2)(2/3) = 2/3 and the sub @1 with 1/6, together; a round of two misses
    # repeats (divide by 1 - (1/3)(5/6) = 13/18):
    #   attack hits, sub misses: both ships survive          (2/3)(5/6) / (13/18) = 10/13
    #   sub hits (the destroyer), whatever the attack does:   (1/6)      / (13/18) =  3/13
    #   (after the destroyer sinks the fighter cannot hit the sub: a stalemate, fighter alive)
    result = solve("1942-2e", "1 ftr, 1 dd", "1 sub", sea=True, ool_attacker="ftr,dd")
    survivors = {tuple(sorted(s.counts.items())): s.probability for s in result.attacker_survivors}
    assert survivors.keys() == {(("destroyer", 1), ("fighter", 1)), (("fighter", 1),)}
    assert survivors[(("destroyer", 1), ("fighter", 1))] == pytest.approx(float(F(10, 13)), abs=TOL)
    assert survivors[(("fighter", 1),)] == pytest.approx(float(F(3, 13)), abs=TOL)


# --- AA guns ------------------------------------------------------------------------------------

@pytest.mark.parametrize("rules", ["europe-1999", "revised", "anniversary"])
def test_one_aa_die_per_aircraft_whatever_the_number_of_guns(rules):
    # four fighters against two AA guns alone: four dice, one hit on 1 each
    result = solve(rules, "4 ftr", "2 aa")
    assert result.defender_win == pytest.approx(float(F(1, 6) ** 4), abs=TOL)


@pytest.mark.parametrize("rules", ["1942-2e", "global-1940-2e"])
def test_three_aa_dice_per_gun_at_most(rules):
    # one gun fires three dice at four fighters: at least one fighter survives, the gun is lost
    assert solve(rules, "4 ftr", "1 aa").attacker_win == pytest.approx(1.0, abs=TOL)
    # two guns fire min(6, 4) = 4 dice
    result = solve(rules, "4 ftr", "2 aa")
    assert result.defender_win == pytest.approx(float(F(1, 6) ** 4), abs=TOL)


def test_aa_hits_only_aircraft():
    # 1 inf + 1 ftr attack 1 AA + 1 inf (1942-2e); the AA die may only take the fighter even
    # though infantry comes first in the order of loss
    result = solve("1942-2e", "1 inf, 1 ftr", "1 aa")
    assert result.attacker_win == pytest.approx(1.0, abs=TOL)
    assert result.takes_territory == pytest.approx(1.0, abs=TOL)
    lost_fighter = sum(s.probability for s in result.attacker_survivors if s.units == "1 infantry")
    assert lost_fighter == pytest.approx(1 / 6, abs=TOL)


def test_aa_gun_is_a_casualty_in_1942_but_not_in_anniversary():
    # a tank against infantry + AA gun: in 1942-2e the gun is lost with the territory (cost 5);
    # when tank and infantry die together the gun holds the territory in both editions (the
    # infantry chosen first: the default would lose the gun first, tests/test_order_of_loss.py)
    win, loss, draw = duel(3, 2)
    new = solve("1942-2e", "1 arm", "1 inf, 1 aa", ool_defender="inf,aa")
    old = solve("anniversary", "1 arm", "1 inf, 1 aa")
    for result in (new, old):
        assert_odds(result, (win, loss + draw, 0))
    assert new.defender_ipc_lost == pytest.approx(float(win * 8 + draw * 3), abs=TOL)
    assert old.defender_ipc_lost == pytest.approx(float((win + draw) * 3), abs=TOL)


# --- transports ---------------------------------------------------------------------------------

@pytest.mark.parametrize("rules", [EUROPE_CHART, "revised"])
def test_transports_defend_at_one(rules):
    assert_odds(solve(rules, "1 ftr", "1 trn", sea=True), duel(3, 1))


@pytest.mark.parametrize("rules", ["anniversary", "1942-2e", "global-1940-2e"])
def test_defenceless_transports_alone_are_destroyed(rules):
    result = solve(rules, "1 ftr", "2 trn", sea=True)
    assert result.attacker_win == pytest.approx(1.0, abs=TOL)
    assert result.expected_rounds == 0
    assert result.defender_ipc_lost == 14


@pytest.mark.parametrize("rules", ["anniversary", "1942-2e", "global-1940-2e"])
def test_defenceless_transports_are_chosen_last(rules):
    # destroyer + transport against a destroyer: the transport never fires and goes last, so the
    # defender wins only by sinking the destroyer; then the transport alone is destroyed
    result = solve(rules, "1 dd", "1 dd, 1 trn", sea=True, ool_defender="trn,dd")
    win, loss, draw = duel(2, 2)
    assert_odds(result, (win, loss + draw, 0))  # when both destroyers sink, the transport stays


# --- two-hit units, support -------------------------------------------------------------------

def test_damaged_battleship_has_one_hit_left():
    assert_odds(solve("1942-2e", "1 bmb", "1 damaged bb", sea=True), duel(4, 4))


@pytest.mark.parametrize("rules, hits", [("1942-2e", 1), ("global-1940-2e", 2)])
def test_carrier_takes_two_hits_only_in_global(rules, hits):
    assert_odds(solve(rules, "1 bmb", "1 cv", sea=True), duel(4, 2, 1, hits))


# 1 inf + 1 art attack 1 inf, infantry lost first. While both live they roll two dice at 2:
# a hit with 5/9; the defender hits with 1/3. Win: (15/27 + 4/27 * 2/5) / (19/27) = 83/95, and
# the artillery left alone (2 against 2: 2/5, 2/5, 1/5) gives defender 8/95, draw 4/95.
SUPPORTED_PAIR = (F(83, 95), F(8, 95), F(4, 95))


@pytest.mark.parametrize("rules", ["europe-1999", "revised", "anniversary", "1942-2e",
                                   "global-1940-2e"])
def test_artillery_raises_one_infantry_to_two(rules):
    assert_odds(solve(rules, "1 inf, 1 art", "1 inf"), SUPPORTED_PAIR)
    # two infantry per artillery are not supported: the second one fires at 1
    assert solve(rules, "2 inf, 1 art", "2 inf").attacker_win < solve(
        rules, "2 inf, 2 art", "2 inf", ool_attacker="art,inf").attacker_win


def test_global_artillery_supports_mech_infantry():
    assert_odds(solve("global-1940-2e", "1 mech, 1 art", "1 inf"), SUPPORTED_PAIR)


def test_global_tactical_bomber_paired_with_fighter_attacks_at_four():
    # tac @4 (paired) + ftr @3 against 1 inf @2, fighter lost first: a hit with 5/6. Win
    # (15/18 + 1/18 * 1/2) / (16/18) = 31/32, the lone tac at 3 (1/2, 1/4, 1/4) gives 1/64 each
    assert_odds(solve("global-1940-2e", "1 tac, 1 ftr", "1 inf", ool_attacker="ftr,tac"),
                (F(31, 32), F(1, 64), F(1, 64)))
    # paired with a tank (also attacking at 3) instead: the same odds
    assert_odds(solve("global-1940-2e", "1 tac, 1 arm", "1 inf", ool_attacker="arm,tac"),
                (F(31, 32), F(1, 64), F(1, 64)))
    # unpaired (with infantry) the tac attacks at 3: worse
    assert solve("global-1940-2e", "1 tac, 1 inf", "1 inf", ool_attacker="inf,tac").attacker_win \
        < 31 / 32
