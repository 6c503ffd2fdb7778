"""Everything both engines need about one battle, computed once: rolls, placements, tables."""

from __future__ import annotations

from dataclasses import dataclass

from oddsim.trench.artillery import Placements, Rolls, placements, rolls
from oddsim.trench.model import (
    DiceFronts,
    Information,
    Policy,
    RollOrder,
    TrenchBattle,
    check_destroy_margin,
    parse_dice_fronts,
    parse_information,
    parse_policy,
    parse_roll_order,
)
from oddsim.trench.outcomes import DESTROY_MARGIN
from oddsim.trench.policy import PolicyTables, policy_tables


@dataclass(frozen=True)
class PlayRules:
    """How the battle is played: each side's policy, when the rolls happen, what each side
    sees of the enemy's supports, where dice may go, and the margin that destroys a card."""

    attacker_policy: Policy = Policy.OPTIMAL
    defender_policy: Policy = Policy.OPTIMAL
    roll_order: RollOrder = RollOrder.BOTH_FIRST
    information: Information = Information.HIDDEN
    dice_fronts: DiceFronts = DiceFronts.ANY
    destroy_margin: int = DESTROY_MARGIN

    @classmethod
    def of(cls, policy: Policy | str = Policy.OPTIMAL, defender_policy: Policy | str | None = None,
           roll_order: RollOrder | str = RollOrder.BOTH_FIRST,
           information: Information | str = Information.HIDDEN,
           dice_fronts: DiceFronts | str = DiceFronts.ANY,
           destroy_margin: int = DESTROY_MARGIN) -> PlayRules:
        """From user values: ``policy`` for both sides unless ``defender_policy`` is given."""
        attacker = parse_policy(policy)
        defender = attacker if defender_policy is None else parse_policy(defender_policy)
        return cls(attacker, defender, parse_roll_order(roll_order),
                   parse_information(information), parse_dice_fronts(dice_fronts),
                   check_destroy_margin(destroy_margin))

    def describe(self) -> str:
        if self.attacker_policy is self.defender_policy:
            who = f"{self.attacker_policy.value} placement"
        else:
            who = (f"attacker {self.attacker_policy.value}, "
                   f"defender {self.defender_policy.value} placement")
        return (f"{who}, rolls {self.roll_order.value}, {self.information.value} supports, "
                f"dice on {self.dice_fronts.value} fronts, destroyed by {self.destroy_margin}+")


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
    tables = policy_tables(battle, attacker, defender, dice, play.attacker_policy,
                           play.defender_policy, play.roll_order, play.information,
                           play.destroy_margin, fronts)
    return PreparedBattle(battle, play, dice, attacker, defender, tables)
