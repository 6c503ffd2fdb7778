"""A defender's unit that is never a casualty (Revised's AA gun) across composed battles, against
hand-derived fractions: it is captured only where the attacker takes the territory with a land
unit; where aircraft alone beat the rest of the defender it still stands, and a later wave's
aircraft face its fire again (RULES.md: "AA as a casualty: no (captured with the territory)";
"the attacker takes the territory only if it has at least one land unit left"). Every total
sums to 1, each chance is counted once.

Revised: the AA gun fires one die per attacking aircraft before the first round, hitting on 1
(1/6). A fighter attacks at 3 (1/2) and defends at 4; infantry attacks at 1 (1/6) and defends at
2 (1/3); armor attacks at 3 and defends at 3 (1/2). One attacker against one defender, hitting
a and d a round: the attacker wins a(1-d)/s, both die ad/s, the defender wins (1-a)d/s, with
s = 1 - (1-a)(1-d). Both dying leaves the gun holding the territory for the defender."""

import math
from fractions import Fraction as F

import pytest

import oddsim
from oddsim.api import run_amphibious, run_counter_attack, run_waves
from oddsim.stages.waves import Wave

TOL = 1e-12
SHOT = F(1, 6)  # the gun hits an aircraft


def duel(a: F, d: F) -> tuple[F, F, F]:
    """One attacking unit against one defending unit: attacker wins, both die, defender wins."""
    s = 1 - (1 - a) * (1 - d)
    return a * (1 - d) / s, a * d / s, (1 - a) * d / s


FTR_INF = duel(F(1, 2), F(1, 3))  # a fighter against an infantry: 1/2, 1/4, 1/4
INF_INF = duel(F(1, 6), F(1, 3))  # an infantry against an infantry: 1/4, 1/8, 5/8


def rows(wave: dict) -> dict[str, float]:
    return {row["label"]: row["probability"] for row in wave["defender_survivors"]}


def ends(total) -> float:
    return total.attacker_win + total.draw + total.defender_win + total.retreat + total.stalemate


def test_a_fighter_leaves_the_lone_gun_standing_and_the_infantry_after_it_takes_it():
    """1 fighter against the gun alone: shot down 1/6 (the gun holds), else it beats a defender
    with nothing to fight, but cannot take the territory: the gun stands after wave 1 on every
    path, as the plain battle lists it. The infantry of wave 2 meets it everywhere, loses
    nothing to it and captures it."""
    total = run_waves(oddsim.Battle("revised", "1 ftr", "1 aa"), ["1 inf"], method="exact")
    first, second = total.waves
    assert first["attacker_win"] == pytest.approx(float(1 - SHOT), abs=TOL)
    assert first["takes_territory"] == pytest.approx(0.0, abs=TOL)
    assert rows(first) == pytest.approx({"1 AA gun": 1.0}, abs=TOL)
    assert first["defender_units_left"] == pytest.approx({"aa_gun": 1.0}, abs=TOL)
    assert second["fights"] == pytest.approx(1.0, abs=TOL)
    assert second["attacker_win"] == pytest.approx(1.0, abs=TOL)
    assert second["attacker_units_left"] == pytest.approx({"infantry": 1.0}, abs=TOL)
    assert rows(second) == pytest.approx({"none": 1.0}, abs=TOL)
    assert total.attacker_win == pytest.approx(1.0, abs=TOL)
    assert total.takes_territory == pytest.approx(1.0, abs=TOL)
    assert total.defender_holds == pytest.approx(0.0, abs=TOL)
    assert total.attacker_ipc_lost == pytest.approx(float(10 * SHOT), abs=TOL)
    assert ends(total) == pytest.approx(1.0, abs=TOL)


def test_a_second_fighter_faces_the_lone_gun_again():
    """Two waves of 1 fighter against the gun alone: each fighter is shot down with 1/6, the
    second also where the first won (the gun still stands there). The attack has won unless both
    are shot down (1/36); nothing takes the territory."""
    total = run_waves(oddsim.Battle("revised", "1 ftr", "1 aa"), ["1 ftr"], method="exact")
    second = total.waves[1]
    assert second["fights"] == pytest.approx(1.0, abs=TOL)
    assert second["attacker_units_left"] == pytest.approx({"fighter": float(1 - SHOT)}, abs=TOL)
    assert rows(second) == pytest.approx({"1 AA gun": 1.0}, abs=TOL)
    assert total.attacker_win == pytest.approx(float(1 - SHOT * SHOT), abs=TOL)  # 35/36
    assert total.defender_win == pytest.approx(float(SHOT * SHOT), abs=TOL)
    assert total.takes_territory == pytest.approx(0.0, abs=TOL)
    assert total.attacker_ipc_lost == pytest.approx(float(2 * 10 * SHOT), abs=TOL)  # 10/3
    assert ends(total) == pytest.approx(1.0, abs=TOL)


