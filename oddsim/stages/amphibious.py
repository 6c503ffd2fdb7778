"""Amphibious assault: a sea battle (when defending ships are there), then the land battle.

The stages follow docs/rules.md §10: the sea battle first, fought by the whole attacking fleet and the
aircraft sent to sea; cargo dies with its transport. Only when there was no sea battle do the
fleet's ships bombard (the edition's ships and values, the best first, at most one per landed
unit where the edition says so). Then the land battle: what the surviving transports unload,
the units that attack overland and the aircraft sent to land; units landed from the sea cannot
retreat, the others may (see ``Battle.landed``).

Where only submarines and/or transports defend the sea zone and the edition lets the attacker
ignore them (``[amphibious] ignore_subs_and_transports``), ``sea_battle`` says whether it fights
them (``"fight"``) or not (``"ignore"``, the default there): then there is no sea battle and
the ships may bombard.

Choices where the rules leave the attacker a choice: cargo is loaded by the edition's
``[transport]`` rule (``capacity`` units per transport, at most ``max_heavy`` of them flagged
``heavy_cargo``), heavy units spread one per transport first, most valuable first, and when
transports are lost the attacker gives up the ones with the cheapest cargo. Cargo lands only
when the attacker did not retreat from the sea battle (a sea battle lost leaves no transport).
Each land battle (one per number of surviving transports) is solved by the method asked for.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import InitVar, dataclass, field
from typing import TYPE_CHECKING

from oddsim.errors import BattleError
from oddsim.model.battle import (
    ArmySpec,
    Battle,
    Dice,
    RetreatPolicy,
    Side,
    TechSpec,
    UnitListSpec,
    bombard_values,
)
from oddsim.model.forces import Force, join_forces, parse_defender, parse_force
from oddsim.model.names import unit_label
from oddsim.model.options import set_side_options, side_options
from oddsim.model.rules import Domain, Ruleset, load_ruleset
from oddsim.model.side import ATTACKER, DEFENDER, is_best_order
from oddsim.results.battle_result import BattleResult
from oddsim.results.estimates import number, percent, swing, swing_error_bound
from oddsim.results.mixing import error_bound, part_variance, spread_variance

SEA_BATTLE_CHOICES = ("fight", "ignore")
SIDE_OPTIONS = {ATTACKER: ("attacker_tech", "ool_attacker", "keep_land"),
                DEFENDER: ("defender_tech", "ool_defender")}
"""The options an assault's ``Side`` values may set, by their flat names."""


