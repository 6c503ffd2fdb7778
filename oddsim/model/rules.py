"""Rulesets as data: unit stats and special-rule flags, read from TOML files.

Engines never branch on an edition's name; they read the flags here. The five editions ship
in ``oddsim/rulesets``; a user's own file in the same format loads through ``load_ruleset``.
"""

from __future__ import annotations

import enum
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from oddsim._runtime.documents import check_depth, load_toml, too_deep
from oddsim._runtime.files import InputFile
from oddsim.errors import RulesetError
from oddsim.model.names import NAME_RULE, is_typable, typed_key

MAX_UNIT_TYPES = 32
E = TypeVar("E", bound=enum.Enum)


class Domain(enum.Enum):
    """Where a unit fights: a land unit in land battles, a sea unit at sea, aircraft in both."""

    LAND = "land"
    AIR = "air"
    SEA = "sea"


class SubFirstStrike(enum.Enum):
    """Which sides' submarines fire before the rest, when the enemy has no destroyer (in which
    rounds: ``SubStrikeRounds``; which destroyer: ``SubStrikeDestroyer``)."""

    NONE = "none"
    ATTACKER = "attacker"
    BOTH = "both"


class SubStrikeRounds(enum.Enum):
    """In which rounds submarines that may strike first do so: each round (``every``), or in
    round 1 only (``first``: from round 2 on they fire in general fire, like the other units)."""

    EVERY = "every"
    FIRST = "first"


class SubStrikeDestroyer(enum.Enum):
    """Which enemy destroyer takes a side's first strike away: one in the battle at the start
    of the round (``each_round``: with it sunk, the strike is back the next round), or one in
    the battle when it starts (``at_attack``: the strike is lost for the whole battle)."""

    EACH_ROUND = "each_round"
    AT_ATTACK = "at_attack"


class AirHitsSubs(enum.Enum):
    """Whether aircraft may hit submarines."""

    ALWAYS = "always"
    WITH_DESTROYER = "with_destroyer"


class AADice(enum.Enum):
    """How many AA dice are rolled before the first round."""

    PER_AIRCRAFT = "per_aircraft"  # one gun fires, one die per attacking aircraft
    PER_GUN = "per_gun"  # each gun fires up to aa_dice_per_gun dice, one per aircraft at most


class AACasualties(enum.Enum):
    """Which aircraft AA hits destroy."""

    PER_AIRCRAFT = "per_aircraft"  # each die is rolled at one aircraft; a hit destroys that one
    ATTACKER_CHOOSES = "attacker_chooses"  # the attacker picks the losses (its order of loss)


class SubmergeTiming(enum.Enum):
    """When submarines may submerge (leave the battle), always only with no enemy destroyer."""

    START = "start"  # at the start of each round, before any fire (instead of firing)
    END = "end"  # at the end of each round, after firing


class RepairTiming(enum.Enum):
    """When a damaged two-hit unit is whole again: right after its battle, so that a later
    wave meets it undamaged (``after_battle``), or only at the end of the turn (``end_of_turn``:
    a later wave of the same turn meets it damaged)."""

    AFTER_BATTLE = "after_battle"
    END_OF_TURN = "end_of_turn"


class SupportSide(enum.StrEnum):
    """Which side a support rule helps: the attacker (``attack``) or the defender (``defense``)."""

    ATTACK = "attack"
    DEFENSE = "defense"


class DiceRule(enum.StrEnum):
    """How a unit's several attack dice count: each hits on its own (``all``), or only the best
    one rolls (``best``: one hit at most)."""

    ALL = "all"
    BEST = "best"


class RaidDiceRule(enum.StrEnum):
    """How a bomber's several raid dice make damage: summed (``sum``) or the best one (``best``)."""

    SUM = "sum"
    BEST = "best"


