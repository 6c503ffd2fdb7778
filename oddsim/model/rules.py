"""Rulesets as data: unit stats and special-rule flags, read from TOML files.

Engines never branch on an edition's name; they read the flags here. The five editions ship
in ``oddsim/rulesets``; a user's own file in the same format loads through ``load_ruleset``.
"""

from __future__ import annotations

import copy
import enum
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from oddsim._runtime.documents import check_depth, load_toml, too_deep
from oddsim._runtime.files import InputFile
from oddsim.errors import RulesetError
from oddsim.model.names import NAME_RULE, is_typable, typed_key
from oddsim.model.not_modelled import NotModelled
from oddsim.model.schema import Fields, Key, Units, key, read_record, record_repr

if TYPE_CHECKING:
    from oddsim.triplea.table import GameTable

MAX_UNIT_TYPES = 32


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


MAX_UNIT_VALUE = 10_000
"""Most IPCs a unit may be valued at (the most a ruleset file's unit may cost)."""

MAX_DICE_SIDES = 120
"""Most faces a die may have (``combat.dice_sides``); every hit value's bound in the file, each
value then checked against the ruleset's own ``dice_sides``."""

MAX_ROLLS = 20
"""Most dice one unit rolls on one side (``attack_rolls``, ``defense_rolls``)."""

MAX_HIT_POINTS = 4
"""Most hits one unit takes before it is destroyed (``hits``)."""


class SupportFaction(enum.StrEnum):
    """Whose units a support rule changes: the supporters' own side's (``allied``) or the
    enemy's (``enemy``: a negative bonus lowers the enemy's values; TripleA ``faction``)."""

    ALLIED = "allied"
    ENEMY = "enemy"


class SupportBonusTo(enum.StrEnum):
    """What a support rule's ``bonus`` adds to: the value a unit hits on (``strength``), or the
    dice it rolls (``rolls``; TripleA ``dice="roll"``), or both."""

    STRENGTH = "strength"
    ROLLS = "rolls"
    STRENGTH_AND_ROLLS = "strength_and_rolls"


@dataclass(frozen=True, kw_only=True)
class UnitType:
    """One kind of unit with its numbers and the special roles it plays in combat (each number
    and flag a key of the file's ``[units.NAME]`` table, declared here once). The fields' order
    is their ``repr``'s, which a purchase sweep's fingerprint hashes: keep it."""

    name: str
    cost: int = key("IPCs to buy one", low=0, high=MAX_UNIT_VALUE)
    attack: int = key("hits on this or less when attacking (at most combat.dice_sides)", low=0,
                      high=MAX_DICE_SIDES)
    defense: int = key("hits on this or less when defending (at most combat.dice_sides)", low=0,
                       high=MAX_DICE_SIDES)
    move: int = key("spaces it moves", 1, low=0, high=100)
    hits: int = key("hits it takes to destroy (2: a two-hit unit; TripleA hitPoints)", 1, low=1,
                    high=MAX_HIT_POINTS)
    domain: Domain = key("where it fights")
    aliases: tuple[str, ...] = key("other names players may type (lowercase)", (), lower=True)
    submarine: bool = key("a submarine (first strike, submerge, not hit by aircraft without a "
                          "destroyer, as the edition says)", False, role="submarine")
    destroyer: bool = key("a destroyer (cancels enemy submarines' abilities)", False,
                          role="destroyer")
    aa: bool = key("an AA gun: fires at attacking aircraft before the first round", False,
                   role="aa")
    can_attack: bool = key("may attack (false: fights only on defense)", True,
                           role="cannot attack")
    defenceless: bool = key("rolls no die on defense and is lost when its side's others are",
                            False, role="defenceless")
    casualty_last: bool = key("taken as a casualty only after every other unit", False,
                              role="casualty_last")
    combatant: bool = key("a casualty in battle (false: an AA gun that is taken with the "
                          "territory)", True, role="not a casualty")
    lands_on_carrier: bool = key("an aircraft a carrier can hold", False)
    carries_aircraft: int = key("aircraft it holds (a carrier)", 0, low=0, high=100)
    carries_aircraft_damaged: int = key("aircraft it holds once damaged (two-hit carriers)",
                                        default_from="carries_aircraft", low=0,
                                        high_from="carries_aircraft")
    transport: bool = key("carries land units in an amphibious assault ([transport] table)",
                          False, role="transport")
    heavy_cargo: bool = key("a transport carries at most transport.max_heavy of these", False,
                            role="heavy_cargo")
    attack_rolls: int = key("dice it rolls each round when attacking (0: none; TripleA "
                            "attackRolls); a technology's attack_dice replaces it", 1, low=0,
                            high=MAX_ROLLS, quiet_default=True)
    defense_rolls: int = key("dice it rolls each round when defending (0: none; TripleA "
                             "defenseRolls)", 1, low=0, high=MAX_ROLLS, quiet_default=True)
    choose_best_roll: bool = key("of its several dice only the best counts: one hit at most "
                                 "(TripleA chooseBestRoll)", False, role="best roll", quiet_default=True)

    @property
    def is_air(self) -> bool:
        return self.domain is Domain.AIR

    def __repr__(self) -> str:
        return record_repr(self)


