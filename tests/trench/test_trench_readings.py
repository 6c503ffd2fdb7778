"""The readings the rules summary leaves open (issue 22): a tied front, a sea battle's support-slot
fleet, and every answer naming the readings it was computed under.

The seed (``shared/seeds/002_*.txt``, Czech) says of the fronts only "Vítězem je ten, kdo
zvítězil na více frontách" (the winner is who won more fronts) and of a drawn *battle* "pokládá
se to za vítězství obránce, který si přičte přesně jeden bod" (it counts as the defender's win,
exactly one point): it is silent on a tied front, so ``tied_front="nobody"`` (the reading before
this issue) stays the default, as our assumption. It names the card a lost front loses, "karta
armády poraženého" (the loser's army card), sends "support cards" to the discard pile, and has
fleet cards played "na frontu i na místo určené pro karty podpory" (on the front and in the
support slot) at sea, without saying which a support-slot fleet is: ``support_fleet="survives"``
(the reading before) stays the default, as our assumption.

Sums of three dice before 1917, out of 216 (each die adds 0 with 3/6, 1, 2, 3 with 1/6 each):
``SUM_1914[s]`` is the number of ordered rolls whose valid faces add to ``s`` (the generating
function ((3 + x + x^2 + x^3) / 6)^3, written out in test_trench_exact.py).
"""

import json
import random
from fractions import Fraction as F

import pytest
from click.testing import CliRunner

from oddsim.trench import TrenchBattle, advise, simulate_trench, solve_trench
from oddsim.trench.advice import Commitment, Hand

SUM_1914 = [27, 27, 36, 46, 30, 24, 16, 6, 3, 1]
PAIRS = 216 * 216  # ordered roll pairs, 46,656


def pairs(condition) -> int:
    """Ordered roll pairs (attacker sum i, defender sum j) with ``condition(i, j)``, 1914."""
    return sum(SUM_1914[i] * SUM_1914[j] for i in range(10) for j in range(10)
               if condition(i, j))


def fraction(result, count_of) -> F:
    return F(count_of(result.counts), result.counts.total)


def joint(i_condition):
    return lambda c: sum(c.joint[i][j] for i in range(4) for j in range(4) if i_condition(i, j))


# --- 1. a tied front ---------------------------------------------------------------------

# Attacker 0 | 50 | - against defender 0 | - | 50, 1915, 2 VP. Front 2 is the attacker's and
# front 3 the defender's whatever the dice (a side adds at most 9 before 1917); front 1 is 0
# against 0, so both sides put every die there (any die elsewhere changes nothing) and its lead
# is S_a - S_d. The battle is won by whoever wins front 1; a tie there leaves 1-1 fronts, a drawn
# battle, where a tied front is nobody's, and 1-2, a defender win, where it is the defender's.
TIE_DECIDES = TrenchBattle((0, 50, None), (0, None, 50), 1915, points=2)
A_GREATER = pairs(lambda i, j: i > j)
EQUAL = pairs(lambda i, j: i == j)
assert (A_GREATER, EQUAL) == (20004, 6648)  # sum of squares 6648; the rest split evenly


def test_a_tied_front_is_nobodys_by_default():
    r = solve_trench(TIE_DECIDES)
    assert fraction(r, joint(lambda i, j: i > j)) == F(A_GREATER, PAIRS)
    assert fraction(r, joint(lambda i, j: i == j)) == F(EQUAL, PAIRS)
    assert fraction(r, joint(lambda i, j: i < j)) == F(A_GREATER, PAIRS)
    # the defender: 2 VP for a win, 1 for a draw
    assert r.expected_points.defender == pytest.approx((2 * A_GREATER + EQUAL) / PAIRS)
    assert r.readings["tied_front"] == "nobody"
    assert solve_trench(TIE_DECIDES, tied_front="nobody").counts == r.counts


