"""A TripleA game file read as a ruleset: two game files written for these tests from the
rulebooks' values (tests/triplea/games: 1942 Second Edition and Global 1940 Second Edition, in
TripleA's format) give the built-in editions' rules, and the same battles to 1e-9."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import oddsim
from oddsim.errors import ForceError, RulesetError
from oddsim.model.rules import load_ruleset, with_changes
from oddsim.triplea.ruleset import load_game_rules

GAMES = Path(__file__).parent / "games"
RULEBOOK_1942 = GAMES / "rulebook_1942.xml"
RULEBOOK_G40 = GAMES / "rulebook_global_1940.xml"

SAME_NAME = {"armour": "armor"}
"""A game file's unit names that the built-in editions spell otherwise."""


def _builtin_name(name: str) -> str:
    return SAME_NAME.get(name, name)


def _unit_fields(unit) -> dict:
    return {k: v for k, v in dataclasses.asdict(unit).items() if k not in ("name", "aliases")}


@pytest.mark.parametrize(("game", "edition"), [(RULEBOOK_1942, "1942-2e"),
                                               (RULEBOOK_G40, "global-1940-2e")])
def test_every_unit_of_the_edition_reads_as_the_builtin_one(game, edition):
    ours, theirs = load_ruleset(str(game)), load_ruleset(edition)
    mine = {_builtin_name(unit.name): unit for unit in ours.units}
    for unit in theirs.units:
        assert _unit_fields(mine[unit.name]) == _unit_fields(unit), unit.name


@pytest.mark.parametrize(("game", "edition"), [(RULEBOOK_1942, "1942-2e"),
                                               (RULEBOOK_G40, "global-1940-2e")])
def test_the_combat_rules_read_as_the_builtin_ones(game, edition):
    ours, theirs = load_ruleset(str(game)), load_ruleset(edition)
    assert ours.combat == theirs.combat
    assert ours.transport == theirs.transport
    assert ours.amphibious == theirs.amphibious
    assert dict(ours.bombard.units) == dict(theirs.bombard.units)
    assert (ours.bombard.casualties_fire_back, ours.bombard.one_per_landed_unit) == \
        (theirs.bombard.casualties_fire_back, theirs.bombard.one_per_landed_unit)
    supports = {(tuple(sorted(map(_builtin_name, r.supporters))), tuple(sorted(r.supported)),
                 r.per_supporter, r.value, r.side) for r in ours.support}
    assert supports == {(tuple(sorted(r.supporters)), tuple(sorted(r.supported)), r.per_supporter,
                         r.value, r.side) for r in theirs.support}


def test_the_raid_rules_of_the_global_file():
    ours, theirs = load_ruleset(str(RULEBOOK_G40)).raid, load_ruleset("global-1940-2e").raid
    assert dict(ours.facility_caps) == dict(theirs.facility_caps)
    assert set(ours.tactical_targets) == set(theirs.tactical_targets)
    assert dataclasses.replace(ours, facility_caps=(), tactical_targets=()) == \
        dataclasses.replace(theirs, facility_caps=(), tactical_targets=())


def test_costs_come_from_the_players_own_frontier_not_a_technology_frontier():
    # the file also has a frontier selling battleships at 17 that no player is given
    assert load_ruleset(str(RULEBOOK_1942)).unit("battleship").cost == 20


BATTLES_1942 = [
    dict(attacker="3 infantry, 1 artillery, 2 armour", defender="4 infantry, 1 armour"),
    dict(attacker="2 infantry, 1 fighter, 1 bomber", defender="3 infantry, 1 aaGun"),
    dict(attacker="2 submarines, 1 destroyer", defender="1 submarine, 1 destroyer, 1 fighter", sea=True),
    dict(attacker="2 submarines, 1 fighter", defender="1 destroyer, 1 transport", sea=True),
    dict(attacker="1 battleship, 1 carrier, 2 fighters", defender="2 destroyers, 1 cruiser", sea=True),
    dict(attacker=oddsim.Side("2 infantry, 1 armour", landed="2 infantry", bombard="1 battleship, 1 cruiser"),
         defender="3 infantry"),
]
BATTLES_G40 = BATTLES_1942 + [
    dict(attacker="2 mech infantry, 1 artillery, 1 tactical bomber, 1 armour", defender="4 infantry"),
    dict(attacker="1 fighter, 2 tactical bombers", defender="2 infantry, 1 aa gun"),
    dict(attacker="1 battleship, 1 carrier", defender="1 carrier, 1 fighter, 1 destroyer", sea=True),
]


