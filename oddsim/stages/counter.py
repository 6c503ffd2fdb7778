"""The counter-attack: can the attacker take the territory and keep it?

After a land battle the attacker has taken, the defender counter-attacks what the attacker left
in the territory with another army. Every composition the attacker may take the territory with
(its survivor distribution) is fought again as the defender of the counter-attack, weighted by
its probability; the chance to hold is the chance the counter-attack does not take it back.
Only land units stay in a territory taken that turn: aircraft fly on (no edition lets them land
there), and units that retreated while the landed ones fought on are gone. A defender's unit
that is no casualty (an AA gun in Revised, Anniversary, Europe 1999) is captured with the
territory: it stays there, the attacker's now, and fires at the counter-attack's aircraft.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from oddsim.errors import BattleError, TooLargeError
from oddsim.model.battle import ArmySpec, Battle, Side
from oddsim.model.forces import Force, join_forces, parse_force
from oddsim.model.rules import Domain
from oddsim.model.side import BEST_ORDER, given_order, is_best_order
from oddsim.results.battle_result import BattleResult
from oddsim.results.mixing import part_variance, spread_variance
from oddsim.stages.holding_units import holding_units

TAKEN_TOLERANCE = 1e-9
"""How far the survivor rows that hold the territory may sum from ``takes_territory``."""


@dataclass(frozen=True)
class CounterAttackResult:
    """The battle, then the counter-attack on each composition the attacker takes it with.
    ``battle`` carries the battle's own TUV swing distribution; the counter-attacks have none
    summed over them (only their expected losses), since each is fought on a composition whose
    chance, not whose swing so far, the battle's rows give."""

    battle: BattleResult
    counter_attack: str  # the counter-attacking army
    takes_territory: float  # the attacker takes the territory in the battle
    holds: float  # it takes it and still holds it after the counter-attack
    counter_attacker_ipc_lost: float  # expected, over the battles that take it
    stayed_ipc_lost: float  # the attacker's units in the territory: IPCs lost to the counter
    compositions: tuple[dict, ...]  # per composition: units, probability, holds, method
    std_error: dict[str, float] = field(default_factory=dict)  # takes_territory, holds: Monte Carlo

    @property
    def holds_if_taken(self) -> float:
        """The chance to hold after the counter-attack, given the territory was taken."""
        return self.holds / self.takes_territory if self.takes_territory > 0 else 0.0

    def to_dict(self) -> dict:
        return {"battle": self.battle.to_dict(), "counter_attack": self.counter_attack,
                "takes_territory": self.takes_territory, "holds": self.holds,
                "holds_if_taken": self.holds_if_taken,
                "counter_attacker_ipc_lost": self.counter_attacker_ipc_lost,
                "stayed_ipc_lost": self.stayed_ipc_lost, "compositions": list(self.compositions),
                "std_error": dict(self.std_error)}

    def _plus_minus(self, name: str) -> str:
        return f" ± {100 * self.std_error[name]:.2f}%" if name in self.std_error else ""

    def to_table(self, top: int = 5) -> str:
        lines = [self.battle.to_table(), f"counter-attack by {self.counter_attack}:"]
        lines.append(f"  takes the territory {100 * self.takes_territory:6.2f}%"
                     f"{self._plus_minus('takes_territory')}")
        lines.append(f"  takes and holds it  {100 * self.holds:6.2f}%{self._plus_minus('holds')} "
                     f"({100 * self.holds_if_taken:.2f}% of the times it is taken)")
        lines.append(f"  expected IPC lost in counter-attacks (over all battles): counter-attacker "
                     f"{self.counter_attacker_ipc_lost:.2f}, "
                     f"the units that stayed {self.stayed_ipc_lost:.2f}")
        lines.append("  most likely compositions that stay (chance, holds):")
        for row in sorted(self.compositions, key=lambda r: -r["probability"])[:top]:
            lines.append(f"  {100 * row['probability']:6.2f}%  {100 * row['holds']:6.2f}%  {row['units']}")
        return "\n".join(lines)


