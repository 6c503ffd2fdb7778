"""The ruleset file's keys, each declared once, on the field of the record it fills.

A ruleset record (``CombatRules``, ``UnitType``...) declares each of its file keys with ``key(...)``:
the field's type is the key's type, and the declaration holds its default, bounds, help text and, for
an enum, its allowed values. ``read_record`` is the one reader of every key: the known-keys check,
the parsing, the defaults and the error messages all come from those declarations, and so does the
key reference that ``oddsim rules keys`` prints and docs/reference/ruleset.md holds.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from dataclasses import dataclass
from functools import cache
from typing import Any

from oddsim.errors import RulesetError

REQUIRED: Any = dataclasses.MISSING
"""A key the file must give (no default)."""


@dataclass(frozen=True)
class Key:
    """How one file key reads: its help text, its bounds (a number's, or each value's in a table of
    names to numbers), and the table shapes a record type may take."""

    help: str
    low: int | None = None
    high: int | None = None
    high_from: str | None = None  # the bound is this earlier key's value (carries_aircraft_damaged)
    default_from: str | None = None  # absent, the key reads this earlier key's value (title: name)
    unit_names: bool = False  # the names it holds (or its table's keys) must be units of the file
    lower: bool = False  # names read lowercase (aliases)
    named: bool = False  # a table of NAME -> record (units, tech), the record's ``name`` its key
    defines_units: bool = False  # its names are the file's units, which later keys may name
    names_of: tuple[str, ...] = ()  # a named table's names must be one of these (technologies)
    names_are: str = ""  # what those names are, for the error (``technology``)
    role: str | None = None  # a unit flag: ``rules show`` says this when the flag is not its default
    quiet_default: bool = False  # left out of the record's repr at its default (``record_repr``)


def key(help: str, default: Any = REQUIRED, **how: Any) -> Any:
    """A dataclass field that is a key of the ruleset file (``how``: ``Key``'s other fields)."""
    spec = Key(help, **how)
    if isinstance(default, (list, dict)):
        raise TypeError("give a tuple for a sequence default")
    if default is REQUIRED:
        return dataclasses.field(metadata={"key": spec})
    return dataclasses.field(default=default, metadata={"key": spec})


def record_repr(record: Any) -> str:
    """A record's repr as a dataclass writes it, leaving out the keys declared ``quiet_default``
    while they hold their default: a key added later (TripleA's ``dice_sides``...) leaves the
    repr of every ruleset that does not use it as it was, and so the fingerprints of purchase
    sweeps and the seeds made from them."""
    parts = []
    for f in dataclasses.fields(record):
        if not f.repr:
            continue
        value = getattr(record, f.name)
        spec = f.metadata.get("key")
        if spec is not None and spec.quiet_default and value == f.default:
            continue
        parts.append(f"{f.name}={value!r}")
    return f"{type(record).__qualname__}({', '.join(parts)})"


@dataclass(frozen=True)
class Declared:
    """One key of a record type: its name, type (the field's), default and declaration."""

    name: str
    kind: Any
    default: Any
    spec: Key

    @property
    def required(self) -> bool:
        return self.default is REQUIRED and self.spec.default_from is None


@cache
def declared(record: type) -> tuple[Declared, ...]:
    """The file keys of a record type, in the order its fields are declared."""
    hints = typing.get_type_hints(record)
    return tuple(Declared(f.name, hints[f.name], f.default, f.metadata["key"])
                 for f in dataclasses.fields(record) if "key" in f.metadata)


class Fields:
    """Reads typed fields from one TOML table, naming the field in every error."""

    def __init__(self, table: object, where: str, origin: str) -> None:
        if not isinstance(table, dict):
            raise RulesetError(f"ruleset {origin}: '{where}' must be a table")
        self.table, self.where, self.origin = table, where, origin

    def fail(self, key: str, what: str) -> RulesetError:
        return RulesetError(f"ruleset {self.origin}: field '{self.where}.{key}' {what}")

    def get(self, key: str, kind: type, default: object = REQUIRED, low: int | None = None,
            high: int | None = None) -> Any:
        """The field's value, checked to be a ``kind`` (and between ``low`` and ``high``)."""
        if key not in self.table:
            if default is REQUIRED:
                raise self.fail(key, "is missing")
            return default
        value = self.table[key]
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise self.fail(key, f"must be an integer, not {value!r}")
        if kind is not int and not isinstance(value, kind):
            raise self.fail(key, f"must be a {kind.__name__}, not {value!r}")
        if low is not None and value < low or high is not None and value > high:
            raise self.fail(key, f"must be between {low} and {high}, not {value}")
        return value

    def choice(self, key: str, enum_type: type[enum.Enum], default: object = REQUIRED) -> Any:
        value = self.get(key, str, default.value if isinstance(default, enum.Enum) else default)
        try:
            return enum_type(value)
        except ValueError:
            allowed = " | ".join(member.value for member in enum_type)
            raise self.fail(key, f"must be one of {allowed}, not {value!r}") from None

    def names(self, key: str, default: object = REQUIRED) -> tuple[str, ...]:
        value = self.get(key, list, default)
        if not all(isinstance(item, str) for item in value):
            raise self.fail(key, "must be a list of unit names")
        return tuple(value)

    def check_known(self, allowed: set[str]) -> None:
        unknown = sorted(set(self.table) - allowed)
        if unknown:
            raise self.fail(unknown[0], f"is not a known field (known: {', '.join(sorted(allowed))})")


class Units:
    """The unit names a file defines, filled as its units are read, checked by keys naming units."""

    def __init__(self) -> None:
        self.names: set[str] = set()

    def check(self, name: str, where: str, origin: str) -> None:
        if name not in self.names:
            raise RulesetError(f"ruleset {origin}: field '{where}' names unknown unit '{name}'")


def read_record(record: type, fields: Fields, units: Units,
                extra: dict[str, Any] | None = None) -> Any:
    """One record of type ``record`` from its table: every declared key read and checked, an
    unknown key refused; ``extra``: fields that are not keys of the table (a unit's name)."""
    keys = declared(record)
    fields.check_known({k.name for k in keys})
    values: dict[str, Any] = dict(extra or {})
    for k in keys:
        values[k.name] = _read_key(k, fields, units, values)
    return record(**values)


def _read_key(k: Declared, f: Fields, units: Units, earlier: dict[str, Any]) -> Any:
    spec, kind = k.spec, k.kind
    default = earlier[spec.default_from] if spec.default_from and k.default is REQUIRED else k.default
    high = earlier[spec.high_from] if spec.high_from else spec.high
    where = f"{f.where}.{k.name}" if f.where != "ruleset" else k.name
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return f.choice(k.name, kind, default)
    if kind in (bool, int, str):
        return f.get(k.name, kind, default, spec.low, high)
    if _optional(kind) is int:
        return f.get(k.name, int, default, spec.low, high)
    if _is_record(kind):
        table = f.get(k.name, dict, {} if default is not REQUIRED else REQUIRED)
        return read_record(kind, Fields(table, where, f.origin), units)
    item = _item(kind)
    if item is str:
        names = f.names(k.name, list(default) if default is not REQUIRED else REQUIRED)
        names = tuple(name.lower() for name in names) if spec.lower else names
        for name in names if spec.unit_names else ():
            units.check(name, f.where, f.origin)
        return names
    if item == tuple[str, int]:
        table = Fields(f.get(k.name, dict, {} if default is not REQUIRED else REQUIRED), where,
                       f.origin)
        for name in table.table:
            if spec.unit_names:
                units.check(name, where, f.origin)
            table.get(name, int, low=spec.low, high=spec.high)
        return tuple(table.table.items())
    if spec.named:
        table = Fields(f.get(k.name, dict, {} if default is not REQUIRED else REQUIRED), where,
                       f.origin)
        records = tuple(_named_record(item, name, raw, where, f.origin, units, spec)
                        for name, raw in table.table.items())
        if spec.defines_units:
            units.names.update(record.name for record in records)
        return records
    raw = f.get(k.name, list, [] if default is not REQUIRED else REQUIRED)
    return tuple(read_record(item, Fields(entry, f"{where}[{position}]", f.origin), units)
                 for position, entry in enumerate(raw))


def _named_record(record: type, name: str, raw: object, where: str, origin: str, units: Units,
                  spec: Key) -> Any:
    if spec.names_of and name not in spec.names_of:
        raise RulesetError(f"ruleset {origin}: field '{where}.{name}' is not a known "
                           f"{spec.names_are} (known: {', '.join(spec.names_of)})")
    return read_record(record, Fields(raw, f"{where}.{name}", origin), units, {"name": name})


def _is_record(kind: Any) -> bool:
    """Whether a key's type is a record of keys of its own (a sub-table: ``CombatRules``)."""
    return isinstance(kind, type) and dataclasses.is_dataclass(kind)


def _optional(kind: Any) -> Any:
    """``X`` for ``X | None``, else None."""
    if isinstance(kind, types.UnionType) and type(None) in kind.__args__:
        rest = [arg for arg in kind.__args__ if arg is not type(None)]
        return rest[0] if len(rest) == 1 else None
    return None


def _item(kind: Any) -> Any:
    """``X`` for ``tuple[X, ...]``."""
    if typing.get_origin(kind) is tuple:
        args = typing.get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            return args[0]
    raise TypeError(f"a ruleset key cannot be of type {kind}")


def describe_kind(k: Declared) -> str:
    """The key's type and bounds in words: ``integer 0..6``, ``after_battle | end_of_turn``."""
    kind, spec = k.kind, k.spec
    high = f"<= {spec.high_from}" if spec.high_from else spec.high
    bounds = f" {spec.low}..{high}" if spec.low is not None else ""
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return " | ".join(member.value for member in kind)
    if kind is bool:
        return "true | false"
    if kind is int or _optional(kind) is int:
        return f"integer{bounds}"
    if kind is str:
        return "text"
    if dataclasses.is_dataclass(kind):
        return "table"
    item = _item(kind)
    if item is str:
        return "list of unit names" if spec.unit_names or spec.lower else "list of names"
    if item == tuple[str, int]:
        return f"table of {'unit' if spec.unit_names else 'name'} = integer{bounds}"
    if spec.named:
        names = f" (NAME: {' | '.join(spec.names_of)})" if spec.names_of else ""
        return f"table of NAME = {item.__name__}{names}"
    return f"list of {item.__name__} tables"


def describe_default(k: Declared) -> str:
    """The key's default as a file would write it, or ``required``."""
    if k.spec.default_from:
        return f"= {k.spec.default_from}"
    if k.default is REQUIRED:
        return "required"
    value = k.default
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, (tuple, str)) and not value:
        return "empty"
    if dataclasses.is_dataclass(value):
        return "its keys' defaults"
    return str(value)


def key_rows(record: type, prefix: str = "") -> list[tuple[str, str, str, str]]:
    """(dotted key, type, default, help) of every key of ``record`` and of the tables it holds."""
    rows = []
    for k in declared(record):
        name = f"{prefix}{k.name}"
        rows.append((name, describe_kind(k), describe_default(k), k.spec.help))
        if _is_record(k.kind):
            rows += key_rows(k.kind, f"{name}.")
        elif typing.get_origin(k.kind) is tuple and dataclasses.is_dataclass(_item(k.kind)):
            inner = "NAME." if k.spec.named else "[]."
            rows += key_rows(_item(k.kind), f"{name}.{inner}" if k.spec.named else f"{name}{inner}")
    return rows


def key_reference(record: type) -> str:
    """Every key of a ruleset file as a Markdown table (``oddsim rules keys``, docs/reference)."""
    lines = ["| key | type | default | what it says |", "| --- | --- | --- | --- |"]
    for name, kind, default, help_text in key_rows(record):
        cells = (f"`{name}`", kind, default, help_text)
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(lines)
