"""The Monte Carlo engine against the exact engine, battle by battle, within sampling error.

Every outcome probability is checked within 4.5 standard errors derived from the exact
probability (sqrt(p (1 - p) / n)); every mean (IPC losses, rounds) within 4.5 of the simulation's
own standard errors; each side's survivor distribution by a chi-square test against the exact
one. Seeds are fixed, so the suite gives the same answer on every run and any number of threads.

The engines are independent for every rule but one: for the 'below win' and 'aircraft risk'
retreats the Monte Carlo engine plays the exact engine's decision table, so the cases marked
NOT INDEPENDENT below check how each engine fights with those decisions, not the decisions.
"""

import math

import pytest
from scipy.stats import chisquare

import oddsim
from oddsim.model.options import battle_from
from oddsim.stages.pipeline import simulate

RUNS = 200_000
Z = 4.5
MIN_P_VALUE = 1e-4
MIN_EXPECTED = 5.0  # chi-square bins expected to hold fewer runs are merged into one



def B(rules, attacker, defender=None, **options):
    """A battle with its options by their flat names, as the command line gives them."""
    return battle_from(rules, attacker, defender, options)
BATTLES = [
    # europe-1999: attacking subs strike first, aircraft hit subs only with a destroyer, AA gun
    # that is not a casualty (it holds the territory when both armies die)
    B("europe-1999", "3 inf, 1 art, 2 arm, 1 ftr", "3 inf, 1 arm, 1 aa"),
    B("europe-1999", "2 ftr, 1 bmb", "2 inf, 1 aa"),
    B("europe-1999", "1 ftr", "1 aa"),
    B("europe-1999", "2 sub, 1 dd", "1 trn, 1 cv, 1 ftr", sea=True),
    B("europe-1999", "1 bb, 2 ftr", "2 sub, 1 dd", sea=True),
    B("europe-1999", "2 inf", "none"),
    # revised: both sides' subs strike first, aircraft always hit subs, transports defend at 1
    B("revised", "4 inf, 2 art, 2 arm, 1 bmb", "5 inf, 1 arm, 1 aa"),
    B("revised", "2 sub, 1 ftr", "1 sub, 1 dd, 1 trn", sea=True),
    B("revised", "1 bb, 1 dd", "2 sub, 2 trn", sea=True),
    B("revised", "1 arm", "1 aa"),
    # anniversary: defenceless transports chosen last, keep_land, damaged battleships
    B("anniversary", "10 inf, 5 arm, 2 ftr", "12 inf, 3 arm, 1 ftr"),
    B("anniversary", "3 inf, 2 arm, 2 ftr", "4 inf, 1 arm", keep_land=1),
    B("anniversary", "4 inf, 2 art, 1 arm, 1 ftr, 1 bmb", "5 inf, 1 arm", keep_land=2,
      ool_attacker="art,inf"),
    B("anniversary", "2 sub, 1 dd, 2 ftr", "1 bb, 1 dd, 1 trn", sea=True),
    B("anniversary", "1 damaged bb, 1 cru", "2 dd, 1 sub", sea=True),
    B("anniversary", "2 ftr", "2 sub", sea=True),
    # 1942-2e: AA guns are casualties and fire per gun; order-of-loss overrides
    B("1942-2e", "2 sub", "1 ftr, 1 dd", sea=True),
    B("1942-2e", "3 inf, 2 art, 1 arm, 1 ftr, 1 bmb", "4 inf, 1 arm, 2 aa"),
    B("1942-2e", "1 ftr", "1 aa"),
    B("1942-2e", "3 inf, 2 arm", "3 inf", ool_attacker="arm,inf"),
    B("1942-2e", "1 arm, 1 bmb", "1 arm, 1 ftr", ool_attacker="bmb,arm", ool_defender="arm,ftr"),
    B("1942-2e", "1 dd, 1 cru", "2 trn, 1 sub", sea=True),
    # global-1940-2e: tactical bomber pairing, mech infantry, two-hit carriers
    B("global-1940-2e", "2 inf, 1 art, 1 mech, 1 tac, 1 arm, 1 ftr", "3 inf, 1 art, 1 aa"),
    B("global-1940-2e", "1 cv, 2 ftr, 1 tac, 1 dd", "1 bb, 2 sub, 1 cv", sea=True),
    B("global-1940-2e", "1 damaged cv, 1 bb", "1 damaged bb, 2 dd", sea=True),
    B("global-1940-2e", "4 mech, 2 art, 2 arm", "6 inf, 1 aa", ool_defender="aa,inf"),
    # technology, Low Luck and retreat
    B("anniversary", "6 inf, 2 ftr, 1 bmb", "5 inf, 1 aa", attacker_tech="jets,heavy-bombers",
      defender_tech="radar"),
    B("revised", "3 inf, 2 bmb", "4 inf", attacker_tech="heavy-bombers"),
    B("1942-2e", "8 inf, 4 art", "10 inf", dice="lowluck"),
    B("anniversary", "2 sub, 1 dd, 2 ftr", "1 bb, 1 dd, 2 sub", sea=True, dice="lowluck"),
    B("1942-2e", "6 inf, 3 arm", "8 inf", retreat={"after_round": 2}),
    B("1942-2e", "6 inf, 3 arm", "8 inf", retreat={"units_left": 3}),
    # NOT INDEPENDENT: the retreat decisions come from the exact engine's table
    B("1942-2e", "4 inf, 2 ftr", "5 inf", retreat={"below_win": 0.3, "aircraft_risk": 0.3}),
    # shore bombardment (casualties fire back or not), landed units that cannot retreat
    B("revised", "2 inf, 1 art", "3 inf", landed="2 inf", bombard="2 bb"),
    B("1942-2e", "3 inf, 1 art, 1 arm, 1 ftr", "4 inf, 1 aa", landed="2 inf, 1 art",
      bombard="1 bb, 1 cru"),
    B("europe-1999", "2 inf, 1 arm", "3 inf", landed="2 inf", bombard="1 bb, 1 dd", dice="lowluck"),
    # NOT INDEPENDENT: the retreat decisions come from the exact engine's table
    B("1942-2e", "2 inf, 1 art, 1 arm, 1 ftr", "3 inf, 1 aa", landed="2 inf, 1 art",
      bombard="1 bb, 1 cru", retreat={"below_win": 0.5}),
    B("1942-2e", "2 inf, 1 art, 1 arm, 1 ftr", "3 inf, 1 aa", landed="2 inf, 1 art",
      retreat={"after_round": 2}),
    B("anniversary", "3 inf, 2 arm", "4 inf", landed="2 inf", retreat={"units_left": 2}),
    # submerging subs: end of round (revised) and start of round, with retreats
    B("revised", "2 sub, 1 dd", "2 sub, 1 trn", sea=True, attacker_submerge="always"),
    B("revised", "2 ftr, 1 bb", "2 sub, 1 dd", sea=True, defender_submerge="alone"),
    B("anniversary", "2 ftr, 1 cru", "2 sub, 1 dd", sea=True, defender_submerge="alone"),
    B("1942-2e", "2 sub, 1 cru, 1 trn", "1 cru, 2 sub", sea=True, attacker_submerge="alone",
      defender_submerge="always"),
    B("europe-1999", "3 sub, 1 bb", "2 sub, 1 cv, 1 ftr", sea=True, attacker_submerge="alone",
      defender_submerge="alone"),
    B("revised", "3 sub, 1 bb", "2 sub, 1 dd", sea=True, attacker_submerge="alone",
      retreat={"after_round": 2}),
    # NOT INDEPENDENT: the retreat decisions come from the exact engine's table
    B("revised", "3 sub, 1 bb", "2 sub, 1 dd", sea=True, attacker_submerge="alone",
      retreat={"below_win": 0.4}),
]
PROBABILITIES = ("attacker_win", "defender_win", "draw", "stalemate", "retreat")
MEANS = ("attacker_ipc_lost", "defender_ipc_lost", "expected_rounds")


