"""Everything both engines need about one battle, computed once: rolls, placements, tables."""

from __future__ import annotations

from dataclasses import dataclass

from oddsim.trench.artillery import Placements, Rolls, placements, rolls
from oddsim.trench.model import (
    Policy,
    RollOrder,
    TrenchBattle,
    parse_policy,
    parse_roll_order,
)
from oddsim.trench.outcomes import PairOutcomes, pair_outcomes
from oddsim.trench.policy import PolicyTables, policy_tables


@dataclass(frozen=True)
class PlayRules:
    """How the dice are placed: each side's policy and when the rolls happen."""

    attacker_policy: Policy = Policy.OPTIMAL
    defender_policy: Policy = Policy.OPTIMAL
    roll_order: RollOrder = RollOrder.BOTH_FIRST

    @classmethod
    def of(cls, policy: Policy | str = Policy.OPTIMAL, defender_policy: Policy | str | None = None,
           roll_order: RollOrder | str = RollOrder.BOTH_FIRST) -> PlayRules:
        """From user values: ``policy`` for both sides unless ``defender_policy`` is given."""
        attacker = parse_policy(policy)
        defender = attacker if defender_policy is None else parse_policy(defender_policy)
        return cls(attacker, defender, parse_roll_order(roll_order))

    def describe(self) -> str:
        if self.attacker_policy is self.defender_policy:
            who = f"{self.attacker_policy.value} placement"
        else:
            who = (f"attacker {self.attacker_policy.value}, "
                   f"defender {self.defender_policy.value} placement")
        return f"{who}, rolls {self.roll_order.value}"


@dataclass(frozen=True)
class PreparedBattle:
    """A battle with its rolls, both sides' placement catalogues, pair outcomes and tables."""

    battle: TrenchBattle
    play: PlayRules
    rolls: Rolls
    attacker: Placements
    defender: Placements
    outcomes: PairOutcomes
    tables: PolicyTables


def prepare(battle: TrenchBattle, play: PlayRules) -> PreparedBattle:
    max_face = battle.max_valid_face
    dice = rolls(max_face)
    attacker = placements(max_face, battle.has_card("attacker"))
    defender = placements(max_face, battle.has_card("defender"))
    outcomes = pair_outcomes(battle, attacker.vectors, defender.vectors)
    tables = policy_tables(battle, outcomes, attacker, defender, dice, play.attacker_policy,
                           play.defender_policy, play.roll_order)
    return PreparedBattle(battle, play, dice, attacker, defender, outcomes, tables)