@dataclass(frozen=True)
class Amphibious:
    """One amphibious assault on a territory from the sea zone next to it.

    ``fleet``: attacking ships, transports included; ``cargo``: land units on the transports;
    ``sea_defender``: defending ships (and aircraft) in the sea zone, a sea battle is fought when
    there are any; ``defender``: the territory's defenders; ``overland``: land units attacking
    from adjacent territories; ``air`` / ``sea_air``: aircraft sent to the land / sea battle;
    ``bombard``: whether the fleet's ships bombard when there was no sea battle;
    ``sea_battle``: ``"fight"`` or ``"ignore"`` the sea defenders where they are only submarines
    and/or transports and the edition allows ignoring them (``None``: ignore there, else fight).
    The other options are those of ``Battle`` (``retreat``, the orders of loss and
    ``keep_land`` apply to the land battle). Each side's may come as a ``Side``: ``defender`` a
    Side of the territory's army with its order of loss and technologies, ``attacker`` a Side
    with no army (its units are the fleet, cargo, overland and air) with its order of loss,
    technologies and ``keep_land``; they fill the flat fields, each option given once.
    ``ool_sea_attacker``/``ool_sea_defender``: the orders of loss in the sea battle (default:
    each side's default order). Any order of loss may be ``"best"``: that side chooses each loss
    in its battle (``oddsim.engines.exact.casualties``), the landing's for ``casualty_goal``
    (``casualty_value``: as ``Battle``'s; default take), the sea battle's for the goal a sea
    battle has (``tuv`` where ``casualty_goal`` is tuv, else ``win``): each battle is played for
    its own goal, the sea battle not for the landing that follows."""

    rules: Ruleset  # fields hold their parsed forms; the constructor takes any accepted one
    fleet: Force
    cargo: Force
    defender: Force
    sea_defender: Force = Force(())
    overland: Force = Force(())
    air: Force = Force(())
    sea_air: Force = Force(())
    bombard: bool = True
    sea_battle: str | None = None
    retreat: RetreatPolicy | None = None
    attacker_tech: TechSpec = ()
    defender_tech: TechSpec = ()
    dice: Dice | str = Dice.STANDARD
    ool_attacker: UnitListSpec = None
    ool_defender: UnitListSpec = None
    keep_land: int = 0
    ool_sea_attacker: UnitListSpec = None
    ool_sea_defender: UnitListSpec = None
    casualty_goal: str | None = None
    casualty_value: float | None = None
    attacker: InitVar[Side | None] = None
    loads: tuple[Force, ...] = field(init=False, compare=False, repr=False)

    if TYPE_CHECKING:  # what the constructor accepts (the dataclass writes it at run time)
        def __init__(self, rules: Ruleset | str, fleet: ArmySpec, cargo: ArmySpec,
                     defender: ArmySpec, sea_defender: ArmySpec = None, overland: ArmySpec = None,
                     air: ArmySpec = None, sea_air: ArmySpec = None, bombard: bool = True,
                     sea_battle: str | None = None, retreat: RetreatPolicy | None = None,
                     attacker_tech: TechSpec = (), defender_tech: TechSpec = (),
                     dice: Dice | str = Dice.STANDARD, ool_attacker: UnitListSpec = None,
                     ool_defender: UnitListSpec = None, keep_land: int = 0,
                     ool_sea_attacker: UnitListSpec = None, ool_sea_defender: UnitListSpec = None,
                     casualty_goal: str | None = None, casualty_value: float | None = None,
                     attacker: Side | None = None) -> None: ...

    def __post_init__(self, attacker: Side | None = None) -> None:
        set_ = object.__setattr__
        given: dict[str, object] = {}
        if attacker is not None:
            if isinstance(attacker, Side) and attacker.army is not None:
                raise BattleError("amphibious: the attacker's Side has no army (its units are the fleet, "
                                  "cargo, overland and air): give Side(None, ...)")
            given.update(side_options(attacker, ATTACKER, SIDE_OPTIONS[ATTACKER], "amphibious"))
        if isinstance(self.defender, Side):
            given.update(side_options(self.defender, DEFENDER, SIDE_OPTIONS[DEFENDER], "amphibious"))
            set_(self, "defender", self.defender.army)
        set_side_options(self, given, "amphibious")
        rules = load_ruleset(self.rules)
        set_(self, "rules", rules)
        domains = {"fleet": (Domain.SEA,), "cargo": (Domain.LAND,), "overland": (Domain.LAND,),
                   "air": (Domain.AIR,), "sea_air": (Domain.AIR,),
                   "sea_defender": (Domain.SEA, Domain.AIR),
                   "defender": (Domain.LAND, Domain.AIR)}
        for name, allowed in domains.items():
            parse = parse_defender if name == "defender" else parse_force
            force = parse(getattr(self, name), rules, name.replace("_", " "))
            for unit, _ in force.counts:
                if rules.unit(unit).domain not in allowed:
                    kinds = " or ".join(d.value for d in allowed)
                    article = "an" if kinds[0] in "aeiou" else "a"
                    raise BattleError(f"{name.replace('_', ' ')}: {unit_label(unit)} is not {article} "
                                      f"{kinds} unit")
            set_(self, name, force)
        if self.cargo.is_empty():
            raise BattleError("cargo: an amphibious assault lands at least one unit from the sea")
        if not isinstance(self.bombard, bool):
            raise BattleError(f"bombard must be True or False, not {self.bombard!r}")
        set_(self, "sea_battle", self._sea_battle_choice())
        if self.sea_battle == "ignore" and not self.sea_air.is_empty():
            raise BattleError("sea air: the sea defenders are ignored, so there is no sea battle "
                              "for these aircraft: send them with --air, or give --sea-battle fight")
        set_(self, "loads", _load(self.cargo, self.fleet, rules))
        self._check_best()
        # build the stages once now, so bad options fail here and not halfway through a run
        if self.has_sea_battle:
            self.sea_stage()
        self.land_battle(len(self.loads))

    def _sea_battle_choice(self) -> str:
        """``fight`` or ``ignore``, checked against the edition and the sea defenders."""
        choice = self.sea_battle
        if choice is not None and choice not in SEA_BATTLE_CHOICES:
            raise BattleError(f"sea battle must be fight or ignore, not {choice!r}")
        rules = self.rules
        if self.sea_defender.is_empty():
            if choice == "fight":
                raise BattleError("--sea-battle fight: there is no --sea-defender to fight")
            return "ignore"
        others = [name for name, _ in self.sea_defender.counts
                  if not (rules.unit(name).submarine or rules.unit(name).transport)]
        may_ignore = rules.amphibious.ignore_subs_and_transports and not others
        if choice == "ignore" and not may_ignore:
            why = (f"{rules.name} does not let the attacker ignore defending ships"
                   if not rules.amphibious.ignore_subs_and_transports
                   else f"only submarines and transports may be ignored, not {', '.join(others)}")
            raise BattleError(f"--sea-battle ignore: {why}; use --sea-battle fight")
        if choice is None:
            return "ignore" if may_ignore else "fight"
        return choice

    @property
    def has_sea_battle(self) -> bool:
        return self.sea_battle == "fight"

    def _check_best(self) -> None:
        """Refuse, in one line, best casualties the assault cannot have: a sea battle's order of
        loss without a sea battle; a casualty goal where no side chooses; a battle the solver
        does not cover (``casualties.check_covered``)."""
        for name in ("ool_sea_attacker", "ool_sea_defender"):
            if getattr(self, name) is not None and not self.has_sea_battle:
                raise BattleError(f"--{name.replace('_', '-')}: there is no sea battle (no sea defender, or "
                                  f"it is ignored): drop it")
        land = is_best_order(self.ool_attacker) or is_best_order(self.ool_defender)
        sea = self.has_sea_battle and (is_best_order(self.ool_sea_attacker)
                                       or is_best_order(self.ool_sea_defender))
        if (self.casualty_goal is not None or self.casualty_value is not None) and not (land or sea):
            raise BattleError("the casualty goal is what a side that chooses each loss plays for: add "
                              "--ool-attacker best (or --ool-defender, --ool-sea-attacker, "
                              "--ool-sea-defender best), or drop --casualty-goal")
        if not (land or sea):
            return
        from oddsim.engines.exact.casualties import check_covered  # (what it does not cover yet)

        for chooses, stage, name in ((sea, self.sea_stage, "the sea battle"),
                                     (land, lambda: self.land_battle(len(self.loads)), "the landing")):
            battle = stage() if chooses else None
            if battle is None:
                continue
            try:
                check_covered(battle)
            except BattleError as error:
                raise BattleError(f"{name}: {error}") from None

    def _casualty_options(self, sea: bool) -> dict[str, object]:
        """The casualty goal of the sea battle or the landing, where a side of it chooses."""
        orders = ((self.ool_sea_attacker, self.ool_sea_defender) if sea
                  else (self.ool_attacker, self.ool_defender))
        if not any(is_best_order(order) for order in orders):
            return {}
        if sea:
            return {"casualty_goal": "tuv" if self.casualty_goal == "tuv" else "win"}
        return {"casualty_goal": self.casualty_goal, "casualty_value": self.casualty_value}

    def sea_stage(self) -> Battle:
        """The sea battle: the whole fleet (cargo does not fight) and the aircraft sent to sea."""
        fleet = join_forces(self.rules, self.fleet, self.sea_air, side="sea attacker")
        return Battle(self.rules, Side(fleet, self.ool_sea_attacker, tech=self.attacker_tech),
                      Side(self.sea_defender, self.ool_sea_defender, tech=self.defender_tech), sea=True,
                      dice=self.dice, **self._casualty_options(sea=True))  # type: ignore[arg-type]

    def land_battle(self, transports: int) -> Battle | None:
        """The land battle once ``transports`` transports unload (None: nobody attacks). With no
        land unit landed and none overland the attack is over: aircraft do not fight a land
        battle alone (the rules summary's land step: "if the attacker has no attacking land units
        left, the attack is over"; docs/rules.md §10)."""
        landed = join_forces(self.rules, *self.loads[len(self.loads) - transports:], side="cargo") \
            if transports else None
        if (landed is None or landed.is_empty()) and self.overland.is_empty():
            return None
        attacker = join_forces(self.rules, landed, self.overland, self.air, side="land attacker")
        bombard = None
        if not self.has_sea_battle and self.bombard and landed is not None:
            bombard = self._bombarding_ships(landed.total)
        return Battle(self.rules,
                      Side(attacker, self.ool_attacker, self.attacker_tech, keep_land=self.keep_land,
                           landed=landed, bombard=bombard),
                      Side(self.defender, self.ool_defender, self.defender_tech),
                      retreat=self.retreat, dice=self.dice,
                      **self._casualty_options(sea=False))  # type: ignore[arg-type]

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

    def describe(self) -> str:
        """The assault in one line, for titles and the text."""
        parts = [f"{self.fleet.describe()} carrying {self.cargo.describe()}"]
        for label, force in (("overland", self.overland), ("aircraft", self.air),
                             ("aircraft at sea", self.sea_air)):
            if not force.is_empty():
                parts.append(f"{label} {force.describe()}")
        sea = "" if not self.has_sea_battle else f" (sea battle against {self.sea_defender.describe()})"
        return (f"{self.rules.name} amphibious assault: {', '.join(parts)} attack "
                f"{self.defender.describe()}{sea}")

    def cargo_ipc(self, transports: int) -> int:
        """IPCs of the cargo on the ``transports`` transports that survive."""
        return sum(load.ipc(self.rules) for load in self.loads[len(self.loads) - transports:]) \
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
    """The assault's figures: the sea stage, each landing, and the totals.

    The sea stage and each landing carry their own TUV swing distribution; the assault's total
    has none (``tuv_swing_distribution`` null in its JSON): the landing that follows depends on
    how the sea battle ended, and the stages' results keep no joint record of the sea battle's
    swing and the landing it leads to, so only the mean ``tuv_swing`` is given."""

    sea: BattleResult | None
    landings: tuple[Landing, ...]
    takes_territory: float
    defender_destroyed: float  # the land defender is wiped out
    attacker_ipc_lost_sea: float  # ships, aircraft and the cargo that died with its transports
    attacker_ipc_lost_land: float
    defender_ipc_lost_sea: float
    defender_ipc_lost_land: float
    cargo_lost: float  # expected IPCs of cargo lost at sea
    assault: str = ""  # the assault in words
    std_error: dict[str, float] = field(default_factory=dict)  # where a stage is Monte Carlo

    def describe(self) -> str:
        return self.assault or "amphibious assault"

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
            "assault": self.assault,
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
            "tuv_swing_distribution": None,  # (not known: see the class's docstring)
            "std_error": {k: float(v) for k, v in self.std_error.items()},
        }

    def to_table(self) -> str:
        lines = ["interrupted: partial result (Monte Carlo stages cut short)"] if self.interrupted else []
        if self.assault:
            lines.append(self.assault)
        if self.sea is None:
            lines.append("sea battle: none (no defending ships, or only subs/transports, ignored)")
        else:
            s = self.sea
            chance = {name: percent(getattr(s, name), s.std_error.get(name))
                      for name in ("attacker_win", "defender_win", "stalemate")}
            stalemate = f", stalemate {chance['stalemate']}" if s.stalemate > 0 else ""
            lines.append(f"sea battle ({_method(s)}): attacker wins {chance['attacker_win']}, "
                         f"defender wins {chance['defender_win']}{stalemate}, IPC lost: attacker "
                         f"{number(s.attacker_ipc_lost, s.std_error.get('attacker_ipc_lost'))}, defender "
                         f"{number(s.defender_ipc_lost, s.std_error.get('defender_ipc_lost'))}, "
                         f"cargo lost {self.cargo_lost:.2f}")
            if s.casualty_policy is not None:
                lines.append(f"  sea battle, best casualties (goal {s.casualty_policy.goal}): "
                             f"{s.casualty_policy.summary()}")
        for x in self.landings:
            if x.probability <= 0:  # a landing that cannot happen is not printed
                continue
            unload = f"{x.transports} transport{'' if x.transports == 1 else 's'} unload" \
                     f"{'s' if x.transports == 1 else ''}"
            if x.result is None:
                lines.append(f"{100 * x.probability:6.2f}%  {unload}, nobody attacks")
                continue
            r = x.result
            lines.append(f"{100 * x.probability:6.2f}%  {unload}: {x.battle} ({_method(r)}) takes "
                         f"{percent(r.takes_territory or 0.0, r.std_error.get('takes_territory'))}")
        se = self.std_error
        take, wiped = (percent(getattr(self, name), se.get(name))
                       for name in ("takes_territory", "defender_destroyed"))
        lost = {side: number(getattr(self, f"{side}_ipc_lost"), se.get(f"{side}_ipc_lost"))
                for side in ("attacker", "defender")}
        lines.append(f"takes the territory {take}, defender destroyed {wiped}")
        lines.append(f"expected IPC lost: attacker {lost['attacker']} (sea "
                     f"{self.attacker_ipc_lost_sea:.2f}, land {self.attacker_ipc_lost_land:.2f}), "
                     f"defender {lost['defender']} (TUV swing "
                     f"{swing(self.tuv_swing, se.get('tuv_swing'))})")
        return "\n".join(lines)