@pytest.fixture(scope="module", params=range(len(BATTLES)), ids=[b.describe() for b in BATTLES])
def pair(request):
    battle = BATTLES[request.param]
    return battle, simulate(battle, runs=RUNS, seed=9000 + request.param), oddsim.solve(battle)


def test_outcome_probabilities_agree(pair):
    battle, mc, exact = pair
    names = PROBABILITIES + (() if battle.sea else ("takes_territory",))
    for name in names:
        p = getattr(exact, name)
        se = math.sqrt(p * (1 - p) / RUNS)
        assert abs(getattr(mc, name) - p) <= Z * se + 1e-12, (name, getattr(mc, name), p)
    assert sum(getattr(mc, name) for name in PROBABILITIES) == pytest.approx(1.0, abs=1e-12)
    if battle.sea:
        assert mc.takes_territory is None


def test_expected_losses_and_rounds_agree(pair):
    _, mc, exact = pair
    for name in MEANS:
        se = mc.std_error[name]
        assert abs(getattr(mc, name) - getattr(exact, name)) <= Z * se + 1e-9, (
            name, getattr(mc, name), getattr(exact, name), se)
    if exact.retreat > 0:
        se = mc.std_error["retreat_round"]
        assert abs(mc.retreat_round - exact.retreat_round) <= Z * se + 1e-9, (
            mc.retreat_round, exact.retreat_round, se)


