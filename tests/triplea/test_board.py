"""A TripleA game's board read from its file: players, who is at war, owners, units with their
damage, technologies, and where the battles are (tests/triplea/games/small_war.xml, written for
these tests: every expected value below is read off that file by hand)."""

from __future__ import annotations

from pathlib import Path

import pytest

from oddsim.triplea.battlefields import battlefield, battlefields
from oddsim.triplea.board import BoardError, Stack, board_from_root
from oddsim.triplea.document import read_game_root
from oddsim.triplea.players import Stance

GAMES = Path(__file__).parent / "games"
SMALL_WAR = GAMES / "small_war.xml"


@pytest.fixture(scope="module")
def board():
    return board_from_root(read_game_root(SMALL_WAR))


def _game(body: str) -> bytes:
    return (f'<?xml version="1.0"?><game><info name="t"/><map>{body}</map>'
            '<playerList><player name="A"/><player name="B"/></playerList></game>').encode()


def test_players_rounds_and_territories(board):
    assert board.name == "Small War"
    assert board.round == 3  # offset round 2: TripleA writes the round less one
    assert board.players == ("Germans", "Russians", "British", "Italians", "Americans")
    assert len(board.territories) == 9
    assert board.territory("sea zone 5").water and not board.territory("Karelia").water
    assert board.territory("Karelia").owner == "Russians"
    assert board.territory("Sweden").owner is None


def test_relations_follow_alliances_then_the_initialised_relationships(board):
    relations = board.relations
    assert relations.stance("Germans", "Italians") is Stance.ALLIED  # one alliance
    assert relations.stance("Russians", "British") is Stance.ALLIED
    assert relations.at_war("Italians", "Russians")  # different alliances, nothing said: war
    assert relations.stance("Germans", "Americans") is Stance.NEUTRAL  # Neutrality: archeType neutral
    assert relations.stance("Italians", "Americans") is Stance.NEUTRAL  # archeType written NEUTRAL
    assert relations.at_war(None, "Germans")  # units of no player are at war with everyone


def test_units_keep_their_owner_and_damage(board):
    assert board.territory("Sea Zone 6").units == (
        Stack("battleship", "British", 1, hits_taken=1), Stack("destroyer", "Germans", 1),
        Stack("fighter", "Germans", 1))
    assert board.territory("Sweden").units == (Stack("infantry", None, 1), Stack("armour", "Russians", 1))


def test_techs_are_the_options_set_true(board):
    assert board.techs["Germans"] == ("heavyBomber", "rocket")
    assert board.techs["Russians"] == ()


def test_battles_on_land_are_against_the_owner_and_at_sea_need_the_attacker(board):
    fields, standoffs = battlefields(board)
    assert [(f.name, f.attackers, f.defenders) for f in fields] == [
        ("Karelia", ("Germans",), ("Russians",)),
        ("Ukraine", ("Russians",), ("Germans",)),
        ("Libya", ("Italians", "Germans"), ("British",)),
        ("Sweden", ("Russians",), (None,)),
    ]
    # Berlin: Germans alone; Poland: Americans are neutral to Germans; Norway: nobody defends it
    assert [s.name for s in standoffs] == ["Sea Zone 5", "Sea Zone 6"]
    assert "--attacker PLAYER" in standoffs[0].reason


def test_the_player_named_attacks_at_sea(board):
    fields, standoffs = battlefields(board, "british")
    sea = [(f.name, f.attackers, f.defenders) for f in fields if f.sea]
    assert sea == [("Sea Zone 5", ("British",), ("Germans",)), ("Sea Zone 6", ("British",), ("Germans",))]
    assert not standoffs
    sz5 = battlefield(board, "Sea Zone 5", "Germans")
    assert sz5.attacking == (Stack("submarine", "Germans", 1), Stack("transport", "Germans", 1),
                             Stack("infantry", "Germans", 2))
    assert sz5.defending == (Stack("destroyer", "British", 1),)


@pytest.mark.parametrize("name, attacker, message", [
    ("Berln", None, "did you mean 'Berlin'"),
    ("Berlin", None, "no battle in Berlin: only units of Germans"),
    ("Poland", None, "no battle in Poland"),
    ("Norway", None, "no battle in Norway"),
    ("Sea Zone 6", None, "--attacker PLAYER"),
    ("Sea Zone 6", "Italians", "none of them fights Italians"),
    ("Karelia", "Japanese", "player 'Japanese', not in this game"),
])
def test_no_battle_there_names_the_fix(board, name, attacker, message):
    with pytest.raises(BoardError, match=message):
        battlefield(board, name, attacker)


@pytest.mark.parametrize("body, message", [
    ('<territory name="X"/></map><initialize><unitInitialize><unitPlacement unitType="inf" '
     'territory="Y" quantity="1"/></unitInitialize></initialize><map>', "territory 'Y'"),
    ('<territory name="X"/></map><initialize><unitInitialize><unitPlacement unitType="inf" '
     'territory="X" quantity="-1"/></unitInitialize></initialize><map>', "quantity"),
    ('<territory name="X"/></map><initialize><unitInitialize><unitPlacement unitType="inf" '
     'territory="X" quantity="1" owner="C"/></unitInitialize></initialize><map>', "player 'C'"),
    ('<territory name="X"/></map><initialize><ownerInitialize><territoryOwner territory="X" owner="Z"/>'
     '</ownerInitialize></initialize><map>', "player 'Z'"),
    ("", "no territories"),
])
def test_a_damaged_board_is_one_line(body, message):
    text = _game(body).replace(b"<map></map>", b"")
    with pytest.raises(BoardError, match=message):
        board_from_root(read_game_root(text))


def test_a_game_without_players_is_refused():
    with pytest.raises(BoardError, match="playerList"):
        board_from_root(read_game_root(b'<game><map><territory name="X"/></map></game>'))
