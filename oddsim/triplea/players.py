"""The players of a TripleA game and how they stand with each other: who is at war with whom
(``Relations``), and which technologies each holds.

TripleA's rules, as its game parser applies them: players who share an alliance are allied,
every other pair is at war; ``relationshipInitialize`` then sets a pair's relationship by name,
and a relationship type is at war, allied or neutral by its ``relationshipTypeAttachment``'s
``archeType`` (war when it has none). Units with no owner belong to TripleA's null player, at
war with everyone. A player's technologies are the options set ``true`` on the
``techAttachment`` attached to it (TripleA's property names: ``jetPower``, ``superSub``, ...).
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from oddsim.triplea.document import GameFileError


class BoardError(GameFileError):
    """A game file whose board cannot be read (a unit placed in a territory the map does not
    have, a relationship naming a player the game does not have...), or a request that names
    what the board does not have (a territory, a player) or asks for a battle it does not hold."""


class Stance(StrEnum):
    """How two players stand: TripleA's relationship archetypes."""

    WAR = "war"
    ALLIED = "allied"
    NEUTRAL = "neutral"


@dataclass(frozen=True)
class Relations:
    """Who is at war with whom. ``stances``: each pair of players (in the order of the game's
    player list) and how it stands; a player with itself is allied; ``None`` (no owner) is at
    war with every player."""

    stances: Mapping[frozenset[str], Stance] = field(default_factory=dict)

    def stance(self, first: str | None, second: str | None) -> Stance:
        if first == second:
            return Stance.ALLIED
        if first is None or second is None:
            return Stance.WAR
        return self.stances.get(frozenset((first, second)), Stance.WAR)

    def at_war(self, first: str | None, second: str | None) -> bool:
        return self.stance(first, second) is Stance.WAR

    def allied(self, first: str | None, second: str | None) -> bool:
        return self.stance(first, second) is Stance.ALLIED


def read_players(root: ElementTree.Element) -> tuple[tuple[str, ...], dict[str, tuple[str, ...]]]:
    """The game's players in its order, and each one's alliances."""
    player_list = root.find("playerList")
    if player_list is None:
        raise BoardError("the game file has no <playerList>: give a TripleA game file")
    players: list[str] = []
    for element in player_list.findall("player"):
        name = _attribute(element, "name", "a <player>")
        if name not in players:
            players.append(name)
    alliances: dict[str, tuple[str, ...]] = {name: () for name in players}
    for element in player_list.findall("alliance"):
        player = known_player(_attribute(element, "player", "an <alliance>"), players, "an <alliance>")
        alliance = _attribute(element, "alliance", "an <alliance>")
        if alliance not in alliances[player]:
            alliances[player] += (alliance,)
    return tuple(players), alliances


def read_relations(root: ElementTree.Element, players: tuple[str, ...],
                   alliances: Mapping[str, tuple[str, ...]]) -> Relations:
    """``Relations`` as TripleA's game parser sets them (the module docstring)."""
    stances: dict[frozenset[str], Stance] = {}
    for index, first in enumerate(players):
        for second in players[index + 1:]:
            shared = set(alliances[first]) & set(alliances[second])
            stances[frozenset((first, second))] = Stance.ALLIED if shared else Stance.WAR
    archetypes = _archetypes(root)
    for element in root.iterfind("initialize/relationshipInitialize/relationship"):
        where = "a <relationship>"
        first = known_player(_attribute(element, "player1", where), players, where)
        second = known_player(_attribute(element, "player2", where), players, where)
        kind = _attribute(element, "type", where)
        if first != second:
            stances[frozenset((first, second))] = archetypes.get(kind, Stance.WAR)
    return Relations(stances)


def _archetypes(root: ElementTree.Element) -> dict[str, Stance]:
    """Each relationship type's stance, by its ``relationshipTypeAttachment`` (war by default)."""
    archetypes = {element.get("name", ""): Stance.WAR
                  for element in root.iterfind("relationshipTypes/relationshipType")}
    for attachment in _attachments(root, "relationship", "relationshipTypeAttachment"):
        for name, value in _options(attachment):
            if name == "archeType":
                try:
                    archetypes[attachment.get("attachTo", "")] = Stance(value.strip().lower())
                except ValueError:
                    raise BoardError(f"relationship type {attachment.get('attachTo')!r} has archeType "
                                     f"{value!r}: TripleA takes war, allied or neutral") from None
    return archetypes


def read_techs(root: ElementTree.Element, players: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """Each player's technologies: the options its ``techAttachment`` sets ``true``, by TripleA's
    names (``heavyBomber``, ``jetPower``, a map's own technology's name)."""
    techs: dict[str, tuple[str, ...]] = {name: () for name in players}
    for attachment in _attachments(root, "player", "techAttachment"):
        player = attachment.get("attachTo", "")
        if player not in techs:
            continue  # (TripleA ignores no such thing, but a tech of nobody changes no battle)
        for name, value in _options(attachment):
            if value.strip().lower() == "true" and name not in techs[player]:
                techs[player] += (name,)
    return techs


def _attachments(root: ElementTree.Element, kind: str, name: str) -> Iterable[ElementTree.Element]:
    for attachment in root.iterfind("attachmentList/attachment"):
        if attachment.get("type") == kind and attachment.get("name") == name:
            yield attachment


def _options(attachment: ElementTree.Element) -> Iterable[tuple[str, str]]:
    for option in attachment.findall("option"):
        yield option.get("name", ""), option.get("value", "")


def known_player(name: str, players: Iterable[str], where: str) -> str:
    """``name`` when the game has that player (case-insensitive: the game's spelling), else a
    BoardError naming the players."""
    players = tuple(players)
    for known in players:
        if known.lower() == name.strip().lower():
            return known
    raise BoardError(f"{where} names player {name!r}, not in this game: use one of {', '.join(players)}")


def _attribute(element: ElementTree.Element, name: str, where: str) -> str:
    value = element.get(name)
    if value is None or not value.strip():
        raise BoardError(f"{where} has no {name}: the game file is damaged; export it again from TripleA")
    return value
