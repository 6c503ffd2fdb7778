"""A TripleA unit's name as players type it, and its value from the production frontiers."""

from __future__ import annotations

import pytest

from oddsim.triplea.costs import unit_costs
from oddsim.triplea.document import read_game_root
from oddsim.triplea.names import name_table, oddsim_name
from oddsim.triplea.options import read_parts


@pytest.mark.parametrize(("name", "expected"), [
    ("infantry", "infantry"), ("aaGun", "aa_gun"), ("mech_infantry", "mech_infantry"),
    ("Tiger-Tank", "tiger_tank"), ("Mech.Inf", "mech_inf"), ("B29", "b29"),
    ("88mm Flak", "unit_88mm_flak"),
    ("none", "unit_none"), ("Damaged Tank", "unit_damaged_tank"), ("L.Bomber", "l_bomber"),
])
def test_a_tripleas_unit_name_as_oddsim_types_it(name, expected):
    assert oddsim_name(name) == expected


def test_names_that_read_the_same_are_told_apart_and_keep_the_maps_spelling():
    table = name_table(["aaGun", "aa_gun", "AAgun"])
    assert [name for name, _ in table.values()] == ["aa_gun", "aa_gun_2", "aagun"]
    # the map's own name, lowercased, is an alias where no other unit has it as its name
    assert name_table(["aaGun"])["aaGun"] == ("aa_gun", ("aagun",))
    assert table["aaGun"][1] == ()


GAME = b"""<game><info name="costs"/>
  <playerList><player name="Reds"/><player name="Blues"/><player name="Greens"/></playerList>
  <unitList><unit name="infantry"/><unit name="tank"/><unit name="fort"/><unit name="hero"/></unitList>
  <production>
    <productionRule name="inf2"><cost resource="PUs" quantity="6"/>
      <result resourceOrUnit="infantry" quantity="2"/></productionRule>
    <productionRule name="tank6"><cost resource="PUs" quantity="6"/>
      <result resourceOrUnit="tank" quantity="1"/></productionRule>
    <productionRule name="tank5"><cost resource="PUs" quantity="5"/>
      <result resourceOrUnit="tank" quantity="1"/></productionRule>
    <productionRule name="tankTech"><cost resource="PUs" quantity="2"/>
      <result resourceOrUnit="tank" quantity="1"/></productionRule>
    <productionFrontier name="a"><frontierRules name="inf2"/><frontierRules name="tank6"/>
    </productionFrontier>
    <productionFrontier name="b"><frontierRules name="tank5"/></productionFrontier>
    <productionFrontier name="tech"><frontierRules name="tankTech"/></productionFrontier>
    <playerProduction player="Reds" frontier="a"/>
    <playerProduction player="Blues" frontier="a"/>
    <playerProduction player="Greens" frontier="b"/>
  </production>
  <attachmentList>
    <attachment name="unitAttachment" attachTo="hero" javaClass="UnitAttachment">
      <option name="tuv" value="9"/>
    </attachment>
  </attachmentList>
</game>"""


def test_costs_are_what_most_players_pay_in_their_own_frontier():
    costs = unit_costs(read_parts(read_game_root(GAME)))
    # two infantry for 6 PUs: 3 each;
    # a tank costs 6 for two players and 5 for one (the technology frontier's 2 is no player's);
    # a fort is sold to no one; a hero states its value (tuv)
    assert costs == {"infantry": 3, "tank": 6, "fort": 0, "hero": 9}
