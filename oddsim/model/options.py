"""Each battle option declared once: its flat name (the command line's parameter, the web's
field, a plan's or a sweep's keyword), what it sets (a ``Side``'s field, a ``Battle``'s, a
``RetreatPolicy``'s), its help, its kind and its bounds or choices. The command-line flags
(``oddsim.cli.common.declared``), the web's fields and ``battle_from`` are read from ``OPTIONS``;
adding an option is one entry here and the field it sets."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any

from oddsim.errors import BattleError
from oddsim.model.battle import BEST_OBJECTIVES, CASUALTY_GOALS, DICE_MODES, Battle, Dice, RetreatPolicy
from oddsim.model.forces import MAX_UNITS_PER_SIDE
from oddsim.model.rules import Ruleset
from oddsim.model.side import ATTACKER, DEFENDER, SUBMERGE_POLICIES, ArmySpec, Side, Submerge


class Owner(StrEnum):
    """What an option sets: a field of the attacker's or the defender's ``Side``, of the
    ``Battle``, or of its ``RetreatPolicy`` (the command line's retreat flags)."""

    ATTACKER = ATTACKER
    DEFENDER = DEFENDER
    BATTLE = "battle"
    RETREAT = "retreat"


class Kind(StrEnum):
    """How an option's value is written: text, an on/off flag, a whole number, a number, or one
    of its ``choices``."""

    TEXT = "text"
    FLAG = "flag"
    INT = "int"
    FLOAT = "float"
    CHOICE = "choice"


DEFAULT_ORDER_HELP = ("(default: a unit that cannot fire first, then cheapest, counting its fighting "
                      "value: `oddsim rules show` lists it)")
"""What the order-of-loss options say of the default (``oddsim.model.order_of_loss``)."""


@dataclass(frozen=True)
class Option:
    """One battle option. ``name``: its flat name (``keep_land``), the command line's
    ``--keep-land``; ``field``: the field of its ``owner`` it sets; ``minimum``: the least value
    the command line takes (the model checks the rest of the bounds and says why);
    ``on_command_line``: False for a field only the web and Python take."""

    name: str
    field: str
    owner: Owner
    help: str
    kind: Kind = Kind.TEXT
    default: Any = None
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    metavar: str | None = None
    show_default: bool = False
    on_command_line: bool = True

    @property
    def flag(self) -> str:
        """The command-line flag: ``--`` and the name, dashed."""
        return "--" + self.name.replace("_", "-")

    def but(self, **changes: Any) -> Option:
        """This option as one command offers it (its own help, say)."""
        return replace(self, **changes)


_A, _D, _B, _R = Owner.ATTACKER, Owner.DEFENDER, Owner.BATTLE, Owner.RETREAT
_SUBMERGE: dict[str, Any] = dict(kind=Kind.CHOICE, choices=SUBMERGE_POLICIES, default=Submerge.NEVER.value,
                                 show_default=True)

OPTIONS: tuple[Option, ...] = (
    Option("sea", "sea", _B, "A sea battle (default: land).", kind=Kind.FLAG, default=False),
    Option("ool_attacker", "order_of_loss", _A,
            f"Attacker's order of loss, first lost first, e.g. inf,art,arm,ftr {DEFAULT_ORDER_HELP}; "
            "'best': choose each loss, solved exactly for --casualty-goal."),
    Option("ool_defender", "order_of_loss", _D, "Defender's order of loss (as --ool-attacker)."),
    Option("casualty_goal", "casualty_goal", _B,
            "What a side with order of loss 'best' plays for: taking the territory (take), winning (win), "
            "the TUV swing (tuv), or that plus --casualty-value when taken (value) (default: take on land, "
            "win at sea).", kind=Kind.CHOICE, choices=CASUALTY_GOALS),
    Option("casualty_value", "casualty_value", _B,
            "IPCs the territory is worth, for --casualty-goal value.", kind=Kind.FLOAT, minimum=0),
    Option("keep_land", "keep_land", _A,
            f"Keep the attacker's last N land units (0..{MAX_UNITS_PER_SIDE}) until everything else is lost.",
            kind=Kind.INT, default=0, minimum=0, show_default=True),
    Option("attacker_tech", "tech", _A, "Attacker's technologies, e.g. jets,heavy-bombers.", default=""),
    Option("defender_tech", "tech", _D, "Defender's technologies, e.g. radar.", default=""),
    Option("dice", "dice", _B, "Dice mode: standard, or Low Luck.", kind=Kind.CHOICE, choices=DICE_MODES,
            default=Dice.STANDARD.value, show_default=True),
    Option("in_progress", "in_progress", _B,
            "A battle in progress, resumed at a round boundary: no AA fire, no bombardment.",
            kind=Kind.FLAG, default=False),
    Option("crash_fighters", "crash_fighters", _B,
            "Sea battles: the defender's aircraft its surviving carriers cannot hold are lost.",
            kind=Kind.FLAG, default=False),
    Option("attacker_destroyer_last", "destroyer_last", _A,
            "Sea battles: the attacker keeps its last destroyer as its last casualty while the defender "
            "has subs.", kind=Kind.FLAG, default=False),
    Option("defender_destroyer_last", "destroyer_last", _D,
            "Sea battles: the defender keeps its last destroyer as its last casualty while the attacker "
            "has subs.", kind=Kind.FLAG, default=False),
    Option("retreat_after_round", "after_round", _R,
            "Attacker retreats after this round if the battle is not over.", kind=Kind.INT, metavar="1..100"),
    Option("retreat_units", "units_left", _R, "Attacker retreats when it has this many units or fewer.",
            kind=Kind.INT, metavar=f"0..{MAX_UNITS_PER_SIDE}"),
    Option("retreat_below_win", "below_win", _R,
            "Attacker retreats when its exact chance to win falls below this.", kind=Kind.FLOAT,
            metavar="0..1"),
    Option("retreat_aircraft_risk", "aircraft_risk", _R,
            "Attacker retreats when the next round would kill an aircraft with more than this chance.",
            kind=Kind.FLOAT, metavar="0..1"),
    Option("retreat_strafe", "strafe", _R,
            "Attacker retreats once the defender is down to this many units or fewer (a strafe).",
            kind=Kind.INT, metavar=f"0..{MAX_UNITS_PER_SIDE}"),
    Option("retreat_best", "best", _R,
            "The best retreat, computed exactly: maximise the expected TUV swing (tuv), or that plus "
            "--territory-value when the territory is taken (value).", kind=Kind.CHOICE,
            choices=BEST_OBJECTIVES),
    Option("territory_value", "territory_value", _R,
            "IPCs the territory is worth to the attacker, for --retreat-best value.", kind=Kind.FLOAT,
            minimum=0),
    Option("landed", "landed", _A,
            "Attacking land units that came by sea (amphibious assault): they cannot retreat."),
    Option("bombard", "bombard", _A,
            'Ships bombarding the shore before round 1, e.g. "1 bb, 1 cruiser" (needs --landed).'),
    Option("attacker_submerge", "submerge", _A, "When attacking subs submerge (no enemy destroyer).",
            **_SUBMERGE),
    Option("defender_submerge", "submerge", _D, "When defending subs submerge (no enemy destroyer).",
            **_SUBMERGE),
    Option("retreat", "retreat", _B, "The attacker's retreat: a mapping of RetreatPolicy's fields.",
            on_command_line=False),
    Option("aa_fired", "aa_fired", _B, "The defender's AA fire before round 1 was already resolved.",
            kind=Kind.FLAG, default=False, on_command_line=False),
)
"""Every battle option, in the order ``oddsim battle --help`` lists them."""

OPTION: dict[str, Option] = {option.name: option for option in OPTIONS}
"""Each option by its flat name."""

WEB_FIELDS = tuple(option.name for option in OPTIONS if option.owner is not Owner.RETREAT)
"""The fields of a web battle request besides the armies (its retreat is one ``retreat`` mapping)."""


_SIDE_DEFAULTS = Side(None)


def side_options(side: Side, role: str, taken: Collection[str], where: str) -> dict[str, Any]:
    """The options ``side`` (the ``role``'s: attacker or defender) sets, those not at a ``Side``'s
    defaults, by their flat names (``OPTIONS``: ``order_of_loss`` -> ``ool_attacker``), for the
    places that take a side's options flat (``where``, named in the error): the flat names it
    ``taken``; any other set is refused in one line."""
    if not isinstance(side, Side):
        raise BattleError(f"{where}: the {role} must be a Side, not {type(side).__name__}")
    owner = Owner(role)
    flat = {option.field: option.name for option in OPTIONS if option.owner is owner}
    given: dict[str, Any] = {}
    for field_name in ("order_of_loss", "tech", "submerge", "destroyer_last", "keep_land", "landed",
                       "bombard"):
        value = getattr(side, field_name)
        if value == getattr(_SIDE_DEFAULTS, field_name) or value in (None, "", [], ()):
            continue
        name = flat.get(field_name, field_name)
        if name not in taken:
            raise BattleError(f"{where}: the {role}'s {field_name.replace('_', ' ')} is not taken here: "
                              f"drop it from its Side")
        given[name] = value
    return given


def with_side_options(current: Mapping[str, Any], defaults: Mapping[str, Any], given: Mapping[str, Any],
                      where: str) -> dict[str, Any]:
    """``current`` flat options with those ``given`` (``side_options``) set, each of which must
    still be at its default: an option given both in a ``Side`` and as its keyword is refused."""
    merged = dict(current)
    for name, value in given.items():
        if merged[name] != defaults[name]:
            raise BattleError(f"{where}: {name} is given twice, in a Side and as a keyword: give it once")
        merged[name] = value
    return merged


def set_side_options(instance: Any, given: Mapping[str, Any], where: str) -> None:
    """``with_side_options`` on the fields of the frozen dataclass ``instance``."""
    defaults = {f.name: f.default for f in fields(instance)}
    merged = with_side_options({name: getattr(instance, name) for name in given}, defaults, given, where)
    for name, value in merged.items():
        object.__setattr__(instance, name, value)


def retreat_fields(given: Mapping[str, object]) -> dict[str, Any] | None:
    """The ``RetreatPolicy`` fields that the command line's retreat flags in ``given`` set (None
    when none is)."""
    fields = {OPTION[name].field: value for name, value in given.items()
              if value is not None and OPTION[name].owner is Owner.RETREAT}
    return fields or None


def without_retreat(given: Mapping[str, object]) -> dict[str, Any]:
    """``given`` without the command line's retreat flags (``retreat_fields`` has them)."""
    return {name: value for name, value in given.items() if OPTION[name].owner is not Owner.RETREAT}


def battle_from(rules: Ruleset | str, attacker: ArmySpec, defender: ArmySpec,
                given: Mapping[str, object]) -> Battle:
    """The Battle of two armies and the options ``given`` by their flat names (``OPTIONS``: the
    command line's parameters, a web request's fields), each set on its owner; the command line's
    retreat flags make the retreat policy."""
    owned: dict[Owner, dict[str, Any]] = {owner: {} for owner in Owner}
    for name, value in given.items():
        option = OPTION.get(name)
        if option is None:
            raise BattleError(f"unknown battle option {name!r}: use {', '.join(sorted(OPTION))}")
        owned[option.owner][option.field] = value
    retreat = retreat_fields(given)
    if retreat is not None:
        if owned[Owner.BATTLE].get("retreat") is not None:
            raise BattleError("give the retreat once: as retreat, or as its own options")
        owned[Owner.BATTLE]["retreat"] = RetreatPolicy(**retreat)
    return Battle(rules, Side(attacker, **owned[Owner.ATTACKER]), Side(defender, **owned[Owner.DEFENDER]),
                  **owned[Owner.BATTLE])


def battle_of(fields: Mapping[str, Any]) -> Battle:
    """The Battle of one flat mapping: ``rules``, ``attacker``, ``defender`` and the options by
    their flat names (as a web request or a line of the answer corpus writes a battle)."""
    given = dict(fields)
    return battle_from(given.pop("rules"), given.pop("attacker"), given.pop("defender", None), given)