@pytest.mark.parametrize(("game", "edition", "battle"),
                         [(RULEBOOK_1942, "1942-2e", b) for b in BATTLES_1942]
                         + [(RULEBOOK_G40, "global-1940-2e", b) for b in BATTLES_G40])
def test_battles_under_the_game_file_equal_the_builtin_edition(game, edition, battle):
    ours = oddsim.solve(oddsim.Battle(rules=str(game), **battle))
    theirs = oddsim.solve(oddsim.Battle(rules=edition, **battle))
    for figure in ("attacker_win", "defender_win", "draw", "stalemate", "attacker_ipc_lost",
                   "defender_ipc_lost", "expected_rounds"):
        assert getattr(ours, figure) == pytest.approx(getattr(theirs, figure), abs=1e-9), figure


def test_unit_names_are_the_maps_any_case_and_plural():
    rules = load_game_rules(RULEBOOK_1942)
    assert rules.unit_names["aaGun"] == "aa_gun"
    ruleset = rules.ruleset
    for typed in ("aaGun", "AAGUN", "aa gun", "aa guns", "AaGuns"):
        assert ruleset.resolve_name(typed) == "aa_gun", typed
    assert ruleset.resolve_name("Armours") == "armour"
    assert ruleset.resolve_name("tank") is None  # the built-in editions' aliases are not the map's


def test_a_rule_change_applies_to_a_game_file():
    changed = with_changes(str(RULEBOOK_1942), {"combat.aa_hit": 2})
    assert changed.combat.aa_hit == 2
    assert changed.unit("aa_gun").aa
    from oddsim.results.readings import rule_readings

    # the answer's readings name the change against the game file it was made to
    assert rule_readings(changed) == {"combat.aa_hit": {"value": "2", "rulebook": "1"}}


SUICIDE = """<?xml version="1.0"?>
<game>
  <info name="Suicide test" version="1"/>
  <playerList><player name="Reds"/><player name="Blues"/></playerList>
  <unitList><unit name="infantry"/><unit name="rocketBoat"/></unitList>
  <attachmentList>
    <attachment name="unitAttachment" attachTo="infantry" javaClass="x.UnitAttachment" type="unitType">
      <option name="attack" value="1"/><option name="defense" value="2"/>
    </attachment>
    <attachment name="unitAttachment" attachTo="rocketBoat" javaClass="x.UnitAttachment" type="unitType">
      <option name="isSea" value="true"/><option name="attack" value="3"/>
      <option name="isSuicide" value="true"/>
    </attachment>
  </attachmentList>
  <propertyList><property name="Partial Amphibious Retreat" value="true"/></propertyList>
</game>
"""


def test_a_unit_oddsim_does_not_compute_is_refused_in_one_line_and_named(tmp_path):
    path = tmp_path / "suicide.xml"
    path.write_text(SUICIDE)
    ruleset = load_ruleset(str(path))
    assert [(n.subject, n.refuses) for n in ruleset.not_modelled] == \
        [("rocket_boat", True), ("Partial Amphibious Retreat", False)]
    with pytest.raises(ForceError, match=r"does not compute rocket_boat \(a suicide unit") as error:
        oddsim.Battle(rules=str(path), attacker="2 rocket boats", defender="1 infantry", sea=False)
    assert "\n" not in str(error.value)
    # a battle without it stands, its readings naming what the file says and oddsim does not compute
    from oddsim.results.readings import describe_rule_readings, rule_readings

    line = describe_rule_readings(rule_readings(ruleset))
    assert line is not None and line.startswith("not modelled: rocket_boat (a suicide unit")
    assert "Partial Amphibious Retreat" in line


def test_too_many_unit_types_is_one_error(tmp_path):
    units = "".join(f'<unit name="u{i}"/>' for i in range(600))
    path = tmp_path / "many.xml"
    path.write_text(f'<game><info name="many"/><unitList>{units}</unitList></game>')
    with pytest.raises(RulesetError, match="at most 512 unit types"):
        load_ruleset(str(path))


TECHNOLOGIES = """  <technology>
    <technologies>
      <techname name="superSub"/><techname name="jetPower"/><techname name="heavyBomber"/>
      <techname name="aARadar"/><techname name="improvedArtillerySupport"/>
    </technologies>
  </technology>
"""
TECH_PROPERTIES = """    <property name="WW2V3 Tech Model" value="true"/>
    <property name="LHTR Heavy Bombers" value="true"/>
    <property name="Heavy Bomber Dice Rolls" value="2"/>
"""