@dataclass(frozen=True)
class UnitType:
    """One kind of unit with its numbers and the special roles it plays in combat."""

    name: str
    cost: int
    attack: int
    defense: int
    move: int
    hits: int
    domain: Domain
    aliases: tuple[str, ...] = ()
    submarine: bool = False
    destroyer: bool = False
    aa: bool = False
    can_attack: bool = True
    defenceless: bool = False
    casualty_last: bool = False
    combatant: bool = True
    lands_on_carrier: bool = False  # an aircraft a carrier can hold
    carries_aircraft: int = 0  # how many such aircraft this unit holds (a carrier)
    carries_aircraft_damaged: int = 0  # the same once damaged (two-hit carriers)
    transport: bool = False  # carries land units in an amphibious assault ([transport] table)
    heavy_cargo: bool = False  # a transport carries at most [transport] max_heavy of these


    @property
    def is_air(self) -> bool:
        return self.domain is Domain.AIR


@dataclass(frozen=True)
class SupportRule:
    """Each supporter raises ``per_supporter`` supported units to ``value`` on one side (attack)."""

    supporters: tuple[str, ...]
    supported: tuple[str, ...]
    per_supporter: int
    value: int
    side: SupportSide


@dataclass(frozen=True)
class CombatRules:
    """The edition's special combat rules, as flags."""

    sub_first_strike: SubFirstStrike
    air_hits_subs: AirHitsSubs
    aa_dice: AADice
    aa_dice_per_gun: int
    aa_hit: int
    submerge: SubmergeTiming = SubmergeTiming.START
    aa_casualties: AACasualties = AACasualties.ATTACKER_CHOOSES
    repair: RepairTiming = RepairTiming.END_OF_TURN
    sub_strike_rounds: SubStrikeRounds = SubStrikeRounds.EVERY
    sub_strike_destroyer: SubStrikeDestroyer = SubStrikeDestroyer.EACH_ROUND


@dataclass(frozen=True)
class TransportRules:
    """What one transport carries: ``capacity`` land units, at most ``max_heavy`` of them units
    with the ``heavy_cargo`` flag."""

    capacity: int = 2
    max_heavy: int = 1


@dataclass(frozen=True)
class AmphibiousRules:
    """Amphibious assaults: whether the attacker may ignore a sea zone's defenders when they
    are only submarines and/or transports (no sea battle; the ships may then bombard)."""

    ignore_subs_and_transports: bool = False


@dataclass(frozen=True)
class BombardRules:
    """Shore bombardment in an amphibious assault (used from issue 3 on)."""

    units: tuple[tuple[str, int], ...]
    casualties_fire_back: bool
    one_per_landed_unit: bool


class RaidCap(enum.Enum):
    """What limits the damage of a strategic bombing raid."""

    TERRITORY = "territory"  # the territory's IPC value
    DOUBLE_TERRITORY = "double_territory"  # twice the territory's value
    FACILITY = "facility"  # a fixed cap per kind of facility (facility_caps)


@dataclass(frozen=True)
class RaidRules:
    """Strategic bombing raids: damage dice per bomber and the cap."""

    damage_dice: int = 1
    damage_bonus: int = 0  # added to each strategic bomber's damage
    tactical_bonus: int = 0  # added to each tactical bomber's damage
    cap: RaidCap = RaidCap.TERRITORY
    facility_caps: tuple[tuple[str, int], ...] = ()
    tactical_targets: tuple[str, ...] = ()  # facilities tactical bombers may raid
    air_battle: bool = False  # escorts and interceptors fight one round first
    escort_hit: int = 1
    interceptor_hit: int = 2
    builtin_aa: bool = True  # the facility fires AA itself; False: only where an AA gun stands


