"""The Battle value: an edition, two armies, and the options; validated once, trusted after."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum

from oddsim.errors import BattleError
from oddsim.model.forces import MAX_UNITS_PER_SIDE, parse_defender, parse_force
from oddsim.model.rules import DiceRule, Ruleset, load_ruleset
from oddsim.model.side import (
    ATTACKER,
    DEFENDER,
    SUBMERGE_POLICIES,
    ArmySpec,
    Side,
    Submerge,
    TechSpec,
    UnitListSpec,
    as_side,
    bombard_values,
    tech_names,
)

__all__ = ["BEST_OBJECTIVES", "CASUALTY_GOALS", "DICE_MODES", "MAX_RETREAT_ROUND",
           "MAX_TERRITORY_VALUE", "RETREAT_OPTIONS",
           "SUBMERGE_POLICIES", "ArmySpec", "Battle", "Dice", "RetreatPolicy", "Side", "Submerge", "TechSpec",
           "UnitListSpec", "bombard_values", "tech_names"]

MAX_RETREAT_ROUND = 100


class Dice(StrEnum):
    """How hits are rolled: every die (``standard``), or Low Luck (``lowluck``: a group scores
    its dice's values summed // 6 sure hits, plus one more with chance (sum % 6) / 6)."""

    STANDARD = "standard"
    LOW_LUCK = "lowluck"


DICE_MODES = tuple(mode.value for mode in Dice)


BEST_OBJECTIVES = ("tuv", "value")
"""What the best retreat maximises: the expected TUV swing (defender IPC lost minus attacker IPC
lost), or that plus ``territory_value`` times the chance the attacker takes the territory."""
CASUALTY_GOALS = ("take", "win", "tuv", "value")
"""What a side that chooses each loss (order of loss ``best``) plays for: the attacker maximises
and the defender minimises the chance the territory is taken, the chance the attacker wins, the
expected TUV swing, or that plus ``casualty_value`` IPCs when the territory is taken."""
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


def _casualty_goal(battle: Battle, goal: str | None, value: object) -> str:
    """The goal of a battle whose sides choose each loss: as given, or the default (take on
    land, win at sea), checked against the battle."""
    if not battle.best_losses:
        raise BattleError("the casualty goal is what a side that chooses each loss plays for: add "
                          "--ool-attacker best or --ool-defender best, or drop --casualty-goal")
    if goal is None:
        goal = "win" if battle.sea else ("value" if value is not None else "take")
    if goal not in CASUALTY_GOALS:
        raise BattleError(f"unknown casualty goal {goal!r}: use {', '.join(CASUALTY_GOALS)}")
    if battle.sea and goal in ("take", "value"):
        raise BattleError(f"a sea zone is not taken: use --casualty-goal win or tuv at sea, not {goal}")
    if goal == "value" and value is None:
        raise BattleError("the casualty goal value needs the territory's value: add --casualty-value V")
    if goal != "value" and value is not None:
        raise BattleError("--casualty-value applies to --casualty-goal value: drop it or use value")
    if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                              or not 0 <= value <= MAX_TERRITORY_VALUE):
        raise BattleError(f"casualty value must be a number of IPCs from 0 to {MAX_TERRITORY_VALUE}, "
                          f"not {value!r}")
    return goal


