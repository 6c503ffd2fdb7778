"""The Battle value: an edition, two armies, and the options; validated once, trusted after."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from oddsim.errors import BattleError
from oddsim.model.forces import MAX_UNITS_PER_SIDE, Force, parse_defender, parse_force
from oddsim.model.names import count_label, unit_label
from oddsim.model.order_of_loss import LossStep, casualty_order, parse_unit_list
from oddsim.model.rules import DiceRule, Domain, Ruleset, load_ruleset

ArmySpec = str | Mapping[str, int] | Force | None
TechSpec = str | tuple[str, ...] | list[str] | None
UnitListSpec = str | tuple[str, ...] | list[str] | None
MAX_RETREAT_ROUND = 100


class Dice(StrEnum):
    """How hits are rolled: every die (``standard``), or Low Luck (``lowluck``: a group scores
    its dice's values summed // 6 sure hits, plus one more with chance (sum % 6) / 6)."""

    STANDARD = "standard"
    LOW_LUCK = "lowluck"


class Submerge(StrEnum):
    """When a side's submarines submerge, where the edition lets them (no enemy destroyer): never;
    at the first chance (``always``); or once they are all the side has left that can fire
    (``alone``)."""

    NEVER = "never"
    ALWAYS = "always"
    ALONE = "alone"


DICE_MODES = tuple(mode.value for mode in Dice)
SUBMERGE_POLICIES = tuple(policy.value for policy in Submerge)


BEST_OBJECTIVES = ("tuv", "value")
"""What the best retreat maximises: the expected TUV swing (defender IPC lost minus attacker IPC
lost), or that plus ``territory_value`` times the chance the attacker takes the territory."""
RETREAT_OPTIONS = ("after_round", "units_left", "below_win", "aircraft_risk", "strafe", "best",
                   "territory_value")


MAX_TERRITORY_VALUE = 1000
"""Most IPCs a territory may be worth (to the best retreat, a purchase goal, a raid's damage cap):
a capital taken with its treasury is worth a hundred or two; more is a typo."""

@dataclass(frozen=True)
class RetreatPolicy:
    """When the attacker retreats, checked at the end of every round (any rule that fires is
    enough): after round ``after_round``; when it has ``units_left`` units or fewer; when its
    exact chance to win by fighting on falls below ``below_win``; when the next round would kill
    one of its aircraft with more than ``aircraft_risk`` chance; when the defender is down to
    ``strafe`` units or fewer (a strafe: kill units without taking the territory). All its units
    retreat together and the defender keeps the territory.

    ``best="tuv"`` replaces those rules by the best retreat: the attacker retreats exactly where
    retreating gives a higher expected TUV swing than fighting on and acting best afterwards
    (ties fight on); ``best="value"`` adds ``territory_value`` IPCs to the objective when the
    attacker takes the territory. The exact engine finds it by dynamic programming over its
    states (see ``oddsim.engines.exact.best``)."""

    after_round: int | None = None
    units_left: int | None = None
    below_win: float | None = None
    aircraft_risk: float | None = None
    strafe: int | None = None
    best: str | None = None
    territory_value: float | None = None

    def __post_init__(self) -> None:
        for name, low, high in (("after_round", 1, MAX_RETREAT_ROUND),
                                ("units_left", 0, MAX_UNITS_PER_SIDE),
                                ("strafe", 0, MAX_UNITS_PER_SIDE)):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or not low <= value <= high):
                raise BattleError(f"retreat {name.replace('_', ' ')} must be a whole number from "
                                  f"{low} to {high}, not {value!r}")
        for name in ("below_win", "aircraft_risk"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                                      or not 0.0 <= value <= 1.0):
                raise BattleError(f"retreat {name.replace('_', ' ')} must be a probability between "
                                  f"0 and 1, not {value!r}")
        self._check_best()

    def _check_best(self) -> None:
        value = self.territory_value
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                                  or not 0 <= value <= MAX_TERRITORY_VALUE):
            raise BattleError(f"territory value must be a number of IPCs from 0 to {MAX_TERRITORY_VALUE}, "
                              f"not {value!r}")
        if self.best is None:
            if value is not None:
                raise BattleError("territory value is part of the best retreat: add "
                                  "--retreat-best value, or drop --territory-value")
            return
        if self.best not in BEST_OBJECTIVES:
            raise BattleError(f"unknown best retreat objective {self.best!r}: use "
                              f"{' or '.join(BEST_OBJECTIVES)}")
        if self.best == "value" and value is None:
            raise BattleError("the best retreat by value needs the territory's value: add "
                              "--territory-value V")
        if self.best == "tuv" and value is not None:
            raise BattleError("--territory-value applies to --retreat-best value, not tuv: drop it "
                              "or use value")
        flags = {"after_round": "after-round", "units_left": "units", "below_win": "below-win",
                 "aircraft_risk": "aircraft-risk", "strafe": "strafe"}
        rules = [name for name in flags if getattr(self, name) is not None]
        if rules:
            raise BattleError(f"the best retreat replaces the other retreat rules: drop "
                              f"--retreat-{flags[rules[0]]} ({rules[0]})")

    @property
    def active(self) -> bool:
        return any(v is not None for v in (self.after_round, self.units_left, self.below_win,
                                           self.aircraft_risk, self.strafe, self.best))

    @property
    def territory_bonus(self) -> float:
        """IPCs the best retreat's objective adds when the attacker takes the territory."""
        return float(self.territory_value or 0.0)

    def describe(self) -> str:
        if self.best is not None:
            return ("best retreat by TUV swing" if self.best == "tuv" else
                    f"best retreat by TUV swing + {self.territory_bonus:g} IPC territory")
        parts = []
        if self.after_round is not None:
            parts.append(f"after round {self.after_round}")
        if self.units_left is not None:
            parts.append(f"at {self.units_left} unit{'' if self.units_left == 1 else 's'} or fewer")
        if self.below_win is not None:
            parts.append(f"below {100 * self.below_win:g}% to win")
        if self.aircraft_risk is not None:
            parts.append(f"when an aircraft is lost with more than {100 * self.aircraft_risk:g}%")
        if self.strafe is not None:
            parts.append(f"when the defender is down to {self.strafe} units or fewer")
        return "retreat " + ", ".join(parts)


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


