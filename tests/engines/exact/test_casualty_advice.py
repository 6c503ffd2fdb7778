"""Best casualties' advice (issue 33): the attacker's loss for every pair (hits scored, hits taken)
of the first round, checked against the brute-force game solver of test_best_casualties.py and by
hand; the grid collapsed into the table a player reads; the advice for a battle in progress."""

from fractions import Fraction

import pytest

import oddsim
from oddsim.engines.exact import casualties
from oddsim.engines.exact.casualty_advice import round_choices
from oddsim.engines.lowering import unit_names
from oddsim.model.battle import Battle
from oddsim.model.side import Side
from oddsim.results.casualty_policy import Chance, Loss, RoundAdvice, Scored, collapse
from tests.engines.exact.test_best_casualties import (
    ORDER,
    _hits,
    _issue_fire_attacker,
    _issue_fire_defender,
    _losses,
    _side,
    brute_force,
    phased_values,
    sub_game_parts,
)

RULES = "1942-2e"
A_TYPES, D_TYPES = ("infantry", "armor", "fighter"), ("infantry", "armor")  # the brute force's tuples


def _tuple(g, types, counts, order):
    """A composition as the brute force's tuple of units by type in ``order``."""
    names = unit_names(g.battle.rules)
    units = dict.fromkeys(order, 0)
    for k, u in enumerate(types.unit.tolist()):
        units[names[u]] += int(counts[k])
    return tuple(units[name] for name in order)


@pytest.mark.parametrize("who", ["attacker", "both"])
def test_every_cell_of_the_grid_is_the_brute_forces_best(who):
    """The issue's battle (2 inf, 1 arm, 1 ftr against 2 inf, 1 arm, goal take): for every number
    of hits the attacker scores, the defender keeps what the brute force's minimum keeps (or its
    order: infantry, then armor), and for every number it takes, the attacker keeps what its
    maximum keeps; the chances are the dice's."""
    fixed_defender = {} if who == "both" else {"def_order": (0, 1)}

    def value(a, d):
        return brute_force(a, d, _issue_fire_attacker, _issue_fire_defender, att_land=(0, 1),
                           **fixed_defender)

    defender = Side("2 inf, 1 arm", order_of_loss="best") if who == "both" else "2 inf, 1 arm"
    g = casualties.game(Battle(RULES, Side("2 inf, 1 arm, 1 ftr", order_of_loss="best"), defender))
    solved = casualties.solve_game(g)
    c = round_choices(solved, g.A.start, g.D.start, min_chance=0.0)
    a0, d0 = (2, 1, 1), (2, 1)
    scored_p, taken_p = _hits(_issue_fire_attacker(a0)), _hits(_issue_fire_defender(d0))
    assert c.scored.tolist() == [0, 1, 2, 3] and c.taken.tolist() == [1, 2, 3]
    assert c.scored_p.tolist() == pytest.approx(scored_p[:3] + [scored_p[3] + scored_p[4]], abs=1e-15)
    assert c.taken_p.tolist() == pytest.approx(taken_p[1:], abs=1e-15)

    def after_defence(dp):  # the attacker's best reply to each of the defender's hits, in (a0, dp)
        return sum(q * (value(a0, dp) if hd == 0 else max(value(ap, dp) for ap in _losses(a0, hd)))
                   for hd, q in enumerate(taken_p))

    unique = 0
    for i, r in enumerate(c.scored.tolist()):
        dp = _tuple(g, g.d_types, g.D.counts[c.kept_d[i]], D_TYPES)
        if r == 0:
            assert dp == d0
        elif who == "both":
            best = min(after_defence(o) for o in _losses(d0, r))
            assert after_defence(dp) == pytest.approx(best, abs=1e-12)
        else:
            assert dp == (max(0, 2 - r), 1 - max(0, r - 2))
        for j, h in enumerate(c.taken.tolist()):
            kept = _tuple(g, g.a_types, g.A.counts[c.kept_a[i, j]], A_TYPES)
            options = {ap: value(ap, dp) for ap in _losses(a0, h)}
            best = max(options.values())
            assert kept in options and options[kept] == pytest.approx(best, abs=1e-12), (r, h)
            winners = [ap for ap, v in options.items() if v > best - 1e-12]
            if len(winners) == 1:
                unique += 1
                assert kept == winners[0]
    assert unique >= 4  # (the cells where the choice is forced by value, not by a tie)