def test_technologies_read_as_the_anniversary_editions(tmp_path):
    # TripleA's defaults for the standard technologies under the WW2V3 tech model and LHTR heavy
    # bombers are the Anniversary Edition's rules (docs/rules.md §15)
    text = RULEBOOK_1942.read_text().replace("  <attachmentList>", TECHNOLOGIES + "  <attachmentList>")
    path = tmp_path / "techs.xml"
    path.write_text(text.replace("  </propertyList>", TECH_PROPERTIES + "  </propertyList>"))
    ours, theirs = load_ruleset(str(path)), load_ruleset("anniversary")
    assert {rule.name: rule for rule in ours.tech} == {rule.name: rule for rule in theirs.tech}


NATIONAL_SUPPORT = """<game>
  <info name="National artillery"/>
  <playerList><player name="Reds"/><player name="Blues"/></playerList>
  <unitList><unit name="infantry"/><unit name="redGun"/><unit name="blueGun"/></unitList>
  <production>
    <productionRule name="inf"><cost resource="PUs" quantity="3"/>
      <result resourceOrUnit="infantry" quantity="1"/></productionRule>
    <productionRule name="red"><cost resource="PUs" quantity="4"/>
      <result resourceOrUnit="redGun" quantity="1"/></productionRule>
    <productionRule name="blue"><cost resource="PUs" quantity="4"/>
      <result resourceOrUnit="blueGun" quantity="1"/></productionRule>
    <productionFrontier name="reds">
      <frontierRules name="inf"/><frontierRules name="red"/></productionFrontier>
    <productionFrontier name="blues">
      <frontierRules name="inf"/><frontierRules name="blue"/></productionFrontier>
    <playerProduction player="Reds" frontier="reds"/>
    <playerProduction player="Blues" frontier="blues"/>
  </production>
  <attachmentList>
    <attachment name="unitAttachment" attachTo="infantry" javaClass="UnitAttachment">
      <option name="attack" value="1"/><option name="defense" value="2"/>
    </attachment>
    <attachment name="unitAttachment" attachTo="redGun" javaClass="UnitAttachment">
      <option name="attack" value="2"/><option name="defense" value="2"/>
    </attachment>
    <attachment name="unitAttachment" attachTo="blueGun" javaClass="UnitAttachment">
      <option name="attack" value="2"/><option name="defense" value="2"/>
    </attachment>
    <attachment name="supportAttachmentRed" attachTo="redGun" javaClass="UnitSupportAttachment">
      <option name="unitType" value="infantry"/><option name="side" value="offence"/>
      <option name="faction" value="allied"/><option name="dice" value="strength"/>
      <option name="bonus" value="1"/><option name="number" value="1"/>
      <option name="bonusType" value="guns"/><option name="players" value="Reds"/>
    </attachment>
    <attachment name="supportAttachmentBlue" attachTo="blueGun" javaClass="UnitSupportAttachment">
      <option name="unitType" value="infantry"/><option name="side" value="offence"/>
      <option name="faction" value="allied"/><option name="dice" value="strength"/>
      <option name="bonus" value="1"/><option name="number" value="1"/>
      <option name="bonusType" value="guns"/><option name="players" value="Reds"/>
    </attachment>
  </attachmentList>
</game>
"""


def test_a_support_for_some_players_applies_where_only_they_have_the_supporter(tmp_path):
    # only Reds buy red guns (and the rule is for Reds): it applies; blue guns are Blues' own but
    # the rule helps Reds only, so a battle with a blue gun is refused, naming Blues
    path = tmp_path / "national.xml"
    path.write_text(NATIONAL_SUPPORT)
    ruleset = load_ruleset(str(path))
    assert [(r.supporters, r.supported, r.value) for r in ruleset.support] == [
        (("red_gun",), ("infantry",), 2)]
    assert ruleset.refusal(["blue_gun"]) == (
        "National artillery: oddsim does not compute blue_gun (support 'supportAttachmentBlue' does "
        "not help Blues (oddsim's sides have no player)): leave it out of the battle")
    assert ruleset.refusal(["red_gun", "infantry"]) is None


def test_a_game_without_units_is_one_error(tmp_path):
    path = tmp_path / "empty.xml"
    path.write_text('<game><info name="empty"/></game>')
    with pytest.raises(RulesetError, match="no unit types"):
        load_ruleset(str(path))