def _dice_mode(dice: Dice | str) -> Dice:
    try:
        return Dice(dice)
    except ValueError:
        raise BattleError(f"unknown dice mode {str(dice)!r}: use {' or '.join(DICE_MODES)}") from None


def _retreat_policy(retreat: RetreatPolicy | Mapping[str, object] | None) -> RetreatPolicy | None:
    """The retreat policy from a RetreatPolicy or a mapping of its fields; None when it never
    retreats."""
    if isinstance(retreat, Mapping):
        unknown = set(retreat) - set(RETREAT_OPTIONS)
        if unknown:
            raise BattleError(f"unknown retreat option '{sorted(map(str, unknown))[0]}': use "
                              f"{', '.join(RETREAT_OPTIONS)}")
        retreat = RetreatPolicy(**retreat)  # type: ignore[arg-type]  # its __post_init__ checks
    if retreat is not None and not isinstance(retreat, RetreatPolicy):
        raise BattleError(f"retreat must be a RetreatPolicy or a mapping, not {retreat!r}")
    return retreat if retreat is not None and retreat.active else None


def bombard_values(rules: Ruleset, attacker_tech: TechSpec = ()) -> dict[str, int]:
    """Ships that may bombard in the edition and their values, with the attacker's technology."""
    values = dict(rules.bombard.units)
    for name in tech_names(attacker_tech, rules):
        values.update(dict(rules.technology(name).bombard))
    return values


