"""Amphibious assault: a sea battle (when defending ships are there), then the land battle.

The stages follow RULES.md: the sea battle first, fought by the whole attacking fleet and the
aircraft sent to sea; cargo dies with its transport. Only when there was no sea battle do the
fleet's ships bombard (the edition's ships and values, the best first, at most one per landed
unit where the edition says so). Then the land battle: what the surviving transports unload,
the units that attack overland and the aircraft sent to land; units landed from the sea cannot
retreat, the others may (see ``Battle.landed``).

Choices where the rules leave the attacker a choice: cargo is loaded with at most one unit that
is not infantry per transport (two units each), the most valuable loads first, and when
transports are lost the attacker gives up the ones with the cheapest cargo. Cargo lands only
when the attacker did not retreat from the sea battle (a sea battle lost leaves no transport).
Each land battle (one per number of surviving transports) is solved by the method asked for.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from oddsim.battle import ArmySpec, Battle, RetreatPolicy, bombard_values
from oddsim.errors import BattleError
from oddsim.forces import Force, parse_force
from oddsim.result import BattleResult, survivor_force
from oddsim.rules import Domain, Ruleset, load_ruleset

CARGO_PER_TRANSPORT = 2
"""Units a transport carries, of which at most one is not infantry."""


@dataclass(frozen=True)
class Amphibious:
    """One amphibious assault on a territory from the sea zone next to it.

    ``fleet``: attacking ships, transports included; ``cargo``: land units on the transports;
    ``sea_defender``: defending ships (and aircraft) in the sea zone, a sea battle is fought when
    there are any; ``defender``: the territory's defenders; ``overland``: land units attacking
    from adjacent territories; ``air`` / ``sea_air``: aircraft sent to the land / sea battle;
    ``bombard``: whether the fleet's ships bombard when there was no sea battle. The other
    options are those of ``Battle`` (``retreat`` applies to the land battle)."""

    rules: Ruleset | str
    fleet: ArmySpec
    cargo: ArmySpec
    defender: ArmySpec
    sea_defender: ArmySpec = None
    overland: ArmySpec = None
    air: ArmySpec = None
    sea_air: ArmySpec = None
    bombard: bool = True
    retreat: RetreatPolicy | None = None
    attacker_tech: str | tuple[str, ...] = ()
    defender_tech: str | tuple[str, ...] = ()
    dice: str = "standard"
    loads: tuple[Force, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        rules = load_ruleset(self.rules)
        set_ = object.__setattr__
        set_(self, "rules", rules)
        domains = {"fleet": (Domain.SEA,), "cargo": (Domain.LAND,), "overland": (Domain.LAND,),
                   "air": (Domain.AIR,), "sea_air": (Domain.AIR,),
                   "sea_defender": (Domain.SEA, Domain.AIR),
                   "defender": (Domain.LAND, Domain.AIR)}
        for name, allowed in domains.items():
            force = parse_force(getattr(self, name), rules, name.replace("_", " "))
            for unit, _ in force.counts:
                if rules.unit(unit).domain not in allowed:
                    kinds = " or ".join(d.value for d in allowed)
                    article = "an" if kinds[0] in "aeiou" else "a"
                    raise BattleError(f"{name.replace('_', ' ')}: {unit} is not {article} {kinds} unit")
            set_(self, name, force)
        if self.cargo.is_empty():
            raise BattleError("cargo: an amphibious assault lands at least one unit from the sea")
        if not isinstance(self.bombard, bool):
            raise BattleError(f"bombard must be True or False, not {self.bombard!r}")
        set_(self, "loads", _load(self.cargo, self.fleet, rules))
        # build the stages once now, so bad options fail here and not halfway through a run
        if self.has_sea_battle:
            self.sea_battle()
        self.land_battle(len(self.loads))

    @property
    def has_sea_battle(self) -> bool:
        return not self.sea_defender.is_empty()

    def sea_battle(self) -> Battle:
        """The sea battle: the whole fleet (cargo does not fight) and the aircraft sent to sea."""
        return Battle(self.rules, _join(self.rules, "sea attacker", self.fleet, self.sea_air),
                      self.sea_defender,
                      sea=True, attacker_tech=self.attacker_tech, defender_tech=self.defender_tech,
                      dice=self.dice)

    def land_battle(self, transports: int) -> Battle | None:
        """The land battle once ``transports`` transports unload (None: nobody attacks)."""
        landed = _join(self.rules, "cargo", *self.loads[len(self.loads) - transports:]) \
            if transports else None
        attacker = _join(self.rules, "land attacker", landed, self.overland, self.air)
        if attacker.is_empty():
            return None
        bombard = None
        if not self.has_sea_battle and self.bombard and landed is not None:
            bombard = self._bombarding_ships(landed.total)
        return Battle(self.rules, attacker, self.defender, landed=landed, bombard=bombard,
                      retreat=self.retreat, attacker_tech=self.attacker_tech,
                      defender_tech=self.defender_tech, dice=self.dice)

    def _bombarding_ships(self, landed: int) -> Force | None:
        """The fleet's ships that bombard: those that can, best value first, one per landed unit
        where the edition limits them."""
        values = bombard_values(self.rules, self.attacker_tech)
        ships = sorted(((values[name], name) for name, n in self.fleet.counts if name in values
                        for _ in range(n)), reverse=True)
        if self.rules.bombard.one_per_landed_unit:
            ships = ships[:landed]
        counts: dict[str, int] = {}
        for _, name in ships:
            counts[name] = counts.get(name, 0) + 1
        return Force(tuple(counts.items())) if counts else None

    def cargo_ipc(self, transports: int) -> int:
        """IPCs of the cargo on the ``transports`` transports that survive."""
        return sum(_ipc(self.rules, load) for load in self.loads[len(self.loads) - transports:]) \
            if transports else 0


@dataclass(frozen=True)
class Landing:
    """One land battle of the assault: its chance, what landed, and its result."""

    probability: float
    transports: int
    battle: str
    result: BattleResult | None  # None: nobody was left to attack


@dataclass(frozen=True)
class AmphibiousResult:
    """The assault's figures: the sea stage, each landing, and the totals."""

    sea: BattleResult | None
    landings: tuple[Landing, ...]
    takes_territory: float
    defender_destroyed: float  # the land defender is wiped out
    attacker_ipc_lost_sea: float  # ships, aircraft and the cargo that died with its transports
    attacker_ipc_lost_land: float
    defender_ipc_lost_sea: float
    defender_ipc_lost_land: float
    cargo_lost: float  # expected IPCs of cargo lost at sea

    @property
    def attacker_ipc_lost(self) -> float:
        return self.attacker_ipc_lost_sea + self.attacker_ipc_lost_land

    @property
    def defender_ipc_lost(self) -> float:
        return self.defender_ipc_lost_sea + self.defender_ipc_lost_land

    @property
    def tuv_swing(self) -> float:
        return self.defender_ipc_lost - self.attacker_ipc_lost

    @property
    def interrupted(self) -> bool:
        """Ctrl-C cut a Monte Carlo stage short: its figures come from fewer runs."""
        stages = [self.sea] + [x.result for x in self.landings]
        return any(stage is not None and stage.interrupted for stage in stages)

    def to_dict(self) -> dict:
        return {
            "interrupted": self.interrupted,
            "sea": None if self.sea is None else self.sea.to_dict(),
            "landings": [{"probability": x.probability, "transports": x.transports,
                          "battle": x.battle, "result": None if x.result is None else x.result.to_dict()}
                         for x in self.landings],
            "takes_territory": self.takes_territory, "defender_destroyed": self.defender_destroyed,
            "attacker_ipc_lost": self.attacker_ipc_lost, "defender_ipc_lost": self.defender_ipc_lost,
            "attacker_ipc_lost_sea": self.attacker_ipc_lost_sea,
            "attacker_ipc_lost_land": self.attacker_ipc_lost_land,
            "defender_ipc_lost_sea": self.defender_ipc_lost_sea,
            "defender_ipc_lost_land": self.defender_ipc_lost_land,
            "cargo_lost": self.cargo_lost, "tuv_swing": self.tuv_swing,
        }

    def to_table(self) -> str:
        lines = ["interrupted: partial result (Monte Carlo stages cut short)"] if self.interrupted else []
        if self.sea is None:
            lines.append("sea battle: none (no defending ships)")
        else:
            s = self.sea
            stalemate = f", stalemate {100 * s.stalemate:.2f}%" if s.stalemate > 0 else ""
            lines.append(f"sea battle ({s.method}): attacker wins {100 * s.attacker_win:.2f}%, "
                         f"defender wins {100 * s.defender_win:.2f}%{stalemate}, IPC lost "
                         f"{s.attacker_ipc_lost:.2f} / {s.defender_ipc_lost:.2f}, cargo lost "
                         f"{self.cargo_lost:.2f}")
        for x in self.landings:
            unload = f"{x.transports} transport{'' if x.transports == 1 else 's'} unload" \
                     f"{'s' if x.transports == 1 else ''}"
            if x.result is None:
                lines.append(f"{100 * x.probability:6.2f}%  {unload}, nobody attacks")
                continue
            r = x.result
            lines.append(f"{100 * x.probability:6.2f}%  {unload}: {x.battle} "
                         f"({r.method}) takes {100 * (r.takes_territory or 0):.2f}%")
        lines.append(f"takes the territory {100 * self.takes_territory:.2f}%, defender destroyed "
                     f"{100 * self.defender_destroyed:.2f}%")
        lines.append(f"expected IPC lost: attacker {self.attacker_ipc_lost:.2f} (sea "
                     f"{self.attacker_ipc_lost_sea:.2f}, land {self.attacker_ipc_lost_land:.2f}), "
                     f"defender {self.defender_ipc_lost:.2f} (TUV swing {self.tuv_swing:+.2f})")
        return "\n".join(lines)