def test_a_tied_front_goes_to_the_defender():
    r = solve_trench(TIE_DECIDES, tied_front="defender")
    assert fraction(r, joint(lambda i, j: i > j)) == F(A_GREATER, PAIRS)
    assert r.draw == 0  # every front is someone's: 3 fronts never split evenly
    assert fraction(r, joint(lambda i, j: i < j)) == F(PAIRS - A_GREATER, PAIRS)
    assert r.expected_points.defender == pytest.approx(2 * (PAIRS - A_GREATER) / PAIRS)
    # the defender wins front 1 (and so 2 fronts) when S_d >= S_a; the attacker never has 0
    assert r.fronts_won.defender[2] == pytest.approx((PAIRS - A_GREATER) / PAIRS)
    assert r.fronts_won.attacker[0] == 0
    # a tie never destroys: front 1's cards go at |S_a - S_d| >= 4 under both readings
    by_four = pairs(lambda i, j: i - j >= 4)
    assert r.cards_destroyed.defender[0] == pytest.approx(by_four / PAIRS)
    assert r.cards_destroyed.attacker[0] == pytest.approx(by_four / PAIRS)
    assert r.readings["tied_front"] == "defender"


def test_fronts_without_any_card_are_tied_at_zero():
    # no card anywhere, dice only on a side's own fronts: all three fronts are 0 against 0.
    # Nobody's: a drawn battle, 1 VP to the defender. The defender's: it wins all three, a
    # crushing victory worth the battle's 3 points plus 1.
    empty = TrenchBattle((None, None, None), (None, None, None), 1914, points=3)
    nobody = solve_trench(empty, dice_fronts="own")
    assert nobody.draw == 1 and nobody.expected_points.defender == 1
    defender = solve_trench(empty, dice_fronts="own", tied_front="defender")
    assert defender.defender_win == 1 and defender.crushing_victory.defender == 1
    assert defender.expected_points.defender == 4


# --- 2. the fleet in a sea battle's support slot ------------------------------------------

# At sea, 1914: attacker fleets 2 | 1 | - with a fleet 1 in front 2's support slot (both fronts
# total 2), against defender fleets 12 | 12 | 50. Every front is the defender's whatever the
# dice (the attacker's best lead is 2 + 9 - 12 = -1): a crushing defence, so the only choice is
# which attacker cards are destroyed (lost by 4 or more: a_f - d_f <= 6, with a_f and d_f the
# dice each side adds to front f). Only one front can get 7 or more (at most 9 in all), so the
# attacker saves at most one, putting every die there, and the defender, seeing it, destroys it
# if it can (all its dice there): a front is saved iff S_a - S_d >= 7.
SAVED = pairs(lambda i, j: i - j >= 7)
assert SAVED == 6 * 27 + 3 * (27 + 27) + 1 * (27 + 27 + 36) == 414
SEA = TrenchBattle((2, 1, None), (12, 12, 50), 1914, attacker_support=(0, 1, 0), sea=True)


def test_support_fleet_survives_by_default():
    # the two fronts are worth one card each: equal, so the attacker saves front 1 (ties go to
    # the largest addition on front 1, policy.py); front 2's fleet is always destroyed, and the
    # fleet in its support slot is discarded, never destroyed
    r = solve_trench(SEA)
    assert r.defender_win == 1 and r.crushing_victory.defender == 1
    assert r.cards_destroyed.attacker == pytest.approx((1 - SAVED / PAIRS, 1, None))
    assert r.support_fleets_destroyed.attacker == (None, 0.0, None)
    assert r.support_fleets_destroyed.defender == (None, None, None)
    assert r.readings["support_fleet"] == "survives"


def test_support_fleet_destroyed_with_its_front():
    # front 2 now loses two cards (its fleet and the support-slot fleet), so the attacker saves
    # front 2 instead: front 1 is always destroyed
    r = solve_trench(SEA, support_fleet="destroyed")
    assert r.defender_win == 1 and r.crushing_victory.defender == 1
    assert r.cards_destroyed.attacker == pytest.approx((1, 1 - SAVED / PAIRS, None))
    assert r.support_fleets_destroyed.attacker == pytest.approx((None, 1 - SAVED / PAIRS, None))
    assert r.readings["support_fleet"] == "destroyed"


def test_support_fleet_reading_changes_nothing_on_land():
    land = TrenchBattle((2, 1, None), (12, 12, 50), 1914, attacker_support=(0, 1, 0))
    assert solve_trench(land, support_fleet="destroyed").counts == solve_trench(land).counts
    assert solve_trench(land).support_fleets_destroyed.attacker == (None, None, None)