@dataclass(frozen=True, init=False)
class Battle:
    """One battle, normalised: an edition, the attacker's and the defender's ``Side``, and the
    battle's own options; the constructor takes each in any accepted form and every field holds
    its parsed form (the types below).

    ``Battle(rules="1942-2e", attacker="3 inf, 1 art", defender="2 inf")``: an army alone (text,
    mapping or Force) is a side with no options; a ``Side`` gives them,
    ``attacker=Side("3 inf, 1 art", order_of_loss="inf,art", tech="jets")`` (see ``Side``:
    order of loss, technologies, submerge, destroyer last; the attacker's keep-land, landed units
    and bombarding ships). Read them back as ``battle.attacker.order_of_loss``,
    ``battle.defender.army``. A defender of no units is written ``"none"`` (an undefended
    territory or sea zone); ``None``, ``""``, ``{}`` or counts of 0 are refused, as on the
    command line (``forces.parse_defender``); an empty attacker is an error.

    ``dice`` is a ``Dice`` (or its string, ``"standard"`` or ``"lowluck"``); ``retreat`` a
    ``RetreatPolicy`` (or a mapping of its fields). ``aa_fired``: the defender's AA fire before
    round 1 was already resolved (a later part of a battle split by ``oddsim.stages.aa_split``),
    so it does not fire again.

    ``in_progress``: a battle resumed at a round boundary (the armies are what is left of it), so
    nothing that happens before round 1 happens again: no AA fire, no bombardment, and subs that
    strike first in round 1 only (``sub_strike_rounds = "first"``) fire in general fire. The attacker's
    retreat rules apply from the end of the first round fought here.

    ``crash_fighters`` (sea battles): the defender's aircraft that its surviving carriers cannot
    hold are lost after the battle (see ``oddsim.stages.crash``).

    Each option's command-line flag, help and web field are declared once, in
    ``oddsim.model.options``.
    """

    rules: Ruleset
    attacker: Side
    defender: Side
    sea: bool
    dice: Dice
    retreat: RetreatPolicy | None
    aa_fired: bool
    in_progress: bool
    crash_fighters: bool
    casualty_goal: str | None = None
    casualty_value: float | None = None

    def __init__(self, rules: Ruleset | str, attacker: Side | ArmySpec, defender: Side | ArmySpec = None,
                 sea: bool = False, dice: Dice | str = Dice.STANDARD,
                 retreat: RetreatPolicy | Mapping[str, object] | None = None, aa_fired: bool = False,
                 in_progress: bool = False, crash_fighters: bool = False, casualty_goal: str | None = None,
                 casualty_value: float | None = None) -> None:
        set_ = object.__setattr__  # frozen: fields are set once, here
        parsed = load_ruleset(rules)
        set_(self, "rules", parsed)
        for name, flag in (("sea", sea), ("aa_fired", aa_fired), ("in_progress", in_progress),
                           ("crash_fighters", crash_fighters)):
            if not isinstance(flag, bool):
                raise BattleError(f"{name} must be True or False, not {flag!r}")
            set_(self, name, flag)
        if crash_fighters and not sea:
            raise BattleError("crash fighters applies to sea battles (fighters over land land "
                              "there): add --sea or drop --crash-fighters")
        set_(self, "attacker", as_side(attacker).checked(parsed, ATTACKER, sea))
        set_(self, "defender", as_side(defender).checked(parsed, DEFENDER, sea))
        if self.attacker.bombard is not None and in_progress:
            raise BattleError("bombardment comes before round 1, which a battle in progress has "
                              "already fought: drop --bombard or --in-progress")
        set_(self, "retreat", _retreat_policy(retreat))
        if sea and self.retreat is not None and self.retreat.best == "value":
            raise BattleError("the best retreat by value adds a territory's value, and a sea zone has "
                              "none: use --retreat-best tuv for a sea battle")
        set_(self, "dice", _dice_mode(dice))
        if self.dice is Dice.LOW_LUCK:
            for name in self.attacker.tech:
                tech = parsed.technology(name)
                if tech.attack_dice_rule is DiceRule.BEST and tech.attack_dice:
                    raise BattleError(f"{name} ('best of two dice') has no Low Luck form in "
                                      f"{parsed.name}: use --dice standard")
        set_(self, "casualty_goal", None)
        set_(self, "casualty_value", None)
        if casualty_goal is not None or casualty_value is not None or self.best_losses:
            set_(self, "casualty_goal", _casualty_goal(self, casualty_goal, casualty_value))
            set_(self, "casualty_value", None if casualty_value is None else float(casualty_value))

    @property
    def best_losses(self) -> bool:
        """Whether a side chooses each loss (order of loss ``best``)."""
        return self.attacker.best_losses or self.defender.best_losses

    def bombard_values(self) -> dict[str, int]:
        """Ships that may bombard in this battle and their values (with the attacker's tech)."""
        return bombard_values(self.rules, self.attacker.tech)

    def with_armies(self, attacker: ArmySpec | None = None, defender: ArmySpec | None = None) -> Battle:
        """The same battle (edition, options) with ``attacker`` and/or ``defender`` replaced
        (None keeps that side's army); validated like any Battle. A plan or a lattice of sub-armies
        fights one battle many times with different armies and the same options; a side's
        submerge policy is dropped where its new army has no submarines (it has none to submerge)."""
        armies = {ATTACKER: self.attacker.army if attacker is None
                  else parse_force(attacker, self.rules, ATTACKER),
                  DEFENDER: self.defender.army if defender is None else parse_defender(defender, self.rules)}
        sides = {role: replace(side, army=armies[role], submerge=side.submerge if any(
            self.rules.unit(name).submarine for name, _ in armies[role].counts) else Submerge.NEVER)
            for role, side in ((ATTACKER, self.attacker), (DEFENDER, self.defender))}
        return Battle(rules=self.rules, attacker=sides[ATTACKER], defender=sides[DEFENDER],
                      sea=self.sea, dice=self.dice, retreat=self.retreat, aa_fired=self.aa_fired,
                      in_progress=self.in_progress, crash_fighters=self.crash_fighters,
                      casualty_goal=self.casualty_goal, casualty_value=self.casualty_value)

    @property
    def is_land(self) -> bool:
        return not self.sea

    def side(self, attacking: bool) -> Side:
        """The attacker's side, or the defender's."""
        return self.attacker if attacking else self.defender

    def describe(self) -> str:
        kind = "sea" if self.sea else "land"
        extras = [f"{role} tech {', '.join(side.tech)}" for role, side in
                  ((ATTACKER, self.attacker), (DEFENDER, self.defender)) if side.tech]
        if self.dice is Dice.LOW_LUCK:
            extras.append("low luck")
        if self.in_progress:
            extras.append("in progress")
        if self.crash_fighters:
            extras.append("defending aircraft without a carrier crash")
        for role, side in ((ATTACKER, self.attacker), (DEFENDER, self.defender)):
            if side.destroyer_last:
                extras.append(f"{role} keeps its last destroyer while enemy subs live")
        if self.retreat is not None:
            extras.append(self.retreat.describe())
        chooser = [role for role, side in ((ATTACKER, self.attacker), (DEFENDER, self.defender))
                   if side.best_losses]
        if chooser:
            extras.append(f"{' and '.join(chooser)} {'choose' if len(chooser) > 1 else 'chooses'} each "
                          f"loss for goal {self.casualty_goal}")
        if self.attacker.landed is not None:
            extras.append(f"landed from the sea: {self.attacker.landed.describe()}")
        if self.attacker.bombard is not None:
            extras.append(f"bombarded by {self.attacker.bombard.describe()}")
        for role, side in ((ATTACKER, self.attacker), (DEFENDER, self.defender)):
            if side.submerge is not Submerge.NEVER:
                extras.append(f"{role} subs submerge "
                              f"{'when alone' if side.submerge is Submerge.ALONE else 'at once'}")
        suffix = f" ({'; '.join(extras)})" if extras else ""
        return (f"{self.rules.name} {kind} battle: {self.attacker.army.describe()} "
                f"attack {self.defender.army.describe()}{suffix}")