NO_LANDING_BELOW = 1e-12
"""A chance that no transport reaches land smaller than this is the rounding of a sum of the sea
battle's rows, not a landing: it is neither fought nor printed."""

Runner = Callable[[Battle, float], BattleResult]
"""Solves one stage given the share (0..1] of the whole that reaches it."""


def fight_amphibious(assault: Amphibious, run: Runner) -> AmphibiousResult:
    """Fight the assault's stages with ``run``."""
    transports = _transports(assault.rules, assault.fleet)
    unloading: dict[int, float] = {}
    sea = None
    cargo_lost = 0.0
    total_cargo = assault.cargo_ipc(len(assault.loads))
    if assault.has_sea_battle:
        sea = run(assault.sea_stage(), 1.0)
        for row in sea.attacker_survivors:
            left = _carriers(assault.rules, row.counts)
            cargo_lost += row.probability * (total_cargo - assault.cargo_ipc(left))
            if not row.retreated:
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
    if no_landing > NO_LANDING_BELOW:  # less is the rounding of the sea battle's row sum
        spec = assault.land_battle(0)
        alone = None if spec is None else run(spec, no_landing)
        landings.append(Landing(no_landing, 0, "nobody attacks" if spec is None else spec.describe(),
                                alone))
        if alone is not None:
            take += no_landing * (alone.takes_territory or 0.0)
            destroyed += no_landing * _wiped_out(alone)
            a_lost += no_landing * alone.attacker_ipc_lost
            d_lost += no_landing * alone.defender_ipc_lost
    errors = _std_errors(assault, sea, landings, len(unloading), total_cargo)
    return AmphibiousResult(
        std_error=errors,
        sea=sea, landings=tuple(landings), takes_territory=take, defender_destroyed=destroyed,
        attacker_ipc_lost_sea=(0.0 if sea is None else sea.attacker_ipc_lost) + cargo_lost,
        attacker_ipc_lost_land=a_lost,
        defender_ipc_lost_sea=0.0 if sea is None else sea.defender_ipc_lost,
        defender_ipc_lost_land=d_lost, cargo_lost=cargo_lost, assault=assault.describe())