@dataclass(frozen=True)
class TechRule:
    """A technology's effect on combat numbers, for the side that has it."""

    name: str
    attack: tuple[tuple[str, int], ...] = ()  # unit -> new attack value
    defense: tuple[tuple[str, int], ...] = ()  # unit -> new defense value
    attack_dice: tuple[tuple[str, int], ...] = ()  # unit -> dice it rolls on attack
    attack_dice_rule: DiceRule = DiceRule.ALL
    aa_hit: int | None = None  # AA guns of this side hit on this or less
    per_supporter: tuple[tuple[str, int], ...] = ()  # supporter -> units it supports
    support: tuple[SupportRule, ...] = ()  # extra support rules
    bombard: tuple[tuple[str, int], ...] = ()  # extra bombarding ships and values
    raid_dice: int | None = None
    raid_rule: RaidDiceRule = RaidDiceRule.SUM
    raid_bonus: int = 0


TECH_NAMES = ("jets", "super-subs", "heavy-bombers", "radar", "improved-artillery",
              "combined-bombardment", "improved-mech-infantry")
"""Technologies docs/rules.md §15 names; an edition's file defines those it has."""


@dataclass(frozen=True)
class Ruleset:
    """An edition's units and combat rules."""

    name: str
    title: str
    units: tuple[UnitType, ...]
    combat: CombatRules
    bombard: BombardRules
    support: tuple[SupportRule, ...] = ()
    raid: RaidRules = RaidRules()
    tech: tuple[TechRule, ...] = ()
    transport: TransportRules = TransportRules()
    amphibious: AmphibiousRules = AmphibiousRules()
    source: str = field(default="", compare=False)

    def technology(self, name: str) -> TechRule:
        """The edition's technology of this name; RulesetError naming the ones it has."""
        key = name.strip().lower().replace("_", "-")
        for rule in self.tech:
            if rule.name == key:
                return rule
        have = ", ".join(rule.name for rule in self.tech) or "none"
        raise RulesetError(f"technology '{name}' is not in {self.name} (it has: {have})")

    def unit_index(self, name: str) -> int:
        """Index of the unit with this canonical name."""
        for index, unit in enumerate(self.units):
            if unit.name == name:
                return index
        raise RulesetError(f"{self.name} has no unit '{name}'")

    def unit(self, name: str) -> UnitType:
        return self.units[self.unit_index(name)]

    def resolve_name(self, token: str) -> str | None:
        """The canonical unit name for a user's token (name or alias, any case), or None."""
        key = typed_key(token)
        for unit in self.units:
            if key == unit.name or key in unit.aliases:
                return unit.name
        if key.endswith("s") and key[:-1]:  # plurals: "tanks", "fighters", "battleships"
            return self.resolve_name(key[:-1])
        return None


def builtin_names() -> list[str]:
    """Names of the editions shipped with oddsim."""
    folder = resources.files("oddsim.rulesets")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml"))


def load_ruleset(name_or_path: str | Path | Ruleset) -> Ruleset:
    """Load an edition by name (``"1942-2e"``) or a user's ruleset file by path."""
    if isinstance(name_or_path, Ruleset):
        return name_or_path
    if not isinstance(name_or_path, (str, Path)):
        raise RulesetError(f"rules must be an edition name or a path to a .toml file, not "
                           f"{type(name_or_path).__name__}")
    text = str(name_or_path)
    if text in builtin_names():
        return _load_builtin(text)
    if "\0" in text:
        raise RulesetError(f"unknown edition {text!r}: a name or path has no NUL character")
    path = Path(text)
    if path.suffix.lower() == ".toml" or path.exists():
        return _load_file(path)
    raise RulesetError(
        f"unknown edition '{text}': use one of {', '.join(builtin_names())} or a path to a .toml file"
    )


@cache
def _load_builtin(name: str) -> Ruleset:
    return parse_ruleset(_builtin_table(name), origin=name)


def _builtin_table(name: str) -> dict:
    source = resources.files("oddsim.rulesets").joinpath(f"{name}.toml")
    return tomllib.loads(source.read_text(encoding="utf-8"))


