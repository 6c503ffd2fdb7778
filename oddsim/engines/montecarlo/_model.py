"""The battle as the Monte Carlo kernel reads it, and the kernel's survivor keys read back.

``KernelModel.build`` turns a lowered battle into one int64 ``model`` array (its records are
declared in ``_layout``): each side's loss steps, firing lines (units whose rolls hit with the
same chance and may take the same units), unit types, active support rules and scalars, the
battle's rules, the binomial alias tables, the bombardment's alias table, for retreat rules that
need exact odds the exact engine's retreat decisions and, for plain battles, their tables by
casualty count (``_with_plain_section``). ``SurvivorCodec`` turns a side's survivor key back
into the units left; ``describe_model`` unpacks a model into named records, for debugging.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from oddsim._runtime import interpreted as _interpreted
from oddsim.engines.dice import low_luck_strength
from oddsim.engines.lowering import SUBMERGE_NEVER, LoweredBattle, SideArrays, lower
from oddsim.engines.montecarlo import _kernel as k
from oddsim.engines.montecarlo import _rng
from oddsim.engines.montecarlo._layout import (
    HEADER,
    HEADER_WIDTH,
    LINE,
    LINE_WIDTH,
    PLAIN,
    RULES,
    RULES_WIDTH,
    SCALARS,
    SCALARS_WIDTH,
    STEP,
    STEP_WIDTH,
    SUPPORT,
    SUPPORT_WIDTH,
    UNIT_TYPE_WIDTH,
    unpack_model,
)
from oddsim.errors import BattleError, OddsimError
from oddsim.model.battle import Battle
from oddsim.results.battle_result import Survivors, merge_rows, survivor_row

MAX_EXACT_KEYS = 2**20
"""Survivor histograms keep every end state while a side has at most this many; beyond it each
side keeps ``KEPT_SLOTS`` end states one by one and counts the rest as "other" (see
``_count_end_state`` in ``_kernel`` and ``simulate``)."""
KEPT_SLOTS = 524_287
"""End states kept one by one per side in a battle with too many of them (a prime: slot = 1 +
key mod KEPT_SLOTS); 4 MiB per histogram row."""
LANDED_CATEGORY = 4
"""The survivor-key category of the attacker's landed units (after the kernel's four): apart,
because after a retreat they go on losing units while the others do not. In a sea battle (no
units landed) it holds the destroyer a side keeps last, which leaves its category's order."""
N_KEY_CATEGORIES = 5
INTERPRETED_UNITS = 150
"""On a cold cache a plain battle of at most this many units builds its tables with the kernels
interpreted (``_with_plain_section``: 5 ms for 10 units, at most some 0.2 s, where compiling the
kernels takes 3-5 s), within ``interpreted.TABLES_BUDGET_SECONDS`` per process."""


