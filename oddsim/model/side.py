"""One side of a battle: its army and what it chooses about it (order of loss, technologies,
when its subs submerge, ...); a ``Battle`` holds two, checked against its edition."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from oddsim.errors import BattleError
from oddsim.model.forces import MAX_UNITS_PER_SIDE, Force, parse_defender, parse_force
from oddsim.model.names import count_label, unit_label
from oddsim.model.order_of_loss import LossStep, casualty_order, parse_unit_list
from oddsim.model.rules import Domain, Ruleset

ArmySpec = str | Mapping[str, int] | Force | None
TechSpec = str | tuple[str, ...] | list[str] | None
UnitListSpec = str | tuple[str, ...] | list[str] | None

ATTACKER = "attacker"
DEFENDER = "defender"
ROLES = (ATTACKER, DEFENDER)


class Submerge(StrEnum):
    """When a side's submarines submerge, where the edition lets them (no enemy destroyer): never;
    at the first chance (``always``); or once they are all the side has left that can fire
    (``alone``)."""

    NEVER = "never"
    ALWAYS = "always"
    ALONE = "alone"


SUBMERGE_POLICIES = tuple(policy.value for policy in Submerge)


def tech_names(spec: TechSpec, rules: Ruleset) -> tuple[str, ...]:
    """Canonical technology names, each checked against the edition."""
    if spec is not None and not isinstance(spec, (str, list, tuple)):
        raise BattleError(f"technologies must be names like 'jets,radar', not {type(spec).__name__}")
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


def bombard_values(rules: Ruleset, attacker_tech: TechSpec = ()) -> dict[str, int]:
    """Ships that may bombard in the edition and their values, with the attacker's technology."""
    values = dict(rules.bombard.units)
    for name in tech_names(attacker_tech, rules):
        values.update(dict(rules.technology(name).bombard))
    return values


