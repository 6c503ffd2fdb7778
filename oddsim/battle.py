"""The Battle value: an edition, two armies, and the options; validated once, trusted after."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from oddsim.errors import BattleError
from oddsim.forces import MAX_UNITS_PER_SIDE, Force, parse_force
from oddsim.order_of_loss import LossStep, casualty_order, parse_unit_list
from oddsim.rules import Domain, Ruleset, load_ruleset

ArmySpec = str | Mapping[str, int] | Force | None
DICE_MODES = ("standard", "lowluck")


def _tech_names(spec: str | tuple[str, ...] | list[str] | None, rules: Ruleset) -> tuple[str, ...]:
    """Canonical technology names, each checked against the edition."""
    tokens = spec.split(",") if isinstance(spec, str) else list(spec or ())
    names: list[str] = []
    for token in tokens:
        if not isinstance(token, str):
            raise BattleError(f"technology names must be strings, not {token!r}")
        if token.strip():
            name = rules.technology(token).name
            if name not in names:
                names.append(name)
    return tuple(names)


@dataclass(frozen=True)
class Battle:
    """One battle, normalised: after construction every field holds its parsed form.

    ``Battle(rules="1942-2e", attacker="3 inf, 1 art", defender="2 inf")``. An empty defender
    (``None``, ``"none"`` or ``{}``) is an undefended territory or sea zone; an empty attacker is
    an error. ``keep_land`` keeps the attacker's last N land units until everything else is lost.
    ``attacker_tech``/``defender_tech`` name technologies of the edition (``"jets,radar"``);
    ``dice`` is ``"standard"`` or ``"lowluck"``.
    """

    rules: Ruleset | str
    attacker: ArmySpec
    defender: ArmySpec = None
    sea: bool = False
    ool_attacker: str | tuple[str, ...] | None = None
    ool_defender: str | tuple[str, ...] | None = None
    keep_land: int = 0
    attacker_tech: str | tuple[str, ...] = ()
    defender_tech: str | tuple[str, ...] = ()
    dice: str = "standard"
    attacker_steps: tuple[LossStep, ...] = field(init=False, compare=False, repr=False)
    defender_steps: tuple[LossStep, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        rules = load_ruleset(self.rules)
        set_ = object.__setattr__
        set_(self, "rules", rules)
        if not isinstance(self.sea, bool):
            raise BattleError(f"sea must be True or False, not {self.sea!r}")
        attacker = parse_force(self.attacker, rules, "attacker")
        defender = parse_force(self.defender, rules, "defender")
        if attacker.is_empty():
            raise BattleError("attacker: the army is empty: an attack needs at least one unit")
        set_(self, "attacker", attacker)
        set_(self, "defender", defender)
        self._check_units(attacker, "attacker")
        self._check_units(defender, "defender")
        if isinstance(self.keep_land, bool) or not isinstance(self.keep_land, int):
            raise BattleError(f"keep_land must be a whole number, not {self.keep_land!r}")
        if not 0 <= self.keep_land <= MAX_UNITS_PER_SIDE:
            raise BattleError(f"keep_land must be between 0 and {MAX_UNITS_PER_SIDE}, "
                              f"not {self.keep_land}")
        if self.keep_land and self.sea:
            raise BattleError("keep_land applies to land battles only: drop it for a sea battle")
        set_(self, "ool_attacker", parse_unit_list(self.ool_attacker, rules, "attacker"))
        set_(self, "ool_defender", parse_unit_list(self.ool_defender, rules, "defender"))
        set_(self, "attacker_tech", _tech_names(self.attacker_tech, rules))
        set_(self, "defender_tech", _tech_names(self.defender_tech, rules))
        if self.dice not in DICE_MODES:
            raise BattleError(f"unknown dice mode '{self.dice}': use {' or '.join(DICE_MODES)}")
        if self.dice == "lowluck":
            for name in self.attacker_tech:
                if rules.technology(name).attack_dice_rule == "best" and rules.technology(name).attack_dice:
                    raise BattleError(f"{name} ('best of two dice') has no Low Luck form in "
                                      f"{rules.name}: use --dice standard")
        set_(self, "attacker_steps",
             casualty_order(attacker, rules, True, self.ool_attacker, self.keep_land))
        set_(self, "defender_steps", casualty_order(defender, rules, False, self.ool_defender))

    def _check_units(self, force: Force, side: str) -> None:
        wrong = Domain.LAND if self.sea else Domain.SEA
        kind = "a sea battle (drop --sea)" if self.sea else "a land battle (add --sea for a sea battle)"
        for name, _ in force.counts:
            unit = self.rules.unit(name)
            if unit.domain is wrong:
                raise BattleError(f"{side}: {name} cannot fight in {kind}")
            if side == "attacker" and not unit.can_attack:
                raise BattleError(f"attacker: {name} cannot attack in {self.rules.name}")

    @property
    def is_land(self) -> bool:
        return not self.sea

    def describe(self) -> str:
        kind = "sea" if self.sea else "land"
        extras = [f"{side} tech {', '.join(techs)}" for side, techs in
                  (("attacker", self.attacker_tech), ("defender", self.defender_tech)) if techs]
        if self.dice != "standard":
            extras.append("low luck")
        suffix = f" ({'; '.join(extras)})" if extras else ""
        return (f"{self.rules.name} {kind} battle: {self.attacker.describe()} "
                f"attack {self.defender.describe()}{suffix}")
