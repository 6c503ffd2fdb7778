"""A plan's armies from the board: the pool is one player's units in the territories it attacks
from, each target's defenders the units there at war with that player (``oddsim plan --game``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from oddsim.game.loading import Game
from oddsim.model.forces import Force
from oddsim.model.rules import Domain
from oddsim.triplea.armies import army_of, techs_changing
from oddsim.triplea.board import BoardError, Stack


@dataclass(frozen=True)
class PlanArmies:
    """``player``'s ``pool``, each target's defenders (``targets``, by the board's names), whether
    the targets are sea zones, and each side's technologies that change its units."""

    player: str
    pool: Force
    targets: dict[str, Force]
    sea: bool
    attacker_tech: tuple[str, ...]
    defender_tech: tuple[str, ...]
    notes: tuple[str, ...] = ()


def board_plan_armies(game: Game, sources: Sequence[str], targets: Sequence[str],
                      player: str | None = None) -> PlanArmies:
    """The pool of ``player``'s units in the territories ``sources`` (``player`` None: the one
    player with units there) that can fight in the ``targets``' kind of battle, and each
    target's defenders; BoardError naming the fix for an unknown territory or player, targets of
    both kinds, a target no enemy of the player holds, or defenders with different
    technologies."""
    board, rules = game.board, game.rules
    if not sources:
        raise BoardError("a plan from the board needs the territories its pool stands in: --from T1,T2")
    if not targets:
        raise BoardError("a plan from the board needs at least one --target TERRITORY")
    origins = [board.territory(name) for name in sources]
    places = [board.territory(name) for name in targets]
    if len({t.water for t in places}) > 1:
        raise BoardError("the targets are land and sea zones together: plan the land attacks and the sea "
                         "battles separately")
    sea = places[0].water
    owners = list(dict.fromkeys(s.owner for t in origins for s in t.units if s.owner is not None))
    if player is not None:
        player = board.player(player, "--attacker-player")
    elif len(owners) == 1:
        player = owners[0]
    else:
        who = " and ".join(owners) if owners else "no player"
        raise BoardError(f"units of {who} stand in {', '.join(t.name for t in origins)}: name whose pool "
                         "it is with --attacker-player PLAYER")
    notes: list[str] = []
    mine = tuple(s for t in origins for s in t.units if s.owner == player and _fights(s, sea, game))
    if not mine:
        raise BoardError(f"{player} has no unit that can fight a {'sea' if sea else 'land'} battle in "
                         f"{', '.join(t.name for t in origins)}")
    pool = army_of(mine, ", ".join(t.name for t in origins), False, rules, "pool", notes, game.unit_names)
    defenders: dict[str, Force] = {}
    tech_sets: set[frozenset[str]] = set()
    for place in places:
        stacks = _defending(game, place.name, player)
        army = army_of(stacks, place.name, place.water, rules, "defender", notes, game.unit_names)
        defenders[place.name] = army
        for owner in dict.fromkeys(s.owner for s in stacks if s.owner is not None):
            tech_sets.add(techs_changing(board.techs.get(owner, ()), army, rules, "defender", notes))
    if len(tech_sets) > 1:
        raise BoardError("the targets' defenders hold different technologies that change their battles; "
                         "a plan gives every target the same: plan those targets separately")
    attacker_tech = techs_changing(board.techs.get(player, ()), pool, rules, "attacker", notes)
    return PlanArmies(player, pool, defenders, sea, tuple(sorted(attacker_tech)),
                      tuple(sorted(next(iter(tech_sets), frozenset()))), tuple(notes))


def _fights(stack: Stack, sea: bool, game: Game) -> bool:
    """Whether ``stack`` can attack in a sea (or land) battle: its kind of unit, able to attack."""
    name = game.unit_names.get(stack.unit) or game.rules.resolve_name(stack.unit)
    if name is None:
        return False
    unit = game.rules.unit(name)
    if not unit.can_attack or not unit.combatant or unit.aa:
        return False
    return unit.domain is not (Domain.LAND if sea else Domain.SEA)


def _defending(game: Game, name: str, player: str) -> tuple[Stack, ...]:
    """The units in ``name`` that fight ``player`` attacking it: on land the owner's and its allies'
    at war with the player (the owner must be), at sea those of every player at war with it."""
    board = game.board
    territory = board.territory(name)
    relations = board.relations
    if not territory.water:
        if not relations.at_war(player, territory.owner):
            owner = territory.owner or "no player"
            raise BoardError(f"{player} is not at war with {owner}, who holds {territory.name}: choose a "
                             f"target {player} can attack")
        side = {p for p in territory.owners() if p == territory.owner or relations.allied(p, territory.owner)}
        return tuple(s for s in territory.units if s.owner in side and relations.at_war(s.owner, player))
    return tuple(s for s in territory.units if relations.at_war(s.owner, player))