@dataclass(frozen=True)
class KernelModel:
    """The battle as the kernel reads it: one int64 ``model`` array holding both sides' tables,
    the rules and the dice tables behind a header (see ``_kernel``), and each side's layout."""

    model: np.ndarray
    sides: tuple[SideLayout, SideLayout]
    key_coarse: bool  # more than MAX_EXACT_KEYS end states: each side keeps KEPT_SLOTS of them
    retreats: bool  # the attacker may end in a retreat: its histogram holds retreated keys too

    @property
    def n_keys(self) -> tuple[int, int]:
        """Histogram size per side: the keys of a battle fought to the end, again for a
        retreated attacker, and all that again for a side with units departed."""
        if self.key_coarse:
            return KEPT_SLOTS + 1, KEPT_SLOTS + 1
        a, d = (side.n_keys() * side.layers for side in self.sides)
        return a, d

    @property
    def swing_values(self) -> int:
        """Size of the TUV swing histogram: every swing from -(attacker's total IPC) to the
        defender's total IPC."""
        return int(sum(side.scalars[SCALARS.total_ipc] for side in self.sides)) + 1

    @classmethod
    def build(cls, battle: Battle, low: LoweredBattle) -> KernelModel:
        flags = (k.AIR * low.is_air + k.SUB * low.is_sub + k.DESTROYER * low.is_destroyer
                 + k.LAND * low.is_land + k.DEFENCELESS * low.defenceless).astype(np.int64)
        has_subs = [bool(np.any(low.is_sub[s.step_unit])) for s in (low.attacker, low.defender)]
        drafts = (
            SideLayout.build(low, low.attacker, 0, flags, low.attacker_subs_first,
                             air_restrictable=low.air_needs_destroyer and has_subs[1]),
            SideLayout.build(low, low.defender, 1, flags, low.defender_subs_first,
                             air_restrictable=low.air_needs_destroyer and has_subs[0]))
        key_coarse = max(side.n_keys() for side in drafts) > MAX_EXACT_KEYS
        # which sides may have units leave the battle early: subs that may submerge, or an
        # attacker with landed units and a retreat policy (the others retreat, they fight on)
        submerges = [side.submerge != SUBMERGE_NEVER and bool(np.any(low.is_sub[side.step_unit]))
                     for side in (low.attacker, low.defender)]
        partial = battle.retreat is not None and bool(np.any(low.attacker.step_landed))
        departs = [submerges[0] or partial, submerges[1]]
        retreats = battle.retreat is not None or departs[0]
        verb = "submerged" if battle.sea else "retreated"
        attacker, defender = (side.with_keys(row == 0 and retreats, departs[row], verb)
                              for row, side in enumerate(drafts))
        sides = (attacker, defender)
        steps, lines, types, support, scalars, value_lines = (
            _stack([getattr(side, name) for side in sides])
            for name in ("steps", "lines", "types", "support", "scalars", "value_lines"))
        for row, side in enumerate(sides):
            scalars[row, SCALARS.keys] = side.n_keys()
            scalars[row, SCALARS.departed_key] = side.departed_key
        aa_dice = low.aa_dice
        rules = _rules(battle, low, sides, scalars, aa_dice, key_coarse)
        rules[RULES.submerge] = any(submerges)
        rules[RULES.start_boundary] = rules[RULES.submerge] and low.submerge_at_start
        rules[RULES.partial_retreat] = partial
        tables = (steps, lines, types, support, scalars, rules, _retreat_section(battle, steps.shape[1]),
                  _bombard_table(low), value_lines)
        # a plain battle draws its hits from its own section (casualty counts cannot say who
        # retreated, so not with a partial retreat): its lines need no binomial tables, unless
        # that section is too big and it takes the general path after all
        plain = bool(rules[RULES.plain]) and not partial
        model = _pack(low, sides, tables, aa_dice, line_tables=not plain)
        if plain:  # (small, cold cache: its tables interpreted, the same bits; only the battles compile)
            units = int(low.attacker.count.sum() + low.defender.count.sum())
            with _interpreted.tables(units <= INTERPRETED_UNITS):
                model = _interpreted.carried(_with_plain_section)(model, sides, low.low_luck, aa_dice)
            if model[HEADER.plain] < 0:
                model = _pack(low, sides, tables, aa_dice, line_tables=True)
        return cls(model, sides, key_coarse, retreats)


def _pack(low: LoweredBattle, sides: tuple[SideLayout, SideLayout],
          tables: tuple[np.ndarray, ...], aa_dice: int, line_tables: bool) -> np.ndarray:
    """The model: the header, then the stacked ``tables`` (steps, lines, types, support,
    scalars, rules, retreat table, bombardment), then the binomial alias tables: of every line's
    hit chance with ``line_tables``, else only the AA dice's (all a plain battle rolls)."""
    steps, lines, types, support, scalars, rules, retreat, bombard, value_lines = (
        t.copy() for t in tables)
    chances, row_start, cells = _dice_tables(low, sides, aa_dice, line_tables)
    header = np.zeros(HEADER_WIDTH, dtype=np.int64)
    rows = np.zeros_like(row_start)
    parts: list[np.ndarray] = [header]
    for field, table in ((HEADER.steps, steps), (HEADER.lines, lines), (HEADER.types, types),
                         (HEADER.support, support), (HEADER.scalars, scalars), (HEADER.rules, rules),
                         (HEADER.retreat, retreat), (HEADER.value_lines, value_lines),
                         (None, bombard), (None, rows), (None, cells)):
        if field is not None:
            header[field] = sum(part.size for part in parts)
        if table is bombard:
            rules[RULES.bombard_row] = sum(part.size for part in parts)
        parts.append(table)
    if retreat.size == 0:
        header[HEADER.retreat] = -1
    header[HEADER.plain] = -1
    rows_at = sum(part.size for part in parts[:-2])
    cells_at = rows_at + rows.size
    rows[...] = np.where(row_start >= 0, cells_at + _rng.CELL_FIELDS * row_start, -1)
    # each line's alias tables: the row of its hit chance (the lines' records hold keys)
    row_of = {chance: rows_at + i * rows.shape[1] for i, chance in enumerate(chances)}
    for row, side in enumerate(sides):
        for line, chance in enumerate(side.line_chance):
            lines[row, line, LINE.rows] = row_of.get(chance, -1)
    rules[RULES.aa_rows] = row_of.get(_rng.hit_chance(low.aa_hit, low.dice_sides), -1)
    header[HEADER.step_side] = steps[0].size
    header[HEADER.line_side] = lines[0].size
    header[HEADER.type_side] = types[0].size
    header[HEADER.support_side] = support[0].size
    header[HEADER.support_rule] = support[0, 0].size
    header[HEADER.scalar_side] = scalars[0].size
    header[HEADER.value_line_side] = value_lines[0].size
    (header[HEADER.width], header[HEADER.dice_at], header[HEADER.alive_at], header[HEADER.raised_at],
     header[HEADER.gone_at], header[HEADER.left_at]) = k.state_offsets(
        steps.shape[1], lines.shape[1], types.shape[1], support.shape[1])
    return np.concatenate([part.ravel() for part in parts])


