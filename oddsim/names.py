"""Unit names as players write them: "2 AA guns", "1 mech infantry", "9 fighters"."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache

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