Runner = Callable[[Battle, float], BattleResult]
"""Solves one stage given the share (0..1] of the whole that reaches it."""


def fight_amphibious(assault: Amphibious, run: Runner) -> AmphibiousResult:
    """Fight the assault's stages with ``run``."""
    transports = assault.fleet.count("transport")
    unloading: dict[int, float] = {}
    sea = None
    cargo_lost = 0.0
    total_cargo = assault.cargo_ipc(len(assault.loads))
    if assault.has_sea_battle:
        sea = run(assault.sea_battle(), 1.0)
        for row in sea.attacker_survivors:
            left = survivor_force(row.units, assault.rules).count("transport")
            marker = row.units.partition(" (")[2]
            cargo_lost += row.probability * (total_cargo - assault.cargo_ipc(left))
            if "retreated" not in marker:
                unloading[left] = unloading.get(left, 0.0) + row.probability
    else:
        unloading[transports] = 1.0
    landings = []
    take = destroyed = a_lost = d_lost = 0.0
    for left, p in sorted(unloading.items(), reverse=True):
        spec = assault.land_battle(left)
        if spec is None or p <= 0.0:
            landings.append(Landing(p, left, "nobody attacks", None))
            continue
        result = run(spec, p)
        landings.append(Landing(p, left, spec.describe(), result))
        take += p * (result.takes_territory or 0.0)
        destroyed += p * _wiped_out(result)
        a_lost += p * result.attacker_ipc_lost
        d_lost += p * result.defender_ipc_lost
    # battles that never reach land: overland units and aircraft attack alone, or nobody does
    no_landing = max(0.0, 1.0 - sum(unloading.values()))
    if no_landing > 0.0:
        spec = assault.land_battle(0)
        result = None if spec is None else run(spec, no_landing)
        landings.append(Landing(no_landing, 0, "nobody attacks" if spec is None else spec.describe(),
                                result))
        if result is not None:
            take += no_landing * (result.takes_territory or 0.0)
            destroyed += no_landing * _wiped_out(result)
            a_lost += no_landing * result.attacker_ipc_lost
            d_lost += no_landing * result.defender_ipc_lost
    return AmphibiousResult(
        sea=sea, landings=tuple(landings), takes_territory=take, defender_destroyed=destroyed,
        attacker_ipc_lost_sea=(0.0 if sea is None else sea.attacker_ipc_lost) + cargo_lost,
        attacker_ipc_lost_land=a_lost,
        defender_ipc_lost_sea=0.0 if sea is None else sea.defender_ipc_lost,
        defender_ipc_lost_land=d_lost, cargo_lost=cargo_lost)