def describe_model(model: KernelModel | Battle) -> dict[str, Any]:
    """The packed model of a battle (or a built ``KernelModel``) unpacked into named records, for
    debugging: the header, the battle's rules, and per side its scalars, loss steps, firing lines,
    unit types and support rules, each a dict named by its ``_layout`` fields; plus the retreat
    table's head and the plain section's chains where the model has them.

    Given a Battle, each unit type and loss step also names its ``unit``.
    ``describe_model(Battle(rules="1942-2e", attacker="3 inf, 1 art", defender="2 inf"))``
    """
    names = None
    if isinstance(model, Battle):
        names = [unit.name for unit in model.rules.units]
        model = KernelModel.build(model, lower(model))
    out = unpack_model(model.model)
    if names is not None:
        for layout, side in zip(model.sides, (out["attacker"], out["defender"]), strict=True):
            present = [names[t] for t in np.flatnonzero(layout.side.count > 0)]
            for record, unit in zip(side["types"], present, strict=True):
                record["unit"] = unit
            for record in side["steps"]:
                record["unit"] = present[record["type"]]
    return out


MAX_PLAIN_WORK = 2**24
"""Plain battles are fought on casualty counts (``_kernel._fight_plain``) when their tables cost
at most this many steps to build (per chain: its records' words, plus its rolls summed over
casualty counts times its most rolls), which also bounds their memory; bigger ones take the
general path."""


def _with_plain_section(model: np.ndarray, sides: tuple[SideLayout, SideLayout],
                        low_luck: bool, aa_dice: int) -> np.ndarray:
    """``model`` with the section of a plain battle: for the defender's chain and the attacker's
    (one per number of aircraft AA may shoot down) and each number of casualties, the side's
    hits' alias table (or strength) and what it reports. Unchanged when that is too big."""
    chains = [(sides[1], k.plain_profile(model, k.DEFENDER, np.int64(0))),
              (sides[0], k.plain_profile(model, k.ATTACKER, np.int64(0)))]
    # the attacker's chains after AA hits are no bigger than the one without
    sizes = [records.size + (0 if low_luck else int(dice.sum()) * max(1, int(dice.sum(axis=1).max())))
             for _, (dice, records) in chains]
    if sizes[0] + (aa_dice + 1) * sizes[1] > MAX_PLAIN_WORK:
        return model
    chains += [(sides[0], k.plain_profile(model, k.ATTACKER, np.int64(hits)))
               for hits in range(1, aa_dice + 1)]
    head = np.zeros((len(chains), 2), dtype=np.int64)
    at = model.size + head.size
    for row, (_, (_, records)) in enumerate(chains):
        head[row] = records.shape[0] - 1, at
        at += records.size
    tables = []
    for side, (dice, records) in chains:
        if not low_luck:  # PL_ROW held the strength: replace it with the alias table
            row_start, row_cells, cells = _rng.sum_tables(
                np.array(side.line_chance, dtype=np.float64), dice)
            records[:, PLAIN.row] = at + _rng.CELL_FIELDS * row_start
            records[:, PLAIN.cells] = row_cells
            at += cells.size
            tables.append(cells.ravel())
    out = np.concatenate([model, head.ravel(), *(records.ravel() for _, (_, records) in chains),
                          *tables])
    out[HEADER.plain] = model.size
    return out