@dataclass(frozen=True, kw_only=True)
class SupportRule:
    """Each supporter changes ``per_supporter`` supported units on one side (attack): raises them
    to ``value`` (an absolute value, the editions' artillery), or adds ``bonus`` to their value
    (TripleA's UnitSupportAttachment; negative lowers it). A rule gives exactly one of the two;
    a ruleset's rules are all of one kind."""

    supporters: tuple[str, ...] = key("units that give support", unit_names=True)
    supported: tuple[str, ...] = key("units that receive it", unit_names=True)
    per_supporter: int = key("units each supporter raises", 1, low=1, high=100)
    value: int | None = key("what a supported unit hits on (or give bonus)", None, low=1,
                            high=MAX_DICE_SIDES)
    side: SupportSide = key("the side it helps (enemy faction: the side whose units it changes)",
                            SupportSide.ATTACK)
    bonus: int | None = key("added to a supported unit's value, the sum kept within 0.."
                            "dice_sides (TripleA bonus; or give value)", None,
                            low=-MAX_DICE_SIDES, high=MAX_DICE_SIDES, quiet_default=True)
    faction: SupportFaction = key("whose units it changes: the supporters' side's (allied) or "
                                  "the enemy's (enemy; bonus rules only)", SupportFaction.ALLIED,
                                  quiet_default=True)
    bonus_type: str = key("rules of one bonus type do not stack on a unit beyond "
                          "bonus_type_count (TripleA bonusType); empty: the rule is a type of "
                          "its own", "", quiet_default=True)
    bonus_type_count: int = key("supports of this bonus type one unit may receive (TripleA's "
                                "COUNT:NAME bonusType)", 1, low=1, high=100, quiet_default=True)
    bonus_to: SupportBonusTo = key("what the bonus adds to: the value hit on, the dice rolled "
                                   "(TripleA dice = roll), or both", SupportBonusTo.STRENGTH,
                                   quiet_default=True)

    def __repr__(self) -> str:
        return record_repr(self)


@dataclass(frozen=True)
class CombatRules:
    """The edition's special combat rules, as flags."""

    sub_first_strike: SubFirstStrike = key(
        "which sides' submarines fire before the rest when the enemy has no destroyer",
        SubFirstStrike.NONE)
    air_hits_subs: AirHitsSubs = key("whether aircraft may hit submarines", AirHitsSubs.ALWAYS)
    aa_dice: AADice = key("AA dice before the first round: one gun, a die per aircraft, or "
                          "each gun up to aa_dice_per_gun dice", AADice.PER_AIRCRAFT)
    aa_dice_per_gun: int = key("dice each AA gun rolls (aa_dice = per_gun)", 3, low=1, high=100)
    aa_hit: int = key("AA guns hit on this or less", 1, low=0, high=MAX_DICE_SIDES)
    submerge: SubmergeTiming = key("when submarines may submerge (only with no enemy destroyer)",
                                   SubmergeTiming.START)
    aa_casualties: AACasualties = key(
        "which aircraft AA hits destroy: the one each die was rolled at (needs aa_dice = "
        "per_aircraft), or the attacker's choice", AACasualties.ATTACKER_CHOOSES)
    repair: RepairTiming = key("when a damaged two-hit unit is whole again (whether a later wave "
                               "meets it damaged)", RepairTiming.END_OF_TURN)
    sub_strike_rounds: SubStrikeRounds = key(
        "rounds in which submarines strike first: each, or round 1 only", SubStrikeRounds.EVERY)
    sub_strike_destroyer: SubStrikeDestroyer = key(
        "which enemy destroyer takes the first strike away: one there at the start of the round, "
        "or one there when the battle starts", SubStrikeDestroyer.EACH_ROUND)
    dice_sides: int = key("faces of a die: a unit hits on a roll at or under its value "
                          "(TripleA diceSides)", 6, low=2, high=MAX_DICE_SIDES, quiet_default=True)

    def __repr__(self) -> str:
        return record_repr(self)


