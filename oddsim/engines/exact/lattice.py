"""Every army of one side of a battle in one backward sweep: the exact engine's half of
``oddsim.stages.sub_armies`` (which answers by army, and fights apart what the sweep leaves out).

With a fixed order of loss, an army that takes casualties is a smaller army of the same lattice,
so one sweep over the lattice of the side's armies against the other side's casualty states gives
the expectations of every army at once (``_sweep``, ``_lattice``), round 1's own steps (AA fire, a
bombardment, subs that strike first in round 1 only) applied on top per army; equal to one solve
per army to 1e-12. A battle that does not fit (a retreat policy, submerging subs, crash fighters,
``keep_land`` or a destroyer kept last on the swept side, armies that differ in units that hold
the territory without fighting) gets None; an army whose battle the AA outcome splits is marked
to be solved apart.
"""

from __future__ import annotations

import numpy as np

from oddsim.engines.exact import _sweep
from oddsim.engines.exact._sweep import battle_with
from oddsim.errors import BattleError
from oddsim.model.battle import Battle

__all__ = ["FIGURES", "SIDES", "battle_with", "solve_armies"]

SIDES = ("attacker", "defender")
FIGURES = _sweep.FIGURES
"""The columns of ``solve_armies``' figures (``BattleResult``'s names; ``takes_territory`` 0 at sea)."""


def solve_armies(battle: Battle, side: str, counts: np.ndarray,
                 damaged: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray] | None:
    """The ``FIGURES`` of ``battle`` with ``side``'s army replaced by each row of ``counts`` (units
    per type in the edition's order; ``damaged``: damaged two-hit units among them), and which rows
    to solve apart (figures NaN: their battle is split by the AA outcome). None where the battle
    does not fit the lattice sweep: solve each apart."""
    if side not in SIDES:
        raise BattleError(f"side must be attacker or defender, not {side!r}")
    return _sweep.sweep(battle, side, counts, damaged)
