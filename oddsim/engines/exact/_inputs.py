"""One plain battle made into the exact engine's inputs: lowered, its size, and the records the
side tables take. Below both the one-battle solve (``solve``) and the lattice sweep (``_sweep``),
which each read a battle's sides this way."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from oddsim._runtime import interpreted as _interpreted
from oddsim.engines.dice import add_dice, low_luck_pmf
from oddsim.engines.exact import _tables as t
from oddsim.engines.exact import cost
from oddsim.engines.lowering import LoweredBattle, SideArrays, lower
from oddsim.errors import TooLargeError
from oddsim.model.battle import Battle

MAX_TABLE_ENTRIES = 40_000_000
"""Largest per-side hit-distribution table (states x groups x dice), about 320 MB."""
ONE_START = np.zeros(1, dtype=np.int64)
"""A side's seeds (``t.SideInputs``) where it starts whole: its state 0."""


def _hit_spread(dice: int) -> float:
    """How many hit counts of ``dice`` dice carry weight: about 16 standard deviations, at most
    every count."""
    return min(dice + 1.0, 8.0 * math.sqrt(dice) + 1.0)


@dataclass(frozen=True)
class Sized:
    """One plain battle lowered for the exact engine, and its size: ``size`` makes it and
    ``solve`` takes it, so a battle sized first (to choose its engine, or against a server's
    limit) is not lowered again. Its arrays are only read, by the estimate and by the solve."""

    battle: Battle
    lowered: tuple  # (LoweredBattle, the attacker's t.SideLayout, the defender's)
    joint: int  # joint casualty states
    work: float  # estimated work: states x hit spread of each side (``cost`` turns it into seconds)

    @property
    def seconds(self) -> float:
        """The seconds its solve takes on this kind of machine (``cost``: fitted to measured
        solves): 1e9 units of work are some 0.2 s, 1.45e10 about a second."""
        return cost.seconds(self.work)


Lowered = tuple[LoweredBattle, t.SideLayout, t.SideLayout]
"""A battle's arrays and both sides' layouts (``Sized.lowered``)."""


def size(battle: Battle, plain: bool = True) -> Sized:
    """``battle`` lowered, and its joint casualty states and estimated work (``lower`` refuses a
    battle that is not plain; ``plain=False``: the lattice sweep lays out its largest army's
    lattice, whose armies that AA splits it leaves to the pipeline)."""
    low = lower(battle, plain)
    with _interpreted.tables():  # (a cold cache: interpreted, 1 ms, compiling nothing)
        lowered = (low, *_interpreted.carried(_layouts)(battle, low))
    return Sized(battle, lowered, *estimate(*lowered))


def _layouts(battle: Battle, low: LoweredBattle) -> tuple[t.SideLayout, t.SideLayout]:
    """How each side's order of loss is split into classes (``_tables.side_classes``)."""
    rules = t.ClassRules(low.is_air, low.is_sub, low.is_aa, low.cost, low.air_needs_destroyer)
    return t.both_side_classes(rules, battle.retreat is not None, _steps(low.attacker), _steps(low.defender))


def _steps(side: SideArrays) -> t.SideSteps:
    """A side's units and order of loss as ``side_classes`` reads them."""
    return t.SideSteps(side.count, side.dice, side.step_unit, side.step_kill, side.step_count,
                       side.step_landed, side.submerge, side.reserved_step, side.reserve_before)


def estimate(low: LoweredBattle, a: t.SideLayout, d: t.SideLayout) -> tuple[int, float]:
    """The battle's joint casualty states, and its estimated work: states x hit spread of each side."""
    joint = a.n_states * d.n_states
    spread = _hit_spread(a.n_units) * _hit_spread(d.n_units)
    return joint, joint * spread


def unit_types(low: LoweredBattle) -> t.UnitTypes:
    """What the side tables read of each unit type."""
    return t.UnitTypes(low.cost, low.is_air, low.is_sub, low.is_destroyer, low.is_land, low.defenceless)


def support_rules(low: LoweredBattle) -> t.Support:
    """The battle's support rules as the side tables read them."""
    return t.Support(low.support_supporter, low.support_supported, low.support_per, low.support_value,
                     low.support_side, low.support_bonus, low.support_group, low.support_order,
                     low.support_adds)


def side_tables(low: LoweredBattle, layout: t.SideLayout, is_attacker: bool,
                every_state: bool = False) -> t.BuiltSide:
    """One side's tables, counts and reached states (``_tables.side_tables``) for the states its
    battle can reach (``seeds``), or with ``every_state`` for all. Raises TooLargeError for
    hit tables over ``MAX_TABLE_ENTRIES``."""
    return t.side_tables(side_inputs(low, layout, is_attacker, every_state), unit_types(low),
                         support_rules(low), low.low_luck)


def side_inputs(low: LoweredBattle, layout: t.SideLayout, is_attacker: bool,
                every_state: bool) -> t.SideInputs:
    """A side as ``_tables.side_tables`` takes it (``both_side_tables``): its classes, dice, most
    dice and seeds (every state with ``every_state``). Raises TooLargeError for hit tables over
    ``MAX_TABLE_ENTRIES``."""
    side = low.attacker if is_attacker else low.defender
    max_dice = layout.rolls + 1  # + 1: a Low Luck bonus hit
    if layout.n_states * t.N_GROUPS * (max_dice + 1) > MAX_TABLE_ENTRIES:
        raise TooLargeError(
            f"battle too large for the exact engine: the {'attacker' if is_attacker else 'defender'}'s "
            f"hit tables would need {layout.n_states * (max_dice + 1):,} entries; use --method mc")
    dice = t.SideDice(side.count, side.damaged, side.value, side.dice, side.best_of, side.support_side,
                      low.dice_sides)
    seeds = np.arange(layout.n_states) if every_state else _seeds(low, layout, is_attacker)
    return t.SideInputs(layout.classes(), dice, max_dice, seeds)


def _seeds(low: LoweredBattle, layout: t.SideLayout, is_attacker: bool) -> np.ndarray:
    """A side's states before round 1, from which every state its battle gets to follows by hits
    and by leaving the battle (``_tables.hit_moves``): the whole side, and the casualties of
    what fires before round 1 (``solve._start_mass``): AA fire takes the attacker's aircraft (their
    own class), a bombardment the defender's first units of its one class."""
    if is_attacker and low.aa_dice:
        return np.arange(int(layout.class_len[t.AIR]) + 1) * int(np.prod(layout.class_len[:t.AIR] + 1))
    if not is_attacker and any(low.bombard_dice.tolist()):  # (lists: the arrays are tiny)
        return np.arange(int(layout.class_len[t.OTHER]) + 1) * int(np.prod(layout.class_len[:t.OTHER] + 1))
    return ONE_START


def group_distribution(dice_by_value: np.ndarray, low_luck: bool) -> np.ndarray | None:
    """Hit distribution of a group of dice that fires together (``dice_by_value[v]`` dice that
    hit on v or less, v = 0..the dice's sides), or None for no dice."""
    sides = len(dice_by_value) - 1
    n = sum(dice_by_value.tolist())  # (a list: the array is tiny)
    if n == 0:
        return None
    dist = np.zeros(n + 2)
    if low_luck:
        size = low_luck_pmf(int(dice_by_value @ np.arange(len(dice_by_value))), sides, dist)
        return dist[:size]
    dist[0] = 1.0
    size = 1
    scratch = np.zeros(n + 2)
    for value, count in enumerate(dice_by_value.tolist()):
        if count:
            size = add_dice(dist, size, count, value / sides, scratch)
    return dist[: n + 1]