@dataclass(frozen=True)
class TransportRules:
    """What one transport carries: ``capacity`` land units, at most ``max_heavy`` of them units
    with the ``heavy_cargo`` flag."""

    capacity: int = key("land units one transport carries", 2, low=1, high=20)
    max_heavy: int = key("of which at most this many heavy_cargo units", 1, low=0, high=20)


@dataclass(frozen=True)
class AmphibiousRules:
    """Amphibious assaults: whether the attacker may ignore a sea zone's defenders when they
    are only submarines and/or transports (no sea battle; the ships may then bombard)."""

    ignore_subs_and_transports: bool = key(
        "the attacker may ignore a sea zone held only by submarines and/or transports", False)


@dataclass(frozen=True)
class BombardRules:
    """Shore bombardment in an amphibious assault."""

    units: tuple[tuple[str, int], ...] = key("ships that bombard, each with the value it hits on",
                                             (), low=1, high=MAX_DICE_SIDES, unit_names=True)
    casualties_fire_back: bool = key("land units hit by bombardment fire back that round", True)
    one_per_landed_unit: bool = key("at most one bombarding ship per land unit landed", False)


class RaidCap(enum.Enum):
    """What limits the damage of a strategic bombing raid."""

    TERRITORY = "territory"  # the territory's IPC value
    DOUBLE_TERRITORY = "double_territory"  # twice the territory's value
    FACILITY = "facility"  # a fixed cap per kind of facility (facility_caps)


@dataclass(frozen=True)
class RaidRules:
    """Strategic bombing raids: damage dice per bomber and the cap."""

    damage_dice: int = key("damage dice per strategic bomber", 1, low=1, high=10)
    damage_bonus: int = key("added to each strategic bomber's damage", 0, low=0, high=100)
    tactical_bonus: int = key("added to each tactical bomber's damage", 0, low=0, high=100)
    cap: RaidCap = key("what limits a raid's damage", RaidCap.TERRITORY)
    facility_caps: tuple[tuple[str, int], ...] = key(
        "the damage cap per kind of facility (cap = facility)", (), low=0, high=1000)
    tactical_targets: tuple[str, ...] = key("facilities tactical bombers may raid", ())
    air_battle: bool = key("escorts and interceptors fight one round first", False)
    escort_hit: int = key("escorts hit on this or less in the air battle", 1, low=0, high=6)
    interceptor_hit: int = key("interceptors hit on this or less in the air battle", 2, low=0,
                               high=6)
    builtin_aa: bool = key("the facility fires AA itself (false: only where an AA gun stands)",
                           True)


