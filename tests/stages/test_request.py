"""A battle request, decided in one place (``oddsim.stages.request``): what it asks for, what it
refuses, and its answer, through ``run_request`` (the CLI, the web server and ``oddsim.api`` all
run it). Expected values are derived by hand from the dice."""

from fractions import Fraction

import pytest

from oddsim import Amphibious, Battle
from oddsim.errors import BattleError
from oddsim.limits import MethodChoice
from oddsim.results.battle_result import BattleResult
from oddsim.stages.amphibious import AmphibiousResult
from oddsim.stages.counter import CounterAttackResult
from oddsim.stages.pipeline import estimate_seconds
from oddsim.stages.request import BattleRequest, RequestKind, engine_of, exact_seconds, run_request
from oddsim.stages.waves import Wave, WaveResult


def near(value: float, expected: Fraction) -> bool:
    return value == pytest.approx(float(expected), abs=1e-12)


def test_one_battle_is_the_golden_bomber_against_a_battleship():
    # DESIGN.md's golden values: 1 bomber (attack 4) against 1 battleship (defense 4, two hits)
    request = BattleRequest(Battle(rules="1942-2e", attacker="1 bmb", defender="1 bb", sea=True),
                            method="exact")
    answer = run_request(request)
    assert request.kind is RequestKind.BATTLE and isinstance(answer, BattleResult)
    assert near(answer.attacker_win, Fraction(1, 16)) and near(answer.defender_win, Fraction(13, 16))


def test_a_later_wave_fights_what_the_defender_has_left():
    # 1 inf (hits 1/6) against 1 inf (hits 2/6): per deciding round 4/36 attacker, 10/36 defender,
    # 2/36 both, of 16/36: the attacker wins 1/4, the defender 5/8, a draw 1/8. Then 1 arm (3/6)
    # against the 1 inf left: 1/3 attacker, 1/6 defender, 1/6 both, of 2/3: 1/2, 1/4, 1/4.
    battle = Battle(rules="1942-2e", attacker="1 inf", defender="1 inf")
    request = BattleRequest(battle, waves=["1 arm"], method="exact")
    answer = run_request(request)
    assert request.kind is RequestKind.WAVES and isinstance(answer, WaveResult)
    assert request.waves == (Wave(attacker="1 arm"),)
    assert near(answer.defender_win, Fraction(5, 8) * Fraction(1, 4))
    # a total's outcomes mean one battle's (issue 34): the attacker wins 1/4 + 1/8 (the armor
    # walks in after a draw) + 5/8 x 1/2; a draw only where the armor dies with the infantry
    assert near(answer.attacker_win, Fraction(1, 4) + Fraction(1, 8) + Fraction(5, 8) * Fraction(1, 2))
    assert near(answer.draw, Fraction(5, 8) * Fraction(1, 4))
    assert near(answer.defender_destroyed, Fraction(1, 4) + Fraction(1, 8) + Fraction(5, 8) * Fraction(3, 4))


def test_no_later_waves_is_still_a_waves_answer():
    request = BattleRequest(Battle(rules="1942-2e", attacker="1 inf", defender="1 inf"), waves=[],
                            method="exact")
    assert request.kind is RequestKind.WAVES
    answer = run_request(request)
    # the first battle's own outcomes: attacker 1/4, draw 1/8 (the defender destroyed 3/8)
    assert isinstance(answer, WaveResult) and near(answer.attacker_win, Fraction(1, 4))
    assert near(answer.draw, Fraction(1, 8)) and near(answer.defender_destroyed, Fraction(3, 8))


def test_a_counter_attack_on_the_armor_that_took_the_territory():
    # 1 arm takes an undefended territory; 1 inf (hits 1/6) counter-attacks it (hits 3/6) and
    # takes it back when it hits and survives: (1/6 * 1/2) / (1 - 5/6 * 1/2) = 1/7
    request = BattleRequest(Battle(rules="1942-2e", attacker="1 arm", defender="none"),
                            counter_attack="1 inf")
    answer = run_request(request)
    assert request.kind is RequestKind.COUNTER_ATTACK and isinstance(answer, CounterAttackResult)
    assert near(answer.holds, Fraction(6, 7))


def test_an_amphibious_assault_without_a_sea_battle_is_its_landing():
    # 1 inf lands from 1 transport against 1 inf, nothing at sea: the battle above, 1/4 won
    assault = Amphibious(rules="1942-2e", fleet="1 trn", cargo="1 inf", defender="1 inf")
    request = BattleRequest(assault, method="exact")
    answer = run_request(request)
    assert request.kind is RequestKind.AMPHIBIOUS and isinstance(answer, AmphibiousResult)
    assert near(answer.takes_territory, Fraction(1, 4))


@pytest.mark.parametrize(("asks", "refusal"), [
    ({"waves": ["2 arm"], "counter_attack": "2 inf"}, "a counter-attack follows one battle"),
    ({"method": "fast"}, "unknown method 'fast': use exact, mc or auto"),
    ({"method": "exact", "seed": 3}, "--seed applies to Monte Carlo"),
    ({"runs": 1}, "one run has no standard error"),
    ({"waves": "2 arm"}, "waves must be a list of later attackers"),
])
def test_a_request_that_means_nothing_is_refused_when_built(asks, refusal):
    with pytest.raises(BattleError, match=refusal):
        BattleRequest(Battle(rules="1942-2e", attacker="2 inf", defender="3 inf"), **asks)


def test_an_assault_takes_no_waves_and_no_counter_attack():
    assault = Amphibious(rules="1942-2e", fleet="1 trn", cargo="1 inf", defender="1 inf")
    for asks in ({"waves": ["1 arm"]}, {"counter_attack": "1 inf"}):
        with pytest.raises(BattleError, match="an amphibious assault is answered on its own"):
            BattleRequest(assault, **asks)
    with pytest.raises(BattleError, match="fights a Battle or an Amphibious assault, not str"):
        BattleRequest("3 inf vs 2 inf")  # type: ignore[arg-type]


def test_auto_picks_the_exact_engine_for_a_small_battle_and_monte_carlo_for_a_huge_one():
    small = BattleRequest(Battle(rules="1942-2e", attacker="2 inf", defender="1 inf"))
    # aircraft against AA: a battle for each AA outcome, over auto's second (test_auto_method)
    huge = BattleRequest(Battle(rules="revised", attacker="63 ftr, 63 bmb", defender="150 inf, 40 arm, 1 aa"))
    assert engine_of(small) is MethodChoice.EXACT and engine_of(huge) is MethodChoice.MC
    assert small.method is MethodChoice.AUTO
    assert engine_of(BattleRequest(small.fight, counter_attack="1 inf")) is MethodChoice.AUTO  # (per battle)


def test_the_exact_work_of_waves_counts_each_wave_once_per_defending_composition():
    # the defender may be left with 0..60 inf and 0..20 arm: 61 x 21 compositions
    battle = Battle(rules="1942-2e", attacker="1 inf", defender="60 inf, 20 arm")
    wave = Battle(rules="1942-2e", attacker="30 arm", defender="60 inf, 20 arm")
    request = BattleRequest(battle, waves=["30 arm"], method="exact")
    expected = estimate_seconds(battle) + 61 * 21 * estimate_seconds(wave)
    assert exact_seconds(request) == pytest.approx(expected, rel=1e-12)
    assert exact_seconds(BattleRequest(battle, method="exact")) == estimate_seconds(battle)
