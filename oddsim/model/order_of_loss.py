"""Order of loss: which unit each side gives up when it takes a hit.

A side's order is a list of steps ``(unit, kind, count)``: ``damage`` steps take the free hit of
a two-hit unit, ``kill`` steps remove units. Both engines read the same steps; a hit that a unit
cannot take (an AA hit on a tank, a submarine's hit on a fighter) skips to the next step that can.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from oddsim.errors import OrderOfLossError
from oddsim.model.forces import Force
from oddsim.model.names import unit_label
from oddsim.model.rules import Domain, Ruleset


class LossKind(enum.Enum):
    DAMAGE = "damage"  # the first hit on a two-hit unit: it fights on at full value
    KILL = "kill"


@dataclass(frozen=True)
class LossStep:
    """``count`` casualties of one unit type, of one kind, taken in turn."""

    unit: str
    kind: LossKind
    count: int
    landed: bool = False  # the attacker's units that came by sea (they cannot retreat)


def parse_unit_list(spec: str | list[str] | tuple[str, ...] | None, rules: Ruleset,
                    side: str) -> tuple[str, ...] | None:
    """Parse ``"inf,art,arm"`` into canonical names; unknown names raise OrderOfLossError."""
    if spec is None:
        return None
    if not isinstance(spec, (str, list, tuple)):
        raise OrderOfLossError(f"order of loss for the {side}: expected unit names like "
                               f"'inf,art,arm', not {type(spec).__name__}")
    tokens = spec.split(",") if isinstance(spec, str) else list(spec)
    names: list[str] = []
    for token in tokens:
        if not isinstance(token, str):
            raise OrderOfLossError(f"order of loss for the {side}: {token!r} is not a unit name")
        if not token.strip():
            continue
        name = rules.resolve_name(token)
        if name is None:
            known = ", ".join(unit_label(u.name) for u in rules.units)
            raise OrderOfLossError(f"order of loss for the {side}: unknown unit '{token.strip()}' "
                                   f"in {rules.name} (known: {known})")
        if name not in names:
            names.append(name)
    if not names:
        raise OrderOfLossError(f"order of loss for the {side} names no unit: list units like "
                               f"'inf,art,arm', or leave it out for the default")
    return tuple(names)


IPC_PER_PIP = 2.5
"""What one point of attack (or defence) weighs against one IPC of cost in the default order:
between 2 and 3, the orders of the units that fight well are aacalc2's (a defending carrier
before a cruiser before a fighter; armor before a fighter); 2.5 is the middle."""

WEAK_IPC_PER_PIP = 10
"""A unit that costs more than this many IPCs for each point it fights with on its side (a
defending bomber, 1 for 12; an attacking carrier, 1 for 14) fights far below its price."""

DEFAULT_ORDER_PRINCIPLE = (
    "a unit that cannot fire here (an AA gun after its shot) is lost first, then one that fights "
    f"far below its price (under a point per {WEAK_IPC_PER_PIP} IPC: a defending bomber, an "
    f"attacking carrier), then the cheapest, counting {IPC_PER_PIP:g} IPC for each point of "
    "attack (defence) it fights with")
"""The default order in one sentence, as the CLI's ``rules show``, the page and the README say it."""


def default_priority(rules: Ruleset, attacking: bool) -> list[str]:
    """The order a careful player loses units in when none is given: first a unit that cannot
    fire on this side (a defending AA gun after its shot), then one that fights far below its
    price (``WEAK_IPC_PER_PIP``), then the rest cheapest first, each point of attack or defence
    on this side adding ``IPC_PER_PIP`` to a unit's cost (armor before a fighter, a defending
    carrier before a cruiser). Ties go to the unit that fights worse, then by name.

    Against aacalc2's defaults (1942-2e, ``benchmarks/default_orders.py``): the same on land for
    the attacker and at sea for both sides; a defending bomber goes first here, where aacalc2
    keeps it until after armor: that lowers the attacker's chance to win in every battle
    measured (e.g. 6 inf, 2 art, 3 arm, 2 ftr, 1 bmb against 7 inf, 1 art, 1 arm, 1 ftr, 1 bmb,
    1 aa: 86.25% -> 83.56%), at some TUV where the defender holds anyway."""
    sides = rules.combat.dice_sides

    def key(unit):
        # a point: a sixth of a die's chance to hit, per die it rolls (several dice, other dice)
        rolls = unit.attack_rolls if attacking else unit.defense_rolls
        value = (unit.attack if attacking else unit.defense) * rolls * 6 / sides
        group = 0 if value == 0 else 1 if value * WEAK_IPC_PER_PIP < unit.cost else 2
        return (group, unit.cost + IPC_PER_PIP * value, value, unit.name)
    return [u.name for u in sorted(rules.units, key=key)]