@dataclass(frozen=True, init=False)
class Side:
    """One side of a battle: its ``army`` and its own options.

    ``Side("3 inf, 1 art", order_of_loss="inf,art", tech="jets")``: the constructor takes each
    option in any accepted form; a ``Battle`` checks the side against its edition and holds it
    with every field in its parsed form (the types below), so ``battle.attacker.army`` is a
    ``Force``. Where a Battle takes a Side, an army alone (text, mapping or Force) is a Side with
    no options.

    ``order_of_loss``: unit names, first lost first (None: the edition's default order);
    ``tech``: technologies of the edition (``"jets,radar"``); ``submerge``: a ``Submerge`` (or
    ``"never"``, ``"always"``, ``"alone"``: sea battles, a side with subs); ``destroyer_last``
    (sea battles): while the enemy has submarines, the side keeps its last destroyer until every
    other unit that can take the hit is lost (but before units chosen last, transports).

    The attacker's alone: ``keep_land`` keeps its last N land units until everything else is
    lost; ``landed`` names its land units that came by sea (they cannot retreat); ``bombard``
    the ships that bombard the shore before round 1 (needs ``landed``; the edition's ships and
    values, at most one per landed unit where the edition says so).
    """

    army: Force
    order_of_loss: tuple[str, ...] | None
    tech: tuple[str, ...]
    submerge: Submerge
    destroyer_last: bool
    keep_land: int
    landed: Force | None
    bombard: Force | None
    best_losses: bool = False
    """The side chooses each loss to reach its goal (``order_of_loss="best"``: see
    ``oddsim.engines.exact.casualties``); its ``steps`` are then the default order's, the order
    the answer compares best play with."""
    steps: tuple[LossStep, ...] = field(init=False, compare=False, repr=False)
    """The side's loss steps (``order_of_loss.casualty_order``), set by the Battle that holds it."""

    def __init__(self, army: ArmySpec, order_of_loss: UnitListSpec = None, tech: TechSpec = (),
                 submerge: Submerge | str = Submerge.NEVER, destroyer_last: bool = False,
                 keep_land: int = 0, landed: ArmySpec = None, bombard: ArmySpec = None,
                 best_losses: bool = False) -> None:
        set_ = object.__setattr__  # frozen: fields are set once, here (a Battle checks them)
        for name, value in (("army", army), ("order_of_loss", order_of_loss), ("tech", tech),
                            ("submerge", submerge), ("destroyer_last", destroyer_last),
                            ("keep_land", keep_land), ("landed", landed), ("bombard", bombard),
                            ("best_losses", best_losses), ("steps", ())):
            set_(self, name, value)

    def checked(self, rules: Ruleset, role: str, sea: bool) -> Side:
        """This side in its parsed form, checked against ``rules`` as the ``role`` ("attacker" or
        "defender") of a land or ``sea`` battle, with its loss steps."""
        army = (parse_force(self.army, rules, role) if role == ATTACKER
                else parse_defender(self.army, rules, role))
        if role == ATTACKER and army.is_empty():
            raise BattleError("attacker: the army is empty: an attack needs at least one unit")
        _check_units(army, rules, role, sea)
        if not isinstance(self.destroyer_last, bool):
            raise BattleError(f"{role}_destroyer_last must be True or False, not {self.destroyer_last!r}")
        if self.destroyer_last and not sea:
            raise BattleError(f"{role} destroyer last applies to sea battles: add --sea or drop "
                              f"--{role}-destroyer-last")
        keep_land = _keep_land(self.keep_land, role, sea)
        best = self.best_losses or is_best_order(self.order_of_loss)
        if best and keep_land:
            raise BattleError(f"keep_land is an order of loss, and the {role} chooses each loss "
                              f"(order of loss best): drop keep_land")
        order = None if best else parse_unit_list(self.order_of_loss, rules, role)
        tech = tech_names(self.tech, rules)
        submerge = _submerge_policy(self.submerge, army, rules, role, sea)
        landed = _landed(self.landed, army, rules, role, sea)
        bombard = _bombard(self.bombard, landed, rules, tech, role, sea)
        side = Side(army, order, tech, submerge, self.destroyer_last, keep_land, landed, bombard, best)
        object.__setattr__(side, "steps", casualty_order(army, rules, role == ATTACKER, order,
                                                         keep_land, landed))
        return side


BEST_ORDER = "best"
"""The order of loss that chooses each loss (``--ool-attacker best``)."""


def is_best_order(spec: object) -> bool:
    """Whether an order of loss as given is ``"best"`` (each loss chosen, not a fixed order)."""
    return isinstance(spec, str) and spec.strip().lower() == BEST_ORDER


def choosers_text(attacker_chooses: bool, defender_chooses: bool, goal: str | None) -> str:
    """Who chooses each loss, and for what: "the attacker chooses each loss for goal take", "the
    attacker and the defender choose ..."; "" where both follow their orders."""
    roles = [role for role, chooses in ((ATTACKER, attacker_chooses), (DEFENDER, defender_chooses))
             if chooses]
    if not roles:
        return ""
    verb = "choose" if len(roles) > 1 else "chooses"
    return f"the {' and the '.join(roles)} {verb} each loss for goal {goal}"


def given_order(side: Side) -> tuple[str, ...] | str | None:
    """A checked side's order of loss as one would give it again (another battle of the same
    player's units: a later wave, a counter-attack, a sweep's battles): ``"best"`` where it
    chooses each loss, else its order (None: the default)."""
    return BEST_ORDER if side.best_losses else side.order_of_loss


def as_side(spec: Side | ArmySpec) -> Side:
    """``spec`` as a Side: itself, or an army (text, mapping, Force) with no options."""
    return spec if isinstance(spec, Side) else Side(spec)