def fight_counter_attack(battle: Battle, counter: ArmySpec, run,
                         ool_counter: str | tuple[str, ...] | None = None,
                         solved: dict[Force, BattleResult] | None = None) -> CounterAttackResult:
    """Fight ``battle``, then ``counter`` against each composition the attacker takes the
    territory with. ``run(battle, share)`` returns a BattleResult for one battle given the share
    (0..1] of the whole that reaches it (see ``oddsim.stages.runner.stage_runner``).
    ``solved``: the counter-attacks already fought, by the units they met, for a caller that
    fights the same counter-attack after many battles with an exact ``run`` (a plan's
    sub-armies); those met again are not fought again."""
    if battle.sea:
        raise BattleError("the counter-attack retakes a territory: it needs a land battle, drop --sea")
    army = parse_force(counter, battle.rules, "counter-attack")
    if army.is_empty():
        raise BattleError("counter-attack: the army is empty: name the units that counter-attack")
    for name, _ in army.counts:
        unit = battle.rules.unit(name)
        if unit.domain is Domain.SEA or not unit.can_attack:
            raise BattleError(f"counter-attack: {name} cannot attack a territory in {battle.rules.name}: "
                              f"drop it from the counter-attack")
    first = run(battle, 1.0)
    stays = staying_forces(first, battle)
    taken = sum(stays.values())
    if abs(taken - float(first.takes_territory or 0.0)) > TAKEN_TOLERANCE:
        raise BattleError("this battle can end in a stalemate with the attacker's land units left, "
                          "so its survivors do not say whether the territory was taken: fight the "
                          "counter-attack as a separate battle")
    holds = counter_lost = stayed_lost = held_squares = counter_variance = 0.0
    rows = []
    for stayed, probability in stays.items():
        units = holding(battle, stayed)  # (a Force: the defender as it is)
        result = solved.get(units) if solved is not None else None
        if result is None:
            result = run(counter_battle(battle, army, stayed, ool_counter), probability)
            if solved is not None:
                solved[units] = result
        kept = 1.0 - float(result.takes_territory or 0.0)
        holds += probability * kept
        counter_lost += probability * result.attacker_ipc_lost
        stayed_lost += probability * result.defender_ipc_lost
        held_squares += probability * kept ** 2
        counter_variance += part_variance(probability, result.std_error.get("takes_territory", 0.0))
        rows.append({"units": units.describe(), "probability": probability, "holds": kept,
                     "method": result.method})
    return CounterAttackResult(first, army.describe(), taken, holds, counter_lost, stayed_lost,
                               tuple(rows), _hold_errors(first, holds, held_squares, counter_variance))


def counter_battle(battle: Battle, counter: ArmySpec, units: Force,
                   ool_counter: str | tuple[str, ...] | None = None) -> Battle:
    """The counter-attack of ``counter`` on ``units``, which took the territory in ``battle``, and
    on the defender's units there that are no casualty (captured with it: an AA gun, which fires
    at the counter-attack's aircraft now): the sides' technologies swapped, the battle's dice.
    Best casualties: the units that stayed
    choose each loss where the attacker chose in ``battle`` (the same player), the
    counter-attacker where ``ool_counter`` is ``"best"``, both for ``battle``'s casualty goal
    (its default, take, where only the counter-attacker chooses)."""
    stays = BEST_ORDER if battle.attacker.best_losses else None
    chooses = stays is not None or is_best_order(ool_counter)
    goal = battle.casualty_goal if chooses else None
    return Battle(rules=battle.rules, attacker=Side(counter, ool_counter, battle.defender.tech),
                  defender=Side(holding(battle, units), stays, tech=battle.attacker.tech), dice=battle.dice,
                  casualty_goal=goal, casualty_value=battle.casualty_value if goal == "value" else None)


def holding(battle: Battle, stayed: Force) -> Force:
    """What holds the territory ``battle`` took with ``stayed``: those units, and the defender's
    that are no casualty there, captured with it (``holding_units``; none where there are none)."""
    captured = holding_units(battle)
    if not captured:
        return stayed
    return join_forces(battle.rules, stayed, Force(tuple(captured.items())), side="survivors")


def counter_order(battle: Battle) -> str | tuple[str, ...] | None:
    """The counter-attacker's order of loss: the battle's defender's (the same player), ``"best"``
    where that defender chooses each loss."""
    return given_order(battle.defender)


def _hold_errors(first: BattleResult, holds: float, held_squares: float,
                 counter_variance: float) -> dict[str, float]:
    """Standard errors where Monte Carlo answered: ``holds`` sums each composition's frequency
    in the first battle's N runs (multinomial: variance (sum p h^2 - (sum p h)^2) / N) times its
    counter-attack's hold estimate (variance p^2 se^2 each, independent runs)."""
    first_error = first.std_error.get("takes_territory")
    if first_error is None and counter_variance == 0.0:
        return {}
    first_variance = spread_variance(held_squares, holds ** 2, first.runs or 0)
    return {"takes_territory": first_error or 0.0, "holds": math.sqrt(first_variance + counter_variance)}


def staying_forces(result: BattleResult, battle: Battle) -> dict[Force, float]:
    """The land units the attacker takes the territory with, by composition, and their chances:
    survivor rows with a land unit still in the battle (not retreated, not departed)."""
    stays: dict[Force, float] = {}
    rules = battle.rules
    for row in result.attacker_survivors:
        if row.other:
            raise TooLargeError("the counter-attack needs each composition the attacker may take the "
                                "territory with, and this battle is too large for them: fight the "
                                "counter-attack as a separate battle")
        if row.retreated:
            continue
        force = row.force(rules)
        if row.departed:
            force = force.minus(parse_force(row.departed, rules, "departed"), rules, "survivors")
        force = force.where(_is_land(rules))
        if not force.is_empty():
            stays[force] = stays.get(force, 0.0) + row.probability
    return stays


def land_units_bound(battle: Battle) -> tuple[Force | None, int]:
    """All the attacker's land units (landed ones too) and how many compositions of them there
    are at most: a bound on the counter-attacks to fight. (None, 0) without land units."""
    land = join_forces(battle.rules, battle.attacker.army, battle.attacker.landed, side="survivors")
    land = land.where(_is_land(battle.rules)).repaired()
    if land.is_empty():
        return None, 0
    return land, math.prod(n + 1 for _, n in land.counts)


def _is_land(rules):
    """Whether a unit type (by name) is a land unit in ``rules``."""
    return lambda name: rules.unit(name).domain is Domain.LAND