@dataclass(frozen=True)
class TechRule:
    """A technology's effect on combat numbers, for the side that has it."""

    name: str
    attack: tuple[tuple[str, int], ...] = key("unit = its new attack", (), low=0,
                                              high=MAX_DICE_SIDES, unit_names=True)
    defense: tuple[tuple[str, int], ...] = key("unit = its new defense", (), low=0,
                                               high=MAX_DICE_SIDES, unit_names=True)
    attack_dice: tuple[tuple[str, int], ...] = key("unit = the dice it rolls on attack", (),
                                                   low=1, high=6, unit_names=True)
    attack_dice_rule: DiceRule = key("how those dice count: each hits, or only the best rolls",
                                     DiceRule.ALL)
    aa_hit: int | None = key("AA guns of this side hit on this or less", None, low=0,
                             high=MAX_DICE_SIDES)
    per_supporter: tuple[tuple[str, int], ...] = key("supporter = the units it supports", (),
                                                     low=1, high=100, unit_names=True)
    support: tuple[SupportRule, ...] = key("extra support rules", ())
    bombard: tuple[tuple[str, int], ...] = key("extra bombarding ships = the value they hit on",
                                               (), low=1, high=MAX_DICE_SIDES, unit_names=True)
    raid_dice: int | None = key("damage dice per bomber in a raid", None, low=1, high=10)
    raid_rule: RaidDiceRule = key("how those dice make damage: summed, or the best one",
                                  RaidDiceRule.SUM)
    raid_bonus: int = key("added to each bomber's raid damage", 0, low=0, high=100)


TECH_NAMES = ("jets", "super-subs", "heavy-bombers", "radar", "improved-artillery",
              "combined-bombardment", "improved-mech-infantry")
"""Technologies docs/rules.md §15 names; an edition's file defines those it has."""


@dataclass(frozen=True)
class Ruleset:
    """An edition's units and combat rules: the file's top-level keys, declared here once."""

    name: str = key("the edition's name (what --rules takes for a built-in edition)")
    title: str = key("its title in full", default_from="name")
    units: tuple[UnitType, ...] = key("one [units.NAME] table per unit (at most 32); NAME is "
                                      "what players type: lowercase letters, digits, underscores",
                                      named=True, defines_units=True)
    combat: CombatRules = key("the special combat rules", CombatRules())
    bombard: BombardRules = key("shore bombardment", BombardRules())
    support: tuple[SupportRule, ...] = key("[[support]] rules: units that raise others' values",
                                           ())
    raid: RaidRules = key("strategic bombing raids", RaidRules())
    tech: tuple[TechRule, ...] = key("one [tech.NAME] table per technology the edition has",
                                     (), named=True, names_of=TECH_NAMES, names_are="technology")
    transport: TransportRules = key("what a transport carries", TransportRules())
    amphibious: AmphibiousRules = key("amphibious assaults", AmphibiousRules())
    source: str = field(default="", compare=False, metadata={"key": Key(
        "where the rules come from, for readers (the loaded ruleset's source is its file or "
        "edition name)")})
    not_modelled: tuple[NotModelled, ...] = field(default=(), compare=False, repr=False)
    """What the rules' source says that oddsim does not compute (a TripleA map's suicide units,
    territory effects...): not a key of a ruleset file, set by the reader of another format."""

    def refusal(self, units: Iterable[str]) -> str | None:
        """Why a battle with these units (canonical names) cannot be answered under these rules,
        in one line naming the unit, or None when it can."""
        present = set(units)
        for note in self.not_modelled:
            if note.refuses and note.unit and note.subject in present:
                return (f"{self.name}: oddsim does not compute {note.subject} ({note.reason}): "
                        "leave it out of the battle")
        return None

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


def require_ruleset(rules: object, what: str) -> Ruleset:
    """``rules`` itself, known to be a loaded ``Ruleset``: an edition is resolved once, where a
    request comes in (the command line, the web, a public function), and travels inward as a
    value; a name given further in is a RulesetError saying so."""
    if not isinstance(rules, Ruleset):
        raise RulesetError(f"{what} takes a Ruleset, not {type(rules).__name__}: load the edition "
                           f"first (oddsim.load_ruleset({rules!r}))")
    return rules


def editions_with_unit(token: str, besides: str) -> list[str]:
    """The built-in editions but ``besides`` that have a unit typed ``token`` (a hint for a player
    who named a unit of another edition)."""
    return [name for name in builtin_names()
            if name != besides and load_ruleset(name).resolve_name(token) is not None]


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
    if path.suffix.lower() == ".xml" or path.suffix.lower() != ".toml" and _is_game_file(path):
        return _load_game_file(path)  # (an .xml file that is no game says why, in one line)
    if path.suffix.lower() == ".toml" or path.exists():
        return _load_file(path)
    raise RulesetError(
        f"unknown edition '{text}': use one of {', '.join(builtin_names())}, a path to a .toml file "
        "or a TripleA game file (.xml)"
    )