def _std_errors(assault: Amphibious, sea: BattleResult | None, landings: list[Landing],
                unloaded: int, total_cargo: int) -> dict[str, float]:
    """Standard errors of the assault's figures when a stage is Monte Carlo (else empty). Each
    figure is a sum over landings of (chance of the landing) x (its land battle's figure): the
    land battles' errors add as independent runs, and a Monte Carlo sea battle adds the spread
    of the figure over its end states divided by its runs. The defender's IPC lost sums its sea
    and land errors (a bound: the runs do not say how its sea losses go with the landings)."""
    staged = [x.result for x in landings if x.result is not None]
    if all(r.method == "exact" for r in staged) and (sea is None or sea.method == "exact"):
        return {}
    by_left = {x.transports: x for x in landings[:unloaded]}

    def figures(x: Landing | None) -> dict[str, tuple[float, float]]:
        r = None if x is None else x.result
        if r is None:
            return {name: (0.0, 0.0) for name in ("take", "wiped", "a", "d")}
        none = next((row for row in r.defender_survivors if not row.counts and not row.other), None)
        return {"take": (r.takes_territory or 0.0, r.std_error.get("takes_territory", 0.0)),
                "wiped": (_wiped_out(r), 0.0 if none is None else none.std_error),
                "a": (r.attacker_ipc_lost, r.std_error.get("attacker_ipc_lost", 0.0)),
                "d": (r.defender_ipc_lost, r.std_error.get("defender_ipc_lost", 0.0))}

    variance = dict.fromkeys(("take", "wiped", "a", "d"), 0.0)
    for x in landings:
        for name, (_, error) in figures(x).items():
            variance[name] += part_variance(x.probability, error)
    sea_d = 0.0
    if sea is not None and sea.runs:
        # each sea end state's expected figure (attacker: with its own losses and cargo lost)
        per_row = []
        for row in sea.attacker_survivors:
            left = _carriers(assault.rules, row.counts)
            reached = landings[-1] if row.retreated and len(landings) > unloaded else by_left.get(left)
            f = {name: value for name, (value, _) in figures(reached).items()}
            f["a"] += (sea.attacker_ipc_total - row.ipc) + total_cargo - assault.cargo_ipc(left)
            per_row.append((row.probability, f))
        for name in ("take", "wiped", "a", "d"):
            mean = sum(p * f[name] for p, f in per_row)
            second = sum(p * f[name] ** 2 for p, f in per_row)
            variance[name] += spread_variance(second, mean * mean, sea.runs)
        sea_d = sea.std_error.get("defender_ipc_lost", 0.0)
    errors = {"takes_territory": math.sqrt(variance["take"]),
              "defender_destroyed": math.sqrt(variance["wiped"]),
              "attacker_ipc_lost": math.sqrt(variance["a"]),
              "defender_ipc_lost": error_bound(sea_d, math.sqrt(variance["d"]))}
    errors["tuv_swing"] = swing_error_bound(errors)
    return errors


