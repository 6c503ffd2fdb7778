"""How a Longest Trench battle is played (``PlayRules``): the policies, the roll order, what
each side sees, and the readings the seed leaves open. Its own module, below both the policy
tables (``policy``) and the prepared battle (``prepared``) that read it."""

from __future__ import annotations

from dataclasses import dataclass

from oddsim.trench.model import (
    DiceFronts,
    Information,
    Policy,
    RollOrder,
    SupportFleet,
    TiedFront,
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