def with_changes(name_or_path: str | Path, changes: Mapping[str, object]) -> Ruleset:
    """An edition (by name or file) with some of its file's keys set otherwise: the readings a
    rules summary leaves open (``{"units.transport.defense": 1}``, ``{"combat.repair":
    "end_of_turn"}``), checked as the file's own keys are. Its name says what changed."""
    if not isinstance(name_or_path, (str, Path)):
        raise RulesetError("rule changes apply to an edition's name or a ruleset file, not "
                           f"{type(name_or_path).__name__}")
    text = str(name_or_path)
    if text in builtin_names():
        table = _builtin_table(text)
    else:
        load_ruleset(name_or_path)  # its own errors first
        table = load_toml(RULESET_FILE.read_text(Path(text)), f"ruleset file {text}", RulesetError)
    return _changed(table, changes, text)


def text_with_changes(text: str, changes: Mapping[str, object], origin: str = "(text)",
                      what: str = "the ruleset") -> Ruleset:
    """``with_changes`` of a ruleset given as the TOML text of its file (``ruleset_from_text``:
    a server receives text, never a path)."""
    ruleset_from_text(text, origin, what)  # its own errors first
    return _changed(load_toml(text, what, RulesetError), changes, origin)


def _changed(table: dict, changes: Mapping[str, object], text: str) -> Ruleset:
    """The ruleset of the file ``table`` (from ``text``: an edition's name or a file) with the
    keys ``changes`` names set, named for them."""
    said = []
    for key, value in changes.items():
        _set_key(table, key, value, text)
        said.append(f"{key}={_toml_value(value)}")
    table["name"] = f"{table.get('name', text)} ({', '.join(said)})" if said else table.get("name", text)
    return parse_ruleset(table, origin=f"{text} with {', '.join(said)}" if said else text)


MAX_UNIT_VALUE = 10_000
"""Most IPCs a unit may be valued at (the most a ruleset file's unit may cost)."""


def unit_value_changes(spec: str | Mapping[str, object] | None,
                       rules: Ruleset | str | Path) -> dict[str, object]:
    """``"ftr=14,bmb=15"`` (or ``{"ftr": 14}``): the changes to the edition's file that value
    those units at those IPCs, for a player who values units beyond their cost. The value is
    the unit's ``cost`` in the copy (``with_changes``), so every figure that counts IPCs counts it
    (IPCs lost, TUV swing, the best retreat, a plan's or a purchase's objective) and so does the
    default order of loss, which loses the cheapest units first: a fighter valued at 14 is lost
    after the armor it used to cost less than. Raises RulesetError naming a bad entry."""
    if spec is None:
        return {}
    parsed = rules if isinstance(rules, Ruleset) else load_ruleset(rules)
    if isinstance(spec, str):
        pairs: list[tuple[object, object]] = []
        for part in spec.split(","):
            if not part.strip():
                continue
            name, sep, text = part.partition("=")
            if not sep:
                raise RulesetError(f"unit values: write UNIT=IPCS, e.g. ftr=14, not '{part.strip()}'")
            pairs.append((name.strip(), text.strip()))
    elif isinstance(spec, Mapping):
        pairs = list(spec.items())
    else:
        raise RulesetError(f"unit values must be text like 'ftr=14,bmb=15' or a mapping, not "
                           f"{type(spec).__name__}")
    changes: dict[str, object] = {}
    for token, raw in pairs:
        unit = parsed.resolve_name(str(token))  # (the unit's canonical name, its file's key)
        if unit is None:
            raise RulesetError(f"unit values: unknown unit '{token}' in {parsed.name}")
        try:
            value = int(str(raw)) if not isinstance(raw, bool) else -1
        except ValueError:
            value = -1
        if not 0 <= value <= MAX_UNIT_VALUE or (isinstance(raw, float) and not raw.is_integer()):
            raise RulesetError(f"unit values: {token}={raw}: a value is a whole number of IPCs from 0 to "
                               f"{MAX_UNIT_VALUE}")
        changes[f"units.{unit}.cost"] = value
    return changes