def _check_units(force: Force, rules: Ruleset, role: str, sea: bool) -> None:
    wrong = Domain.LAND if sea else Domain.SEA
    kind = "a sea battle (drop --sea)" if sea else "a land battle (add --sea for a sea battle)"
    for name, _ in force.counts:
        unit = rules.unit(name)
        if unit.domain is wrong:
            raise BattleError(f"{role}: {unit_label(name)} cannot fight in {kind}")
        if role == ATTACKER and not unit.can_attack:
            raise BattleError(f"attacker: {unit_label(name)} cannot attack in {rules.name}")


def _attacker_only(option: str, role: str) -> None:
    if role != ATTACKER:
        raise BattleError(f"{option} is the attacker's: drop it from the defender's side")


def _keep_land(keep_land: object, role: str, sea: bool) -> int:
    if isinstance(keep_land, bool) or not isinstance(keep_land, int):
        raise BattleError(f"keep_land must be a whole number, not {keep_land!r}")
    if not 0 <= keep_land <= MAX_UNITS_PER_SIDE:
        raise BattleError(f"keep_land must be between 0 and {MAX_UNITS_PER_SIDE}, not {keep_land}")
    if keep_land:
        _attacker_only("keep_land", role)
        if sea:
            raise BattleError("keep_land applies to land battles only: drop it for a sea battle")
    return keep_land


def _submerge_policy(policy: Submerge | str, army: Force, rules: Ruleset, role: str,
                     sea: bool) -> Submerge:
    """The side's submerge policy, checked against the battle (sea, the side has subs)."""
    try:
        parsed = Submerge(policy)
    except ValueError:
        raise BattleError(f"unknown {role} submerge policy {policy!r}: use "
                          f"{', '.join(SUBMERGE_POLICIES)}") from None
    if parsed is Submerge.NEVER:
        return parsed
    if not sea:
        raise BattleError(f"{role} submerge applies to sea battles: add --sea or drop it")
    if not any(rules.unit(name).submarine for name, _ in army.counts):
        raise BattleError(f"{role} submerge needs submarines, and the {role} has none: "
                          f"drop it or add subs")
    return parsed


def _landed(spec: ArmySpec, army: Force, rules: Ruleset, role: str, sea: bool) -> Force | None:
    if spec is None:
        return None
    landed = parse_force(spec, rules, "landed")
    if landed.is_empty():
        return None
    _attacker_only("landed", role)
    if sea:
        raise BattleError("landed units fight in a land battle: drop --landed for a sea battle")
    for name, n in landed.counts:
        if rules.unit(name).domain is not Domain.LAND:
            raise BattleError(f"landed: {unit_label(name)} is not a land unit: only land units land from "
                              f"the sea")
        if n > army.count(name):
            raise BattleError(f"landed: {count_label(name, n)} but the attacker has "
                              f"{army.count(name)}: landed units are part of the attacker")
    return landed


def _bombard(spec: ArmySpec, landed: Force | None, rules: Ruleset, tech: tuple[str, ...], role: str,
             sea: bool) -> Force | None:
    if spec is None:
        return None
    ships = parse_force(spec, rules, "bombard")
    if ships.is_empty():
        return None
    _attacker_only("bombard", role)
    if sea:
        raise BattleError("bombardment supports a land battle: drop --bombard for a sea battle")
    values = bombard_values(rules, tech)
    for name, _ in ships.counts:
        if name not in values:
            allowed = ", ".join(sorted(values)) or "no ships"
            raise BattleError(f"bombard: {unit_label(name)} cannot bombard in {rules.name} "
                              f"(can: {allowed})")
    count = 0 if landed is None else landed.total
    if count == 0:
        raise BattleError("bombardment is part of an amphibious assault: name the attacker's "
                          "units that came by sea with --landed")
    if rules.bombard.one_per_landed_unit and ships.total > count:
        raise BattleError(f"bombard: {ships.total} ships but {count} landed units: "
                          f"{rules.name} allows one bombarding ship per unit landed "
                          f"from the sea")
    return ships
