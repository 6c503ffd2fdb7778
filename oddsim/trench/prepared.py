"""Everything both engines need about one battle, computed once: rolls, placements, tables."""

from __future__ import annotations

from dataclasses import dataclass

from oddsim._runtime import interpreted
from oddsim.trench.artillery import Placements, Rolls, placements, rolls
from oddsim.trench.model import DiceFronts, SupportFleet, TrenchBattle
from oddsim.trench.play import PlayRules
from oddsim.trench.policy import PolicyTables, policy_tables


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
    with interpreted.tables():  # (a cold cache: the optimal policies in NumPy, see numpy_policy)
        tables = policy_tables(battle, attacker, defender, dice, play, fronts,
                               (cards_lost(battle, "attacker", play),
                                cards_lost(battle, "defender", play)))
    return PreparedBattle(battle, play, dice, attacker, defender, tables)