def rule_changes(changes: Iterable[str], unit_values: str | Mapping[str, object] | None,
                 rules: Ruleset | str | Path) -> dict[str, object]:
    """The keys of the edition's file that ``--rule KEY=VALUE`` lines (``changes``) and
    ``--unit-values`` (``unit_values``, ``unit_value_changes``) set, for ``with_changes``: the
    command line's and the server's reading of them."""
    table = dict(parse_change(change) for change in changes)
    table.update(unit_value_changes(unit_values, rules))
    return table


def parse_change(text: str) -> tuple[str, object]:
    """``"units.transport.defense=1"`` as (key, value): the value read as a TOML value (a number,
    true/false, a quoted string), or else as the bare word it is (``combat.repair=after_battle``)."""
    key, sep, raw = text.partition("=")
    key, raw = key.strip(), raw.strip()
    if not sep or not key or not raw:
        raise RulesetError(f"rule change '{text}': write KEY=VALUE, e.g. combat.repair=after_battle")
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        return key, raw
    except RecursionError:  # (a value nested thousands deep)
        raise too_deep(f"rule change {key}", RulesetError) from None
    check_depth(value, f"rule change {key}", RulesetError)
    return key, value


def _set_key(table: dict, key: str, value: object, origin: str) -> None:
    """Set a dotted ``key`` of a ruleset table: every part but the last names a table it has."""
    parts = key.split(".")
    here = table
    for depth, part in enumerate(parts[:-1]):
        inner = here.get(part)
        if not isinstance(inner, dict):
            where = ".".join(parts[:depth + 1])
            raise RulesetError(f"rule change '{key}': ruleset {origin} has no table '{where}' "
                               f"(keys look like combat.repair or units.transport.defense)")
        here = inner
    here[parts[-1]] = value


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


MAX_RULESET_BYTES = 1 << 20
"""A ruleset file is a page of TOML; anything over 1 MiB is refused unread."""

RULESET_FILE = InputFile("ruleset file", MAX_RULESET_BYTES, "a ruleset is a short TOML file",
                         "give a .toml file", RulesetError)


def _load_file(path: Path) -> Ruleset:
    raw = RULESET_FILE.read_text(path)
    return ruleset_from_text(raw, origin=str(path), what=f"ruleset file {path}")


def ruleset_from_text(text: str, origin: str = "(text)", what: str = "the ruleset") -> Ruleset:
    """A ruleset from the TOML text of a ruleset file (a server receives text, never a path)."""
    if not isinstance(text, str):
        raise RulesetError(f"{what} must be TOML text, not {type(text).__name__}")
    return parse_ruleset(load_toml(text, what, RulesetError), origin=origin)


class _Fields:
    """Reads typed fields from one TOML table, naming the field in every error."""

    def __init__(self, table: object, where: str, origin: str) -> None:
        if not isinstance(table, dict):
            raise RulesetError(f"ruleset {origin}: '{where}' must be a table")
        self.table, self.where, self.origin = table, where, origin

    def _fail(self, key: str, what: str) -> RulesetError:
        return RulesetError(f"ruleset {self.origin}: field '{self.where}.{key}' {what}")

    def get(self, key: str, kind: type, default: object = ..., low: int | None = None,
            high: int | None = None) -> Any:
        """The field's value, checked to be a ``kind`` (and between ``low`` and ``high``)."""
        if key not in self.table:
            if default is ...:
                raise self._fail(key, "is missing")
            return default
        value = self.table[key]
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise self._fail(key, f"must be an integer, not {value!r}")
        if kind is not int and not isinstance(value, kind):
            raise self._fail(key, f"must be a {kind.__name__}, not {value!r}")
        if low is not None and value < low or high is not None and value > high:
            raise self._fail(key, f"must be between {low} and {high}, not {value}")
        return value

    def choice(self, key: str, enum_type: type[E], default: object = ...) -> E:
        value = self.get(key, str, default)
        try:
            return enum_type(value)
        except ValueError:
            allowed = " | ".join(member.value for member in enum_type)
            raise self._fail(key, f"must be one of {allowed}, not {value!r}") from None

    def names(self, key: str, default: object = ...) -> tuple[str, ...]:
        value = self.get(key, list, default)
        if not all(isinstance(item, str) for item in value):
            raise self._fail(key, "must be a list of unit names")
        return tuple(value)

    def check_known(self, allowed: set[str]) -> None:
        unknown = sorted(set(self.table) - allowed)
        if unknown:
            raise self._fail(unknown[0], f"is not a known field (known: {', '.join(sorted(allowed))})")


