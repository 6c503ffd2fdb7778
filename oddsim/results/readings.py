"""The readings and house rules an Axis & Allies answer was computed under, where they differ from
its edition's file (docs/rules.md: each shipped file is the rulebook, read as its principle says).

Every answer (battle, waves, counter-attack, amphibious, raid, purchase, plan; its text, its JSON
``readings``, the page) says them in one line, and nothing when none differ: a ``--rule KEY=VALUE``,
``--unit-values`` or a user's file named after an edition shows as ``KEY=VALUE (rulebook: OLD)``.
``oddsim trench`` names its readings the same way (``oddsim.trench.model.describe_readings``).
The comparison is by the ruleset's data, key by key as the file names them, never by an edition's
name; a file named after no shipped edition has no rulebook to compare with and says nothing.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from pathlib import Path

from oddsim.model.rules import Ruleset, builtin_names, load_ruleset

_NOT_RULES = frozenset({"name", "title", "source", "aliases", "not_modelled"})
"""Fields that name or describe a ruleset (or a unit) and change no answer."""

ABSENT = "absent"
"""How a key one side of the comparison lacks (a unit, a technology) is written."""


def rulebook_of(rules: Ruleset) -> Ruleset | None:
    """The shipped edition ``rules`` was made from (by its name: ``with_changes`` names a changed
    edition ``"anniversary (combat.sub_strike_rounds=first)"``), the TripleA game file a changed
    game's ruleset was read from, or None for a file of its own."""
    base = rules.name.split(" (", 1)[0].strip()
    if base in builtin_names():
        return load_ruleset(base)
    file, changed, _ = rules.source.partition(" with ")  # (with_changes names its file so)
    if changed and Path(file).suffix.lower() == ".xml" and Path(file).is_file():
        return load_ruleset(file)  # a game file with --rule changes: the file is its rulebook
    return None


NOT_MODELLED = "not_modelled"
"""The key prefix of what a ruleset read from another format says and oddsim does not compute
(``not_modelled.armour``: a TripleA map's unit or property, ``Ruleset.not_modelled``)."""
NOT_MODELLED_SOURCE = "the game file; not modelled"
"""Its ``rulebook``: the game file says it, oddsim does not compute it."""


def rule_readings(rules: Ruleset | str | Path) -> dict[str, dict[str, str]]:
    """``{key: {"value": ..., "rulebook": ...}}`` for each key of the ruleset's file whose value
    differs from its edition's rulebook, in the file's order, then (``not_modelled.SUBJECT``)
    what a game file says that oddsim does not compute; empty when there is none."""
    ruleset = load_ruleset(rules)
    readings = _not_modelled(ruleset)
    rulebook = rulebook_of(ruleset)
    if rulebook is None or rulebook == ruleset:
        return readings
    ours, theirs = _flat(ruleset), _flat(rulebook)
    keys = list(ours) + [key for key in theirs if key not in ours]
    return {**{key: {"value": ours.get(key, ABSENT), "rulebook": theirs.get(key, ABSENT)}
               for key in keys if ours.get(key) != theirs.get(key)}, **readings}


def _not_modelled(ruleset: Ruleset) -> dict[str, dict[str, str]]:
    """The ruleset's ``not_modelled`` notes as readings (a subject named twice: its reasons
    joined)."""
    readings: dict[str, dict[str, str]] = {}
    for note in ruleset.not_modelled:
        key = f"{NOT_MODELLED}.{note.subject}"
        reason = note.reason + (" (a battle with it is refused)" if note.refuses else "")
        if key in readings:
            reason = f"{readings[key]['value']}; {reason}"
        readings[key] = {"value": reason, "rulebook": NOT_MODELLED_SOURCE}
    return readings


def describe_rule_readings(readings: Mapping[str, Mapping[str, str]]) -> str | None:
    """The one line an answer's text prints (``readings: units.transport.defense=0 (rulebook:
    1); ...``, then ``not modelled: SUBJECT (why); ...``), or None when there is none."""
    if not readings:
        return None
    prefix = NOT_MODELLED + "."
    differ = [f"{key}={reading['value']} (rulebook: {reading['rulebook']})"
              for key, reading in readings.items() if not key.startswith(prefix)]
    unmodelled = [f"{key[len(prefix):]} ({reading['value']})"
                  for key, reading in readings.items() if key.startswith(prefix)]
    parts = (["readings: " + "; ".join(differ)] if differ else []) + \
        (["not modelled: " + "; ".join(unmodelled)] if unmodelled else [])
    return " | ".join(parts)


def with_readings(data: dict, rules: Ruleset | str | Path) -> dict:
    """An answer's JSON ``data`` with its ``readings`` (``rule_readings``; ``{}`` when none)."""
    return {**data, "readings": rule_readings(rules)}


def text_with_readings(text: str, rules: Ruleset | str | Path) -> str:
    """An answer's ``text`` with the readings line below it, or as it is when there is none."""
    line = describe_rule_readings(rule_readings(rules))
    return text if line is None else f"{text.rstrip(chr(10))}\n{line}"


def _flat(rules: Ruleset) -> dict[str, str]:
    """Every key of the ruleset as its file writes it (``combat.repair``, ``units.transport.defense``,
    ``tech.jets.attack``), each with its value written as text."""
    flat: dict[str, str] = {}
    for field in dataclasses.fields(rules):
        if field.name not in _NOT_RULES:
            _add(flat, field.name, getattr(rules, field.name))
    return flat


def _add(flat: dict[str, str], key: str, value: object) -> None:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            if field.name not in _NOT_RULES:
                _add(flat, f"{key}.{field.name}", getattr(value, field.name))
    elif isinstance(value, tuple) and value and all(_named(item) for item in value):
        for item in value:  # units, technologies: by name, as the file's tables
            _add(flat, f"{key}.{item.name}", item)
    else:
        flat[key] = _text(value)


def _named(item: object) -> bool:
    return dataclasses.is_dataclass(item) and isinstance(getattr(item, "name", None), str)


def _text(value: object) -> str:
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        if all(isinstance(item, tuple) and len(item) == 2 for item in value):
            return "{" + ", ".join(f"{k} = {_text(v)}" for k, v in value) + "}"
        return "[" + ", ".join(_text(item) for item in value) + "]"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return "{" + ", ".join(f"{f.name} = {_text(getattr(value, f.name))}"
                               for f in dataclasses.fields(value)) + "}"
    return "none" if value is None else str(value)
