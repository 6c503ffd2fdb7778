"""The board of a TripleA game: its territories and sea zones, who owns each, the units that
stand in each and whose they are, the players, who is at war with whom, and each player's
technologies, read from a game file's root (a map's start, or a game in progress exported from
TripleA with File > Export game.xml, which writes the same format with today's units and owners).

``board_from_root(read_game_root(path))`` reads it. Units come from ``unitPlacement`` (with
``hitsTaken``, the damage TripleA's parser takes, where a file gives it); owners from
``ownerInitialize``. TripleA's export does not record the step the game is at, so a board does
not know whose turn it is: at sea the attacker is named by whoever asks.
"""

from __future__ import annotations

import difflib
import xml.etree.ElementTree as ElementTree
from collections.abc import Mapping
from dataclasses import dataclass

from oddsim.triplea.players import (
    BoardError,
    Relations,
    known_player,
    read_players,
    read_relations,
    read_techs,
)

__all__ = ["Board", "BoardError", "Stack", "Territory", "board_from_root"]

MAX_PLACED = 1_000_000
"""The most units one ``unitPlacement`` may place (a battle takes at most 1,000 a side)."""


@dataclass(frozen=True)
class Stack:
    """Units of one type and owner in one territory: ``unit`` as the game names it, ``owner``
    None for units of no player (TripleA's neutral), ``hits_taken`` by each of them."""

    unit: str
    owner: str | None
    count: int
    hits_taken: int = 0


@dataclass(frozen=True)
class Territory:
    """A territory (``water``: a sea zone), its owner (None: no player's) and its units."""

    name: str
    water: bool
    owner: str | None
    units: tuple[Stack, ...] = ()

    def owners(self) -> tuple[str | None, ...]:
        """The owners of the units standing here, each once, in the file's order."""
        return tuple(dict.fromkeys(stack.owner for stack in self.units))


@dataclass(frozen=True)
class Board:
    """A game's board: ``territories`` by name in the map's order, ``players`` in the game's
    order, ``relations`` between them, ``techs`` each player holds (TripleA's names), the
    ``round`` it is in (1 for a map's start)."""

    name: str
    round: int
    players: tuple[str, ...]
    relations: Relations
    territories: Mapping[str, Territory]
    techs: Mapping[str, tuple[str, ...]]

    def territory(self, name: str) -> Territory:
        """The territory named ``name`` (any case, spaces as the map has them), or a BoardError
        naming the closest ones."""
        found = self.territories.get(name)
        if found is not None:
            return found
        folded = {key.lower(): key for key in self.territories}
        key = folded.get(" ".join(name.split()).lower())
        if key is not None:
            return self.territories[key]
        close = difflib.get_close_matches(name, list(self.territories), n=3, cutoff=0.6)
        hint = f"did you mean {' or '.join(repr(c) for c in close)}?" if close else \
            "'oddsim game battles FILE' lists the board's battles"
        raise BoardError(f"territory {name!r} is not on this board: {hint}")

    def player(self, name: str, where: str = "the request") -> str:
        """The player named ``name`` (any case), or a BoardError naming the game's players
        (``where``: what named it, e.g. ``--attacker``)."""
        return known_player(name, self.players, where)


def board_from_root(root: ElementTree.Element) -> Board:
    """The board of a game file's root (``read_game_root``); BoardError in one line when the
    file names what it does not define."""
    players, alliances = read_players(root)
    territories = _territories(root)
    owners = _owners(root, territories, players)
    units = _units(root, territories, players, _unit_types(root))
    info = root.find("info")
    offset = root.find("gamePlay/offset")
    return Board(
        name=info.get("name", "") if info is not None else "",
        round=_whole(offset.get("round", "0"), "the round offset", 10**6) + 1 if offset is not None else 1,
        players=players,
        relations=read_relations(root, players, alliances),
        territories={name: Territory(name, water, owners.get(name), tuple(units.get(name, ())))
                     for name, water in territories.items()},
        techs=read_techs(root, players),
    )


def _territories(root: ElementTree.Element) -> dict[str, bool]:
    found: dict[str, bool] = {}
    for element in root.iterfind("map/territory"):
        name = element.get("name")
        if not name:
            raise BoardError("a <territory> has no name: the game file is damaged; export it again")
        found[name] = element.get("water", "false").strip().lower() == "true"
    if not found:
        raise BoardError("the game file's <map> has no territories: give a TripleA game file")
    return found


def _owners(root: ElementTree.Element, territories: Mapping[str, bool],
            players: tuple[str, ...]) -> dict[str, str]:
    owners: dict[str, str] = {}
    for element in root.iterfind("initialize/ownerInitialize/territoryOwner"):
        where = "a <territoryOwner>"
        territory = _known_territory(element.get("territory", ""), territories, where)
        owners[territory] = known_player(element.get("owner", ""), players, where)
    return owners


def _unit_types(root: ElementTree.Element) -> frozenset[str] | None:
    """The unit types the game declares (None when it has no ``unitList``)."""
    unit_list = root.find("unitList")
    if unit_list is None:
        return None
    return frozenset(element.get("name", "") for element in unit_list.findall("unit"))


def _units(root: ElementTree.Element, territories: Mapping[str, bool], players: tuple[str, ...],
           unit_types: frozenset[str] | None) -> dict[str, list[Stack]]:
    """Each territory's stacks, those of one type, owner and damage merged."""
    counts: dict[str, dict[tuple[str, str | None, int], int]] = {}
    for element in root.iterfind("initialize/unitInitialize/unitPlacement"):
        where = "a <unitPlacement>"
        territory = _known_territory(element.get("territory", ""), territories, where)
        unit = element.get("unitType", "")
        if unit_types is not None and unit not in unit_types:
            raise BoardError(f"{where} in {territory} places unit type {unit!r}, which the game's "
                             f"<unitList> does not declare: the game file is damaged")
        owner_name = (element.get("owner") or "").strip()
        owner = known_player(owner_name, players, where) if owner_name else None
        count = _whole(element.get("quantity", ""), f"{where} in {territory}: quantity", MAX_PLACED)
        hits = _whole(element.get("hitsTaken") or "0", f"{where} in {territory}: hitsTaken", 1000)
        if count:
            here = counts.setdefault(territory, {})
            here[(unit, owner, hits)] = here.get((unit, owner, hits), 0) + count
    return {territory: [Stack(unit, owner, count, hits) for (unit, owner, hits), count in here.items()]
            for territory, here in counts.items()}


def _known_territory(name: str, territories: Mapping[str, bool], where: str) -> str:
    if name not in territories:
        raise BoardError(f"{where} names territory {name!r}, which the game's <map> does not have: "
                         "the game file is damaged; export it again from TripleA")
    return name


def _whole(text: str, what: str, most: int) -> int:
    value = text.strip()
    if not (value.isascii() and value.isdigit() and len(value) <= len(str(most))) or int(value) > most:
        raise BoardError(f"{what} is {text!r}: TripleA writes a whole number from 0 to {most}")
    return int(value)