_UNIT_FLAGS = ("submarine", "destroyer", "aa", "can_attack", "defenceless", "casualty_last",
               "combatant", "transport", "heavy_cargo", "lands_on_carrier")


def parse_ruleset(data: dict, origin: str) -> Ruleset:
    """Validate a parsed TOML document and build the Ruleset; errors name the bad field."""
    top = _Fields(data, "", origin)
    top.where = "ruleset"
    top.check_known({"name", "title", "combat", "bombard", "support", "units", "source", "raid",
                     "tech", "transport", "amphibious"})
    name = top.get("name", str)
    if not name.strip():
        raise RulesetError(f"ruleset {origin}: field 'name' is empty: give the edition a name")
    title = top.get("title", str, default=name)
    units_table = _Fields(top.get("units", dict), "units", origin)
    if not units_table.table:
        raise RulesetError(f"ruleset {origin}: field 'units' must define at least one unit")
    if len(units_table.table) > MAX_UNIT_TYPES:
        raise RulesetError(f"ruleset {origin}: at most {MAX_UNIT_TYPES} unit types are supported")
    units = []
    for unit_name, unit_data in units_table.table.items():
        f = _Fields(unit_data, f"units.{unit_name}", origin)
        f.check_known({"cost", "attack", "defense", "move", "hits", "domain", "aliases",
                       "carries_aircraft", "carries_aircraft_damaged", *_UNIT_FLAGS})
        aliases = tuple(a.lower() for a in f.names("aliases", default=[]))
        _check_typable(unit_name, aliases, origin)
        carries = f.get("carries_aircraft", int, default=0, low=0, high=100)
        flags = {flag: f.get(flag, bool, default=(flag in ("can_attack", "combatant")))
                 for flag in _UNIT_FLAGS}
        units.append(UnitType(
            name=unit_name,
            cost=f.get("cost", int, low=0, high=10_000),
            attack=f.get("attack", int, low=0, high=6),
            defense=f.get("defense", int, low=0, high=6),
            move=f.get("move", int, default=1, low=0, high=100),
            hits=f.get("hits", int, default=1, low=1, high=2),
            domain=f.choice("domain", Domain),
            aliases=aliases,
            carries_aircraft=carries,
            carries_aircraft_damaged=f.get("carries_aircraft_damaged", int, default=carries, low=0,
                                           high=carries),
            **flags,
        ))
    _check_aliases(units, origin)
    known = {u.name for u in units}

    c = _Fields(top.get("combat", dict, default={}), "combat", origin)
    c.check_known({"sub_first_strike", "air_hits_subs", "aa_dice", "aa_dice_per_gun", "aa_hit",
                   "submerge", "aa_casualties", "repair", "sub_strike_rounds",
                   "sub_strike_destroyer"})
    combat = CombatRules(
        sub_first_strike=c.choice("sub_first_strike", SubFirstStrike, default="none"),
        air_hits_subs=c.choice("air_hits_subs", AirHitsSubs, default="always"),
        aa_dice=c.choice("aa_dice", AADice, default="per_aircraft"),
        aa_dice_per_gun=c.get("aa_dice_per_gun", int, default=3, low=1, high=100),
        aa_hit=c.get("aa_hit", int, default=1, low=0, high=6),
        submerge=c.choice("submerge", SubmergeTiming, default="start"),
        aa_casualties=c.choice("aa_casualties", AACasualties, default="attacker_chooses"),
        repair=c.choice("repair", RepairTiming, default="end_of_turn"),
        sub_strike_rounds=c.choice("sub_strike_rounds", SubStrikeRounds, default="every"),
        sub_strike_destroyer=c.choice("sub_strike_destroyer", SubStrikeDestroyer,
                                      default="each_round"),
    )
    if combat.aa_casualties is AACasualties.PER_AIRCRAFT and combat.aa_dice is not AADice.PER_AIRCRAFT:
        raise RulesetError(f"ruleset {origin}: field 'combat.aa_casualties' per_aircraft needs "
                           f"combat.aa_dice = per_aircraft (one die rolled at each aircraft)")

    b = _Fields(top.get("bombard", dict, default={}), "bombard", origin)
    b.check_known({"units", "casualties_fire_back", "one_per_landed_unit"})
    bombard_units = _Fields(b.get("units", dict, default={}), "bombard.units", origin)
    for ship in bombard_units.table:
        bombard_units.get(ship, int, low=1, high=6)
        _check_name(ship, known, "bombard.units", origin)
    bombard = BombardRules(
        units=tuple(bombard_units.table.items()),
        casualties_fire_back=b.get("casualties_fire_back", bool, default=True),
        one_per_landed_unit=b.get("one_per_landed_unit", bool, default=False),
    )

    supports = _support_rules(top.get("support", list, default=[]), "support", known, origin)
    raid = _raid_rules(top.get("raid", dict, default={}), origin)
    tech_table = _Fields(top.get("tech", dict, default={}), "tech", origin)
    tech = tuple(_tech_rule(name, table, known, origin) for name, table in tech_table.table.items())
    t = _Fields(top.get("transport", dict, default={}), "transport", origin)
    t.check_known({"capacity", "max_heavy"})
    transport = TransportRules(capacity=t.get("capacity", int, default=2, low=1, high=20),
                               max_heavy=t.get("max_heavy", int, default=1, low=0, high=20))
    if transport.max_heavy > transport.capacity:
        raise RulesetError(f"ruleset {origin}: field 'transport.max_heavy' ({transport.max_heavy}) "
                           f"must not exceed transport.capacity ({transport.capacity})")
    am = _Fields(top.get("amphibious", dict, default={}), "amphibious", origin)
    am.check_known({"ignore_subs_and_transports"})
    amphibious = AmphibiousRules(
        ignore_subs_and_transports=am.get("ignore_subs_and_transports", bool, default=False))
    return Ruleset(name=name, title=title, units=tuple(units), combat=combat, bombard=bombard,
                   support=supports, raid=raid, tech=tech, transport=transport,
                   amphibious=amphibious, source=origin)


