"""Properties of the exact engine that hold for any battle (hypothesis)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import oddsim

EDITIONS = oddsim.builtin_names()
LAND = ["inf", "art", "arm", "ftr", "bmb"]
SEA = ["sub", "dd", "bb", "ftr", "trn", "cv"]
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def army(units, max_each=3):
    """A mapping of counts; one of no units is written "none" (counts of 0 are refused as a
    defender, as on the command line)."""
    counts = st.dictionaries(st.sampled_from(units), st.integers(0, max_each), max_size=4)
    return counts.map(lambda a: a if sum(a.values()) > 0 else "none")


def nonempty(units):
    return army(units).filter(lambda a: a != "none")


@FAST
@given(rules=st.sampled_from(EDITIONS), attacker=nonempty(LAND + ["aa"]),
       defender=army(LAND + ["aa"]))
def test_land_outcomes_sum_to_one(rules, attacker, defender):
    attacker.pop("aa", None)
    if not sum(attacker.values()):
        attacker["inf"] = 1
    result = oddsim.solve(oddsim.Battle(rules=rules, attacker=attacker, defender=defender))
    assert result.check() < 1e-9
    assert 0 <= result.takes_territory <= result.attacker_win + 1e-12


@FAST
@given(rules=st.sampled_from(EDITIONS), attacker=nonempty(SEA), defender=army(SEA))
def test_sea_outcomes_sum_to_one(rules, attacker, defender):
    result = oddsim.solve(oddsim.Battle(rules=rules, attacker=attacker, defender=defender,
                                        sea=True))
    assert result.check() < 1e-9
    assert sum(s.probability for s in result.attacker_survivors) == pytest.approx(1.0, abs=1e-9)
    assert sum(s.probability for s in result.defender_survivors) == pytest.approx(1.0, abs=1e-9)


@FAST
@given(rules=st.sampled_from(EDITIONS), attacker=nonempty(LAND), defender=nonempty(LAND),
       extra=st.sampled_from(LAND))
def test_an_extra_attacking_unit_never_lowers_the_win_chance(rules, attacker, defender, extra):
    # land battles without special rules (no AA): more is never worse under the default order
    before = oddsim.solve(oddsim.Battle(rules=rules, attacker=attacker, defender=defender))
    more = dict(attacker)
    more[extra] = more.get(extra, 0) + 1
    after = oddsim.solve(oddsim.Battle(rules=rules, attacker=more, defender=defender))
    assert after.attacker_win >= before.attacker_win - 1e-12


@FAST
@given(rules=st.sampled_from(EDITIONS), attacker=nonempty(LAND), sea=st.booleans())
def test_a_battle_against_an_empty_side_is_won_at_once(rules, attacker, sea):
    if sea:
        attacker = {"dd": attacker.get("inf", 0) + 1, "ftr": attacker.get("ftr", 0)}
    result = oddsim.solve(oddsim.Battle(rules=rules, attacker=attacker, defender="none", sea=sea))
    assert result.attacker_win == 1
    assert result.expected_rounds == 0
    assert result.attacker_ipc_lost == 0 and result.defender_ipc_lost == 0
    has_land = any(attacker.get(u, 0) for u in ("inf", "art", "arm"))
    assert result.takes_territory == (None if sea else (1.0 if has_land else 0.0))
