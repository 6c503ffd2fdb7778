"""Each battle option declared once (oddsim.model.options): what it sets exists, and the
command line, the web and battle_from all read the same declaration."""

import dataclasses
import inspect

import pytest
from click.testing import CliRunner

import oddsim
from oddsim.cli import cli
from oddsim.model.options import OPTIONS, WEB_FIELDS, Owner, battle_from, battle_of


def _fields(owner: Owner) -> set[str]:
    if owner is Owner.RETREAT:
        return {f.name for f in dataclasses.fields(oddsim.RetreatPolicy)}
    made = oddsim.Side if owner in (Owner.ATTACKER, Owner.DEFENDER) else oddsim.Battle
    return set(inspect.signature(made).parameters)


@pytest.mark.parametrize("option", OPTIONS, ids=lambda option: option.name)
def test_each_option_sets_a_field_of_its_owner(option):
    assert option.field in _fields(option.owner)


def test_names_and_flags_are_unique():
    assert len({o.name for o in OPTIONS}) == len({o.flag for o in OPTIONS}) == len(OPTIONS)


def test_the_battle_command_offers_every_option_with_its_declared_help():
    text = CliRunner().invoke(cli, ["battle", "--help"], terminal_width=400).output
    for option in OPTIONS:
        if option.on_command_line:
            assert option.flag in text
            assert " ".join(option.help.split()) in " ".join(text.split())
        else:
            assert f"{option.flag} " not in text


def test_battle_from_sets_each_option_on_its_owner():
    built = battle_from("1942-2e", "3 inf, 1 art, 2 arm", "4 inf, 1 arm",
                        {"ool_attacker": "arm,art,inf", "keep_land": 1, "ool_defender": "arm,inf",
                         "dice": "lowluck", "retreat_after_round": 2})
    by_hand = oddsim.Battle("1942-2e",
                            oddsim.Side("3 inf, 1 art, 2 arm", order_of_loss="arm,art,inf", keep_land=1),
                            oddsim.Side("4 inf, 1 arm", order_of_loss="arm,inf"), dice="lowluck",
                            retreat=oddsim.RetreatPolicy(after_round=2))
    assert built == by_hand
    assert battle_of({"rules": "1942-2e", "attacker": "3 inf, 1 art, 2 arm", "defender": "4 inf, 1 arm",
                      "ool_attacker": "arm,art,inf", "keep_land": 1, "ool_defender": "arm,inf",
                      "dice": "lowluck", "retreat": {"after_round": 2}}) == by_hand


def test_an_unknown_option_or_a_retreat_given_twice_is_refused():
    with pytest.raises(oddsim.BattleError, match="unknown battle option 'keep_sea'"):
        battle_from("1942-2e", "1 inf", "1 inf", {"keep_sea": 1})
    with pytest.raises(oddsim.BattleError, match="give the retreat once"):
        battle_from("1942-2e", "1 inf", "1 inf", {"retreat": {"after_round": 1}, "retreat_units": 1})


def test_the_web_takes_every_option_but_the_command_lines_retreat_flags():
    assert "retreat" in WEB_FIELDS and "aa_fired" in WEB_FIELDS
    assert not {"retreat_after_round", "territory_value"} & set(WEB_FIELDS)