def _method(result: BattleResult) -> str:
    return "exact" if result.method == "exact" else f"Monte Carlo, {result.runs:,} runs"


def _wiped_out(result: BattleResult) -> float:
    """Chance that the defender has nothing left (landed units may win after the others left)."""
    return sum(row.probability for row in result.defender_survivors if not row.counts and not row.other)


def _transports(rules: Ruleset, force: Force) -> int:
    """How many units of ``force`` carry cargo (the ``transport`` unit flag)."""
    return _carriers(rules, dict(force.counts))


def _carriers(rules: Ruleset, counts: Mapping[str, int]) -> int:
    """How many of the units counted carry cargo (the ``transport`` unit flag)."""
    return sum(n for name, n in counts.items() if rules.unit(name).transport)


def _load(cargo: Force, fleet: Force, rules: Ruleset) -> tuple[Force, ...]:
    """Cargo per transport, cheapest load first, by the edition's ``[transport]`` rule: the
    ``heavy_cargo`` units dealt one per transport in turn (most valuable first, at most
    ``max_heavy`` each), then the other units filling the loads in turn up to ``capacity``.
    Packing loads full leaves the empty transports to be lost first."""
    rule = rules.transport
    transports = _transports(rules, fleet)
    units = sorted(((rules.unit(name).cost, name) for name, n in cargo.counts for _ in range(n)),
                   reverse=True)
    heavy = [name for _, name in units if rules.unit(name).heavy_cargo]
    light = [name for _, name in units if not rules.unit(name).heavy_cargo]
    need = max(math.ceil(len(units) / rule.capacity),
               math.ceil(len(heavy) / rule.max_heavy) if rule.max_heavy else (1 << 30) * len(heavy))
    if need > transports:
        heavy_names = ", ".join(unit_label(u.name) for u in rules.units if u.heavy_cargo) or "none"
        what = (f"{rule.capacity} land units, at most {rule.max_heavy} of them {heavy_names}"
                if rule.max_heavy else f"{rule.capacity} land units, none of them {heavy_names}")
        if rule.max_heavy == 0 and heavy:
            raise BattleError(f"cargo: {rules.name}'s transports cannot carry {heavy[0]}")
        raise BattleError(f"cargo: {cargo.describe()} needs {need} transport{'s' * (need > 1)}, "
                          f"the fleet has {transports}: add transports (each carries {what})")
    loads: list[list[str]] = [[] for _ in range(transports)]
    for i, name in enumerate(heavy):
        loads[i % transports].append(name)
    for load in loads:
        while light and len(load) < rule.capacity:
            load.append(light.pop())
    forces = [parse_force({n: load.count(n) for n in load}, rules) for load in loads]
    return tuple(sorted(forces, key=lambda f: f.ipc(rules)))