def _rules(battle: Battle, low: LoweredBattle, sides: tuple[SideLayout, SideLayout],
           scalars: np.ndarray, aa_dice: int, key_coarse: bool) -> np.ndarray:
    """The kernel's rules vector (the AA rows are filled in once the tables are placed)."""
    rules = np.zeros(RULES_WIDTH, dtype=np.int64)
    rules[RULES.air_needs_destroyer] = low.air_needs_destroyer
    rules[RULES.aa_dice] = aa_dice
    rules[RULES.aa_strength] = aa_dice * low.aa_hit
    rules[RULES.defender_holds] = sides[1].has_non_combatants
    rules[RULES.land_battle] = battle.is_land
    rules[RULES.key_coarse] = key_coarse
    # plain: every hit takes the next unit in order (no destroyer moving with the enemy's subs)
    rules[RULES.plain] = (not np.any(scalars[:, [SCALARS.sub_lines, SCALARS.air_lines]])
                          and bool(np.all(scalars[:, SCALARS.kept] < 0)))
    rules[RULES.no_stalemate] = rules[RULES.plain] and all(side.always_hits for side in sides)
    rules[RULES.low_luck] = low.low_luck
    rules[RULES.dice_sides] = low.dice_sides
    policy = battle.retreat
    if policy is not None:
        rules[RULES.retreat_after] = policy.after_round or 0
    rules[RULES.retreat_units] = -1
    if policy is not None and policy.units_left is not None:
        rules[RULES.retreat_units] = policy.units_left
    rules[RULES.retreat_strafe] = -1
    if policy is not None and policy.strafe is not None:
        rules[RULES.retreat_strafe] = policy.strafe
    dice = low.bombard_dice
    rules[RULES.bombard_strength] = int(np.arange(len(dice)) @ dice)
    rules[RULES.bombard_cells] = 0 if low.low_luck else int(dice.sum()) + 1
    rules[RULES.bombard_fire_back] = low.bombard_fire_back
    rules[RULES.strike_rounds] = 1 if low.subs_first_round_one else -1
    return rules


def _bombard_table(low: LoweredBattle) -> np.ndarray:
    """The alias table of the bombardment's hits (the sum of one binomial per die value), its
    cells' count and Low Luck strength put in the rules by the caller; empty with Low Luck or
    no bombardment."""
    dice = low.bombard_dice
    if low.low_luck or not dice.sum():
        return np.zeros(0, dtype=np.int64)
    values = np.flatnonzero(dice)
    chances = np.array([_rng.hit_chance(int(v), low.dice_sides) for v in values], dtype=np.float64)
    _, _, cells = _rng.sum_tables(chances, dice[values].reshape(1, -1))
    return cells.ravel()


def _retreat_section(battle: Battle, step_width: int) -> np.ndarray:
    """The exact engine's retreat decisions, for the rules that need exact odds (chance to win
    by fighting on, chance to lose an aircraft next round) and for the best retreat (the policy
    table the exact engine computed, played as it is): defender states, each side's layer
    size (added to its index while it has units departed), each side's step strides
    (``step_width`` each), then one decision per joint state. Empty when not needed."""
    policy = battle.retreat
    if policy is None or (policy.below_win is None and policy.aircraft_risk is None
                          and policy.best is None):
        return np.zeros(0, dtype=np.int64)
    from oddsim.engines.exact import retreat_table

    try:
        table = retreat_table(battle)
    except OddsimError as error:
        reason = str(error).split("; use ")[0]  # its own fix (Monte Carlo) is what failed here
        raise BattleError(f"the Monte Carlo engine takes 'below win', 'aircraft risk' and best retreat "
                          f"decisions from the exact engine, which cannot take this battle ({reason}): "
                          f"retreat by a threshold instead (--retreat-units, --retreat-after-round or "
                          f"--retreat-strafe)") from None
    strides = np.zeros((2, step_width), dtype=np.int64)
    strides[0, : len(table.attacker_step_stride)] = table.attacker_step_stride
    strides[1, : len(table.defender_step_stride)] = table.defender_step_stride
    layers = [getattr(table, "attacker_layer_size", 0), getattr(table, "defender_layer_size", 0)]
    return np.concatenate(([table.n_defender_states], layers, strides.ravel(),
                           table.retreat.astype(np.int64)))