# 1 fighter against 1 inf and the gun. Shot down (1/6): 1 inf, 1 gun stand. Else the duel:
# the fighter wins 1/2 (the gun alone stands, the attack has won), both die 1/4 (the gun
# alone holds), the infantry wins 1/4.
W1 = {"inf": SHOT + (1 - SHOT) * FTR_INF[2],  # 3/8
      "held": (1 - SHOT) * FTR_INF[1],  # 5/24: the gun alone, the defender's
      "won": (1 - SHOT) * FTR_INF[0]}  # 5/12: the gun alone, the attacker's fighter left


def test_the_first_wave_leaves_what_the_plain_battle_does():
    first = oddsim.Battle("revised", "1 ftr", "1 inf, 1 aa")
    plain = oddsim.solve(first)
    wave = run_waves(first, ["1 inf"], method="exact").waves[0]
    assert rows(wave) == pytest.approx({"1 AA gun": float(W1["held"] + W1["won"]),
                                        "1 infantry, 1 AA gun": float(W1["inf"])}, abs=TOL)
    expected: dict[str, float] = {}
    for row in plain.defender_survivors:
        label = row.force(first.rules).describe()
        expected[label] = expected.get(label, 0.0) + row.probability
    # (the plain battle's rows carry a "none" of 2e-16, the rounding of its sums)
    assert rows(wave) == pytest.approx({k: p for k, p in expected.items() if p > TOL}, abs=TOL)
    assert wave["defender_units_left"] == pytest.approx(plain.defender_units_left, abs=TOL)


def test_a_wave_of_infantry_takes_the_lone_gun_and_fights_the_rest():
    """Wave 2, 1 inf: against 1 inf and the gun it takes the territory 1/4 (both dying leaves the
    gun holding); against the gun alone it takes it surely. The totals are as before the fix
    (the walk-in and the fight agree there); wave 2 now reaches every path."""
    total = run_waves(oddsim.Battle("revised", "1 ftr", "1 inf, 1 aa"), ["1 inf"], method="exact")
    second = total.waves[1]
    assert second["fights"] == pytest.approx(1.0, abs=TOL)
    taken = W1["held"] + W1["won"] + W1["inf"] * INF_INF[0]  # 23/32
    assert total.takes_territory == pytest.approx(float(taken), abs=TOL)
    assert total.attacker_win == pytest.approx(float(taken), abs=TOL)
    assert total.defender_win == pytest.approx(float(1 - taken), abs=TOL)  # 9/32
    assert total.draw == pytest.approx(0.0, abs=TOL)
    assert rows(second) == pytest.approx({"none": float(taken),
                                          "1 infantry, 1 AA gun": float(W1["inf"] * INF_INF[2]),
                                          "1 AA gun": float(W1["inf"] * INF_INF[1])}, abs=TOL)
    assert ends(total) == pytest.approx(1.0, abs=TOL)


# Wave 2, 1 fighter, meets: 1 inf and the gun (3/8): shot down 1/6, else the duel again; the
# gun alone the defender holds (5/24): the fighter wins 5/6; the gun alone after the first
# fighter won (5/12): the attack has won whatever the second fighter does (lost 1/6).
W2_WON = W1["inf"] * (1 - SHOT) * FTR_INF[0] + W1["held"] * (1 - SHOT) + W1["won"]  # 215/288
W2_FIGHTER_LOST = SHOT + W1["inf"] * (1 - SHOT) * (FTR_INF[1] + FTR_INF[2])  # 31/96
W1_FIGHTER_LOST = SHOT + (1 - SHOT) * (FTR_INF[1] + FTR_INF[2])  # 7/12


def fighter_waves(method: str, **options):
    return run_waves(oddsim.Battle("revised", "1 ftr", "1 inf, 1 aa"), ["1 ftr"], method=method,
                     **options)