def _wiped_out(result: BattleResult) -> float:
    """Chance that the defender has nothing left (landed units may win after the others left)."""
    return sum(row.probability for row in result.defender_survivors if row.units == "none")


def _load(cargo: Force, fleet: Force, rules: Ruleset) -> tuple[Force, ...]:
    """Cargo per transport, cheapest load first: at most one unit that is not infantry per
    transport, then infantry filling the loads in turn. Packing loads full leaves the empty
    transports to be lost first."""
    transports = fleet.count("transport")
    units = sorted(((rules.unit(name).cost, name) for name, n in cargo.counts for _ in range(n)),
                   reverse=True)
    heavy = [name for _, name in units if name != "infantry"]
    infantry = [name for _, name in units if name == "infantry"]
    if len(heavy) > transports or len(units) > CARGO_PER_TRANSPORT * transports:
        need = max(len(heavy), math.ceil(len(units) / CARGO_PER_TRANSPORT))
        raise BattleError(f"cargo: {cargo.describe()} needs {need} transport{'s' * (need > 1)}, "
                          f"the fleet has {transports}: add transports (each carries "
                          f"{CARGO_PER_TRANSPORT} units, at most one of them not infantry)")
    loads = [[name] for name in heavy] + [[] for _ in range(transports - len(heavy))]
    for load in loads:
        while infantry and len(load) < CARGO_PER_TRANSPORT:
            load.append(infantry.pop())
    forces = [parse_force({n: load.count(n) for n in load}, rules) for load in loads]
    return tuple(sorted(forces, key=lambda f: _ipc(rules, f)))


def _ipc(rules: Ruleset, force: Force) -> int:
    return sum(rules.unit(name).cost * n for name, n in force.counts)


def _join(rules: Ruleset, side: str, *forces: Force | None) -> Force:
    """One army of several, damaged units kept."""
    counts: dict[str, int] = {}
    damaged: dict[str, int] = {}
    for force in forces:
        if force is None:
            continue
        for name, n in force.counts:
            counts[name] = counts.get(name, 0) + n
        for name, n in force.damaged:
            damaged[name] = damaged.get(name, 0) + n
    return parse_force(Force(tuple(counts.items()), tuple(damaged.items())), rules, side)