def _dice_tables(low: LoweredBattle, sides: tuple[SideLayout, SideLayout], aa_dice: int,
                 line_tables: bool = True) -> tuple[list[float], np.ndarray, np.ndarray]:
    """Binomial tables for every hit chance some roll may use, up to the most rolls it may
    have: ``(chances, row_start, cells)``; without ``line_tables``, only the AA dice's table
    for its number of dice (built as a sum table, the same cells, so a plain battle never
    compiles ``binomial_tables``). None are needed with Low Luck."""
    most: dict[float, int] = {}
    if not low.low_luck:
        for side in sides:
            for chance in side.line_chance:
                most[chance] = max(most.get(chance, 0), side.fighting_rolls)
        if aa_dice:
            chance = _rng.hit_chance(low.aa_hit, low.dice_sides)
            most[chance] = max(most.get(chance, 0), aa_dice)
    if any(n > _rng.MAX_DICE for n in most.values()):
        raise BattleError(f"a side may roll at most {_rng.MAX_DICE} dice at once in the Monte "
                          f"Carlo engine")
    if not line_tables:
        if low.low_luck or not aa_dice:
            return [], np.full((1, 1), -1, dtype=np.int64), np.zeros((0, _rng.CELL_FIELDS), dtype=np.int64)
        chance = _rng.hit_chance(low.aa_hit, low.dice_sides)
        row_start = np.full((1, aa_dice + 1), -1, dtype=np.int64)
        starts, _, cells = _rng.sum_tables(np.array([chance]), np.array([[aa_dice]], dtype=np.int64))
        row_start[0, aa_dice] = starts[0]
        return [chance], row_start, cells
    chances = sorted(most)
    row_start, cells = _rng.binomial_tables(np.array(chances, dtype=np.float64),
                                            np.array([most[c] for c in chances], dtype=np.int64))
    return chances, row_start, cells


def _bonus_values(low: LoweredBattle, rules: list[int], supported: list[np.ndarray],
                  value: np.ndarray, fires: np.ndarray) -> dict[int, set[int]]:
    """Bonus support: every value each firing unit type (index among those present) may roll at,
    its own plus at most one bonus of each bonus type that covers it, kept within 0..sides."""
    reach: dict[int, set[int]] = {}
    for t in map(int, np.flatnonzero(fires)):
        sums = {int(value[t])}
        for group in sorted({int(low.support_group[r]) for r in rules}):
            bonuses = {int(low.support_bonus[r]) for i, r in enumerate(rules)
                       if low.support_group[r] == group and supported[i][t]}
            sums |= {v + b for v in sums for b in bonuses}
        reach[t] = {min(max(v, 0), low.dice_sides) for v in sums}
    return reach


def _stack(parts: list[np.ndarray]) -> np.ndarray:
    """Stack the two sides' tables, padding every axis with zeros to the larger (at least 1)."""
    shape = [max(1, *(p.shape[axis] for p in parts)) for axis in range(parts[0].ndim)]
    out = np.zeros((len(parts), *shape), dtype=np.int64)
    for row, part in enumerate(parts):
        index: tuple[int | slice, ...] = (row, *(slice(0, n) for n in part.shape))
        out[index] = part
    return out


