"""Best casualties in the stages of an answer (issue 33): a counter-attack after a battle, an
amphibious assault's sea battle and landing, later waves. Each is checked against the brute-force
game solver of tests/engines/exact/test_best_casualties.py (pure Python, every set of casualties
enumerated) composed by hand."""

import json

import pytest
from click.testing import CliRunner

import oddsim
from oddsim.api import run_amphibious, run_counter_attack, run_waves
from oddsim.cli import cli
from oddsim.errors import BattleError
from oddsim.model.battle import Battle
from oddsim.model.side import Side
from oddsim.stages.amphibious import Amphibious
from oddsim.stages.counter import counter_battle
from oddsim.stages.waves import Wave
from tests.engines.exact.test_best_casualties import brute_force

RULES = "1942-2e"
INF, ART, ARM, FTR = 1 / 6, 2 / 6, 3 / 6, 3 / 6  # 1942-2e attack values (artillery raises infantry to 2)


def _land_fire(attacking):
    """Dice groups of a composition (infantry, armor, fighter) on land, 1942-2e, no artillery."""
    values = (INF, ARM, FTR) if attacking else (2 / 6, 3 / 6, 4 / 6)
    return lambda c: [(n, p) for n, p in zip(c, values, strict=False)]


def _takes(attacker, defender, attacker_best=True, defender_best=False):
    """The brute force's chance to take: (inf, arm, ftr) against (inf, arm), each side choosing
    each loss or losing cheapest first (infantry, then armor, then fighters)."""
    return brute_force(attacker, defender, _land_fire(True), _land_fire(False), att_land=(0, 1),
                       att_order=None if attacker_best else (0, 1, 2),
                       def_order=None if defender_best else (0, 1))


# --- the counter-attack ------------------------------------------------------------------------


@pytest.mark.parametrize("chooser", ["attacker", "defender"])
def test_a_counter_attack_is_the_hand_composition_of_two_solves(chooser):
    """2 inf, 1 arm, 1 ftr take 2 inf, 1 arm; 2 inf, 1 arm counter-attack what stays. With the
    attacker choosing, its units that stay choose again in the counter-attack; with the defender
    choosing, the counter-attacker (the same player) does. The chance to take and hold is the
    sum, over what stays, of its chance in the battle times the counter-attack's chance to fail,
    each battle here solved alone by the brute force."""
    a_best, d_best = chooser == "attacker", chooser == "defender"
    battle = Battle(RULES, Side("2 inf, 1 arm, 1 ftr", "best" if a_best else None),
                    Side("2 inf, 1 arm", "best" if d_best else None))
    answer = run_counter_attack(battle, "2 inf, 1 arm", method="exact",
                                       ool_counter="best" if d_best else None)
    first = oddsim.solve(battle)
    assert answer.takes_territory == pytest.approx(_takes((2, 1, 1), (2, 1), a_best, d_best), abs=1e-12)
    holds = 0.0
    for row in first.attacker_survivors:
        inf, arm = row.counts.get("infantry", 0), row.counts.get("armor", 0)
        if inf + arm == 0 or row.retreated:
            continue
        # the counter-attack: (inf, arm) against what stayed, the stayers choosing where the
        # attacker did (they defend: the brute force's defender), the counter-attacker where the
        # defender did
        retaken = brute_force((2, 1, 0), (inf, arm), _land_fire(True), _land_fire(False), att_land=(0, 1),
                              att_order=None if d_best else (0, 1, 2), def_order=None if a_best else (0, 1))
        holds += row.probability * (1.0 - retaken)
    assert answer.holds == pytest.approx(holds, abs=1e-12)
    assert 0.05 < answer.holds < answer.takes_territory


def test_the_counter_battle_takes_the_sides_choices_and_the_goal():
    battle = Battle(RULES, Side("2 inf, 1 arm, 1 ftr", "best"), "2 inf, 1 arm", casualty_goal="tuv")
    stays = Battle(RULES, "1 inf, 1 arm", "1 inf").attacker.army
    counter = counter_battle(battle, "3 inf", stays)
    assert counter.defender.best_losses and not counter.attacker.best_losses
    assert counter.casualty_goal == "tuv"
    plain = counter_battle(Battle(RULES, "2 inf, 1 arm", "2 inf"), "3 inf",
                           Battle(RULES, "2 inf", "1 inf").attacker.army)
    assert not plain.best_losses and plain.casualty_goal is None  # (fixed orders: as before)