def _is_game_file(path: Path) -> bool:
    """Whether ``path`` holds a TripleA game file (told by its content, ``<game>``)."""
    from oddsim.triplea.document import looks_like_game_file

    return looks_like_game_file(path)


def _load_game_file(path: Path) -> Ruleset:
    """A TripleA game file's ruleset, read once per version of the file."""
    try:
        stat = path.stat()
    except OSError:
        stat = None
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size) if stat else (str(path), 0, 0)
    return _game_file_cached(key, str(path))


@lru_cache(maxsize=8)
def _game_file_cached(key: tuple[str, int, int], label: str) -> Ruleset:
    from oddsim.triplea.document import read_game_root
    from oddsim.triplea.table import game_table

    return game_ruleset(game_table(read_game_root(Path(label), label), label, loads), label)


def game_ruleset(read: GameTable, origin: str) -> Ruleset:
    """The Ruleset of a game file's table (``oddsim.triplea.table.game_table``): checked as a
    ruleset file is, up to the game's many unit types, with what it does not model."""
    from oddsim.triplea.table import MAX_GAME_UNIT_TYPES

    ruleset = parse_ruleset(copy.deepcopy(read.table), origin, max_units=MAX_GAME_UNIT_TYPES)
    return replace(ruleset, not_modelled=read.notes)


def loads(table: dict) -> bool:
    """Whether a ruleset's table loads (its keys declared, its values ones the engines compute):
    how a foreign format's reader asks which of its features it may map onto keys."""
    try:
        parse_ruleset(copy.deepcopy(table), "probe")
    except RulesetError:
        return False
    return True


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
        base = load_ruleset(name_or_path)  # its own errors first
        if Path(text).suffix.lower() != ".toml" and _is_game_file(Path(text)):
            from oddsim.triplea.document import read_game_root
            from oddsim.triplea.table import MAX_GAME_UNIT_TYPES, game_table

            table = copy.deepcopy(game_table(read_game_root(Path(text), text), text, loads).table)
            changed = _changed(table, changes, text, MAX_GAME_UNIT_TYPES)
            return replace(changed, not_modelled=base.not_modelled)
        table = load_toml(RULESET_FILE.read_text(Path(text)), f"ruleset file {text}", RulesetError)
    return _changed(table, changes, text)


def text_with_changes(text: str, changes: Mapping[str, object], origin: str = "(text)",
                      what: str = "the ruleset") -> Ruleset:
    """``with_changes`` of a ruleset given as the TOML text of its file (``ruleset_from_text``:
    a server receives text, never a path)."""
    ruleset_from_text(text, origin, what)  # its own errors first
    return _changed(load_toml(text, what, RulesetError), changes, origin)


def _changed(table: dict, changes: Mapping[str, object], text: str,
             max_units: int = MAX_UNIT_TYPES) -> Ruleset:
    """The ruleset of the file ``table`` (from ``text``: an edition's name or a file) with the
    keys ``changes`` names set, named for them."""
    said = []
    for dotted, value in changes.items():
        _set_key(table, dotted, value, text)
        said.append(f"{dotted}={_toml_value(value)}")
    table["name"] = f"{table.get('name', text)} ({', '.join(said)})" if said else table.get("name", text)
    return parse_ruleset(table, origin=f"{text} with {', '.join(said)}" if said else text,
                         max_units=max_units)


def unit_value_changes(spec: str | Mapping[str, object] | None, rules: Ruleset) -> dict[str, object]:
    """``"ftr=14,bmb=15"`` (or ``{"ftr": 14}``): the changes to the edition's file that value
    those units at those IPCs, for a player who values units beyond their cost. The value is
    the unit's ``cost`` in the copy (``with_changes``), so every figure that counts IPCs counts it
    (IPCs lost, TUV swing, the best retreat, a plan's or a purchase's objective) and so does the
    default order of loss, which loses the cheapest units first: a fighter valued at 14 is lost
    after the armor it used to cost less than. Raises RulesetError naming a bad entry."""
    if spec is None:
        return {}
    parsed = require_ruleset(rules, "unit values")
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
                 rules: Ruleset) -> dict[str, object]:
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


