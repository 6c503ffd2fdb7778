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
from oddsim.results.casualty_policy import (
    CasualtyPolicy,
    Chance,
    GroupChance,
    HitGroups,
    Loss,
    PhaseAdvice,
    RoundAdvice,
    Scored,
    TypedScored,
    WhenScored,
    collapse,
)
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


# --- at sea with submarines: the grid of each phase, against the brute-force solver ---------------------

SHORT = {"submarine": "sub", "destroyer": "dd", "fighter": "ftr", "cruiser": "cruiser",
         "transport": "transport"}


def _less(state, types, loss):
    """``state`` (counts in the order of ``types``, short names) less the units ``loss`` names."""
    left = list(state)
    for name, n, _ in loss.parts:
        left[types.index(SHORT[name])] -= n
    return tuple(left)


def _chance(dist, hits):
    """The brute force's chance of the grid's hits: per group its count, or that many or more."""
    want = (hits.subs, hits.aircraft, hits.rest)
    return sum(p for raw, p in dist.items()
               if all(r >= w if more else r == w for r, w, more in zip(raw, want, hits.more, strict=True)))


SEA_GRIDS = [
    ("1942-2e", {"sub": 1, "dd": 1, "ftr": 1}, {"sub": 2, "dd": 1}, "attacker"),  # (no strike)
    ("1942-2e", {"sub": 2, "dd": 1}, {"sub": 1, "dd": 1, "ftr": 1}, "defender"),
    ("1942-2e", {"sub": 2, "ftr": 1}, {"sub": 1, "dd": 1, "ftr": 1}, "attacker"),  # (the defender's strike)
    ("1942-2e", {"sub": 1, "cruiser": 1, "ftr": 1}, {"sub": 1, "dd": 1}, "attacker"),
    ("1942-2e", {"sub": 2, "dd": 1}, {"sub": 1, "cruiser": 1, "ftr": 1}, "defender"),  # (the attacker's)
    ("1942-2e", {"sub": 2, "ftr": 1}, {"sub": 1, "ftr": 1, "transport": 1}, "both"),  # (both strike)
    ("1942-2e", {"sub": 1, "ftr": 2}, {"sub": 2, "dd": 1, "transport": 1}, "attacker"),
    ("1942-2e", {"sub": 3}, {"sub": 1, "dd": 1}, "defender"),  # (3 subs' hits on 2 units: "2 or more")
    ("revised", {"sub": 2, "dd": 1}, {"sub": 1, "dd": 1, "ftr": 1}, "both"),
]


