"""Unit names as players write them: "2 AA guns", "1 mech infantry", "9 fighters"."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache

DAMAGED_WORDS = ("damaged", "dmg")
"""A first word that marks the units of an army entry as damaged ("1 damaged bb")."""
EMPTY_WORDS = ("none", "nothing", "empty", "-")
"""An army written as one of these has no units (an undefended territory)."""
NAME_RULE = ("a unit name or alias is lowercase letters, digits and underscores (typed as spaces or "
             "hyphens), starts with a letter, is not none, nothing or empty, and its first word "
             "(up to an underscore) is not damaged or dmg")
"""The names players can type, as a ruleset's error says it."""

_UNCOUNTABLE = ("infantry", "artillery", "armor", "armour")
"""Last words whose plural is the word itself ("3 infantry", "2 mech infantry")."""
_ACRONYMS = {"aa": "AA"}


def unit_label(name: str, n: int = 1) -> str:
    """A unit type's name for ``n`` of them: ``aa_gun`` -> "AA gun" / "AA guns". Every label
    parses back to the unit (names take spaces for underscores and a plural "s")."""
    words = [_ACRONYMS.get(word, word) for word in name.split("_")]
    if n != 1 and words and words[-1] not in _UNCOUNTABLE:
        words[-1] += "s"
    return " ".join(words)


def typed_key(token: str) -> str:
    """What a player's unit token is matched as: any case, spaces or hyphens for underscores
    ("Heavy-Art" and "heavy art" are both ``heavy_art``)."""
    return token.strip().lower().replace("-", "_").replace(" ", "_")


def is_typable(name: str) -> bool:
    """Whether a unit name or alias can be typed in an army and found again: it is its own
    typed key (so any case, spaces or hyphens reach it), holds no separator of an army's
    entries (",", ";"), does not start with a count's digit, and is not one of the words that
    mean "no units" or "damaged" (``NAME_RULE`` says it in words)."""
    words = name.split("_")
    return (bool(name) and name[0].isalpha() and typed_key(name) == name
            and all(word and all(c.isalpha() or c in "0123456789" for c in word) for word in words)
            and name not in EMPTY_WORDS and words[0] not in DAMAGED_WORDS)


@lru_cache(maxsize=4096)  # every result's description and survivor rows write these again
def count_label(name: str, n: int, damaged: bool = False) -> str:
    """``"2 AA guns"``, ``"1 damaged battleship"``."""
    return f"{n} {'damaged ' if damaged else ''}{unit_label(name, n)}"


def describe_counts(counts: Iterable[tuple[str, int]], damaged: Mapping[str, int] | None = None) -> str:
    """``"3 infantry, 1 damaged battleship"`` from (unit, number) pairs in order; damaged ones
    (of those numbers) are counted apart; "none" when there are no units."""
    if not damaged:  # most survivor rows: one label per unit type
        return ", ".join([count_label(name, int(n)) for name, n in counts if n > 0]) or "none"
    hurt_by = damaged
    parts = []
    for name, n in counts:
        hurt = min(int(hurt_by.get(name, 0)), int(n))
        if n - hurt > 0:
            parts.append(count_label(name, int(n) - hurt))
        if hurt > 0:
            parts.append(count_label(name, hurt, damaged=True))
    return ", ".join(parts) if parts else "none"
