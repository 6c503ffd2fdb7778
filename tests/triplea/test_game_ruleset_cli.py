"""``--rules FILE.xml`` on the command line: a game file's answers, its unit table, and each bad
file refused with status 2 and one line."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from oddsim.cli import cli
from tests.cli_lines import refused

GAMES = Path(__file__).parent / "games"
RULEBOOK_1942 = str(GAMES / "rulebook_1942.xml")


def test_rules_show_lists_the_maps_units_and_what_is_not_modelled(tmp_path):
    result = CliRunner().invoke(cli, ["rules", "show", RULEBOOK_1942])
    assert result.exit_code == 0, result.output
    assert "aa_gun" in result.stdout and "aagun" in result.stdout
    path = tmp_path / "marines.xml"
    path.write_text('<game><info name="Marines"/><unitList><unit name="marine"/></unitList><attachmentList>'
                    '<attachment name="unitAttachment" attachTo="marine" javaClass="UnitAttachment">'
                    '<option name="attack" value="1"/><option name="isMarine" value="1"/></attachment>'
                    '</attachmentList></game>')
    result = CliRunner().invoke(cli, ["rules", "show", str(path)])
    assert "unit marine: a marine" in result.stdout


def test_a_battle_under_a_game_file_reads_its_unit_names():
    result = CliRunner().invoke(cli, ["battle", "--rules", RULEBOOK_1942, "-a", "2 Infantry, 1 Armours",
                                      "-d", "1 infantry, 1 aaGun", "--json"])
    assert result.exit_code == 0, result.output
    assert '"attacker_win"' in result.stdout


def test_bad_game_files_are_one_line(tmp_path):
    not_xml = tmp_path / "broken.xml"
    not_xml.write_text("<game><info name='x'></game")
    refused(["battle", "--rules", str(not_xml), "-a", "1 inf", "-d", "1 inf"],
            f"{not_xml} is not XML (unclosed token: line 1, column 21); give a TripleA game file "
            "(a map's games/*.xml, or File > Save > Export game.xml)")
    bomb = tmp_path / "bomb.xml"
    bomb.write_text('<?xml version="1.0"?><!DOCTYPE game [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;">]>'
                    "<game>&b;</game>")
    refused(["rules", "show", str(bomb)],
            f"{bomb} declares XML entities, which oddsim refuses (an entity can expand without bound); "
            "export the game again from TripleA")


def test_a_refused_unit_is_one_line(tmp_path):
    path = tmp_path / "kamikaze.xml"
    unit = '<attachment name="unitAttachment" attachTo="{}" javaClass="UnitAttachment">{}</attachment>'
    path.write_text('<game><info name="K"/><unitList><unit name="infantry"/><unit name="zero"/></unitList>'
                    '<attachmentList>'
                    + unit.format("zero", '<option name="isAir" value="true"/>'
                                          '<option name="attack" value="2"/>'
                                          '<option name="isKamikaze" value="true"/>')
                    + unit.format("infantry", '<option name="defense" value="2"/>')
                    + '</attachmentList></game>')
    refused(["battle", "--rules", str(path), "-a", "1 zero", "-d", "1 infantry"],
            "attacker: K: oddsim does not compute zero (a kamikaze unit): leave it out of the battle")


def test_an_xml_file_that_is_not_a_game_is_one_line(tmp_path):
    other = tmp_path / "other.xml"
    other.write_text("<map/>")
    refused(["rules", "show", str(other)],
            f"{other} is XML but not a TripleA game (its root is <map>, not <game>); give a map's "
            "games/*.xml or an exported game.xml")
