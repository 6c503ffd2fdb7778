"""A battle on the board as oddsim fights it: each side's units as an army of the map's ruleset
(damaged two-hit units kept damaged; land units at sea are cargo, which does not fight there) and
each side's technologies, TripleA's names read as the ruleset's.

A side's technologies are those of its players with units there that change one of the side's
units in this battle (jets where it has fighters, ...); where they differ (two allies, one with
jets, attacking together with fighters) the battle is refused, since one army has one set of
technologies in oddsim. A technology that changes battles but that the map's ruleset does not
define refuses the battle too, rather than answering without it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from oddsim.errors import BattleError
from oddsim.model.battle import Battle
from oddsim.model.forces import Force, parse_force
from oddsim.model.names import count_label
from oddsim.model.options import battle_from
from oddsim.model.rules import Domain, Ruleset, TechRule
from oddsim.model.side import ArmySpec
from oddsim.triplea.battlefields import Battlefield
from oddsim.triplea.board import Board, Stack

BATTLE_TECHS = {
    "jetPower": "jets",
    "superSub": "super-subs",
    "heavyBomber": "heavy-bombers",
    "aARadar": "radar",
    "improvedArtillerySupport": "improved-artillery",
}
"""TripleA's technologies that change a battle, by their property names, and oddsim's names."""
OTHER_TECHS = {
    "destroyerBombard": "combined-bombardment",  # (an amphibious assault's bombardment, not a board's)
    "mechanizedInfantry": "improved-mech-infantry",
}
"""TripleA's technologies oddsim knows that change no battle on the board, applied where the
ruleset has them."""
NO_BATTLE_TECHS = frozenset({"longRangeAir", "rocket", "industrialTechnology", "paratroopers",
                             "increasedFactoryProduction", "warBonds", "shipyards"})
"""TripleA's technologies that change movement, production or raids, never a battle."""


@dataclass(frozen=True)
class Armies:
    """A board battle's sides as oddsim takes them, and ``notes``: what was left out and why."""

    attacker: Force
    defender: Force
    attacker_tech: tuple[str, ...]
    defender_tech: tuple[str, ...]
    notes: tuple[str, ...] = ()


def armies_of(field: Battlefield, board: Board, rules: Ruleset,
              names: Mapping[str, str] | None = None) -> Armies:
    """The sides of ``field`` under ``rules`` (the map's ruleset, ``names`` its unit names by the
    map's); BattleError in one line where oddsim cannot fight it as the board has it."""
    notes: list[str] = []
    attacker = army_of(field.attacking, field.name, field.sea, rules, "attacker", notes, names)
    defender = army_of(field.defending, field.name, field.sea, rules, "defender", notes, names)
    attacker_tech = _side_tech(field.attackers, field.attacking, attacker, board, rules, "attacker", notes)
    defender_tech = _side_tech(field.defenders, field.defending, defender, board, rules, "defender", notes)
    if attacker.is_empty():
        raise BattleError(f"{field.name}: the attacker has no unit that fights here")
    return Armies(attacker, defender, attacker_tech, defender_tech, tuple(notes))


def battle_of(field: Battlefield, board: Board, rules: Ruleset, options: Mapping[str, object] | None = None,
              attacker_army: ArmySpec = None, defender_army: ArmySpec = None,
              names: Mapping[str, str] | None = None) -> tuple[Battle, Armies]:
    """The ``Battle`` of ``field`` with ``options`` (flat names, as ``battle_from`` takes them;
    technologies given there replace the board's) and ``attacker_army``/``defender_army`` (given)
    instead of the board's, and the board's armies (``names``: as ``armies_of``)."""
    armies = armies_of(field, board, rules, names)
    given = {name: value for name, value in (options or {}).items() if value not in (None, "", ())}
    given.setdefault("attacker_tech", ",".join(armies.attacker_tech))
    given.setdefault("defender_tech", ",".join(armies.defender_tech))
    given["sea"] = field.sea
    attacking = armies.attacker if attacker_army is None else attacker_army
    defending = armies.defender if defender_army is None else defender_army
    return battle_from(rules, attacking, defending, given), armies


