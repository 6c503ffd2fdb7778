"""The sweep's question, validated once: edition, budget, units to buy, armies, goal, engine.

Every bad input is found here, before anything is solved, and raised as one clear
``PurchaseError`` (or the ``ForceError``/``BattleError`` of the army or option at fault).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from oddsim.limits import METHODS, check_runs, check_seed, refuse_for_exact
from oddsim.model.battle import ArmySpec, Battle, RetreatPolicy, Side, UnitListSpec
from oddsim.model.forces import MAX_UNITS_PER_SIDE, Force, parse_force
from oddsim.model.names import count_label, unit_label
from oddsim.model.options import side_options, with_side_options
from oddsim.model.rules import Domain, Ruleset, editions_with_unit, require_ruleset
from oddsim.model.side import ATTACKER, DEFENDER, choosers_text, given_order, is_best_order
from oddsim.purchase.enumeration import MAX_PURCHASES, count_purchases, iter_purchases, most_units
from oddsim.purchase.goals import Goal, PurchaseError
from oddsim.stages.best_size import MAX_GAMES_SECONDS, armies_size, check_games, with_counter_attacks

DEFAULT_PURCHASE_RUNS = 100_000
"""Monte Carlo runs per battle in a sweep: fewer than for one battle, as a sweep solves many."""

UnitsSpec = str | Sequence[str]
CapsSpec = str | Mapping[str, int] | None


@dataclass(frozen=True)
class SweepSpec:
    """One purchase question; build it with ``SweepSpec.build``, which validates everything.

    ``units`` are canonical unit names in the order given (that order sets the enumeration order
    and the column order), ``costs`` and ``caps`` line up with them (cap ``None``: no cap).
    ``existing`` is the buyer's army already there; ``against`` is the other side.
    """

    rules: Ruleset
    budget: int
    units: tuple[str, ...]
    costs: tuple[int, ...]
    caps: tuple[int | None, ...]
    goal: Goal
    existing: Force
    against: Force
    sea: bool = False
    ool_attacker: tuple[str, ...] | str | None = None  # (``"best"``: it chooses each loss)
    ool_defender: tuple[str, ...] | str | None = None
    keep_land: int = 0
    method: str = "auto"
    runs: int = DEFAULT_PURCHASE_RUNS
    seed: int = 0
    territory_value: float | None = None  # goal value: IPCs the territory is worth
    counter_attack: Force | None = None  # goal hold-after: the army that counter-attacks
    casualty_goal: str | None = None  # what a side choosing each loss plays for (None: none chooses)

    @classmethod
    def build(cls, rules: Ruleset, budget: int, units: UnitsSpec, against: ArmySpec,
              goal: Goal | str = Goal.TAKE, existing: ArmySpec = None, max_counts: CapsSpec = None,
              sea: bool = False, ool_attacker: UnitListSpec = None, ool_defender: UnitListSpec = None,
              keep_land: int = 0, method: str = "auto", runs: int | None = None,
              seed: int = 0, territory_value: float | None = None,
              counter_attack: ArmySpec = None, prices: Ruleset | None = None,
              attacker: Side | None = None, defender: Side | None = None,
              casualty_goal: str | None = None) -> SweepSpec:
        """Validate the inputs of a sweep; raises an ``OddsimError`` naming the first bad one.
        ``prices``: the edition whose costs the purchases pay, where ``rules`` values units
        otherwise (``--unit-values``: its costs are what the battles' IPC figures count). Both
        are loaded ``Ruleset``s (``oddsim.purchase.sweep`` takes an edition's name too).
        ``attacker``/``defender``: each battle side's options as a ``Side`` with no army (the
        armies are ``existing`` plus a purchase, and ``against``): its order of loss, and the
        attacker's ``keep_land``, instead of the flat keywords (each given once).
        ``casualty_goal``: what a side with order of loss ``"best"`` plays for in every battle
        (default: the sweep's goal as ``Goal.casualty_goal`` sees it); a sweep of best casualties
        is sized first, and refused in one line where one battle, or all together, would be too
        large (``oddsim.stages.best_size``)."""
        flat = _side_keywords({"ool_attacker": ool_attacker, "ool_defender": ool_defender,
                               "keep_land": keep_land}, attacker, defender)
        ool_attacker, ool_defender, keep_land = flat["ool_attacker"], flat["ool_defender"], flat["keep_land"]
        ruleset = require_ruleset(rules, "a purchase sweep")
        priced = ruleset if prices is None else require_ruleset(prices, "a sweep's prices")
        if not isinstance(sea, bool):
            raise PurchaseError(f"sea must be True or False, not {sea!r}")
        goal = Goal.parse(goal, sea)
        budget = _check_budget(budget)
        names = _parse_units(units, ruleset, sea, goal)
        caps = _parse_caps(max_counts, ruleset, names)
        if method not in METHODS:
            raise PurchaseError(f"unknown method '{method}': use auto, exact or mc")
        if method == "exact":  # (a sweep always has a seed: its rows are reproducible)
            refuse_for_exact(runs, None, PurchaseError, use="--method auto or mc")
        runs = check_runs(DEFAULT_PURCHASE_RUNS if runs is None else runs, PurchaseError)
        if seed is None:
            raise PurchaseError("seed must be a whole number from 0 to 2**64 - 1, not None: a sweep's "
                                "rows are reproducible, so it always has a seed")
        seed = check_seed(seed, PurchaseError)
        existing_force = parse_force(existing, ruleset, "existing")
        against_force = parse_force(against, ruleset, "against")
        _check_army(existing_force, "existing", ruleset, sea, attacks=not goal.buyer_defends)
        _check_army(against_force, "against", ruleset, sea, attacks=goal.buyer_defends)
        if goal.buyer_defends and against_force.is_empty():
            raise PurchaseError("against: the attacking army is empty: 'hold' needs an army to "
                                "hold against")
        value, counter = _goal_options(goal, ruleset, territory_value, counter_attack)
        spec = cls(rules=ruleset, budget=budget, units=names,
                   costs=tuple(priced.unit(n).cost for n in names), caps=caps, goal=goal,
                   existing=existing_force, against=against_force, sea=sea, keep_land=keep_land,
                   method=method, runs=runs, seed=seed, territory_value=value,
                   counter_attack=counter)
        spec._check_size()
        chooses = is_best_order(ool_attacker) or is_best_order(ool_defender)
        spec = replace(spec, casualty_goal=_casualty_goal(goal, sea, casualty_goal, chooses))
        probe = spec._probe(ool_attacker, ool_defender)
        spec = replace(spec, ool_attacker=given_order(probe.attacker),
                       ool_defender=given_order(probe.defender))
        if chooses:
            spec.check_best_size()
        return spec

    def _check_size(self) -> None:
        count = count_purchases(self.costs, self.caps, self.budget, stop_after=MAX_PURCHASES)
        if count > MAX_PURCHASES:
            raise PurchaseError(
                f"budget {self.budget} over {', '.join(self.units)} gives more than "
                f"{MAX_PURCHASES:,} purchases, the limit of one sweep: lower the budget, buy fewer "
                f"unit types, or cap them with --max UNIT=N")
        if count == 1 and not self.buys_an_army((0,) * len(self.units)):
            raise PurchaseError(f"budget {self.budget} buys no {' or '.join(self.units)}, and there "
                                f"is no existing army to attack with: raise the budget")
        largest = self.existing.total + most_units(self.costs, self.caps, self.budget)
        if largest > MAX_UNITS_PER_SIDE:
            raise PurchaseError(
                f"budget {self.budget} could buy an army of {largest:,} units; at most "
                f"{MAX_UNITS_PER_SIDE:,} units per side: lower the budget or cap units with --max")

    def _probe(self, ool_attacker: UnitListSpec, ool_defender: UnitListSpec) -> Battle:
        """A battle of this sweep, built to check the options only a Battle checks."""
        first = tuple(1 if i == 0 else 0 for i in range(len(self.units)))
        counts = first if self.existing.is_empty() else (0,) * len(self.units)
        attacker, defender = self._sides(counts)
        return Battle(rules=self.rules, attacker=Side(attacker, ool_attacker, keep_land=self.keep_land),
                      defender=Side(defender, ool_defender), sea=self.sea, retreat=self._retreat,
                      **self._casualty_options)

    def _sides(self, counts: Sequence[int]) -> tuple[Force, Force]:
        buyer = self.army(counts)
        return (self.against, buyer) if self.goal.buyer_defends else (buyer, self.against)

    def army(self, counts: Sequence[int]) -> Force:
        """The buyer's army after the purchase: the existing units plus the ones bought."""
        totals = dict(self.existing.counts)
        for name, n in zip(self.units, counts, strict=True):
            if n:
                totals[name] = totals.get(name, 0) + n
        return parse_force(Force(tuple(totals.items()), self.existing.damaged), self.rules, "army")

    def battle(self, counts: Sequence[int]) -> Battle:
        """The battle fought after buying ``counts``."""
        attacker, defender = self._sides(counts)
        return Battle(rules=self.rules, attacker=Side(attacker, self.ool_attacker, keep_land=self.keep_land),
                      defender=Side(defender, self.ool_defender), sea=self.sea, retreat=self._retreat,
                      **self._casualty_options)

    @property
    def _casualty_options(self) -> dict[str, Any]:
        """The battles' casualty goal where a side chooses each loss (goal value: the sweep's
        territory value)."""
        if self.casualty_goal is None:
            return {}
        value = self.territory_value if self.casualty_goal == "value" else None
        return {"casualty_goal": self.casualty_goal, "casualty_value": value}

    @property
    def best_casualties(self) -> bool:
        """Whether a side of every battle chooses each loss (order of loss ``"best"``)."""
        return self.casualty_goal is not None

    def check_best_size(self, limit: float = MAX_GAMES_SECONDS) -> float:
        """With best casualties, every purchase's game sized before any is solved (with
        ``hold-after``, the counter-attacks after it too, as one game on all its land units per
        composition of them: a bound); refused in one line (TooLargeError) where one is too large
        for the solver or all together pass ``limit`` seconds. Returns the seconds predicted."""
        rules, fix = self.rules, "lower the budget, cap units with --max or buy fewer unit types"
        a_best, d_best = is_best_order(self.ool_attacker), is_best_order(self.ool_defender)
        counter = dict(self.counter_attack.counts) if self.counter_attack is not None else None
        damaged = dict(self.existing.damaged)
        against = dict(self.against.counts), dict(self.against.damaged)

        def sizes():
            for counts in iter_purchases(self.costs, self.caps, self.budget):
                if not self.buys_an_army(counts):
                    continue
                buyer = dict(self.existing.counts)
                for name, n in zip(self.units, counts, strict=True):
                    buyer[name] = buyer.get(name, 0) + n
                bought = buyer, damaged
                sides = (against, bought) if self.goal.buyer_defends else (bought, against)
                size = armies_size(rules, *sides[0], *sides[1], defender_best=d_best)
                yield (f"purchase {self.describe_purchase(counts)}",
                       with_counter_attacks(size, rules, sides[0][0], counter, a_best))

        return check_games(sizes(), "the sweep", fix, limit)

    @property
    def _retreat(self) -> RetreatPolicy | None:
        """The attacker's retreat: the best one by value for goal value, else none."""
        if self.goal is not Goal.VALUE:
            return None
        return RetreatPolicy(best="value", territory_value=self.territory_value)

    def buys_an_army(self, counts: Sequence[int]) -> bool:
        """False for the one purchase that leaves an attacking buyer with no units at all."""
        return self.goal.buyer_defends or not self.existing.is_empty() or any(counts)

    def cost(self, counts: Sequence[int]) -> int:
        return sum(n * c for n, c in zip(counts, self.costs, strict=True))

    def describe_purchase(self, counts: Sequence[int]) -> str:
        """``"2 infantry, 1 armor, 2 fighters"``, or ``"nothing"``."""
        parts = [count_label(name, n) for name, n in zip(self.units, counts, strict=True) if n]
        return ", ".join(parts) if parts else "nothing"

    def describe(self) -> str:
        """One line saying what the sweep asks."""
        kind = "sea" if self.sea else "land"
        caps = [f"{name} <= {cap}" for name, cap in zip(self.units, self.caps, strict=True)
                if cap is not None]
        buyer = ("the purchase" if self.existing.is_empty()
                 else f"{self.existing.describe()} plus the purchase")
        action = (f"defend with {buyer} against {self.against.describe()}" if self.goal.buyer_defends
                  else f"attack {self.against.describe()} with {buyer}")
        choosers = self.choosers()
        return (f"{self.rules.name} {kind} battle: {action}; buy up to {self.budget} IPCs of "
                f"{', '.join(self.units)}" + (f" ({', '.join(caps)})" if caps else "")
                + f"; goal: {self.goal.value} ({self.goal.label})"
                + (f", territory worth {self.territory_value:g}" if self.goal is Goal.VALUE else "")
                + (f" against a counter-attack by {self.counter_attack.describe()}"
                   if self.counter_attack is not None else "")
                + (f"; {choosers}" if choosers else ""))

    def choosers(self) -> str:
        """Who chooses each loss, and for what (empty: both follow their orders)."""
        return choosers_text(is_best_order(self.ool_attacker), is_best_order(self.ool_defender),
                             self.casualty_goal)

    @cached_property
    def fingerprint(self) -> str:
        """A short hash of everything that sets the rows' contents: rows from a file are reused on
        resume only when their fingerprint is this one."""
        rules = (self.rules.name, self.rules.units, self.rules.combat, self.rules.bombard,
                 self.rules.support)
        parts: tuple[object, ...] = (
            rules, self.budget, self.units, self.caps, self.goal.value, self.existing, self.against,
            self.sea, self.ool_attacker, self.ool_defender, self.keep_land, self.method, self.runs,
            self.seed)
        if self.goal in (Goal.VALUE, Goal.HOLD_AFTER):  # older sweeps keep their fingerprints
            parts += (self.territory_value, self.counter_attack)
        if self.casualty_goal is not None:
            parts += (self.casualty_goal,)
        return hashlib.blake2b(repr(parts).encode(), digest_size=6).hexdigest()


def _casualty_goal(goal: Goal, sea: bool, asked: str | None, chooses: bool) -> str | None:
    """The casualty goal of a sweep's battles: as ``asked``, else the sweep's own goal's
    (``Goal.casualty_goal``); None where no side chooses each loss."""
    if asked is None:
        return goal.casualty_goal(sea) if chooses else None
    if not chooses:
        raise PurchaseError("the casualty goal is what a side that chooses each loss plays for: add "
                            "--ool-attacker best or --ool-defender best, or drop --casualty-goal")
    if goal is Goal.VALUE and asked != "value":
        raise PurchaseError("goal value retreats at best for the value, and a side choosing each loss "
                            "plays for the same: drop --casualty-goal, or use --casualty-goal value")
    if asked == "value" and goal is not Goal.VALUE:
        raise PurchaseError("--casualty-goal value counts the territory's value, which a sweep takes "
                            "with --goal value --territory-value V: use those, or another casualty goal")
    return asked


def _goal_options(goal: Goal, rules: Ruleset, territory_value: float | None,
                  counter_attack: ArmySpec) -> tuple[float | None, Force | None]:
    """The territory value (goal value) and counter-attacking army (goal hold-after), checked:
    each belongs to its goal only."""
    if goal is Goal.VALUE:
        value = 0.0 if territory_value is None else territory_value
        RetreatPolicy(best="value", territory_value=value)  # checks the value
    elif territory_value is not None:
        raise PurchaseError("--territory-value applies to --goal value: drop it or use that goal")
    else:
        value = None
    if goal is Goal.HOLD_AFTER:
        if counter_attack is None:
            raise PurchaseError("goal 'hold-after' needs the army that counter-attacks: add "
                                "--counter-attack ARMY")
        counter = parse_force(counter_attack, rules, "counter-attack")
        if counter.is_empty():
            raise PurchaseError("counter-attack: the army is empty: name the units that counter-attack")
        return value, counter
    if counter_attack is not None:
        raise PurchaseError("--counter-attack applies to --goal hold-after: drop it or use that goal")
    return value, None


def _check_budget(budget: object) -> int:
    if isinstance(budget, bool) or not isinstance(budget, int):
        raise PurchaseError(f"budget must be a whole number of IPCs, not {budget!r}")
    if budget < 0:
        raise PurchaseError(f"budget {budget} is negative: the budget is the IPCs you can spend, "
                            f"0 or more")
    return budget


def _parse_units(spec: UnitsSpec, rules: Ruleset, sea: bool, goal: Goal) -> tuple[str, ...]:
    if not isinstance(spec, (str, list, tuple)):
        raise PurchaseError(f"units: expected unit names like 'inf,art,arm', not {type(spec).__name__}")
    tokens = spec.split(",") if isinstance(spec, str) else list(spec)
    names: list[str] = []
    for token in tokens:
        if not isinstance(token, str):
            raise PurchaseError(f"units: {token!r} is not a unit name")
        if not token.strip():
            continue
        name = _resolve_buyable(token.strip(), rules)
        if name in names:
            raise PurchaseError(f"units: {unit_label(name)} is listed twice")
        unit = rules.unit(name)
        if unit.domain is (Domain.LAND if sea else Domain.SEA):
            kind = "a sea battle" if sea else "a land battle (add --sea for a sea battle)"
            raise PurchaseError(f"units: {unit_label(name)} cannot fight in {kind}: drop it from the units")
        if not goal.buyer_defends and not unit.can_attack:
            raise PurchaseError(f"units: {unit_label(name)} cannot attack in {rules.name}, and goal "
                                f"'{goal.value}' buys attackers: drop it from the units")
        names.append(name)
    if not names:
        raise PurchaseError("units: no unit to buy: list them like 'inf,art,arm'")
    return tuple(names)


def _resolve_buyable(token: str, rules: Ruleset) -> str:
    name = rules.resolve_name(token)
    if name is None:
        elsewhere = editions_with_unit(token, besides=rules.name)
        known = ", ".join(unit_label(u.name) for u in rules.units)
        if elsewhere:
            raise PurchaseError(f"units: {rules.name} cannot buy '{token}' (a unit of "
                                f"{', '.join(elsewhere)}); its units are: {known}")
        raise PurchaseError(f"units: unknown unit '{token}' in {rules.name} (known: {known})")
    if rules.unit(name).cost <= 0:
        raise PurchaseError(f"units: {unit_label(name)} has no price in {rules.name}, so it cannot be bought")
    return name


_CAP = re.compile(r"^\s*([^=]+?)\s*=\s*(\S+)\s*$")


def _parse_caps(spec: CapsSpec, rules: Ruleset, names: tuple[str, ...]) -> tuple[int | None, ...]:
    if spec is None:
        return (None,) * len(names)
    if isinstance(spec, str):
        pairs = []
        for part in spec.split(","):
            if not part.strip():
                continue
            match = _CAP.match(part)
            if not match:
                raise PurchaseError(f"max: '{part.strip()}' is not UNIT=N, e.g. arm=4")
            pairs.append((match.group(1), match.group(2)))
    elif isinstance(spec, Mapping):
        pairs = list(spec.items())
    else:
        raise PurchaseError(f"max: expected 'arm=4,ftr=2' or a mapping, not {type(spec).__name__}")
    caps: dict[str, int] = {}
    for token, raw in pairs:
        name = rules.resolve_name(str(token))
        if name is None or name not in names:
            raise PurchaseError(f"max: '{token}' is not one of the units bought "
                                f"({', '.join(names)})")
        try:
            value = int(raw) if isinstance(raw, str) else raw
        except ValueError:
            value = raw
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise PurchaseError(f"max: the cap of {unit_label(name)} must be a whole number, 0 or more, "
                                f"not {raw!r}")
        if name in caps:
            raise PurchaseError(f"max: {unit_label(name)} is capped twice ({caps[name]} and {value}): give "
                                f"one cap per unit")
        caps[name] = value
    return tuple(caps.get(name) for name in names)


def _check_army(force: Force, label: str, rules: Ruleset, sea: bool, attacks: bool) -> None:
    for name, _ in force.counts:
        unit = rules.unit(name)
        if unit.domain is (Domain.LAND if sea else Domain.SEA):
            kind = "a sea battle" if sea else "a land battle (add --sea for a sea battle)"
            raise PurchaseError(f"{label}: {unit_label(name)} cannot fight in {kind}")
        if attacks and not unit.can_attack:
            raise PurchaseError(f"{label}: {unit_label(name)} cannot attack in {rules.name}")


SIDE_KEYWORDS = {ATTACKER: ("ool_attacker", "keep_land"), DEFENDER: ("ool_defender",)}
"""The options of ``SweepSpec.build`` a battle side's ``Side`` may set, by their flat names."""


def _side_keywords(flat: dict[str, Any], attacker: Side | None, defender: Side | None) -> dict[str, Any]:
    """The flat keywords ``flat`` with the options of the ``Side`` values given set."""
    defaults = {"ool_attacker": None, "ool_defender": None, "keep_land": 0}
    for role, side in ((ATTACKER, attacker), (DEFENDER, defender)):
        if side is None:
            continue
        if isinstance(side, Side) and side.army is not None:
            raise PurchaseError(f"{role}: a sweep's Side has no army (the armies are existing plus a "
                                f"purchase, and against): give Side(None, ...)")
        given = side_options(side, role, SIDE_KEYWORDS[role], "a purchase sweep")
        flat = with_side_options(flat, defaults, given, "a purchase sweep")
    return flat