def _support_rules(raw: list, where: str, known: set[str], origin: str) -> tuple[SupportRule, ...]:
    rules = []
    for position, item in enumerate(raw):
        s = _Fields(item, f"{where}[{position}]", origin)
        s.check_known({"supporters", "supported", "per_supporter", "value", "side"})
        rule = SupportRule(
            supporters=s.names("supporters"),
            supported=s.names("supported"),
            per_supporter=s.get("per_supporter", int, default=1, low=1, high=100),
            value=s.get("value", int, low=1, high=6),
            side=s.choice("side", SupportSide, default="attack"),
        )
        for unit_name in (*rule.supporters, *rule.supported):
            _check_name(unit_name, known, f"{where}[{position}]", origin)
        rules.append(rule)
    return tuple(rules)


def _unit_values(f: _Fields, key: str, known: set[str], low: int, high: int) -> tuple:
    table = _Fields(f.get(key, dict, default={}), f"{f.where}.{key}", f.origin)
    for unit_name in table.table:
        _check_name(unit_name, known, table.where, f.origin)
        table.get(unit_name, int, low=low, high=high)
    return tuple(table.table.items())


def _raid_rules(table: dict, origin: str) -> RaidRules:
    f = _Fields(table, "raid", origin)
    f.check_known({"damage_dice", "damage_bonus", "tactical_bonus", "cap", "facility_caps",
                   "tactical_targets", "air_battle", "escort_hit", "interceptor_hit", "builtin_aa"})
    caps = _Fields(f.get("facility_caps", dict, default={}), "raid.facility_caps", origin)
    for facility in caps.table:
        caps.get(facility, int, low=0, high=1000)
    rules = RaidRules(
        damage_dice=f.get("damage_dice", int, default=1, low=1, high=10),
        damage_bonus=f.get("damage_bonus", int, default=0, low=0, high=100),
        tactical_bonus=f.get("tactical_bonus", int, default=0, low=0, high=100),
        cap=f.choice("cap", RaidCap, default="territory"),
        facility_caps=tuple(caps.table.items()),
        tactical_targets=f.names("tactical_targets", default=[]),
        air_battle=f.get("air_battle", bool, default=False),
        escort_hit=f.get("escort_hit", int, default=1, low=0, high=6),
        interceptor_hit=f.get("interceptor_hit", int, default=2, low=0, high=6),
        builtin_aa=f.get("builtin_aa", bool, default=True),
    )
    if rules.cap is RaidCap.FACILITY and not rules.facility_caps:
        raise RulesetError(f"ruleset {origin}: field 'raid.facility_caps' is needed when "
                           f"raid.cap is facility")
    return rules