def test_advice_counts_a_lost_support_fleet():
    # the hand 1, 1 at sea against fleets 12 | 12 | 50: nothing can be won (as above), so the
    # commitments are ranked by fewer attacker cards expected lost (advice.py). Committing
    # nothing loses none. A lone 1 on a 12 front is lost unless S_a - S_d >= 8 (1 + 9 - 12 - 1
    # is the best saved lead, -3): 3 * 27 + 1 * (27 + 27) = 135 pairs. A 1 with a 1 in its
    # support slot (total 2) is lost unless S_a - S_d >= 7 (414 pairs), losing one card when the
    # slot fleet survives, two when it is destroyed too.
    saved_alone = pairs(lambda i, j: i - j >= 8)
    assert saved_alone == 135
    defender = Commitment((12, 12, 50))
    for reading, second, lost in (("survives", 2, 1 - SAVED / PAIRS),
                                  ("destroyed", 1, 1 - saved_alone / PAIRS)):
        advice = advise(Hand((1, 1)), defender, year=1914, sea=True, top=2,
                        support_fleet=reading)
        assert advice.options[0].attacker.cards_used == 0
        best = advice.options[1]
        assert best.attacker.cards_used == second, reading
        result = best.result
        assert sum(p or 0 for p in result.cards_destroyed.attacker
                   + result.support_fleets_destroyed.attacker) == pytest.approx(lost)
        assert advice.readings["support_fleet"] == reading


# --- exact against Monte Carlo under the other readings -----------------------------------

def random_sea_battle(rng):
    cards = [[rng.choice([None, *range(7)]) for _ in range(3)] for _ in range(2)]
    support = [[0 if c is None else rng.choice([0, 1, 2, 3]) for c in side] for side in cards]
    return TrenchBattle(cards[0], cards[1], rng.randint(1914, 1918), support[0], support[1],
                        points=rng.randint(0, 3), sea=True)


def figures(result):
    out = [(name, getattr(result, name), result.std_error[name])
           for name in ("attacker_win", "defender_win", "draw")]
    for side in ("attacker", "defender"):
        for table in ("fronts_won", "cards_destroyed", "support_fleets_destroyed"):
            out += [(f"{table} {side} {k}", p, e) for k, (p, e) in enumerate(zip(
                getattr(getattr(result, table), side), result.std_error[table][side],
                strict=True)) if p is not None]
        out.append((f"points {side}", getattr(result.expected_points, side),
                    result.std_error["expected_points"][side]))
    return out


RUNS = 100_000
OTHER = {"tied_front": "defender", "support_fleet": "destroyed"}
CASES = [(TIE_DECIDES, "optimal"), (SEA, "optimal")] + [
    (random_sea_battle(random.Random(22 + seed)), policy)
    for seed, policy in enumerate(["optimal", "greedy", "optimal", "greedy"])]


@pytest.mark.parametrize("battle, policy", CASES, ids=[f"{i}-{c[1]}" for i, c in enumerate(CASES)])
def test_monte_carlo_agrees_with_exact_under_the_other_readings(battle, policy):
    exact = solve_trench(battle, policy=policy, **OTHER)
    mc = simulate_trench(battle, policy=policy, runs=RUNS, seed=2222, **OTHER)
    assert mc.readings == exact.readings
    for (name, p, _), (_, q, se) in zip(figures(exact), figures(mc), strict=True):
        # five standard errors of the estimate (at least one run's worth: where p is 0 or 1 the
        # estimate has none and must be exact)
        assert abs(p - q) <= 5 * max(se, 1.0 / RUNS), (name, p, q, se)


# --- 3. every answer names its readings; the flags ----------------------------------------

BATTLE = ["--attacker", "2,1,-", "--attacker-support", "0,1,0", "--defender", "12,12,50",
          "--year", "1914", "--sea"]
ADVISE = ["advise", "--attacker-hand", "2,1,1", "--defender", "12,12,50", "--year", "1914",
          "--sea", "--top", "1"]
DEFAULT_READINGS = {"dice_fronts": "any", "tied_front": "nobody", "support_fleet": "survives",
                    "destroy_margin": 4}


def run(*args):
    from oddsim.cli import cli

    return CliRunner().invoke(cli, ["trench", *args])