@pytest.mark.parametrize(("rules", "att", "dfn", "who"), SEA_GRIDS)
def test_every_cell_of_the_grids_at_sea_is_the_brute_forces_best(rules, att, dfn, who):
    """Each phase of round 1 (the surprise strike from the start, then general fire from every
    state it leaves, or from the start without one), every cell: the independent solver
    (test_best_casualties.sub_game_parts) agrees with the advice, by the value where the phase
    leads (general fire's start after the strike, the next round's after general fire). For each
    hits scored, the defender keeps a composition of the least value once the attacker replies
    (or its order's); for each pair (hits scored, hits taken), the attacker keeps one of the most,
    the only one where it is unique. The chances are the brute force's dice, grouped and folded as
    the advice words them; general fire's start, the chance the strike leaves that state."""
    a_best, d_best = who in ("attacker", "both"), who in ("defender", "both")
    a_order, d_order = ([n for n in ORDER if n in army] for army in (att, dfn))
    fire, terminal, att_options, def_options = sub_game_parts(att, dfn, rules, None if a_best else a_order,
                                                              None if d_best else d_order)
    value = phased_values(2, fire, terminal, att_options, def_options)
    a0, d0 = tuple(att.values()), tuple(dfn.values())
    a_types, d_types = list(att), list(dfn)
    policy = oddsim.solve(Battle(rules, _side(att, a_best), _side(dfn, d_best), sea=True)).casualty_policy
    assert policy.to_dict()["advice"] == "typed" and policy.starts == () and policy.phases
    strike = fire(0, a0, d0) is not None
    assert [p.phase for p in policy.phases[:1]] == ["surprise strike" if strike else "general fire"]
    reached = {}  # general fire's starts: their chances by the strike's cells
    unique = 0
    for phase in policy.phases:
        k = ("surprise strike", "general fire").index(phase.phase)
        a, d = (a0, d0) if phase.struck is None else (_less(a0, a_types, phase.struck[0]),
                                                      _less(d0, d_types, phase.struck[1]))
        assert (phase.struck is None) == (k == 0 or not strike)
        pa, pd = fire(k, a, d)

        def then(ap, dp, k=k):  # the value where phase k leads
            return value.at(1, ap, dp) if k == 0 else value(ap, dp)

        def reply(dp, hd, a=a, then=then):  # the attacker's best (or its order's) after hits hd
            return max(then(ap, dp) for ap in att_options(a, hd))

        assert sum(s.probability for s in phase.scored) == pytest.approx(1.0, abs=1e-3)
        for s in phase.scored:
            assert s.probability == pytest.approx(_chance(pa, s.hits), abs=1e-14)
            dp = _less(d, d_types, s.lost)
            hits = (s.hits.subs, s.hits.aircraft, s.hits.rest)
            options = def_options(d, hits)
            assert dp in options
            if d_best:
                cost = {o: sum(q * reply(o, hd) for hd, q in pd.items()) for o in options}
                assert cost[dp] == pytest.approx(min(cost.values()), abs=1e-12), (phase.phase, hits)
            else:
                assert options == {dp}
        for t in phase.taken:
            assert t.probability == pytest.approx(_chance(pd, t.hits), abs=1e-14)
        assert bool(phase.attacker) == a_best
        for i, row in enumerate(phase.attacker):
            dp = _less(d, d_types, phase.scored[i].lost)
            for j, lost in enumerate(row):
                t = phase.taken[j].hits
                options = {o: then(o, dp) for o in att_options(a, (t.subs, t.aircraft, t.rest))}
                kept = _less(a, a_types, lost)
                best = max(options.values())
                assert kept in options, (phase.phase, i, j)
                assert options[kept] == pytest.approx(best, abs=1e-12), (phase.phase, i, j)
                winners = [o for o, v in options.items() if v > best - 1e-12]
                if len(winners) == 1:
                    unique += 1
                    assert kept == winners[0]
        if k == 0:  # the strike's cells, every pair of raw hits, lead general fire's starts
            for ha, p in pa.items():
                s = next(s for s in phase.scored if _chance({ha: 1.0}, s.hits))
                dp = _less(d, d_types, s.lost)
                for hd, q in pd.items():
                    options = att_options(a, hd)
                    if options == {a}:
                        ap = a
                    elif a_best:
                        j = next(j for j, t in enumerate(phase.taken) if _chance({hd: 1.0}, t.hits))
                        ap = _less(a, a_types, phase.attacker[phase.scored.index(s)][j])
                    else:
                        (ap,) = options
                    reached[ap, dp] = reached.get((ap, dp), 0.0) + p * q
        else:
            assert strike or phase.probability == 1.0
            if strike:
                assert phase.probability == pytest.approx(reached[a, d], abs=1e-14)
    if strike:  # (every state the strike leaves where the battle goes on, likeliest first)
        ongoing = sorted((p for (ap, dp), p in reached.items() if terminal(ap, dp) is None), reverse=True)
        assert [p.probability for p in policy.phases[1:]] == pytest.approx(ongoing, abs=1e-14)
    assert unique >= 1 or not a_best


def test_hits_past_what_a_side_can_take_read_2_or_more():
    """3 subs against 1 sub, 1 dd (1942-2e): the defender can take 2 hits, so 2 and 3 of the subs'
    hits are one row, "2 or more from subs": 3 x (1/3)^2 x 2/3 + (1/3)^3 = 7/27; exactly 1,
    3 x 1/3 x (2/3)^2 = 12/27. The defender's sub strikes first (no attacking destroyer): one hit
    from it (1/6) on 3 subs is exactly 1."""
    policy = oddsim.solve(Battle(RULES, "3 sub", Side("1 sub, 1 dd", order_of_loss="best"),
                                 sea=True, casualty_goal="win")).casualty_policy
    rows = [(r.phase, r.hits, r.probability) for r in policy.typed if r.side == "defender"]
    assert [(phase, hits) for phase, hits, _ in rows] == [("general fire", "1 from subs"),
                                                          ("general fire", "2 or more from subs")]
    assert [p for _, _, p in rows] == pytest.approx([12 / 27, 7 / 27], abs=1e-15)
    (strike, *general) = policy.phases
    assert strike.phase == "surprise strike" and [s.hits.words() for s in strike.scored] == ["no hit"]
    assert [(t.hits.words(), t.probability) for t in strike.taken] == [("1 from subs", pytest.approx(1 / 6))]
    assert strike.attacker == ()  # (the attacker follows its order)
    assert [p.struck[0].text() for p in general] == ["none", "1 submarine"]
    assert [p.probability for p in general] == pytest.approx([5 / 6, 1 / 6], abs=1e-15)
    assert HitGroups(1, 0, 2, (False, False, True)).words() == "1 from subs, 2 or more from the rest"
    capped = HitGroups(2, 0, 0, (True, False, False))
    when = WhenScored((HitGroups(0, 0, 0), capped), ("2 subs", "none"), 0.1, "x")
    assert when.words() == "after scoring 0 or 2 or more (defender left 2 subs / none)"