def _tech_rule(name: str, table: object, known: set[str], origin: str) -> TechRule:
    if name not in TECH_NAMES:
        raise RulesetError(f"ruleset {origin}: field 'tech.{name}' is not a known technology "
                           f"(known: {', '.join(TECH_NAMES)})")
    f = _Fields(table, f"tech.{name}", origin)
    f.check_known({"attack", "defense", "attack_dice", "attack_dice_rule", "aa_hit",
                   "per_supporter", "support", "bombard", "raid_dice", "raid_rule", "raid_bonus"})
    return TechRule(
        name=name,
        attack=_unit_values(f, "attack", known, 0, 6),
        defense=_unit_values(f, "defense", known, 0, 6),
        attack_dice=_unit_values(f, "attack_dice", known, 1, 6),
        attack_dice_rule=f.choice("attack_dice_rule", DiceRule, default="all"),
        aa_hit=f.get("aa_hit", int, default=None, low=0, high=6),
        per_supporter=_unit_values(f, "per_supporter", known, 1, 100),
        support=_support_rules(f.get("support", list, default=[]), f"tech.{name}.support", known,
                               origin),
        bombard=_unit_values(f, "bombard", known, 1, 6),
        raid_dice=f.get("raid_dice", int, default=None, low=1, high=10),
        raid_rule=f.choice("raid_rule", RaidDiceRule, default="sum"),
        raid_bonus=f.get("raid_bonus", int, default=0, low=0, high=100),
    )


def _check_name(name: str, known: set[str], where: str, origin: str) -> None:
    if name not in known:
        raise RulesetError(f"ruleset {origin}: field '{where}' names unknown unit '{name}'")


def _check_typable(name: str, aliases: tuple[str, ...], origin: str) -> None:
    """Refuse a unit name or alias no army could name: the unit would load but never be typed
    (``oddsim.model.names.is_typable`` is what players can type)."""
    for text in (name, *aliases):
        if is_typable(text):
            continue
        what = f"unit '{name}'" if text == name else f"unit '{name}': alias '{text}'"
        fix = typed_key(text)
        suggestion = f"; write '{fix}'" if fix != text and is_typable(fix) else ""
        raise RulesetError(f"ruleset {origin}: {what} cannot be typed in an army: "
                           f"{NAME_RULE}{suggestion}")


def _check_aliases(units: list[UnitType], origin: str) -> None:
    seen: dict[str, str] = {}
    for unit in units:
        for key in (unit.name, *unit.aliases):
            if key in seen and seen[key] != unit.name:
                raise RulesetError(f"ruleset {origin}: alias '{key}' is used by both "
                                   f"'{seen[key]}' and '{unit.name}'")
            seen[key] = unit.name
