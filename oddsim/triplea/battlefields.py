"""Where a board holds battles: every territory or sea zone where units of players at war stand,
with who attacks and who defends.

On land the attacker is every player with units there at war with the territory's owner; the
defender is the owner and its allies with units there (those at war with an attacker). An enemy
territory with no defending unit is taken without a fight: no battle. At sea nobody owns the
water, so the attacker is the player to move, which TripleA's exported file does not record: the
one who asks names it (``attacker``); a sea zone where players at war stand but that player
does not attack there is a ``Standoff``, listed with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from oddsim.triplea.board import Board, BoardError, Stack, Territory


@dataclass(frozen=True)
class Battlefield:
    """One battle on the board: its ``territory``, the ``attackers`` and ``defenders`` (players,
    None for units of no player) and their units there."""

    territory: Territory
    attackers: tuple[str | None, ...]
    defenders: tuple[str | None, ...]
    attacking: tuple[Stack, ...]
    defending: tuple[Stack, ...]

    @property
    def sea(self) -> bool:
        return self.territory.water

    @property
    def name(self) -> str:
        return self.territory.name


@dataclass(frozen=True)
class Standoff:
    """A territory where units of players at war stand but whose attacker is not known:
    ``players`` with units there, and ``reason``, one line naming the fix."""

    territory: Territory
    players: tuple[str | None, ...]
    reason: str

    @property
    def name(self) -> str:
        return self.territory.name


def battlefields(board: Board, attacker: str | None = None,
                 flag: str = "--attacker") -> tuple[list[Battlefield], list[Standoff]]:
    """The board's battles, in the map's order, and its sea zones whose attacker is not known
    (``attacker``: the player attacking at sea, as ``flag`` names it; BoardError when the game
    has no such player)."""
    mover = board.player(attacker, flag) if attacker is not None else None
    found: list[Battlefield] = []
    standoffs: list[Standoff] = []
    for territory in board.territories.values():
        if len(territory.owners()) < 2:
            continue
        battle = _at_sea(board, territory, mover, flag) if territory.water else _on_land(board, territory)
        if isinstance(battle, Battlefield):
            found.append(battle)
        elif isinstance(battle, Standoff):
            standoffs.append(battle)
    return found, standoffs


def battlefield(board: Board, name: str, attacker: str | None = None,
                flag: str = "--attacker") -> Battlefield:
    """The battle in the territory ``name``; BoardError naming the fix when there is none (an
    unknown territory, no units at war there, a sea zone whose attacker is not named by ``flag``)."""
    territory = board.territory(name)
    mover = board.player(attacker, flag) if attacker is not None else None
    battle = _at_sea(board, territory, mover, flag) if territory.water else _on_land(board, territory)
    if isinstance(battle, Battlefield):
        return battle
    if isinstance(battle, Standoff):
        raise BoardError(f"{territory.name}: {battle.reason}")
    owners = [_player(owner) for owner in territory.owners()]
    standing = f"only units of {' and '.join(owners)} stand there" if owners else "no units stand there"
    raise BoardError(f"there is no battle in {territory.name}: {standing}; 'oddsim game battles FILE' "
                     "lists the board's battles")


def _on_land(board: Board, territory: Territory) -> Battlefield | None:
    relations, owner = board.relations, territory.owner
    here = territory.owners()
    attackers = tuple(p for p in here if p is not None and relations.at_war(p, owner))
    defenders = tuple(p for p in here if (p == owner or relations.allied(p, owner))
                      and any(relations.at_war(p, a) for a in attackers))
    if not attackers or not defenders:
        return None
    return _field(territory, attackers, defenders)


def _at_sea(board: Board, territory: Territory, mover: str | None,
            flag: str) -> Battlefield | Standoff | None:
    relations = board.relations
    here = territory.owners()
    if not any(relations.at_war(a, b) for a in here for b in here):
        return None
    if mover is not None and mover in here:
        defenders = tuple(p for p in here if relations.at_war(p, mover))
        if defenders:
            return _field(territory, (mover,), defenders)
    players = ", ".join(_player(p) for p in here)
    if mover is None:
        reason = (f"units of players at war stand here ({players}) and the file does not say whose "
                  f"turn it is: name the attacker at sea with {flag} PLAYER")
    else:
        reason = (f"units of players at war stand here ({players}), but none of them fights {mover}: "
                  f"name the attacker here with {flag} PLAYER")
    return Standoff(territory, here, reason)


def _field(territory: Territory, attackers: tuple[str | None, ...],
           defenders: tuple[str | None, ...]) -> Battlefield:
    return Battlefield(territory, attackers, defenders,
                       tuple(s for s in territory.units if s.owner in attackers),
                       tuple(s for s in territory.units if s.owner in defenders))


def _player(player: str | None) -> str:
    return "no player" if player is None else player
