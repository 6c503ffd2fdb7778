"""Everything both engines need about one battle, computed once: rolls, placements, tables."""

from __future__ import annotations

from dataclasses import dataclass

from oddsim.trench.artillery import Placements, Rolls, placements, rolls
from oddsim.trench.model import (
    DiceFronts,
    Information,
    Policy,
    RollOrder,
    SupportFleet,
    TiedFront,
    TrenchBattle,
    check_destroy_margin,
    describe_readings,
    parse_dice_fronts,
    parse_information,
    parse_policy,
    parse_roll_order,
    parse_support_fleet,
    parse_tied_front,
)
from oddsim.trench.outcomes import DESTROY_MARGIN, FrontClass
from oddsim.trench.policy import PolicyTables, policy_tables


@dataclass(frozen=True)
class PlayRules:
    """How the battle is played: each side's policy, when the rolls happen, what each side
    sees of the enemy's supports, where dice may go, the margin that destroys a card, who takes
    a tied front and whether a support-slot fleet at sea is destroyed with its front's fleet
    (the last four are the readings the seed leaves open or says two ways: ``readings``)."""

    attacker_policy: Policy = Policy.OPTIMAL
    defender_policy: Policy = Policy.OPTIMAL
    roll_order: RollOrder = RollOrder.BOTH_FIRST
    information: Information = Information.HIDDEN
    dice_fronts: DiceFronts = DiceFronts.ANY
    destroy_margin: int = DESTROY_MARGIN
    tied_front: TiedFront = TiedFront.NOBODY
    support_fleet: SupportFleet = SupportFleet.SURVIVES

    @classmethod
    def of(cls, policy: Policy | str = Policy.OPTIMAL, defender_policy: Policy | str | None = None,
           roll_order: RollOrder | str = RollOrder.BOTH_FIRST,
           information: Information | str = Information.HIDDEN,
           dice_fronts: DiceFronts | str = DiceFronts.ANY,
           destroy_margin: int = DESTROY_MARGIN,
           tied_front: TiedFront | str = TiedFront.NOBODY,
           support_fleet: SupportFleet | str = SupportFleet.SURVIVES) -> PlayRules:
        """From user values: ``policy`` for both sides unless ``defender_policy`` is given."""
        attacker = parse_policy(policy)
        defender = attacker if defender_policy is None else parse_policy(defender_policy)
        return cls(attacker, defender, parse_roll_order(roll_order),
                   parse_information(information), parse_dice_fronts(dice_fronts),
                   check_destroy_margin(destroy_margin), parse_tied_front(tied_front),
                   parse_support_fleet(support_fleet))

    @property
    def tie_class(self) -> int:
        """The ``FrontClass`` of a front with equal totals."""
        return int(FrontClass.DEFENDER_WON if self.tied_front is TiedFront.DEFENDER
                   else FrontClass.TIED)

    def readings(self) -> dict:
        """The readings an answer was computed under, as JSON values (``model.READINGS``)."""
        return {"dice_fronts": self.dice_fronts.value, "tied_front": self.tied_front.value,
                "support_fleet": self.support_fleet.value,
                "destroy_margin": self.destroy_margin}

    def describe_readings(self) -> str:
        return describe_readings(self.readings())

    def describe(self) -> str:
        if self.attacker_policy is self.defender_policy:
            who = f"{self.attacker_policy.value} placement"
        else:
            who = (f"attacker {self.attacker_policy.value}, "
                   f"defender {self.defender_policy.value} placement")
        return (f"{who}, rolls {self.roll_order.value}, {self.information.value} supports, "
                f"dice on {self.dice_fronts.value} fronts, destroyed by {self.destroy_margin}+")


def cards_lost(battle: TrenchBattle, side: str, play: PlayRules) -> tuple[int, int, int]:
    """Cards the side loses where its card on each front is destroyed: 2 at sea where a fleet
    lies in that front's support slot and ``support_fleet`` is ``destroyed``, else 1."""
    both = battle.sea and play.support_fleet is SupportFleet.DESTROYED
    return tuple(2 if both and down else 1  # type: ignore[return-value]
                 for down in battle.face_down(side))


@dataclass(frozen=True)
class PreparedBattle:
    """A battle with its rolls, both sides' placement catalogues and policy tables."""

    battle: TrenchBattle
    play: PlayRules
    rolls: Rolls
    attacker: Placements
    defender: Placements
    tables: PolicyTables


def open_fronts(battle: TrenchBattle, side: str, play: PlayRules) -> tuple[bool, bool, bool]:
    """Fronts where the side may place dice: every front, or those with its card."""
    if play.dice_fronts is DiceFronts.ANY:
        return (True, True, True)
    return battle.has_card(side)


def prepare(battle: TrenchBattle, play: PlayRules) -> PreparedBattle:
    max_face = battle.max_valid_face
    dice = rolls(max_face)
    fronts = (open_fronts(battle, "attacker", play), open_fronts(battle, "defender", play))
    attacker = placements(max_face, fronts[0])
    defender = placements(max_face, fronts[1])
    tables = policy_tables(battle, attacker, defender, dice, play, fronts,
                           (cards_lost(battle, "attacker", play),
                            cards_lost(battle, "defender", play)))
    return PreparedBattle(battle, play, dice, attacker, defender, tables)
