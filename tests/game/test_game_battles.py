"""Every battle of a game in progress answered from its board (tests/triplea/games/small_war.xml,
written for these tests) under the map's own rules (and, where a test says, a built-in edition's
standing in for them): the armies read off the file by hand, the odds derived by hand."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from oddsim.errors import BattleError
from oddsim.game import board_battle, board_plan_armies, game_battles, load_game
from oddsim.model.rules import load_ruleset
from oddsim.triplea.board import BoardError

SMALL_WAR = Path(__file__).parents[1] / "triplea" / "games" / "small_war.xml"
ANNIVERSARY = load_ruleset("anniversary")


def _game(text: bytes | None = None, rules=None):
    return load_game(text if text is not None else SMALL_WAR, "small_war.xml", rules=rules)


def _with(*placements: str) -> bytes:
    """The small war with more units placed."""
    extra = "".join(placements).encode()
    return SMALL_WAR.read_bytes().replace(b"</unitInitialize>", extra + b"</unitInitialize>")


def test_every_battle_is_answered_in_the_maps_order():
    answers = game_battles(_game(), attacker="Germans").answers
    assert [a.territory for a in answers] == ["Karelia", "Ukraine", "Libya", "Sea Zone 5", "Sea Zone 6",
                                              "Sweden"]
    karelia = answers[0].to_dict()
    assert karelia["attacker"] == {"infantry": 3, "armour": 1} and karelia["defender"] == {"infantry": 2}
    assert karelia["attacker_players"] == ["Germans"] and karelia["defender_players"] == ["Russians"]
    assert karelia["attacker_tech"] == []  # heavyBomber changes none of these units
    assert karelia["method"] == "exact" and karelia["refused"] is None
    assert karelia["attacker_win"] + karelia["defender_win"] + karelia["draw"] == pytest.approx(1)


def test_one_armour_against_a_neutral_infantry():
    # armour hits on 3 (1/2), infantry defends on 2 (1/3): attacker 1/2, draw 1/4, defender 1/4
    sweden = game_battles(_game()).answers[-1].to_dict()
    assert sweden["territory"] == "Sweden" and sweden["defender_players"] == [None]
    assert sweden["attacker_win"] == pytest.approx(1 / 2, abs=1e-12)
    assert sweden["draw"] == pytest.approx(1 / 4, abs=1e-12)
    assert sweden["takes_territory"] == pytest.approx(1 / 2, abs=1e-12)


def test_a_damaged_battleship_at_sea_keeps_its_damage():
    # fighter (3) + destroyer (2) against a battleship with one hit left (4), the destroyer lost
    # first: the attacker wins 4/5, draw 1/10, defender 1/10 (derived in the commit's notes:
    # state "both" wins 2/3 a round, loses the destroyer 2/9; the fighter alone wins 1/5, draws 2/5)
    answer = game_battles(_game(), attacker="Germans").answers[4].to_dict()
    assert answer["defender"] == {"battleship": 1} and answer["defender_army"] == "1 damaged battleship"
    assert Fraction(answer["attacker_win"]).limit_denominator(1000) == Fraction(4, 5)
    assert answer["defender_win"] == pytest.approx(1 / 10, abs=1e-12)


def test_cargo_at_sea_does_not_fight():
    sz5 = game_battles(_game(), attacker="Germans").answers[3].to_dict()
    assert sz5["attacker"] == {"transport": 1, "submarine": 1}
    assert sz5["notes"] == ["the attacker's 2 infantry at sea: cargo, which does not fight there"]


def test_sea_zones_without_an_attacker_are_listed_with_the_fix():
    answers = {a.territory: a.to_dict() for a in game_battles(_game()).answers}
    assert answers["Sea Zone 5"]["refused"].endswith("name the attacker at sea with --attacker PLAYER")
    assert answers["Sea Zone 5"]["players"] == ["Germans", "British"]
    assert "attacker_win" not in answers["Sea Zone 5"]


def test_techs_apply_where_they_change_a_unit():
    game = _game(_with('<unitPlacement unitType="bomber" territory="Karelia" quantity="1" owner="Germans"/>'))
    battle, armies, _ = board_battle(game, "Karelia")
    assert armies.attacker_tech == ("heavy-bombers",) and battle.attacker.tech == ("heavy-bombers",)


def test_allies_with_different_techs_that_matter_are_refused():
    game = _game(_with('<unitPlacement unitType="bomber" territory="Libya" quantity="1" owner="Germans"/>'))
    libya = {a.territory: a for a in game_battles(game).answers}["Libya"]
    assert libya.result is None and "hold different technologies" in libya.refused


def test_a_tech_the_rules_lack_refuses_the_battle():
    game = _game(_with('<unitPlacement unitType="bomber" territory="Karelia" quantity="1" owner="Germans"/>'),
                 rules=load_ruleset("1942-2e"))
    karelia = game_battles(game).answers[0]
    assert karelia.result is None
    assert "holds heavyBomber, which 1942-2e's rules do not define" in karelia.refused


def test_a_unit_the_rules_lack_refuses_the_battle():
    game = _game(_with('<unitPlacement unitType="factory" territory="Ukraine" quantity="1" '
                       'owner="Germans"/>'), rules=ANNIVERSARY)
    ukraine = {a.territory: a for a in game_battles(game).answers}["Ukraine"]
    assert "factory is not a unit of anniversary's rules" in ukraine.refused


def test_a_factory_defends_as_the_map_says_and_never_attacks():
    factory = '<unitPlacement unitType="factory" territory="{}" quantity="1" owner="Germans"/>'
    game = _game(_with(factory.format("Ukraine"), factory.format("Karelia")))
    answers = {a.territory: a for a in game_battles(game).answers}
    assert answers["Ukraine"].armies.defender.describe() == "1 infantry, 1 factory"
    assert answers["Ukraine"].result is not None
    assert answers["Karelia"].armies.notes == ("the attacker's 1 factory: cannot attack, left out",)


def test_the_board_battle_takes_options_and_armies_given():
    battle, _, _ = board_battle(_game(), "karelia", options={"ool_defender": "infantry"},
                                attacker_army="6 infantry")
    assert battle.attacker.army.describe() == "6 infantry" and battle.defender.army.describe() == "2 infantry"
    with pytest.raises(BoardError, match="no battle in Berlin"):
        board_battle(_game(), "Berlin")


def test_engine_options_are_checked_once():
    with pytest.raises(BattleError, match="unknown method"):
        game_battles(_game(), method="guess")


def test_the_table_lists_each_battle_and_why_some_are_not_answered():
    text = game_battles(_game()).to_table()
    assert text.splitlines()[0] == "Small War, round 3: 4 battles answered, 2 not"
    assert "Sweden (land, owned by no player): Russians: 1 armour  attack  no player: 1 infantry" in text
    assert "attacker wins 50.00%, takes it 50.00%, defender wins 25.00%" in text
    assert "Sea Zone 5 (sea)\n  not answered: units of players at war stand here" in text


def test_the_table_signs_the_tuv_swing_as_the_battle_command_does():
    # Sweden: the defender loses its infantry (3 IPC) 3/4 of the time, the attacker its armour
    # (6) 1/2: 2.25 - 3 = -0.75. Karelia gains: + as `oddsim battle` writes it (before: "1.8")
    text = game_battles(_game()).to_table()
    assert "defender wins 25.00%; TUV swing -0.75 (exact)" in text
    karelia = game_battles(_game()).answers[0]
    assert karelia.result is not None and karelia.result.tuv_swing > 0
    assert f"TUV swing +{karelia.result.tuv_swing:.2f} (exact)" in text


def test_a_plan_takes_its_pool_and_defenders_from_the_board():
    armies = board_plan_armies(_game(), ["Ukraine", "Sweden"], ["Poland", "Norway"], "russians")
    assert armies.player == "Russians" and armies.pool.describe() == "3 armour"
    # Poland: the Americans there are neutral to the Germans and allied to the Russians: not defenders
    assert {name: force.describe() for name, force in armies.targets.items()} == {
        "Poland": "1 infantry", "Norway": "none"}
    assert not armies.sea


@pytest.mark.parametrize("sources, targets, player, message", [
    (["Ukraine"], ["Poland"], None, "units of Germans and Russians stand in Ukraine"),
    (["Ukraine"], ["Karelia"], "Russians", "not at war with Russians, who holds Karelia"),
    (["Ukraine"], ["Poland", "Sea Zone 5"], "Russians", "land and sea zones together"),
    (["Berlin"], ["Mars"], None, "territory 'Mars' is not on this board"),
])
def test_a_plan_from_the_board_names_the_fix(sources, targets, player, message):
    with pytest.raises(BoardError, match=message):
        board_plan_armies(_game(), sources, targets, player)