def test_the_advice_where_the_defender_is_left_with_nothing_by_hand():
    """2 inf, 2 ftr against 2 inf, goal value with a territory worth 8: having scored 2 hits the
    defender has nothing left, so the battle ends with this round's losses. With 2 hits taken,
    losing both infantry swings 6 - 6 = 0 and takes nothing; losing an infantry and a fighter
    swings 6 - 13 = -7 and takes the territory, +8: +1. So lose an infantry and a fighter."""
    result = oddsim.solve(Battle(RULES, Side("2 inf, 2 ftr", order_of_loss="best"), "2 inf",
                                 casualty_goal="value", casualty_value=8))
    row = next(r for r in result.casualty_policy.attacker if r.hits == 2)
    after_two = [w for w in row.when if 2 in w.scored]
    assert len(after_two) == 1 and after_two[0].lose == "1 infantry, 1 fighter"
    assert after_two[0].left == ("none",)
    assert row.lose != after_two[0].lose  # after other rolls the loss is another
    # two hits or more of 2 inf (1/6) and 2 ftr (1/2): 1 - 25/144 (none) - 60/144 (one); taking two
    # of the defender's 2 inf (1/3): 1/9
    assert after_two[0].probability == pytest.approx(float(Fraction(59, 144) * Fraction(1, 9)), abs=1e-15)


@pytest.mark.parametrize(("attacker", "lose", "value"), [
    ("2 inf, 1 ftr", "1 infantry", None),
    ("1 inf, 1 ftr", "1 fighter", Fraction(89, 104)),
])
def test_in_progress_the_advice_is_for_the_state_given(attacker, lose, value):
    """The hand-derived battle of test_the_best_loss_changes_with_the_state: at 2 inf, 1 ftr
    against 1 inf one hit costs an infantry (89/104 > 157/232); in progress at 1 inf, 1 ftr against
    1 inf, the fighter (1/4 > 0), and the battle from there is worth 89/104. The defender's one
    infantry hits with 1/3."""
    battle = Battle(RULES, Side(attacker, order_of_loss="best"), "1 inf", in_progress=True)
    policy = oddsim.solve(battle).casualty_policy
    assert policy.in_progress
    one = policy.attacker[0]
    assert (one.hits, one.lose, one.when) == (1, lose, ())
    assert one.probability == pytest.approx(1 / 3, abs=1e-15)
    if value is not None:
        assert policy.value == pytest.approx(float(value), abs=1e-13)
    assert "  This round, the attacker takes hits and loses:" in policy.lines()


def test_the_grid_after_each_aa_outcome():
    """1 inf, 2 ftr against 2 inf, 1 AA gun (1942-2e: a die at each aircraft, 1 to hit): the round
    starts after 0, 1 or 2 AA hits with 25/36, 10/36 and 1/36, each with its own grid."""
    battle = Battle(RULES, Side("1 inf, 2 ftr", order_of_loss="best"), "2 inf, 1 aa")
    policy = oddsim.solve(battle).casualty_policy
    starts = [(s.aa_hits, s.aa_lost) for s in policy.starts]
    assert starts == [(0, "none"), (1, "1 fighter"), (2, "2 fighters")]
    assert [s.probability for s in policy.starts] == pytest.approx([25 / 36, 10 / 36, 1 / 36], abs=1e-15)
    assert [t.hits for t in policy.starts[2].taken] == [1]  # 1 infantry left: one hit takes it all
    assert policy.round_words() == "Round 1, after no AA hit,"
    grid = policy.to_dict()["grid"]
    assert [len(s["attacker"]) for s in grid] == [len(s.scored) for s in policy.starts]