def default_order(rules: Ruleset, attacking: bool) -> list[str]:
    """The default order as a player sees it: units that take hits, those chosen last (transports
    where they are) at the end."""
    units = [rules.unit(name) for name in default_priority(rules, attacking)]
    return ([u.name for u in units if u.combatant and not u.casualty_last]
            + [u.name for u in units if u.combatant and u.casualty_last])


def casualty_order(force: Force, rules: Ruleset, attacking: bool,
                   explicit: tuple[str, ...] | None = None, keep_land: int = 0,
                   landed: Force | None = None) -> tuple[LossStep, ...]:
    """The side's loss steps: free hits first, then the order (explicit names first, the rest in
    default order), defenceless units that are chosen last at the very end, and the attacker's
    last ``keep_land`` land units just before them. Non-combatant units take no hits. Of the
    units of one type, those ``landed`` from the sea are lost first: they cannot retreat, so
    they cover the ones that can."""
    priority = list(explicit or ())
    priority += [name for name in default_priority(rules, attacking) if name not in priority]
    present = [name for name in priority
               if force.count(name) and rules.unit(name).combatant]

    # a unit of h hit points takes h - 1 free hits; they go round its units (each unit's first,
    # then each one's second...), so a type's damaged units are min(units, free hits taken), and
    # a damaged unit entered (``Force.damaged``) has taken one
    damage = [LossStep(name, LossKind.DAMAGE,
                       force.count(name) * (rules.unit(name).hits - 1) - force.damaged_count(name))
              for name in present if rules.unit(name).hits >= 2]
    kills = [LossStep(name, LossKind.KILL, force.count(name))
             for name in present if not rules.unit(name).casualty_last]
    last = [LossStep(name, LossKind.KILL, force.count(name))
            for name in present if rules.unit(name).casualty_last]
    kept = _take_last_land(kills, rules, keep_land)
    steps = [s for s in damage + kills + kept + last if s.count > 0]
    return tuple(_merge_adjacent(_split_landed(steps, landed)))


def _split_landed(steps: list[LossStep], landed: Force | None) -> list[LossStep]:
    """Each kill step's landed units as a step of their own, just before the rest."""
    if landed is None or landed.is_empty():
        return steps
    quota = {name: landed.count(name) for name, _ in landed.counts}
    result: list[LossStep] = []
    for step in steps:
        take = min(quota.get(step.unit, 0), step.count) if step.kind is LossKind.KILL else 0
        if take:
            quota[step.unit] -= take
            result.append(LossStep(step.unit, step.kind, take, landed=True))
        if step.count > take:
            result.append(LossStep(step.unit, step.kind, step.count - take))
    return result


def _take_last_land(kills: list[LossStep], rules: Ruleset, keep: int) -> list[LossStep]:
    """Remove the last ``keep`` land casualties from ``kills`` (in place); return them in order."""
    kept: list[LossStep] = []
    for position in range(len(kills) - 1, -1, -1):
        if keep <= 0:
            break
        step = kills[position]
        if rules.unit(step.unit).domain is not Domain.LAND:
            continue
        moved = min(keep, step.count)
        kills[position] = LossStep(step.unit, step.kind, step.count - moved)
        kept.insert(0, LossStep(step.unit, step.kind, moved))
        keep -= moved
    return kept


def _merge_adjacent(steps: list[LossStep]) -> list[LossStep]:
    merged: list[LossStep] = []
    for step in steps:
        last = merged[-1] if merged else None
        if last and (last.unit, last.kind, last.landed) == (step.unit, step.kind, step.landed):
            merged[-1] = LossStep(step.unit, step.kind, last.count + step.count, step.landed)
        else:
            merged.append(step)
    return merged