@pytest.mark.parametrize("side", ["attacker", "defender"])
def test_survivor_distributions_agree(pair, side):
    _, mc, exact = pair
    observed = {s.units: s.probability * RUNS for s in getattr(mc, f"{side}_survivors")}
    expected = {s.units: s.probability * RUNS for s in getattr(exact, f"{side}_survivors")}
    unreachable = set(observed) - set(expected)
    assert not unreachable, f"end states the exact engine never reaches: {unreachable}"
    big = sorted(u for u, e in expected.items() if e >= MIN_EXPECTED)
    obs = [observed.get(u, 0.0) for u in big]
    exp = [expected[u] for u in big]
    rest_obs = RUNS - sum(obs)
    rest_exp = RUNS - sum(exp)
    if rest_exp >= MIN_EXPECTED:
        obs.append(rest_obs)
        exp.append(rest_exp)
    else:
        assert rest_obs <= 10 * MIN_EXPECTED
    if len(exp) < 2:  # one certain end state: the simulation must always reach it
        assert obs[0] == pytest.approx(exp[0], abs=0.5)
        return
    scale = sum(obs) / sum(exp)  # removes the exact engine's pruned mass (below 1e-12)
    assert chisquare(obs, [e * scale for e in exp]).pvalue > MIN_P_VALUE


def test_tuv_swing_distributions_agree(pair):
    """Each swing value's chance within Z binomial standard errors of the exact one (derived from
    the exact chance), no value the exact engine never reaches, and the 5/50/95% marks the same
    wherever the exact cumulative chance is not within Z errors of the mark's level."""
    _, mc, exact = pair
    simulated, solved = mc.tuv_swing_distribution(), exact.tuv_swing_distribution()
    assert simulated is not None and solved is not None
    assert not set(simulated) - set(solved), "swings the exact engine never reaches"
    for swing, p in solved.items():
        se = math.sqrt(p * (1 - p) / RUNS)
        assert abs(simulated.get(swing, 0.0) - p) <= Z * se + 1e-12, (swing, simulated.get(swing), p)
    assert sum(simulated.values()) == pytest.approx(1.0, abs=1e-12)
    assert mc.swing_distribution.mean == pytest.approx(mc.tuv_swing, abs=1e-9)
    cumulative, marks = 0.0, exact.tuv_swing_percentiles()
    near = set()
    for p in solved.values():
        cumulative += p
        for level in marks:
            if abs(cumulative - level / 100) <= Z * math.sqrt(0.25 / RUNS):
                near.add(level)
    for level, value in marks.items():
        if level not in near:
            assert mc.tuv_swing_percentiles()[level] == value, (level, mc.tuv_swing_percentiles(), marks)