def _group_loss(sub=0, dd=0, ftr=0):
    return Loss((("submarine", sub, False), ("destroyer", dd, False), ("fighter", ftr, False)))


def test_the_table_at_sea_collapses_the_grid():
    """A grid by hand: per hits taken, the loss after most rolls, then the hits scored that call for
    another (with the row's chance times theirs); ties to the fewest hits scored; the text's
    phases: the strike, general fire after its likeliest outcome, and a pointer to the others."""
    none, rest, sub = HitGroups(0, 0, 0), HitGroups(0, 0, 1), HitGroups(1, 0, 0)
    scored = (TypedScored(none, 0.5, _group_loss(), "1 submarine, 1 destroyer"),
              TypedScored(sub, 0.3, _group_loss(dd=1), "1 submarine"),
              TypedScored(HitGroups(1, 0, 1), 0.2, _group_loss(sub=1, dd=1), "none"))
    taken = (GroupChance(rest, 0.4), GroupChance(sub, 0.1), GroupChance(HitGroups(0, 0, 2), 0.05))
    grid = ((_group_loss(ftr=1), _group_loss(sub=1), _group_loss(sub=1, ftr=1)),
            (_group_loss(ftr=1), _group_loss(sub=1), _group_loss(dd=1, ftr=1)),
            (_group_loss(sub=1), _group_loss(sub=1), _group_loss(dd=1, ftr=1)))
    struck = (_group_loss(), _group_loss())
    general = PhaseAdvice("general fire", 0.7, struck, scored, taken, grid)
    one, two, three = general.attacker_rows()
    assert (one.hits, one.lose, one.probability) == ("1 from the rest", "1 fighter", 0.4)
    (w,) = one.when
    assert (w.words(), w.lose) == ("after scoring 2 (defender left none)", "1 submarine")
    assert w.scored == (HitGroups(1, 0, 1),)  # (the groups: --json)
    assert w.probability == pytest.approx(0.4 * 0.2)
    assert (two.hits, two.lose, two.when) == ("1 from subs", "1 submarine", ())
    assert three.lose == "1 submarine, 1 fighter"  # (0.5 against 0.5: the fewest hits scored)
    assert three.when[0].scored == (sub, HitGroups(1, 0, 1))
    assert three.when[0].words() == "after scoring 1 or 2 (defender left 1 submarine / none)"
    assert [r.hits for r in general.defender_rows()] == ["1 from subs", "1 from subs, 1 from the rest"]
    assert general.title() == "general fire after a surprise strike that sank nothing"
    strike = PhaseAdvice("surprise strike", 1.0, None, scored, taken[:1], tuple(r[:1] for r in grid))
    later = PhaseAdvice("general fire", 0.3, (_group_loss(sub=1), _group_loss(dd=1)), scored, (), ())
    assert later.title() == ("general fire after a surprise strike that sank the attacker's 1 submarine "
                             "and the defender's 1 destroyer")
    policy = CasualtyPolicy("win", 0.5, 0.4, True, False, (), (), phases=(strike, general, later))
    lines = policy.lines()
    assert lines[1:] == [
        "  Round 1, surprise strike, the attacker takes hits and loses:",
        "    1 from the rest ( 40.0%): 1 fighter",
        "        after scoring 2 (defender left none) (8.0%): 1 submarine",
        "  Round 1, general fire after a surprise strike that sank nothing, the attacker takes hits and "
        "loses:",
        "    1 from the rest ( 40.0%): 1 fighter",
        "        after scoring 2 (defender left none) (8.0%): 1 submarine",
        "    1 from subs     ( 10.0%): 1 submarine",
        "    2 from the rest (  5.0%): 1 submarine, 1 fighter",
        "        after scoring 1 or 2 (defender left 1 submarine / none) (2.5%): 1 destroyer, 1 fighter",
        "  (general fire after each outcome of the surprise strike: --json's casualty_policy.typed_grid)"]
    data = policy.to_dict()
    assert [g["title"] for g in data["typed_grid"]] == [strike.title(), general.title(), later.title()]
    assert [c["scored_words"] for c in data["typed_grid"][1]["columns"]] == [
        "0", "1", "2"]
    assert data["typed"][0]["when_scored"][0]["scored"] == [HitGroups(1, 0, 1).to_dict()]