def test_a_second_fighter_meets_the_gun_on_every_path():
    total = fighter_waves("exact")
    second = total.waves[1]
    assert second["fights"] == pytest.approx(1.0, abs=TOL)
    assert total.attacker_win == pytest.approx(float(W2_WON), abs=TOL)
    assert total.defender_win == pytest.approx(float(1 - W2_WON), abs=TOL)  # 73/288
    assert total.takes_territory == pytest.approx(0.0, abs=TOL)
    assert second["attacker_units_left"] == pytest.approx({"fighter": float(1 - W2_FIGHTER_LOST)}, abs=TOL)
    assert total.attacker_ipc_lost == pytest.approx(float(10 * (W1_FIGHTER_LOST + W2_FIGHTER_LOST)),
                                                    abs=TOL)  # 9.0625
    # the infantry is lost where a fighter wins or both die: 3 x 5/8 in wave 1, 3 x 3/8 x 5/8 in 2
    lost = 3 * (1 - SHOT) * (FTR_INF[0] + FTR_INF[1]) * (1 + W1["inf"])
    assert total.defender_ipc_lost == pytest.approx(float(lost), abs=TOL)
    infantry = W1["inf"] * (SHOT + (1 - SHOT) * FTR_INF[2])  # 27/192
    assert rows(second) == pytest.approx({"1 infantry, 1 AA gun": float(infantry),
                                          "1 AA gun": float(1 - infantry)}, abs=TOL)
    assert ends(total) == pytest.approx(1.0, abs=TOL)
    assert total.defender_holds + total.defender_destroyed == pytest.approx(1.0, abs=TOL)


def test_monte_carlo_waves_meet_the_lone_gun_within_their_errors():
    total = fighter_waves("mc", runs=60_000, seed=11)
    se = total.std_error
    assert abs(total.attacker_win - float(W2_WON)) <= 4.5 * se["attacker_win"]
    lost = float(10 * (W1_FIGHTER_LOST + W2_FIGHTER_LOST))
    assert abs(total.attacker_ipc_lost - lost) <= 4.5 * se["attacker_ipc_lost"]
    fighters = total.waves[1]["attacker_units_left"]["fighter"]
    fighter_se = total.waves[1]["std_error"]["attacker_units_left"]["fighter"]
    assert abs(fighters - float(1 - W2_FIGHTER_LOST)) <= 4.5 * fighter_se
    assert total.waves[1]["fights"] == pytest.approx(1.0, abs=TOL)
    assert ends(total) == pytest.approx(1.0, abs=1e-9)
    for wave in total.waves:
        assert math.fsum(rows(wave).values()) == pytest.approx(1.0, abs=1e-9)


@pytest.mark.parametrize(("emptied", "draw", "taken"), [
    # the gun stands on every path after wave 1, so the infantry joins it everywhere: 1 inf
    # against 1 inf and the gun takes 1/4, both dying (1/8) leaves the gun holding
    (True, F(0), INF_INF[0]),
    # where the fighter won (5/6) the reinforcement does not come: wave 2 takes the lone gun
    (False, F(0), (1 - SHOT) + SHOT * INF_INF[0]),
])
def test_reinforcements_join_the_lone_gun(emptied, draw, taken):
    wave = Wave("1 inf", defender_reinforcements="1 inf", reinforce_emptied=emptied)
    total = run_waves(oddsim.Battle("revised", "1 ftr", "1 aa"), [wave], method="exact")
    assert total.takes_territory == pytest.approx(float(taken), abs=TOL)
    assert total.draw == pytest.approx(float(draw), abs=TOL)
    assert ends(total) == pytest.approx(1.0, abs=TOL)


COUNTER_TAKEN = SHOT * F(1, 2) + (1 - SHOT) * F(3, 5)  # 7/12
COUNTER_HOLDS = COUNTER_TAKEN * (1 - duel(F(1, 6), F(1, 2))[0])  # 1/2
AMPHIBIOUS_TAKEN = SHOT * INF_INF[0] + (1 - SHOT) * F(7, 13)  # 51/104


def gun_assault() -> oddsim.Amphibious:
    return oddsim.Amphibious("revised", fleet="1 transport", cargo="1 inf", air="1 ftr",
                             defender="1 inf, 1 aa", bombard=False)


def test_the_counter_attack_counts_the_gun_once():
    """1 arm, 1 fighter against 1 inf and the gun. Fighter shot down (1/6): the armor's duel
    with the infantry takes 1/2. Else both attack: a round with no change 1/6; the infantry
    dies and the armor lives 1/2 (takes), dies with the armor 1/4 (the fighter alone wins, the
    gun stands: not taken), lives and kills the armor 1/12 (then the fighter's duel: never
    taken); over 5/6: takes 3/5. Taken 1/12 + 1/2 = 7/12. The counter-attack, 1 inf against the
    armor that stays (defends at 3): the infantry wins 1/7 (takes it back), else the armor holds
    6/7 (both dying leaves it nobody's but the attacker's)."""
    battle = oddsim.Battle("revised", "1 arm, 1 ftr", "1 inf, 1 aa")
    result = run_counter_attack(battle, "1 inf", method="exact")
    taken = COUNTER_TAKEN
    counter = duel(F(1, 6), F(1, 2))
    assert counter[0] == F(1, 7)
    assert result.takes_territory == pytest.approx(float(taken), abs=TOL)
    assert result.holds == pytest.approx(float(taken * (1 - counter[0])), abs=TOL)  # 1/2
    first = result.battle
    assert first.attacker_win + first.draw + first.defender_win == pytest.approx(1.0, abs=TOL)
    assert sum(row["probability"] for row in result.compositions) == pytest.approx(float(taken), abs=TOL)


