"""The Longest Trench (WWI card game): battle odds, exact and Monte Carlo, and commitment advice.

A battle has three fronts; on each, each side has at most one army card (at sea: fleet card) and
one support, laid face down. Both sides roll three artillery dice; faces 1-3 are valid (from 1917
also 4) and go on any front (``dice_fronts="own"``: only where the side has a card), the attacker
placing first and the defender answering, each seeing where the other's supports lie but not
their values (``information="full"``: seeing them). The higher total wins a front; more fronts
wins the battle (equal: a draw, worth 1 point to the defender); a tied front is nobody's
(``tied_front="defender"``: the defender's); a front won by 4 or more (``destroy_margin=5``: 5
or more) destroys the loser's card (at sea, ``support_fleet="destroyed"``: and the fleet in its
support slot). Every result names these readings (``TrenchResult.readings``). See
``oddsim.trench.policy`` for the placement policies and their tie-breaking.

    >>> from oddsim.trench import TrenchBattle, solve_trench
    >>> battle = TrenchBattle(attacker="5,4,3", defender="4,4,4", year=1917,
    ...                       attacker_support="2,0,1", defender_support="0,0,3", points=2)
    >>> round(solve_trench(battle).attacker_win, 4)
    0.3224
    >>> round(solve_trench(battle, information="full", dice_fronts="own").attacker_win, 4)
    0.3023
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from oddsim._runtime.lazy import lazy_names

if TYPE_CHECKING:
    from oddsim.trench.advice import (
        Advice,
        AdviceOption,
        Commitment,
        Hand,
        Objective,
        advise,
    )
    from oddsim.trench.api import run_trench, simulate_trench, solve_trench
    from oddsim.trench.model import (
        DiceFronts,
        Information,
        Policy,
        RollOrder,
        SupportFleet,
        TiedFront,
        TrenchBattle,
        TrenchError,
    )
    from oddsim.trench.result import PerSide, TrenchCounts, TrenchResult

_HOMES = {
    "oddsim.trench.advice": ("Advice", "AdviceOption", "Commitment", "Hand", "Objective", "advise"),
    "oddsim.trench.api": ("run_trench", "simulate_trench", "solve_trench"),
    "oddsim.trench.model": ("DiceFronts", "Information", "Policy", "RollOrder", "SupportFleet",
                            "TiedFront", "TrenchBattle", "TrenchError"),
    "oddsim.trench.result": ("PerSide", "TrenchCounts", "TrenchResult"),
}
"""The public names of each module: they load on first use (the command line's help stays
quick)."""

__all__ = [
    "Advice",
    "AdviceOption",
    "Commitment",
    "DiceFronts",
    "Hand",
    "Information",
    "Objective",
    "PerSide",
    "Policy",
    "RollOrder",
    "SupportFleet",
    "TiedFront",
    "TrenchBattle",
    "TrenchCounts",
    "TrenchError",
    "TrenchResult",
    "advise",
    "run_trench",
    "simulate_trench",
    "solve_trench",
]

__getattr__, __dir__ = lazy_names(__name__, _HOMES)