@dataclass(frozen=True, init=False)
class Battle:
    """One battle, normalised: the constructor takes each option in any accepted form and every
    field holds its parsed form (the types below).

    ``Battle(rules="1942-2e", attacker="3 inf, 1 art", defender="2 inf")``. A defender of no
    units is written ``"none"`` (an undefended territory or sea zone); ``None``, ``""``, ``{}`` or
    counts of 0 are refused, as on the command line (``forces.parse_defender``); an empty
    attacker is an error. ``keep_land`` keeps the attacker's last N land units until everything else is lost.
    ``attacker_tech``/``defender_tech`` name technologies of the edition (``"jets,radar"``);
    ``dice`` is a ``Dice`` (or its string, ``"standard"`` or ``"lowluck"``).

    Amphibious assaults and subs: ``landed`` names the attacker's land units that came by sea
    (they cannot retreat: a retreat takes the others away and they fight on); ``bombard`` the
    ships that bombard the shore before the first round (the edition's ships and values, at most
    one per landed unit where the edition says so); ``attacker_submerge``/``defender_submerge``
    are a ``Submerge`` (or its string: ``"never"``, ``"always"``, ``"alone"``). ``aa_fired``: the
    defender's AA fire before round 1 was already resolved (a later part of a battle split by
    ``oddsim.stages.aa_split``), so it does not fire again.

    ``in_progress``: a battle resumed at a round boundary (the armies are what is left of it), so
    nothing that happens before round 1 happens again: no AA fire, no bombardment, and subs that
    strike first in round 1 only (``sub_strike_rounds = "first"``) fire in general fire. The attacker's
    retreat rules apply from the end of the first round fought here.

    ``crash_fighters`` (sea battles): the defender's aircraft that its surviving carriers cannot
    hold are lost after the battle (see ``oddsim.stages.crash``).

    ``attacker_destroyer_last``/``defender_destroyer_last`` (sea battles): while the enemy has
    submarines in the battle, the side keeps its last destroyer (the last in its order of loss)
    until every other unit that can take the hit is lost, but before units that are chosen last
    (transports); once the enemy's subs are gone, it is lost at its place in the order of loss.
    """

    rules: Ruleset
    attacker: Force
    defender: Force
    sea: bool
    ool_attacker: tuple[str, ...] | None
    ool_defender: tuple[str, ...] | None
    keep_land: int
    attacker_tech: tuple[str, ...]
    defender_tech: tuple[str, ...]
    dice: Dice
    retreat: RetreatPolicy | None
    attacker_submerge: Submerge
    defender_submerge: Submerge
    landed: Force | None
    bombard: Force | None
    aa_fired: bool
    in_progress: bool
    crash_fighters: bool
    attacker_destroyer_last: bool
    defender_destroyer_last: bool
    attacker_steps: tuple[LossStep, ...] = field(init=False, compare=False, repr=False)
    defender_steps: tuple[LossStep, ...] = field(init=False, compare=False, repr=False)

    def __init__(self, rules: Ruleset | str, attacker: ArmySpec, defender: ArmySpec = None,
                 sea: bool = False, ool_attacker: UnitListSpec = None,
                 ool_defender: UnitListSpec = None, keep_land: int = 0,
                 attacker_tech: TechSpec = (), defender_tech: TechSpec = (),
                 dice: Dice | str = Dice.STANDARD,
                 retreat: RetreatPolicy | Mapping[str, object] | None = None,
                 attacker_submerge: Submerge | str = Submerge.NEVER,
                 defender_submerge: Submerge | str = Submerge.NEVER,
                 landed: ArmySpec = None, bombard: ArmySpec = None, aa_fired: bool = False,
                 in_progress: bool = False, crash_fighters: bool = False,
                 attacker_destroyer_last: bool = False, defender_destroyer_last: bool = False) -> None:
        set_ = object.__setattr__  # frozen: fields are set once, here
        parsed = load_ruleset(rules)
        set_(self, "rules", parsed)
        if not isinstance(sea, bool):
            raise BattleError(f"sea must be True or False, not {sea!r}")
        set_(self, "sea", sea)
        if not isinstance(aa_fired, bool):
            raise BattleError(f"aa_fired must be True or False, not {aa_fired!r}")
        set_(self, "aa_fired", aa_fired)
        for name, flag in (("in_progress", in_progress), ("crash_fighters", crash_fighters)):
            if not isinstance(flag, bool):
                raise BattleError(f"{name} must be True or False, not {flag!r}")
            set_(self, name, flag)
        if crash_fighters and not sea:
            raise BattleError("crash fighters applies to sea battles (fighters over land land "
                              "there): add --sea or drop --crash-fighters")
        attacking = parse_force(attacker, parsed, "attacker")
        defending = parse_defender(defender, parsed, "defender")
        if attacking.is_empty():
            raise BattleError("attacker: the army is empty: an attack needs at least one unit")
        for side, flag in (("attacker", attacker_destroyer_last), ("defender", defender_destroyer_last)):
            self._check_destroyer_last(side, flag, sea)
            set_(self, f"{side}_destroyer_last", flag)
        set_(self, "attacker", attacking)
        set_(self, "defender", defending)
        self._check_units(attacking, "attacker")
        self._check_units(defending, "defender")
        if isinstance(keep_land, bool) or not isinstance(keep_land, int):
            raise BattleError(f"keep_land must be a whole number, not {keep_land!r}")
        if not 0 <= keep_land <= MAX_UNITS_PER_SIDE:
            raise BattleError(f"keep_land must be between 0 and {MAX_UNITS_PER_SIDE}, "
                              f"not {keep_land}")
        if keep_land and sea:
            raise BattleError("keep_land applies to land battles only: drop it for a sea battle")
        set_(self, "keep_land", keep_land)
        set_(self, "ool_attacker", parse_unit_list(ool_attacker, parsed, "attacker"))
        set_(self, "ool_defender", parse_unit_list(ool_defender, parsed, "defender"))
        set_(self, "retreat", _retreat_policy(retreat))
        if sea and self.retreat is not None and self.retreat.best == "value":
            raise BattleError("the best retreat by value adds a territory's value, and a sea zone has "
                              "none: use --retreat-best tuv for a sea battle")
        set_(self, "attacker_tech", tech_names(attacker_tech, parsed))
        set_(self, "defender_tech", tech_names(defender_tech, parsed))
        set_(self, "dice", _dice_mode(dice))
        if self.dice is Dice.LOW_LUCK:
            for name in self.attacker_tech:
                tech = parsed.technology(name)
                if tech.attack_dice_rule is DiceRule.BEST and tech.attack_dice:
                    raise BattleError(f"{name} ('best of two dice') has no Low Luck form in "
                                      f"{parsed.name}: use --dice standard")
        set_(self, "attacker_submerge", self._submerge_policy(attacker_submerge, "attacker"))
        set_(self, "defender_submerge", self._submerge_policy(defender_submerge, "defender"))
        set_(self, "landed", self._parse_landed(landed))
        set_(self, "bombard", self._parse_bombard(bombard))
        set_(self, "attacker_steps", casualty_order(attacking, parsed, True, self.ool_attacker,
                                                    self.keep_land, self.landed))
        set_(self, "defender_steps", casualty_order(defending, parsed, False, self.ool_defender))

    @staticmethod
    def _check_destroyer_last(side: str, flag: object, sea: bool) -> None:
        """``{side}_destroyer_last`` must be a bool, and on only in a sea battle (a side without a
        destroyer, as a later wave may be, keeps none: the option then does nothing)."""
        if not isinstance(flag, bool):
            raise BattleError(f"{side}_destroyer_last must be True or False, not {flag!r}")
        if flag and not sea:
            raise BattleError(f"{side} destroyer last applies to sea battles: add --sea or drop "
                              f"--{side}-destroyer-last")

    def _submerge_policy(self, policy: Submerge | str, side: str) -> Submerge:
        """The side's submerge policy, checked against the battle (sea, the side has subs)."""
        try:
            parsed = Submerge(policy)
        except ValueError:
            raise BattleError(f"unknown {side} submerge policy {policy!r}: use "
                              f"{', '.join(SUBMERGE_POLICIES)}") from None
        if parsed is Submerge.NEVER:
            return parsed
        if not self.sea:
            raise BattleError(f"{side} submerge applies to sea battles: add --sea or drop it")
        force = self.attacker if side == "attacker" else self.defender
        if not any(self.rules.unit(name).submarine for name, _ in force.counts):
            raise BattleError(f"{side} submerge needs submarines, and the {side} has none: "
                              f"drop it or add subs")
        return parsed

    def _parse_landed(self, spec: ArmySpec) -> Force | None:
        if spec is None:
            return None
        attacker = self.attacker
        landed = parse_force(spec, self.rules, "landed")
        if landed.is_empty():
            return None
        if self.sea:
            raise BattleError("landed units fight in a land battle: drop --landed for a sea battle")
        for name, n in landed.counts:
            if self.rules.unit(name).domain is not Domain.LAND:
                raise BattleError(f"landed: {unit_label(name)} is not a land unit: only land units land from "
                                  f"the sea")
            if n > attacker.count(name):
                raise BattleError(f"landed: {count_label(name, n)} but the attacker has "
                                  f"{attacker.count(name)}: "
                                  f"landed units are part of the attacker")
        return landed

    def _parse_bombard(self, spec: ArmySpec) -> Force | None:
        if spec is None:
            return None
        ships = parse_force(spec, self.rules, "bombard")
        if ships.is_empty():
            return None
        if self.sea:
            raise BattleError("bombardment supports a land battle: drop --bombard for a sea battle")
        values = self.bombard_values()
        for name, _ in ships.counts:
            if name not in values:
                allowed = ", ".join(sorted(values)) or "no ships"
                raise BattleError(f"bombard: {unit_label(name)} cannot bombard in {self.rules.name} "
                                  f"(can: {allowed})")
        if self.in_progress:
            raise BattleError("bombardment comes before round 1, which a battle in progress has "
                              "already fought: drop --bombard or --in-progress")
        landed = 0 if self.landed is None else self.landed.total
        if landed == 0:
            raise BattleError("bombardment is part of an amphibious assault: name the attacker's "
                              "units that came by sea with --landed")
        if self.rules.bombard.one_per_landed_unit and ships.total > landed:
            raise BattleError(f"bombard: {ships.total} ships but {landed} landed units: "
                              f"{self.rules.name} allows one bombarding ship per unit landed "
                              f"from the sea")
        return ships

    def bombard_values(self) -> dict[str, int]:
        """Ships that may bombard in this battle and their values (with the attacker's tech)."""
        return bombard_values(self.rules, self.attacker_tech)

    def _check_units(self, force: Force, side: str) -> None:
        wrong = Domain.LAND if self.sea else Domain.SEA
        kind = "a sea battle (drop --sea)" if self.sea else "a land battle (add --sea for a sea battle)"
        for name, _ in force.counts:
            unit = self.rules.unit(name)
            if unit.domain is wrong:
                raise BattleError(f"{side}: {unit_label(name)} cannot fight in {kind}")
            if side == "attacker" and not unit.can_attack:
                raise BattleError(f"attacker: {unit_label(name)} cannot attack in {self.rules.name}")

    def with_armies(self, attacker: ArmySpec | None = None, defender: ArmySpec | None = None) -> Battle:
        """The same battle (edition, options) with ``attacker`` and/or ``defender`` replaced
        (None keeps that side); validated like any Battle. A plan or a lattice of sub-armies
        fights one battle many times with different armies and the same options; a side's
        submerge policy is dropped where its new army has no submarines (it has none to submerge)."""
        armies = {"attacker": self.attacker if attacker is None
                  else parse_force(attacker, self.rules, "attacker"),
                  "defender": self.defender if defender is None else parse_defender(defender, self.rules)}
        submerge = {side: getattr(self, f"{side}_submerge") if any(
            self.rules.unit(name).submarine for name, _ in armies[side].counts) else Submerge.NEVER
            for side in armies}
        return Battle(rules=self.rules, attacker=armies["attacker"], defender=armies["defender"],
                      sea=self.sea, ool_attacker=self.ool_attacker, ool_defender=self.ool_defender,
                      keep_land=self.keep_land, attacker_tech=self.attacker_tech,
                      defender_tech=self.defender_tech, dice=self.dice, retreat=self.retreat,
                      attacker_submerge=submerge["attacker"], defender_submerge=submerge["defender"],
                      landed=self.landed, bombard=self.bombard, aa_fired=self.aa_fired,
                      in_progress=self.in_progress, crash_fighters=self.crash_fighters,
                      attacker_destroyer_last=self.attacker_destroyer_last,
                      defender_destroyer_last=self.defender_destroyer_last)

    @property
    def is_land(self) -> bool:
        return not self.sea

    def describe(self) -> str:
        kind = "sea" if self.sea else "land"
        extras = [f"{side} tech {', '.join(techs)}" for side, techs in
                  (("attacker", self.attacker_tech), ("defender", self.defender_tech)) if techs]
        if self.dice is Dice.LOW_LUCK:
            extras.append("low luck")
        if self.in_progress:
            extras.append("in progress")
        if self.crash_fighters:
            extras.append("defending aircraft without a carrier crash")
        for side in ("attacker", "defender"):
            if getattr(self, f"{side}_destroyer_last"):
                extras.append(f"{side} keeps its last destroyer while enemy subs live")
        if self.retreat is not None:
            extras.append(self.retreat.describe())
        if self.landed is not None:
            extras.append(f"landed from the sea: {self.landed.describe()}")
        if self.bombard is not None:
            extras.append(f"bombarded by {self.bombard.describe()}")
        for side, policy in (("attacker", self.attacker_submerge), ("defender", self.defender_submerge)):
            if policy is not Submerge.NEVER:
                extras.append(f"{side} subs submerge "
                              f"{'when alone' if policy is Submerge.ALONE else 'at once'}")
        suffix = f" ({'; '.join(extras)})" if extras else ""
        return (f"{self.rules.name} {kind} battle: {self.attacker.describe()} "
                f"attack {self.defender.describe()}{suffix}")