TWELVE_SIDED = """<game>
  <info name="Twelve"/>
  <diceSides value="12"/>
  <unitList><unit name="knight"/><unit name="pikeman"/><unit name="keep"/></unitList>
  <attachmentList>
    <attachment name="unitAttachment" attachTo="knight" javaClass="UnitAttachment">
      <option name="attack" value="6"/><option name="defense" value="6"/>
      <option name="attackRolls" value="2"/>
    </attachment>
    <attachment name="unitAttachment" attachTo="pikeman" javaClass="UnitAttachment">
      <option name="attack" value="3"/><option name="defense" value="6"/>
    </attachment>
    <attachment name="unitAttachment" attachTo="keep" javaClass="UnitAttachment">
      <option name="defense" value="4"/><option name="hitPoints" value="3"/>
    </attachment>
  </attachmentList>
</game>
"""


def test_a_twelve_sided_game_with_two_dice_units(tmp_path):
    path = tmp_path / "twelve.xml"
    path.write_text(TWELVE_SIDED)
    ruleset = load_ruleset(str(path))
    assert ruleset.combat.dice_sides == 12
    knight = ruleset.unit("knight")
    assert (knight.attack, knight.attack_rolls, knight.defense_rolls) == (6, 2, 1)
    # a knight rolls two d12 hitting on 6 or less (a hit 3/4 of rounds); a pikeman defends on 6
    # (1/2). Each round: knight alone hits 3/8, pikeman alone 1/8, both 3/8, neither 1/8, so
    # the knight wins 3/7, both die 3/7, the pikeman wins 1/7.
    result = oddsim.solve(oddsim.Battle(rules=ruleset, attacker="1 knight", defender="1 pikeman"))
    assert (result.attacker_win, result.draw, result.defender_win) == pytest.approx((3 / 7, 3 / 7, 1 / 7),
                                                                                    abs=1e-12)
    # a keep of three hit points: three where the engines compute them, else refused by name
    keep, refused = ruleset.unit("keep"), ruleset.refusal(["keep"])
    assert (keep.hits, refused) == (3, None) or (keep.hits == 2 and "3 hit points" in str(refused))


ANCIENT = """<game>
  <info name="Ancient"/>
  <unitList><unit name="spearman"/><unit name="archer"/><unit name="catapult"/><unit name="guard"/></unitList>
  <attachmentList>
    <attachment name="unitAttachment" attachTo="spearman" javaClass="UnitAttachment">
      <option name="attack" value="1"/><option name="defense" value="2"/>
      <option name="artillerySupportable" value="true"/>
    </attachment>
    <attachment name="unitAttachment" attachTo="archer" javaClass="UnitAttachment">
      <option name="attack" value="2"/><option name="defense" value="1"/>
      <option name="artillerySupportable" value="true"/>
    </attachment>
    <attachment name="unitAttachment" attachTo="catapult" javaClass="UnitAttachment">
      <option name="defense" value="1"/><option name="artillery" value="true"/>
    </attachment>
    <attachment name="unitAttachment" attachTo="guard" javaClass="UnitAttachment">
      <option name="defense" value="6"/>
    </attachment>
  </attachmentList>
</game>
"""


def test_artillery_supporting_units_of_different_attack_is_an_additive_bonus(tmp_path):
    path = tmp_path / "ancient.xml"
    path.write_text(ANCIENT)
    ruleset = load_ruleset(str(path))
    [rule] = ruleset.support  # +1 to one spearman or archer per catapult: no single value says it
    assert (rule.supporters, set(rule.supported), rule.bonus, rule.side.value) == (
        ("catapult",), {"spearman", "archer"}, 1, "attack")
    # the guard always hits and takes the catapult first. Round 1 the archer hits on 3 (1/2): the
    # attacker wins; else the archer, alone, hits on 2 (1/3) as the guard kills it: both die
    # 1/2 x 1/3, the guard wins 1/2 x 2/3
    battle = oddsim.Battle(rules=ruleset, attacker=oddsim.Side("1 catapult, 1 archer",
                                                               order_of_loss="catapult, archer"),
                           defender="1 guard")
    result = oddsim.solve(battle)
    assert (result.attacker_win, result.draw, result.defender_win) == pytest.approx((1 / 2, 1 / 6, 1 / 3),
                                                                                    abs=1e-12)