def ruleset_from_keys(keys: Mapping[str, object], units: Mapping[str, Mapping[str, object]] | None,
                      origin: str) -> Ruleset:
    """A validated Ruleset from plain data, the target a foreign format maps onto (a TripleA game
    file): ``keys`` maps a file's keys, dotted as ``--rule`` writes them, to values
    (``{"name": "map", "combat.aa_hit": 1, "support": [{...}]}``); ``units`` maps each unit's name
    to its record (``{"infantry": {"cost": 3, "attack": 1, ...}}``). Checked as a ruleset file is
    (``parse_ruleset``, which the TOML files go through too), with the same errors."""
    table: dict = {}
    for dotted, value in keys.items():
        parts = dotted.split(".")
        here = table
        for depth, part in enumerate(parts[:-1]):
            here = here.setdefault(part, {})
            if not isinstance(here, dict):
                raise RulesetError(f"ruleset {origin}: '{'.'.join(parts[:depth + 1])}' must be a table")
        here[parts[-1]] = value
    if units is not None:
        table["units"] = {name: dict(record) for name, record in units.items()}
    return parse_ruleset(table, origin)


def parse_ruleset(data: dict, origin: str, max_units: int = MAX_UNIT_TYPES) -> Ruleset:
    """Validate a parsed TOML document and build the Ruleset; errors name the bad field. Every
    key reads as its field declares it (``oddsim.model.schema``); the checks here are the ones
    between keys."""
    top = Fields(data, "ruleset", origin)
    if isinstance(top.table.get("name"), str) and not top.table["name"].strip():
        raise RulesetError(f"ruleset {origin}: field 'name' is empty: give the edition a name")
    units_table = top.table.get("units")
    if isinstance(units_table, dict) and not units_table:
        raise RulesetError(f"ruleset {origin}: field 'units' must define at least one unit")
    if isinstance(units_table, dict) and len(units_table) > max_units:
        raise RulesetError(f"ruleset {origin}: at most {max_units} unit types are supported")
    ruleset = read_record(Ruleset, top, Units())
    for unit in ruleset.units:
        _check_typable(unit.name, unit.aliases, origin)
    _check_aliases(ruleset.units, origin)
    combat = ruleset.combat
    if combat.aa_casualties is AACasualties.PER_AIRCRAFT and combat.aa_dice is not AADice.PER_AIRCRAFT:
        raise RulesetError(f"ruleset {origin}: field 'combat.aa_casualties' per_aircraft needs "
                           f"combat.aa_dice = per_aircraft (one die rolled at each aircraft)")
    if ruleset.raid.cap is RaidCap.FACILITY and not ruleset.raid.facility_caps:
        raise RulesetError(f"ruleset {origin}: field 'raid.facility_caps' is needed when "
                           f"raid.cap is facility")
    transport = ruleset.transport
    if transport.max_heavy > transport.capacity:
        raise RulesetError(f"ruleset {origin}: field 'transport.max_heavy' ({transport.max_heavy}) "
                           f"must not exceed transport.capacity ({transport.capacity})")
    _check_within_dice(ruleset, origin)
    _check_support(ruleset, origin)
    _refuse_not_computed(ruleset, origin)
    return replace(ruleset, source=origin)


def _hit_values(ruleset: Ruleset) -> Iterable[tuple[str, int]]:
    """Every value a die hits on at or under, with the key that gives it."""
    for unit in ruleset.units:
        yield f"units.{unit.name}.attack", unit.attack
        yield f"units.{unit.name}.defense", unit.defense
    yield "combat.aa_hit", ruleset.combat.aa_hit
    for name, value in ruleset.bombard.units:
        yield f"bombard.units.{name}", value
    for r, rule in enumerate(ruleset.support):
        if rule.value is not None:
            yield f"support[{r}].value", rule.value
    for tech in ruleset.tech:
        where = f"tech.{tech.name}"
        for what, pairs in (("attack", tech.attack), ("defense", tech.defense),
                            ("bombard", tech.bombard)):
            for name, value in pairs:
                yield f"{where}.{what}.{name}", value
        if tech.aa_hit is not None:
            yield f"{where}.aa_hit", tech.aa_hit
        for r, rule in enumerate(tech.support):
            if rule.value is not None:
                yield f"{where}.support[{r}].value", rule.value


