"""The ruleset file's keys, declared once: the reader, the reference and ``ruleset_from_keys``
all follow the declarations (``oddsim.model.schema``)."""

from __future__ import annotations

import dataclasses
import importlib.util
import tomllib
from importlib import resources
from pathlib import Path

import pytest
from click.testing import CliRunner

from oddsim.cli import cli
from oddsim.errors import RulesetError
from oddsim.model.rules import (
    CombatRules,
    Ruleset,
    UnitType,
    load_ruleset,
    parse_ruleset,
    ruleset_from_keys,
)
from oddsim.model.schema import declared, key_rows

ROOT = Path(__file__).resolve().parents[2]
MINIMAL = {"name": "house", "units": {"inf": {"cost": 3, "attack": 1, "defense": 2, "domain": "land"}}}


def test_a_file_that_leaves_keys_out_reads_their_documented_defaults():
    # defaults as docs/guides/house-rules.md and docs/rules.md state them
    rules = parse_ruleset(MINIMAL, origin="house")
    unit = rules.unit("inf")
    assert (unit.move, unit.hits, unit.aliases, unit.can_attack, unit.combatant, unit.submarine) == (
        1, 1, (), True, True, False)
    assert rules.title == "house"
    c = rules.combat
    assert (c.sub_first_strike.value, c.air_hits_subs.value, c.aa_dice.value, c.aa_dice_per_gun,
            c.aa_hit, c.sub_strike_rounds.value, c.sub_strike_destroyer.value) == (
        "none", "always", "per_aircraft", 3, 1, "every", "each_round")
    assert (rules.transport.capacity, rules.transport.max_heavy) == (2, 1)
    assert rules.bombard.casualties_fire_back and not rules.bombard.one_per_landed_unit


def test_every_record_field_but_a_name_is_a_declared_key():
    for record in (UnitType, CombatRules, Ruleset):
        fields = {f.name for f in dataclasses.fields(record)} - {"name"}
        # (a Ruleset's not_modelled is what another format's reader says oddsim does not compute:
        # no key of a ruleset file)
        assert fields <= {k.name for k in declared(record)} | (
            {"name", "not_modelled"} if record is Ruleset else set())


@pytest.mark.parametrize("table, key, value, message", [
    ("combat", "aa_hit", 7, "field 'combat.aa_hit' must be between 0 and 6, not 7"),
    ("combat", "repair", "now", r"field 'combat.repair' must be one of after_battle \| end_of_turn"),
    ("transport", "capacity", 21, "field 'transport.capacity' must be between 1 and 20, not 21"),
])
def test_bounds_and_choices_come_from_the_declaration(table, key, value, message):
    data = {**MINIMAL, table: {key: value}}
    with pytest.raises(RulesetError, match=message):
        parse_ruleset(data, origin="house")


def test_an_unknown_key_names_the_declared_ones():
    with pytest.raises(RulesetError, match=r"'combat.aa_hits' is not a known field \(known: aa_casualties, "
                                           r"aa_dice, aa_dice_per_gun, aa_hit, air_hits_subs, "
                                           r"dice_sides, repair"):
        parse_ruleset({**MINIMAL, "combat": {"aa_hits": 1}}, origin="house")


def _dotted(table: dict, prefix: str = "") -> dict[str, object]:
    """A nested TOML table as dotted keys, sub-tables flattened but for units, tech and lists."""
    flat: dict[str, object] = {}
    for key, value in table.items():
        if isinstance(value, dict) and key not in ("units", "tech") and prefix == "":
            flat.update(_dotted(value, f"{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


@pytest.mark.parametrize("edition", ["1942-2e", "global-1940-2e", "revised"])
def test_ruleset_from_keys_builds_the_edition_its_file_does(edition):
    table = tomllib.loads((resources.files("oddsim.rulesets") / f"{edition}.toml").read_text())
    units = table.pop("units")
    built = ruleset_from_keys(_dotted(table), units, origin=edition)
    assert built == load_ruleset(edition)


def test_ruleset_from_keys_checks_as_a_file_is():
    with pytest.raises(RulesetError,
                       match="ruleset game.xml: field 'units.inf.attack' must be between 0 and 6"):
        ruleset_from_keys({"name": "map"}, {"inf": {"cost": 3, "attack": 9, "defense": 2,
                                                    "domain": "land"}}, origin="game.xml")
    with pytest.raises(RulesetError, match="field 'ruleset.units' is missing"):
        ruleset_from_keys({"name": "map"}, None, origin="game.xml")


def test_rules_keys_lists_every_declared_key():
    output = CliRunner().invoke(cli, ["rules", "keys"]).output
    listed = {line.split()[0] for line in output.splitlines()}
    assert {"combat.aa_hit", "units.NAME.carries_aircraft_damaged", "tech.NAME.raid_rule",
            "support[].side", "transport.max_heavy"} <= listed
    assert listed == {name for name, *_ in key_rows(Ruleset)}


def test_the_reference_page_is_generated_from_the_declarations():
    spec = importlib.util.spec_from_file_location("cli_reference", ROOT / "docs/hooks/cli_reference.py")
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    page = (ROOT / "docs/reference/ruleset.md").read_text()
    built = hook.on_page_markdown(page, None, None, None)
    assert hook.KEYS_MARKER in page
    assert "| `combat.aa_dice_per_gun` | integer 1..100 | 3 |" in built
    assert r"| `combat.repair` | after_battle \| end_of_turn | end_of_turn |" in built