def _json(*args):
    result = CliRunner().invoke(cli, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_the_cli_counter_attacker_chooses_where_the_defender_does():
    data = _json("battle", "-a", "2 inf, 1 arm, 1 ftr", "-d", "2 inf, 1 arm", "--ool-defender", "best",
                 "--counter-attack", "1 inf, 1 ftr")
    battle = Battle(RULES, "2 inf, 1 arm, 1 ftr", Side("2 inf, 1 arm", "best"))
    expected = run_counter_attack(battle, "1 inf, 1 ftr", method="exact", ool_counter="best")
    assert data["holds"] == pytest.approx(expected.holds, abs=1e-12)
    fixed = run_counter_attack(battle, "1 inf, 1 ftr", method="exact")
    assert expected.holds != pytest.approx(fixed.holds, abs=1e-6)  # (the counter-attacker's choice counts)


def test_later_waves_keep_choosing_each_loss():
    """``--wave`` with --ool-attacker best: the later waves choose each loss too (they used the
    checked side's order, None, and fought cheapest first)."""
    data = _json("battle", "-a", "1 inf, 3 ftr", "-d", "3 inf", "--ool-attacker", "best",
                 "--wave", "1 inf, 3 ftr")
    battle = Battle(RULES, Side("1 inf, 3 ftr", "best"), "3 inf")
    expected = run_waves(battle, [Wave(attacker=Side("1 inf, 3 ftr", "best"))], method="exact")
    assert data["takes_territory"] == pytest.approx(expected.takes_territory, abs=1e-12)
    fixed = run_waves(battle, [Wave(attacker="1 inf, 3 ftr")], method="exact")
    assert expected.takes_territory > fixed.takes_territory + 0.05


def test_the_first_waves_advice_is_the_plain_battles():
    """Wave 1 is the plain battle, so its best casualties' figures and advice are the plain
    battle's: the text prints them under wave 1, --json holds them in its wave's
    ``casualty_policy`` (later waves fight many defender compositions, each with its own
    advice: none is printed for them). Before: the waves printed no advice at all."""
    args = ["battle", "-a", "1 inf, 3 ftr", "-d", "3 inf", "--ool-attacker", "best", "--wave", "2 inf"]
    plain = oddsim.solve(Battle(RULES, Side("1 inf, 3 ftr", "best"), "3 inf"))
    assert plain.casualty_policy is not None
    data = _json(*args)
    assert data["waves"][0]["casualty_policy"] == json.loads(json.dumps(plain.casualty_policy.to_dict()))
    assert "casualty_policy" not in data["waves"][1]
    text = CliRunner().invoke(cli, args)
    assert text.exit_code == 0, text.output
    lines = text.output.splitlines()
    advice = ["  " + line for line in plain.casualty_policy.lines()]
    start = lines.index(advice[0])
    assert lines[start:start + len(advice)] == advice
    assert lines.index("wave 1: 1 infantry, 3 fighters (exact): reaches the battle 100%") < start \
        < next(k for k, line in enumerate(lines) if line.startswith("wave 2:"))
    plain_text = CliRunner().invoke(cli, args[:-2]).output  # (the plain battle prints the same lines)
    assert all(line.strip() in plain_text for line in advice)


# --- the amphibious assault --------------------------------------------------------------------


def _transport_last(state):
    """One hit on (destroyer, cruiser, transport): a warship, the transport only when none is left."""
    warships = [k for k in (0, 1) if state[k]]
    if warships:
        return {state[:k] + (state[k] - 1,) + state[k + 1:] for k in warships}
    return {(0, 0, state[2] - 1)} if state[2] else set()


def test_an_assault_with_best_casualties_at_sea_and_on_land_is_the_brute_force():
    """1 dd, 1 cruiser, 1 transport carrying 1 inf, 1 arm, with 1 ftr sent to land, against 2 dd
    at sea and 2 inf on land. At sea the attacker chooses each loss to win (the transport is
    taken last: it lands whenever the attacker wins); on land it chooses each loss to take.
    Takes = P(sea won) x P(land taken), each from the brute force."""
    assault = Amphibious(rules=RULES, fleet="1 dd, 1 cruiser, 1 trn", cargo="1 inf, 1 arm", air="1 ftr",
                         defender="2 inf", sea_defender="2 dd", ool_attacker="best", ool_sea_attacker="best")
    answer = run_amphibious(assault, method="exact")
    sea = brute_force((1, 1, 1), (2,), lambda c: [(c[0], 2 / 6), (c[1], 3 / 6)], lambda c: [(c[0], 2 / 6)],
                      att_land=(), goal_take=False, def_order=(0,), hit_once=_transport_last)
    land = _takes((1, 1, 1), (2, 0))
    assert answer.sea.attacker_win == pytest.approx(sea, abs=1e-12)
    assert answer.sea.casualty_policy.goal == "win"
    assert answer.takes_territory == pytest.approx(sea * land, abs=1e-12)
    plain = Amphibious(rules=RULES, fleet="1 dd, 1 cruiser, 1 trn", cargo="1 inf, 1 arm", air="1 ftr",
                       defender="2 inf", sea_defender="2 dd")
    fixed = run_amphibious(plain, method="exact")
    assert fixed.takes_territory == pytest.approx(sea * _takes((1, 1, 1), (2, 0), False), abs=1e-12)
    assert answer.takes_territory > fixed.takes_territory + 0.05
    assert "with the attacker choosing each loss" in answer.to_table()


def test_the_sea_battle_takes_a_fixed_order_too():
    """--ool-sea-attacker with a fixed order: the cruiser lost before the destroyer."""
    assault = Amphibious(rules=RULES, fleet="1 dd, 1 cruiser, 1 trn", cargo="1 inf", defender="1 inf",
                         sea_defender="2 dd", ool_sea_attacker="cruiser, dd")
    answer = run_amphibious(assault, method="exact")
    cruiser_first = brute_force((1, 1, 1), (2,), lambda c: [(c[0], 2 / 6), (c[1], 3 / 6)],
                                lambda c: [(c[0], 2 / 6)], att_land=(), goal_take=False, att_order=(1, 0, 2),
                                def_order=(0,))
    assert answer.sea.attacker_win == pytest.approx(cruiser_first, abs=1e-12)


@pytest.mark.parametrize("options, named", [
    (dict(ool_sea_attacker="best"), "--ool-sea-attacker: there is no sea battle"),
    (dict(casualty_goal="tuv"), "the casualty goal is what a side that chooses each loss plays for"),
])
def test_what_an_assault_refuses_in_one_line(options, named):
    with pytest.raises(BattleError, match=named.replace("(", r"\(")):
        Amphibious(rules=RULES, fleet="1 bb, 1 trn", cargo="1 inf, 1 arm", defender="2 inf", **options)


def test_a_landing_the_fleet_bombards_chooses_each_loss():
    """The defender loses its bombardment casualties knowing those hits (engines/exact tests check
    the bombardment against a brute force); choosing each loss never takes less."""
    options = dict(rules=RULES, fleet="1 bb, 1 trn", cargo="1 inf, 1 arm", defender="2 inf")
    best = run_amphibious(Amphibious(**options, ool_attacker="best", casualty_goal="take"), method="exact")
    fixed = run_amphibious(Amphibious(**options), method="exact")
    assert best.takes_territory >= fixed.takes_territory - 1e-12


def test_a_landing_without_bombardment_chooses_each_loss():
    assault = Amphibious(rules=RULES, fleet="1 bb, 1 trn", cargo="1 inf, 1 arm", air="1 ftr",
                         defender="2 inf", bombard=False, ool_attacker="best", casualty_goal="take")
    answer = run_amphibious(assault, method="exact")
    assert answer.takes_territory == pytest.approx(_takes((1, 1, 1), (2, 0)), abs=1e-12)


# --- the games' sizes ----------------------------------------------------------------------------


@pytest.mark.parametrize("attacker, defender, sea, who", [
    ("10 inf, 3 art, 3 arm, 2 ftr, 2 bmb", "12 inf, 2 art, 2 arm, 2 ftr", False, "attacker"),
    ("3 inf, 1 arm, 1 ftr", "2 inf, 1 aa", False, "both"),
    ("2 bb, 1 dd", "1 bb, 1 cruiser", True, "attacker"),
])
def test_a_games_size_from_its_armies_is_the_solvers(attacker, defender, sea, who):
    """``best_size.game_size`` counts the best-loss table's entries as the solver builds it: for
    the issue's benchmark 1,584 x 351 compositions x 21 hit counts; a non-casualty AA gun takes
    no hits; a two-hit unit's whole and damaged ones apart."""
    from oddsim.engines.exact import casualties
    from oddsim.stages.best_size import game_size
    from oddsim.stages.pipeline import estimate_seconds

    a = Side(attacker, "best") if who in ("attacker", "both") else attacker
    d = Side(defender, "best") if who == "both" else defender
    battle = Battle(RULES, a, d, sea=sea)
    size = game_size(battle)
    assert size.entries == casualties.game(battle).entries
    if attacker.startswith("10 inf"):
        assert size.entries == 1584 * 351 * 21
    assert estimate_seconds(battle) == size.seconds