@dataclass(frozen=True)
class SideLayout:
    """One side in the kernel's terms: its unit types present, firing lines, loss steps, active
    support rules and survivor-key layout. Built once (``build``, then ``with_keys``), never
    changed; its arrays are read-only.

    A firing line holds the units of one group (submarines; aircraft, where their hits may be
    barred from submarines; everything else) whose rolls hit with the same chance: the same
    value, dice per unit and dice rule (heavy bombers roll two dice, or the best of two).
    """

    side: SideArrays
    steps: np.ndarray  # (loss steps, STEP_WIDTH): its Step records
    lines: np.ndarray  # (lines, LINE_WIDTH): its Line records (rows set when the model is packed)
    types: np.ndarray  # (types present, UNIT_TYPE_WIDTH)
    support: np.ndarray  # (active support rules, types present, SUPPORT_WIDTH)
    value_lines: np.ndarray  # bonus support: (types present, dice sides + 1), the line of each value
    scalars: np.ndarray  # SCALARS_WIDTH + one per active support rule (keys set when packed)
    line_chance: tuple[float, ...]  # each line's chance that one roll hits
    category: np.ndarray  # each loss step's survivor-key category
    category_len: np.ndarray  # slots per key category
    key_stride: np.ndarray  # each key category's stride in the mixed-radix survivor key
    units: int  # units that can be casualties
    has_non_combatants: bool  # units that cannot be casualties (AA guns out of their role...)
    fighting_rolls: int  # rolls of all its units that fight
    always_hits: bool  # every unit that fights can hit
    departing: np.ndarray  # per loss step: its survivors departed when the side has units departed
    retreat_key: int = 0  # where its retreated keys start (0: none)
    departed_key: int = 0  # where its keys with units departed start (0: none)
    layers: int = 1  # copies of its key space: fought out, retreated, with units departed
    verb: str = "retreated"  # what its departed units did, for survivor rows

    @classmethod
    def build(cls, low: LoweredBattle, side: SideArrays, row: int, flags: np.ndarray,
              subs_first: bool, air_restrictable: bool) -> SideLayout:
        """The side's layout, before the battle-wide survivor-key choices (``with_keys``)."""
        types = np.flatnonzero(side.count > 0)
        n_types = len(types)
        type_flags = flags[types]
        value = np.clip(side.value[types], 0, low.dice_sides)
        dice = side.dice[types]
        best_of = side.best_of[types]
        rolls = np.where(best_of, 1, dice)  # rolls per unit: the best of several dice is one
        group = [int(k.G_SUB) if f & k.SUB else int(k.G_AIR) if f & k.AIR and air_restrictable
                 else int(k.G_OTHER) for f in type_flags]
        fires = (type_flags & k.DEFENCELESS) == 0
        rules: list[int] = []
        supporter: list[np.ndarray] = []
        supported: list[np.ndarray] = []
        adds = low.support_adds
        for r in map(int, np.flatnonzero(low.support_side == row)):
            helps = low.support_supporter[r][types]
            helped = low.support_supported[r][types] & fires & (
                True if adds else value < low.support_value[r])
            if helps.any() and helped.any():  # a rule with nobody to act on is left out
                rules.append(r)
                supporter.append(helps)
                supported.append(helped)
        role = np.zeros(n_types, dtype=bool)  # units whose loss changes the support
        for helps, helped in zip(supporter, supported, strict=True):
            role |= helps | helped

        def key(t: int, v: int) -> tuple[int, int, int, bool]:
            return group[t], int(v), int(dice[t]), bool(best_of[t])

        keys = {key(t, value[t]) for t in range(n_types) if fires[t] and (value[t] > 0 or role[t])}
        if adds and len(rules) > 62:  # (the kernel marks a unit's bonus types in one int64)
            raise BattleError("the Monte Carlo engine takes at most 62 bonus support rules a side")
        reach = _bonus_values(low, rules, supported, value, fires) if adds else {}
        if adds:
            keys |= {key(t, v) for t, values in reach.items() for v in values if v > 0}
        else:
            keys |= {key(t, low.support_value[r]) for i, r in enumerate(rules)
                     for t in range(n_types) if supported[i][t]}
        ordered = sorted(keys)  # by group: submarine lines, then aircraft, then the rest
        line = {key: i for i, key in enumerate(ordered)}
        type_line = np.array([line.get(key(t, value[t]), -1) if fires[t] else -1
                              for t in range(n_types)], dtype=np.int64)
        support = np.zeros((len(rules), n_types, SUPPORT_WIDTH), dtype=np.int64)
        for i, r in enumerate(rules):
            support[i, :, SUPPORT.supporter] = supporter[i]
            support[i, :, SUPPORT.supported] = supported[i]
            support[i, :, SUPPORT.line] = [line[key(t, low.support_value[r])]
                                           if supported[i][t] and not adds else 0
                                           for t in range(n_types)]
            support[i, :, SUPPORT.bonus] = low.support_bonus[r]
            support[i, :, SUPPORT.group] = low.support_group[r]
        value_lines = np.full((n_types, low.dice_sides + 1) if adds else (0, 0), -1, dtype=np.int64)
        for t, values in reach.items():
            for v in values:
                value_lines[t, v] = line[key(t, v)] if v > 0 else -1
        position_of = {int(u): i for i, u in enumerate(types)}
        order = [position_of[int(u)] for u in low.support_order[row] if int(u) in position_of]
        position = {int(t): i for i, t in enumerate(types)}
        step_type = np.array([position[int(u)] for u in side.step_unit], dtype=np.int64)
        kill = side.step_kill.astype(np.int64)
        step_flags = flags[side.step_unit]
        recount = kill * role[step_type]
        steps = np.zeros((len(step_type), STEP_WIDTH), dtype=np.int64)
        steps[:, STEP.type] = step_type
        steps[:, STEP.kill] = kill
        steps[:, STEP.size] = side.step_count
        steps[:, STEP.category] = step_flags & 3
        steps[:, STEP.cost] = kill * low.cost[side.step_unit]
        steps[:, STEP.fighting] = kill * ((step_flags & k.DEFENCELESS) == 0)
        steps[:, STEP.destroyer] = kill * ((step_flags & k.DESTROYER) != 0)
        steps[:, STEP.land] = kill * ((step_flags & k.LAND) != 0)
        steps[:, STEP.line] = np.where((kill == 1) & (recount == 0), type_line[step_type], -1)
        steps[:, STEP.rolls] = rolls[step_type]
        steps[:, STEP.recount] = recount
        steps[:, STEP.landed] = side.step_landed
        lines = np.zeros((len(ordered), LINE_WIDTH), dtype=np.int64)
        lines[:, LINE.value] = [v for _, v, _, _ in ordered]
        # (a roll's: a unit rolls n dice at v, or one for the best of n)
        lines[:, LINE.strength] = [low_luck_strength(v, n, True, low.dice_sides) if best else v
                                   for _, v, n, best in ordered]
        category = np.where(side.step_landed != 0, LANDED_CATEGORY, steps[:, STEP.category])
        if side.reserved_step >= 0:  # the kept destroyer leaves its category's order: its own count
            category[side.reserved_step] = LANDED_CATEGORY  # (a sea battle: no units landed)
        category_len = np.array([side.step_count[category == c].sum()
                                 for c in range(N_KEY_CATEGORIES)], dtype=np.int64)
        key_stride = np.cumprod(np.concatenate(([1], category_len[:-1] + 1)))
        steps[:, STEP.key] = key_stride[category]
        units = int((side.step_count * kill).sum())
        groups = [g for g, _, _, _ in ordered]
        scalars = np.zeros(SCALARS_WIDTH + len(rules), dtype=np.int64)
        scalars[SCALARS.steps] = len(step_type)
        scalars[SCALARS.types] = n_types
        scalars[SCALARS.lines] = len(ordered)
        scalars[SCALARS.sub_lines] = groups.count(int(k.G_SUB))
        scalars[SCALARS.air_lines] = groups.count(int(k.G_AIR))
        scalars[SCALARS.rules] = len(rules)
        scalars[SCALARS.subs_first] = subs_first and int(k.G_SUB) in groups
        scalars[SCALARS.total_ipc] = int(steps[:, STEP.cost] @ side.step_count)
        scalars[SCALARS.dead_key] = int(category_len @ key_stride)
        scalars[SCALARS.submerge] = side.submerge
        scalars[SCALARS.kept] = side.reserved_step
        scalars[SCALARS.kept_before] = side.reserve_before
        scalars[SCALARS.adds] = adds
        for i, r in enumerate(rules):
            scalars[SCALARS_WIDTH + i] = low.support_per[r]
        # the steps whose survivors departed when the side has units departed: its subs, or
        # (an attacker that retreated while its landed units fought on) its units not landed
        departing = ((flags[side.step_unit] & k.SUB) != 0 if side.submerge != SUBMERGE_NEVER
                     else side.step_landed == 0)
        arrays = dict(steps=steps, lines=lines, support=support, scalars=scalars,
                      value_lines=value_lines,
                      types=np.stack([type_line, rolls, np.array(order, dtype=np.int64)],
                                     axis=1).reshape(n_types, UNIT_TYPE_WIDTH),
                      category=category, category_len=category_len, key_stride=key_stride,
                      departing=departing)
        for array in arrays.values():
            array.flags.writeable = False
        return cls(side=side, line_chance=tuple(_rng.hit_chance(v, low.dice_sides, n, best)
                                              for _, v, n, best in ordered),
                   units=units, has_non_combatants=units < int(side.count.sum()),
                   fighting_rolls=int((side.count[types] * rolls)[fires].sum()),
                   always_hits=bool(np.all(value[fires] > 0))
                   and not any(0 in values for values in reach.values()), **arrays)

    def with_keys(self, retreats: bool, departs: bool, verb: str) -> SideLayout:
        """The layout with its survivor-key space laid out: the keys of a battle fought to the
        end, then (``retreats``) those of a retreated attacker, then (``departs``) all that
        again with units departed."""
        base = self.n_keys()
        retreat_key = base if retreats else 0
        departed_key = base * (2 if retreats else 1) if departs else 0
        return replace(self, retreat_key=retreat_key, departed_key=departed_key,
                       layers=(2 if retreats else 1) * (2 if departs else 1), verb=verb)

    def n_keys(self) -> int:
        """Number of the side's end states (survivor keys) for a battle fought to the end."""
        return int(np.prod(self.category_len + 1))


