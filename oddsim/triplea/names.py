"""A TripleA unit's name as an oddsim unit name players can type.

TripleA names are free text (``aaGun``, ``mech_infantry``, ``Tiger-Tank``); an oddsim name is
lowercase words joined by underscores (``oddsim.model.names.is_typable``). A camelCase word is
split (``aaGun`` -> ``aa_gun``), any other character separates words, and the map's own name,
lowercased, is kept as an alias (``aagun``), so players may type either, in any case, with the
plural ``s`` as for every edition.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from oddsim.model.names import is_typable, typed_key

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_SEPARATORS = re.compile(r"[^a-z0-9]+")


def oddsim_name(name: str) -> str:
    """The typable oddsim name of a TripleA unit name (``aaGun`` -> ``aa_gun``)."""
    words = _SEPARATORS.sub("_", _CAMEL.sub("_", name.strip()).lower()).strip("_")
    if not words:
        words = "unit"
    if not words[0].isalpha() or not is_typable(words):
        words = f"unit_{words}"
    return words


def name_table(names: Iterable[str]) -> dict[str, tuple[str, tuple[str, ...]]]:
    """TripleA name -> (oddsim name, aliases): each name unique and typable; two TripleA names that
    read the same (``AAgun``, ``aa_gun``) are told apart by a number (``aa_gun_2``)."""
    table: dict[str, tuple[str, tuple[str, ...]]] = {}
    taken: set[str] = set()
    ordered = list(names)
    for name in ordered:
        base = oddsim_name(name)
        chosen, n = base, 1
        while chosen in taken:
            n += 1
            chosen = f"{base}_{n}"
        taken.add(chosen)
        table[name] = (chosen, ())
    for name, (chosen, _) in table.items():
        alias = typed_key(name)
        squeezed = chosen.replace("_", "")
        aliases = tuple(dict.fromkeys(a for a in (alias, squeezed)
                                      if a != chosen and is_typable(a) and a not in taken))
        taken.update(aliases)
        table[name] = (chosen, aliases)
    return table