def _check_within_dice(ruleset: Ruleset, origin: str) -> None:
    """Refuse a hit value over the die's faces (``combat.dice_sides``)."""
    sides = ruleset.combat.dice_sides
    for where, value in _hit_values(ruleset):
        if value > sides:
            raise RulesetError(f"ruleset {origin}: field '{where}' must be between 0 and {sides}, "
                               f"not {value} (a die's sides: combat.dice_sides)")


def all_support_rules(ruleset: Ruleset) -> Iterable[tuple[str, SupportRule]]:
    """Every support rule of the ruleset, its own and its technologies', with where it is."""
    for r, rule in enumerate(ruleset.support):
        yield f"support[{r}]", rule
    for tech in ruleset.tech:
        for r, rule in enumerate(tech.support):
            yield f"tech.{tech.name}.support[{r}]", rule


def _check_support(ruleset: Ruleset, origin: str) -> None:
    """A support rule gives a value or a bonus (one of them), all rules of a ruleset the same
    kind; an enemy-faction rule gives a bonus; rules of one bonus type agree on its count."""
    kinds: dict[bool, str] = {}
    counts: dict[str, tuple[int, str]] = {}
    for where, rule in all_support_rules(ruleset):
        if (rule.value is None) == (rule.bonus is None):
            raise RulesetError(f"ruleset {origin}: field '{where}' must give one of value (what a "
                               f"supported unit hits on) or bonus (what it adds), not "
                               f"{'both' if rule.value is not None else 'neither'}")
        bonus = rule.bonus is not None
        kinds.setdefault(bonus, where)
        if len(kinds) > 1:
            raise RulesetError(f"ruleset {origin}: field '{where}' mixes support kinds: "
                               f"{kinds[True]} gives a bonus and {kinds[False]} a value; give "
                               f"every support rule a bonus, or every one a value")
        if not bonus and (rule.faction is not SupportFaction.ALLIED or rule.bonus_type
                          or rule.bonus_type_count != 1
                          or rule.bonus_to is not SupportBonusTo.STRENGTH):
            raise RulesetError(f"ruleset {origin}: field '{where}' gives a value: faction, "
                               f"bonus_type, bonus_type_count and bonus_to go with a bonus")
        if rule.bonus_type:
            count, first = counts.setdefault(rule.bonus_type, (rule.bonus_type_count, where))
            if count != rule.bonus_type_count:
                raise RulesetError(f"ruleset {origin}: field '{where}.bonus_type_count' is "
                                   f"{rule.bonus_type_count} but {first} gives bonus type "
                                   f"'{rule.bonus_type}' a count of {count}: give one count")


def not_computed(ruleset: Ruleset) -> str | None:
    """What of this ruleset the engines do not compute yet (a key and its value), or None:
    such a ruleset is refused when it loads, never answered wrongly."""
    for where, rule in all_support_rules(ruleset):
        if rule.faction is SupportFaction.ENEMY:
            return f"'{where}.faction' = enemy (support that changes the enemy's units)"
        if rule.bonus_type_count != 1:
            return f"'{where}.bonus_type_count' = {rule.bonus_type_count} (several supports " \
                   f"of one bonus type on a unit)"
        if rule.bonus_to is not SupportBonusTo.STRENGTH:
            return f"'{where}.bonus_to' = {rule.bonus_to} (support that adds dice)"
    return None


def _refuse_not_computed(ruleset: Ruleset, origin: str) -> None:
    what = not_computed(ruleset)
    if what is not None:
        raise RulesetError(f"ruleset {origin}: field {what} is declared but oddsim's engines do "
                           f"not compute it yet: leave it out")


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


def _check_aliases(units: Iterable[UnitType], origin: str) -> None:
    seen: dict[str, str] = {}
    for unit in units:
        for typed in (unit.name, *unit.aliases):
            if typed in seen and seen[typed] != unit.name:
                raise RulesetError(f"ruleset {origin}: alias '{typed}' is used by both "
                                   f"'{seen[typed]}' and '{unit.name}'")
            seen[typed] = unit.name