def _loss(inf=0, art=0, bb_lost=0, bb_damaged=0):
    return Loss((("infantry", inf, False), ("artillery", art, False), ("battleship", bb_lost, False),
                 ("battleship", bb_damaged, True)))


def test_the_table_collapses_the_grid():
    """Per hits taken the loss after most rolls, then the hits scored that call for another."""
    a, b = _loss(art=1), _loss(inf=1, art=1)
    scored = (Scored(0, 0.2, _loss(), "3 infantry"), Scored(1, 0.55, _loss(inf=1), "2 infantry"),
              Scored(2, 0.15, _loss(inf=2), "1 infantry"), Scored(3, 0.1, _loss(inf=3), "none"))
    start = RoundAdvice(0, 1.0, "none", scored, (Chance(1, 0.4), Chance(2, 0.1)),
                        ((_loss(inf=1), a), (_loss(inf=1), b), (_loss(inf=1), a), (_loss(inf=1), a)))
    one, two = start.attacker_rows()
    assert (one.hits, one.lose, one.when) == (1, "1 infantry", ())
    assert (two.hits, two.lose) == (2, "1 infantry, 1 artillery")  # after 1 scored: 0.55, against 0.45
    (other,) = two.when
    assert other.scored == (0, 2, 3) and other.lose == "1 artillery"
    assert other.left == ("3 infantry", "1 infantry", "none")
    assert other.probability == pytest.approx(0.1 * 0.45)
    assert other.words() == "after scoring 0, 2 or 3 (defender left 3 infantry / 1 infantry / none)"
    assert RoundAdvice(0, 1.0, "none", scored, (Chance(1, 0.4),), ()).attacker_rows() == ()
    assert [(r.label, r.lose) for r in start.defender_rows()] == [("1-3", "1-3 infantry")]  # (a run)


def test_runs_of_one_more_unit_are_one_row():
    """1-4 hits: 1-4 infantry; then artillery one at a time from 4 infantry; a battleship damaged
    then sunk is no run; two rows are no run."""
    rows = [(h, 0.1, _loss(inf=h), ()) for h in range(1, 5)]
    rows += [(5, 0.01, _loss(inf=4, art=1), ()), (6, 0.01, _loss(inf=4, art=2), ()),
             (7, 0.01, _loss(inf=4, art=3), ())]
    rows += [(8, 0.001, _loss(inf=4, art=3, bb_damaged=1), ()),
             (9, 0.001, _loss(inf=4, art=3, bb_lost=1), ())]
    table = collapse(rows)
    assert [(r.label, r.lose) for r in table] == [
        ("1-4", "1-4 infantry"), ("5-7", "4 infantry, 1-3 artillery"),
        ("8", "4 infantry, 3 artillery, 1 battleship damaged"),
        ("9", "4 infantry, 3 artillery, 1 battleship")]
    assert table[0].probability == pytest.approx(0.4) and table[0].to_dict()["through"] == 4
    assert [r.label for r in collapse(rows[:2])] == ["1", "2"]


def test_a_battleship_sunk_and_one_damaged():
    """At sea, a whole and a damaged battleship (1942-2e) against 2 battleships: two hits leave
    one damaged battleship whatever is chosen (the damaged one sunk and the other hit, or the whole
    one sunk): '1 battleship, 1 battleship damaged'; the defender's two dice hit twice with
    (4/6)^2 = 4/9."""
    battle = Battle(RULES, Side("1 damaged bb, 1 bb", order_of_loss="best"), "2 bb", sea=True)
    two = next(r for r in oddsim.solve(battle).casualty_policy.attacker if r.hits == 2)
    assert two.lose == "1 battleship, 1 battleship damaged" and two.when == ()
    assert two.probability == pytest.approx(4 / 9, abs=1e-15)


def _parse_hits(words):
    """"1 from subs, 2 from the rest" -> (1, 0, 2)."""
    groups = {"subs": 0, "aircraft": 1, "the rest": 2}
    hits = [0, 0, 0]
    for part in words.split(", "):
        n, _, who = part.partition(" from ")
        hits[groups[who]] = int(n)
    return tuple(hits)


