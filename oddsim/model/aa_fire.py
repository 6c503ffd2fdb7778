"""What the rules say about AA fire before round 1 that more than one layer reads: the hit value
with the defender's technology, and whether AA picks its casualties among several aircraft types
(per-aircraft AA casualties), which no engine's states can hold, so such a battle is split by the
AA outcome before an engine sees it (``oddsim.stages.aa_split``)."""

from __future__ import annotations

from oddsim.model.battle import Battle
from oddsim.model.rules import AACasualties, Domain


def aa_hit(battle: Battle) -> int:
    """The defender's AA hit value, with its technology (radar)."""
    hit = battle.rules.combat.aa_hit
    for tech in battle.defender.tech:
        found = battle.rules.technology(tech).aa_hit
        hit = found if found is not None else hit
    return hit


def split_aircraft(battle: Battle) -> list[tuple[str, int]] | None:
    """The attacker's aircraft (name, count) that AA fire picks its casualties among, when it is
    two types or more and the edition rolls each die at one aircraft; else None (the engines fight
    the battle whole: with one type the order of loss and the dice agree)."""
    rules = battle.rules
    if (battle.sea or battle.aa_fired or battle.in_progress
            or rules.combat.aa_casualties is not AACasualties.PER_AIRCRAFT
            or not any(rules.unit(name).aa for name, _ in battle.defender.army.counts)):
        return None
    aircraft = [(name, n) for name, n in battle.attacker.army.counts
                if rules.unit(name).domain is Domain.AIR]
    return aircraft if len(aircraft) >= 2 else None