def army_of(stacks: tuple[Stack, ...], where: str, sea: bool, rules: Ruleset, role: str,
            notes: list[str], names: Mapping[str, str] | None = None) -> Force:
    """The army of ``stacks`` standing in ``where`` under ``rules`` (``names``: the map's unit
    names as the rules name them; else read as players type them), as the ``role`` of a battle:
    at sea land units are cargo, and an attacker's units that cannot attack (a factory, an AA
    gun) stay out, each left out with a line in ``notes``."""
    counts: dict[str, int] = {}
    damaged: dict[str, int] = {}
    cargo: dict[str, int] = {}
    idle: dict[str, int] = {}
    for stack in stacks:
        name = (names or {}).get(stack.unit) or rules.resolve_name(stack.unit)
        if name is None:
            raise BattleError(f"{where}: the {role}'s {stack.unit} is not a unit of {rules.name}'s "
                              "rules, so oddsim cannot fight this battle")
        unit = rules.unit(name)
        if sea and unit.domain is Domain.LAND:
            cargo[name] = cargo.get(name, 0) + stack.count
            continue
        if role == "attacker" and not unit.can_attack:
            idle[name] = idle.get(name, 0) + stack.count
            continue
        counts[name] = counts.get(name, 0) + stack.count
        if stack.hits_taken:
            if stack.hits_taken >= unit.hits:
                raise BattleError(f"{where}: the {role}'s {stack.unit} has taken {stack.hits_taken} "
                                  f"hits of its {unit.hits}: the game file is damaged")
            if unit.hits > 2:
                raise BattleError(f"{where}: the {role}'s {stack.unit} has taken {stack.hits_taken} "
                                  f"of its {unit.hits} hits: oddsim starts only two-hit units damaged")
            damaged[name] = damaged.get(name, 0) + stack.count
    if cargo:
        carried = ", ".join(count_label(name, n) for name, n in cargo.items())
        notes.append(f"the {role}'s {carried} at sea: cargo, which does not fight there")
    if idle:
        staying = ", ".join(count_label(name, n) for name, n in idle.items())
        notes.append(f"the {role}'s {staying}: cannot attack, left out")
    return parse_force(Force(tuple(counts.items()), tuple(damaged.items())), rules, role)


def _side_tech(players: tuple[str | None, ...], stacks: tuple[Stack, ...], army: Force, board: Board,
               rules: Ruleset, role: str, notes: list[str]) -> tuple[str, ...]:
    """The technologies of the side's players with units in the battle that change one of
    ``army``'s units, as the ruleset names them."""
    fighting = [p for p in players if p is not None and any(s.owner == p for s in stacks)]
    held = {p: techs_changing(board.techs.get(p, ()), army, rules, role, notes) for p in fighting}
    sets = set(held.values())
    if len(sets) > 1:
        names = " and ".join(fighting)
        raise BattleError(f"the {role}s {names} hold different technologies that change this battle; "
                          "oddsim gives one side one set of technologies: fight each player's units "
                          "as a battle of its own")
    return tuple(sorted(next(iter(sets), frozenset())))


def techs_changing(held: tuple[str, ...], army: Force, rules: Ruleset, role: str,
                   notes: list[str]) -> frozenset[str]:
    """Of the technologies ``held`` (TripleA's names), those that change a unit of ``army``, as
    ``rules`` names them; BattleError for one that changes battles but ``rules`` lacks."""
    chosen: set[str] = set()
    unknown: list[str] = []
    for tech in held:
        name = BATTLE_TECHS.get(tech) or OTHER_TECHS.get(tech)
        if name is None:
            if tech not in NO_BATTLE_TECHS:
                unknown.append(tech)
            continue
        rule = next((rule for rule in rules.tech if rule.name == name), None)
        if rule is not None:
            if _changes(rule, army, rules):
                chosen.add(name)
        elif tech in BATTLE_TECHS:
            raise BattleError(f"the {role} holds {tech}, which {rules.name}'s rules do not define: "
                              "oddsim would answer without it")
    note = f"the {role}'s technologies {', '.join(unknown)}: the map's own, not applied"
    if unknown and note not in notes:
        notes.append(note)
    return frozenset(chosen)


def _changes(rule: TechRule, army: Force, rules: Ruleset) -> bool:
    """Whether the technology ``rule`` changes one of ``army``'s units in battle."""
    present = {name for name, count in army.counts if count}
    named = {name for name, _ in (*rule.attack, *rule.defense, *rule.attack_dice, *rule.per_supporter)}
    for support in rule.support:
        named.update(support.supporters)
        named.update(support.supported)
    if rule.aa_hit is not None:
        named.update(name for name in present if rules.unit(name).aa)
    return bool(named & present)