def _after(state, types, lose):
    """``state`` (counts in the order of ``types``, short names) less the units ``lose`` names."""
    left = list(state)
    for part in lose.split(", "):
        n, _, name = part.partition(" ")
        name = name[:-1] if int(n) != 1 and name.endswith("s") else name
        left[types.index(SHORT[name])] -= int(n)
    return tuple(left)


SHORT = {"submarine": "sub", "destroyer": "dd", "fighter": "ftr", "cruiser": "cruiser",
         "transport": "transport"}


@pytest.mark.parametrize(("rules", "att", "dfn", "who"), [
    ("1942-2e", {"sub": 1, "dd": 1, "ftr": 1}, {"sub": 2, "dd": 1}, "attacker"),
    ("1942-2e", {"sub": 2, "dd": 1}, {"sub": 1, "dd": 1, "ftr": 1}, "defender"),
    ("1942-2e", {"sub": 2, "ftr": 1}, {"sub": 1, "dd": 1, "ftr": 1}, "attacker"),
    ("1942-2e", {"sub": 1, "cruiser": 1, "ftr": 1}, {"sub": 1, "dd": 1}, "attacker"),  # (a surprise strike)
    ("1942-2e", {"sub": 2, "dd": 1}, {"sub": 1, "cruiser": 1, "ftr": 1}, "defender"),
])
def test_round_one_at_sea_with_subs_is_the_brute_force_choice(rules, att, dfn, who):
    """Each row of round 1's advice (both phases from the start) keeps what the independent solver
    (test_best_casualties.sub_game_parts) finds best, by the value where the phase leads (general
    fire's start after the surprise strike, the next round's after general fire): the attacker,
    the composition best after the most likely of its rolls (the defender's state after its
    order's losses: the advice's row is the loss after most rolls); the defender, the one of the
    smallest value once the attacker's hits (by its order) land."""
    a_best = who == "attacker"
    a_order, d_order = ([n for n in ORDER if n in army] for army in (att, dfn))
    fire, terminal, att_options, def_options = sub_game_parts(att, dfn, rules, None if a_best else a_order,
                                                              d_order if a_best else None)
    value = phased_values(2, fire, terminal, att_options, def_options)
    a, d = tuple(att.values()), tuple(dfn.values())
    policy = oddsim.solve(Battle(rules, _side(att, a_best), _side(dfn, not a_best), sea=True)).casualty_policy
    assert policy.typed and {r.side for r in policy.typed} == {who}
    assert policy.to_dict()["advice"] == "typed" and policy.starts == ()
    for row in policy.typed:
        k = ("surprise strike", "general fire").index(row.phase)
        pa, pd = fire(k, a, d)
        hits = _parse_hits(row.hits)

        def then(ap, dp, k=k):  # the value where phase k leads
            return value.at(1, ap, dp) if k == 0 else value(ap, dp)
        if who == "attacker":
            kept = _after(a, list(att), row.lose)
            options = att_options(a, hits)
            assert kept in options
            left = [(next(iter(def_options(d, ha))), p) for ha, p in pa.items()]  # (the defender's order)

            def mass(ap, only=False, options=options, left=left, then=then):
                """The chance of the rolls after which ap is a best keep (``only``: the best)."""
                def best(dp):
                    top = max(then(o, dp) for o in options)
                    return [o for o in options if then(o, dp) >= top - 1e-12]
                return sum(p for dp, p in left if ap in best(dp) and (not only or len(best(dp)) == 1))
            assert mass(kept) > 0.0  # (ties go to the order of loss: kept is best at least as often)
            assert all(mass(kept) >= mass(ap, only=True) - 1e-12 for ap in options if ap != kept)
        else:
            kept = _after(d, list(dfn), row.lose)
            assert kept in def_options(d, hits)

            def cost(dp, pd=pd, then=then):
                return sum(p * then(next(iter(att_options(a, hd))), dp) for hd, p in pd.items())
            assert cost(kept) == pytest.approx(min(cost(dp) for dp in def_options(d, hits)))