def test_the_amphibious_landing_counts_the_gun_once():
    """1 transport lands 1 inf, 1 fighter flies in, against 1 inf and the gun. Fighter shot
    down (1/6): the infantry's duel takes 1/4. Else: no change 10/36; over 26/36 the defender
    dies and the attacker loses nothing 14/26 (takes), loses the landed infantry 7/26 (the
    fighter alone wins: the gun stands), or only the infantry is lost 5/26 (then the fighter's
    duel, never taken). Taken 1/24 + 35/78 = 51/104, and the defender is wiped out only there:
    where the fighter alone wins the gun still stands."""
    result = run_amphibious(gun_assault(), method="exact")
    taken = AMPHIBIOUS_TAKEN
    assert result.takes_territory == pytest.approx(float(taken), abs=TOL)
    assert result.defender_destroyed == pytest.approx(float(taken), abs=TOL)
    land = result.landings[0].result
    air_won = (1 - SHOT) * (F(7, 26) + F(5, 26) * FTR_INF[0])
    assert land.attacker_win == pytest.approx(float(taken + air_won), abs=TOL)
    assert land.attacker_win + land.draw + land.defender_win == pytest.approx(1.0, abs=TOL)
    guns = sum(row.probability for row in land.defender_survivors if row.counts.get("aa_gun"))
    assert guns + result.defender_destroyed == pytest.approx(1.0, abs=TOL)


def test_monte_carlo_counter_attack_and_landing_count_the_gun_once():
    """The same two answers by Monte Carlo (fixed seeds): each figure within 4.5 standard
    errors of its hand-derived value, and the battles' outcomes summing to 1."""
    counter = run_counter_attack(oddsim.Battle("revised", "1 arm, 1 ftr", "1 inf, 1 aa"), "1 inf",
                                 method="mc", runs=60_000, seed=5)
    for name, want in (("takes_territory", COUNTER_TAKEN), ("holds", COUNTER_HOLDS)):
        assert abs(getattr(counter, name) - float(want)) <= 4.5 * counter.std_error[name], name
    first = counter.battle
    assert first.attacker_win + first.draw + first.defender_win == pytest.approx(1.0, abs=1e-9)
    assault = run_amphibious(gun_assault(), method="mc", runs=60_000, seed=6)
    for name in ("takes_territory", "defender_destroyed"):
        assert abs(getattr(assault, name) - float(AMPHIBIOUS_TAKEN)) <= 4.5 * assault.std_error[name], name
    land = assault.landings[0].result
    assert land.attacker_win + land.draw + land.defender_win == pytest.approx(1.0, abs=1e-9)
    guns = sum(row.probability for row in land.defender_survivors if row.counts.get("aa_gun"))
    assert guns + assault.defender_destroyed == pytest.approx(1.0, abs=1e-9)


def test_a_captured_gun_fires_at_the_counter_attack():
    """The armor takes the gun's territory surely (nothing there fights) and captures the gun,
    which now fires for it at the counter-attack's aircraft (docs/rules.md §8: the gun is
    captured with the territory, it changes owner). Counter-attack 1 inf, 1 fighter against 1
    armor (defends at 3): fighter shot down (1/6): the infantry's duel takes it back 1/7. Else a
    round with no change 5/24; the armor dies and nothing is lost 7/24 (taken back), the armor
    dies with the infantry 7/24 (the fighter alone cannot take it), the infantry dies 5/24 (the
    fighter cannot either): over 19/24, 7/19. Taken back 1/42 + 35/114 = 44/133 (without the
    gun's fire it was 7/19)."""
    result = run_counter_attack(oddsim.Battle("revised", "1 arm", "1 aa"), "1 inf, 1 ftr", method="exact")
    assert result.takes_territory == pytest.approx(1.0, abs=TOL)
    back = SHOT * duel(F(1, 6), F(1, 2))[0] + (1 - SHOT) * F(7, 19)
    assert back == F(44, 133)
    assert result.holds == pytest.approx(float(1 - back), abs=TOL)
    assert [row["units"] for row in result.compositions] == ["1 armor, 1 AA gun"]
    # where the edition's gun is a casualty (1942-2e) it is destroyed, not captured: 7/19
    plain = run_counter_attack(oddsim.Battle("1942-2e", "1 arm", "1 aa"), "1 inf, 1 ftr", method="exact")
    assert plain.holds == pytest.approx(float(1 - F(7, 19)), abs=TOL)