@pytest.mark.parametrize("args", [BATTLE, ADVISE], ids=["trench", "advise"])
def test_json_names_the_readings(args):
    default = run(*args, "--json")
    assert default.exit_code == 0, default.output
    assert json.loads(default.stdout)["readings"] == DEFAULT_READINGS
    other = run(*args, "--json", "--dice-fronts", "own", "--tied-front", "defender",
                "--support-fleet", "destroyed", "--destroy-margin", "5")
    assert other.exit_code == 0, other.output
    assert json.loads(other.stdout)["readings"] == {
        "dice_fronts": "own", "tied_front": "defender", "support_fleet": "destroyed",
        "destroy_margin": 5}


@pytest.mark.parametrize("args", [BATTLE, ADVISE], ids=["trench", "advise"])
def test_text_names_the_readings(args):
    default = run(*args)
    assert default.exit_code == 0, default.output
    line = next(x for x in default.stdout.splitlines() if x.startswith("readings: "))
    for words in ("dice on any front (the seed)", "a tied front is nobody's (our assumption",
                  "a sea support-slot fleet survives (our assumption)",
                  "lost by 4 or more destroys"):
        assert words in line
    other = run(*args, "--dice-fronts", "own", "--tied-front", "defender", "--support-fleet",
                "destroyed")
    line = next(x for x in other.stdout.splitlines() if x.startswith("readings: "))
    for words in ("dice only on a side's own fronts", "a tied front is the defender's",
                  "support-slot fleet is destroyed with its front's fleet"):
        assert words in line


def test_cli_flags_give_the_api_figures():
    out = run(*BATTLE, "--support-fleet", "destroyed", "--json")
    data = json.loads(out.stdout)
    assert data["support_fleets_destroyed"]["attacker"] == pytest.approx(
        [None, 1 - SAVED / PAIRS, None])
    tie = run("--attacker", "0,50,-", "--defender", "0,-,50", "--year", "1915", "--points", "2",
              "--tied-front", "defender", "--json")
    assert json.loads(tie.stdout)["defender_win"] == pytest.approx((PAIRS - A_GREATER) / PAIRS)


@pytest.mark.parametrize("args, flag", [
    (["--attacker", "5,4,3", "--defender", "4,4,4", "--year", "1917", "--tied-front",
      "attacker"], "'--tied-front': 'attacker' is not one of 'nobody', 'defender'"),
    (["--attacker", "5,4,3", "--defender", "4,4,4", "--year", "1917", "--support-fleet", "sunk"],
     "'--support-fleet': 'sunk' is not one of 'survives', 'destroyed'"),
    (["advise", "--attacker-hand", "5", "--defender", "4,4,4", "--year", "1917", "--tied-front",
      "both"], "'--tied-front': 'both'"),
    (["advise", "--attacker-hand", "5", "--defender", "4,4,4", "--year", "1917",
      "--support-fleet", "x"], "'--support-fleet': 'x'"),
])
def test_bad_reading_exits_2_with_one_line(args, flag):
    out = run(*args)
    assert out.exit_code == 2
    lines = out.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("oddsim: error: "), out.output
    assert flag in lines[0]


def test_reading_flags_go_after_advise():
    out = run("--tied-front", "defender", "advise", "--attacker-hand", "5", "--defender",
              "4,4,4", "--year", "1917")
    assert out.exit_code == 2 and "--tied-front: give options after 'advise'" in out.output


def test_api_refuses_an_unknown_reading():
    from oddsim.trench import TrenchError

    with pytest.raises(TrenchError, match="tied-front reading 'attacker'"):
        solve_trench(TIE_DECIDES, tied_front="attacker")
    with pytest.raises(TrenchError, match="support-fleet reading"):
        simulate_trench(SEA, runs=10, seed=1, support_fleet=True)


def test_web_request_takes_the_readings():
    # the server passes run_trench's options through: the request names both readings
    from oddsim.web.capabilities import run_trench_request

    data = json.loads(run_trench_request({"attacker": "0,50,-", "defender": "0,-,50",
                                          "year": 1915, "points": 2, "tied_front": "defender",
                                          "support_fleet": "destroyed"}))
    assert data["readings"]["tied_front"] == "defender"
    assert data["readings"]["support_fleet"] == "destroyed"
    assert data["draw"] == 0