class SurvivorCodec:
    """Turns one side's survivor keys back into units left.

    An exact key counts the casualties in each key category (land/surface, air, submarine, both,
    and the attacker's landed units): every kind of hit that may take one unit of a category may
    take any unit of it, and landed units are lost first of their type and alone after a
    retreat, so each category always loses its units in its order of loss and these counts say
    exactly what is left. Keys from ``layout.retreat_key`` on are those of a retreated
    attacker, and all keys from ``layout.departed_key`` on those of a side with units departed:
    its survivors in ``layout.departing`` steps left the battle early. In a battle with more
    than ``MAX_EXACT_KEYS`` end states (``coarse``), the histogram has ``KEPT_SLOTS`` slots, each
    holding the end state named in ``held``, and slot 0 the other end states (``held[0]``: the
    sum of their IPCs left).
    """

    def __init__(self, low: LoweredBattle, layout: SideLayout, coarse: bool,
                 names: list[str]) -> None:
        self.low = low
        self.layout = layout
        self.side = layout.side
        self.names = names
        self.coarse = coarse
        self.n_keys = layout.n_keys()
        self.category_len = layout.category_len
        self.stride = layout.key_stride
        self.category = layout.category

    def table(self, hist: np.ndarray, held: np.ndarray, battles: int) -> tuple[Survivors, ...]:
        """The side's survivor rows from its histogram (``held``: which end state each slot
        keeps, in a battle with too many), each with its binomial standard error."""
        rows = []
        layout = self.layout
        for slot in np.flatnonzero(hist):
            p = hist[slot] / battles
            if self.coarse and slot == 0:
                rows.append(Survivors({}, p, ipc=float(held[0] / hist[0]), other=int(hist[0])))
                continue
            key = int(held[slot]) - 1 if self.coarse else int(slot)
            departed = 0 < layout.departed_key <= key
            rest = key - layout.departed_key if departed else key
            retreated = 0 < layout.retreat_key <= rest
            rows.append(self._exact(rest % self.n_keys, departed, retreated, p))
        return merge_rows(rows, battles)

    def _exact(self, key: int, departed: bool, retreated: bool, p: float) -> Survivors:
        lost = (key // self.stride) % (self.category_len + 1)
        alive = np.zeros(len(self.low.cost), dtype=np.int64)
        damage = np.zeros(len(self.low.cost), dtype=np.int64)
        gone = np.zeros(len(self.low.cost), dtype=np.int64)
        for unit, kill, n, category, leaves in zip(
                self.side.step_unit, self.side.step_kill, self.side.step_count, self.category,
                self.layout.departing, strict=True):
            taken = min(n, lost[category])
            lost[category] -= taken
            if kill:
                alive[unit] += n - taken
                if departed and leaves:
                    gone[unit] += n - taken
            else:
                damage[unit] += taken
        damaged = np.minimum(alive, self.side.damaged + damage)
        return survivor_row(self.names, alive, damaged, gone, p, int((alive * self.low.cost).sum()),
                            self.layout.verb, retreated)
