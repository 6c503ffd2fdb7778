"""The battle as the Monte Carlo kernel reads it, and the kernel's survivor keys read back.

``KernelModel.build`` turns a lowered battle into one int64 ``model`` array (the layout is in
``_kernel``): each side's loss steps, firing lines (units whose rolls hit with the same chance and
may take the same units), unit types, active support rules and scalars, the battle's rules, the
binomial alias tables, the bombardment's alias table, for retreat rules that need exact odds the
exact engine's retreat decisions and, for plain battles, their tables by casualty count
(``_with_plain_section``). ``SurvivorCodec`` turns a side's survivor key back into the units
left.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from oddsim.battle import Battle
from oddsim.errors import BattleError, OddsimError
from oddsim.lowering import SUBMERGE_NEVER, LoweredBattle, SideArrays
from oddsim.montecarlo import _kernel as k
from oddsim.montecarlo import _rng
from oddsim.result import Survivors, merge_rows, survivor_row

MAX_EXACT_KEYS = 2**20
"""Survivor histograms keep every end state while a side has at most this many; beyond it each
side keeps ``KEPT_SLOTS`` end states one by one and counts the rest as "other" (see ``_keep`` in
``_kernel`` and ``simulate``)."""
KEPT_SLOTS = 524_287
"""End states kept one by one per side in a battle with too many of them (a prime: slot = 1 +
key mod KEPT_SLOTS); 4 MiB per histogram row."""
LANDED_CATEGORY = 4
"""The survivor-key category of the attacker's landed units (after the kernel's four): apart,
because after a retreat they go on losing units while the others do not."""
N_KEY_CATEGORIES = 5


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

    @classmethod
    def build(cls, battle: Battle, low: LoweredBattle) -> KernelModel:
        flags = (k.AIR * low.is_air + k.SUB * low.is_sub + k.DESTROYER * low.is_destroyer
                 + k.LAND * low.is_land + k.DEFENCELESS * low.defenceless).astype(np.int64)
        has_subs = [bool(np.any(low.is_sub[s.step_unit])) for s in (low.attacker, low.defender)]
        sides = (
            SideLayout(low, low.attacker, 0, flags, low.attacker_subs_first,
                       air_restrictable=low.air_needs_destroyer and has_subs[1]),
            SideLayout(low, low.defender, 1, flags, low.defender_subs_first,
                       air_restrictable=low.air_needs_destroyer and has_subs[0]))
        key_coarse = max(side.n_keys() for side in sides) > MAX_EXACT_KEYS
        # which sides may have units leave the battle early: subs that may submerge, or an
        # attacker with landed units and a retreat policy (the others retreat, they fight on)
        submerges = [side.submerge != SUBMERGE_NEVER and bool(np.any(low.is_sub[side.step_unit]))
                     for side in (low.attacker, low.defender)]
        partial = battle.retreat is not None and bool(np.any(low.attacker.step_landed))
        departs = [submerges[0] or partial, submerges[1]]
        retreats = battle.retreat is not None or departs[0]
        for row, side in enumerate(sides):
            base = side.n_keys()
            side.scalars[k.SC_KEYS] = base
            side.retreat_key = base if row == 0 and retreats else 0
            side.departed_key = base * (2 if side.retreat_key else 1) if departs[row] else 0
            side.scalars[k.SC_DEPARTED_KEY] = side.departed_key
            side.layers = (2 if side.retreat_key else 1) * (2 if departs[row] else 1)
            side.verb = "submerged" if battle.sea else "retreated"
        steps, lines, types, support, scalars = (
            _stack([side.records[name] for side in sides])
            for name in ("steps", "lines", "types", "support", "scalars"))
        aa_dice = _aa_dice(battle, low)
        chances, row_start, cells = _dice_tables(low, sides, aa_dice)
        rules = _rules(battle, low, sides, scalars, aa_dice, key_coarse)
        rules[k.R_SUBMERGE] = any(submerges)
        rules[k.R_START_BOUNDARY] = rules[k.R_SUBMERGE] and low.submerge_at_start
        rules[k.R_PARTIAL_RETREAT] = partial
        retreat = _retreat_section(battle, steps.shape[1])
        bombard = _bombard_table(low)
        header = np.zeros(k.N_HEADER, dtype=np.int64)
        rows = np.zeros_like(row_start)
        parts: list[np.ndarray] = [header]
        for field, table in ((k.H_STEPS, steps), (k.H_LINES, lines), (k.H_TYPES, types),
                             (k.H_SUPPORT, support), (k.H_SCALARS, scalars), (k.H_RULES, rules),
                             (k.H_RETREAT, retreat), (None, bombard), (None, rows), (None, cells)):
            if field is not None:
                header[field] = sum(part.size for part in parts)
            if table is bombard:
                rules[k.R_BOMBARD_ROW] = sum(part.size for part in parts)
            parts.append(table)
        if retreat.size == 0:
            header[k.H_RETREAT] = -1
        header[k.H_PLAIN] = -1
        rows_at = sum(part.size for part in parts[:-2])
        cells_at = rows_at + rows.size
        rows[...] = np.where(row_start >= 0, cells_at + _rng.CELL_FIELDS * row_start, -1)
        # each line's alias tables: the row of its hit chance (the lines' records hold keys)
        row_of = {chance: rows_at + i * rows.shape[1] for i, chance in enumerate(chances)}
        for row, side in enumerate(sides):
            for line, chance in enumerate(side.line_chance):
                lines[row, line, k.L_ROWS] = row_of.get(chance, -1)
        aa_chance = _rng.hit_chance(low.aa_hit)
        rules[k.R_AA_ROWS] = row_of.get(aa_chance, -1)
        header[k.H_STEP_SIDE] = steps[0].size
        header[k.H_LINE_SIDE] = lines[0].size
        header[k.H_TYPE_SIDE] = types[0].size
        header[k.H_SUPPORT_SIDE] = support[0].size
        header[k.H_SUPPORT_RULE] = support[0, 0].size
        header[k.H_SCALAR_SIDE] = scalars[0].size
        (header[k.H_WIDTH], header[k.H_DICE_AT], header[k.H_ALIVE_AT], header[k.H_RAISED_AT],
         header[k.H_GONE_AT]) = k.state_offsets(steps.shape[1], lines.shape[1], types.shape[1])
        model = np.concatenate([part.ravel() for part in parts])
        if rules[k.R_PLAIN] and not partial:  # casualty counts cannot say who retreated
            model = _with_plain_section(model, sides, low.low_luck, aa_dice)
        return cls(model, sides, key_coarse, retreats)


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
            records[:, k.PL_ROW] = at + _rng.CELL_FIELDS * row_start
            records[:, k.PL_CELLS] = row_cells
            at += cells.size
            tables.append(cells.ravel())
    out = np.concatenate([model, head.ravel(), *(records.ravel() for _, (_, records) in chains),
                          *tables])
    out[k.H_PLAIN] = model.size
    return out


def _rules(battle: Battle, low: LoweredBattle, sides: tuple[SideLayout, SideLayout],
           scalars: np.ndarray, aa_dice: int, key_coarse: bool) -> np.ndarray:
    """The kernel's rules vector (the AA rows are filled in once the tables are placed)."""
    rules = np.zeros(k.N_RULES, dtype=np.int64)
    rules[k.R_AIR_NEEDS_DESTROYER] = low.air_needs_destroyer
    rules[k.R_AA_DICE] = aa_dice
    rules[k.R_AA_STRENGTH] = aa_dice * low.aa_hit
    rules[k.R_DEFENDER_HOLDS] = sides[1].has_non_combatants
    rules[k.R_LAND_BATTLE] = battle.is_land
    rules[k.R_KEY_COARSE] = key_coarse
    rules[k.R_PLAIN] = not np.any(scalars[:, [k.SC_SUB_LINES, k.SC_AIR_LINES]])
    rules[k.R_NO_STALEMATE] = rules[k.R_PLAIN] and all(side.always_hits for side in sides)
    rules[k.R_LOW_LUCK] = low.low_luck
    policy = battle.retreat
    if policy is not None:
        rules[k.R_RETREAT_AFTER] = policy.after_round or 0
    rules[k.R_RETREAT_UNITS] = -1
    if policy is not None and policy.units_left is not None:
        rules[k.R_RETREAT_UNITS] = policy.units_left
    dice = low.bombard_dice
    rules[k.R_BOMBARD_STRENGTH] = int(np.arange(len(dice)) @ dice)
    rules[k.R_BOMBARD_CELLS] = 0 if low.low_luck else int(dice.sum()) + 1
    rules[k.R_BOMBARD_FIRE_BACK] = low.bombard_fire_back
    return rules


def _bombard_table(low: LoweredBattle) -> np.ndarray:
    """The alias table of the bombardment's hits (the sum of one binomial per die value), its
    cells' count and Low Luck strength put in the rules by the caller; empty with Low Luck or
    no bombardment."""
    dice = low.bombard_dice
    if low.low_luck or not dice.sum():
        return np.zeros(0, dtype=np.int64)
    values = np.flatnonzero(dice)
    chances = np.array([_rng.hit_chance(int(v)) for v in values], dtype=np.float64)
    _, _, cells = _rng.sum_tables(chances, dice[values].reshape(1, -1))
    return cells.ravel()


def _retreat_section(battle: Battle, step_width: int) -> np.ndarray:
    """The exact engine's retreat decisions, for the rules that need exact odds (chance to win
    by fighting on, chance to lose an aircraft next round): defender states, each side's layer
    size (added to its index while it has units departed), each side's step strides
    (``step_width`` each), then one decision per joint state. Empty when not needed."""
    policy = battle.retreat
    if policy is None or (policy.below_win is None and policy.aircraft_risk is None):
        return np.zeros(0, dtype=np.int64)
    from oddsim.exact import retreat_table

    try:
        table = retreat_table(battle)
    except OddsimError as error:
        raise BattleError(f"the Monte Carlo engine takes 'below win' and 'aircraft risk' retreat "
                          f"decisions from the exact engine, which cannot take this battle: "
                          f"{error}") from None
    strides = np.zeros((2, step_width), dtype=np.int64)
    strides[0, : len(table.attacker_step_stride)] = table.attacker_step_stride
    strides[1, : len(table.defender_step_stride)] = table.defender_step_stride
    layers = [getattr(table, "attacker_layer_size", 0), getattr(table, "defender_layer_size", 0)]
    return np.concatenate(([table.n_defender_states], layers, strides.ravel(),
                           table.retreat.astype(np.int64)))


def _dice_tables(low: LoweredBattle, sides: tuple[SideLayout, SideLayout], aa_dice: int):
    """Binomial tables for every hit chance some roll may use, up to the most rolls it may
    have: ``(chances, row_start, cells)``. None are needed with Low Luck."""
    most: dict[float, int] = {}
    if not low.low_luck:
        for side in sides:
            for chance in side.line_chance:
                most[chance] = max(most.get(chance, 0), side.fighting_rolls)
        if aa_dice:
            chance = _rng.hit_chance(low.aa_hit)
            most[chance] = max(most.get(chance, 0), aa_dice)
    if any(n > _rng.MAX_DICE for n in most.values()):
        raise BattleError(f"a side may roll at most {_rng.MAX_DICE} dice at once in the Monte "
                          f"Carlo engine")
    chances = sorted(most)
    row_start, cells = _rng.binomial_tables(np.array(chances, dtype=np.float64),
                                            np.array([most[c] for c in chances], dtype=np.int64))
    return chances, row_start, cells


def _stack(parts: list[np.ndarray]) -> np.ndarray:
    """Stack the two sides' tables, padding every axis with zeros to the larger (at least 1)."""
    shape = [max(1, *(p.shape[axis] for p in parts)) for axis in range(parts[0].ndim)]
    out = np.zeros((len(parts), *shape), dtype=np.int64)
    for row, part in enumerate(parts):
        out[(row, *(slice(0, n) for n in part.shape))] = part
    return out


def _aa_dice(battle: Battle, low: LoweredBattle) -> int:
    """Dice the defender's AA guns roll before the first round (land battles only)."""
    guns = int(low.defender.count[low.is_aa].sum())
    aircraft = int(low.attacker.count[low.is_air].sum())
    if battle.sea or guns == 0 or aircraft == 0:
        return 0
    return min(low.aa_dice_per_gun * guns, aircraft) if low.aa_per_gun else aircraft


class SideLayout:
    """One side in the kernel's terms: its unit types present, firing lines, loss steps, active
    support rules and survivor-key layout.

    A firing line holds the units of one group (submarines; aircraft, where their hits may be
    barred from submarines; everything else) whose rolls hit with the same chance: the same
    value, dice per unit and dice rule (heavy bombers roll two dice, or the best of two).
    """

    def __init__(self, low: LoweredBattle, side: SideArrays, row: int, flags: np.ndarray,
                 subs_first: bool, air_restrictable: bool) -> None:
        self.side = side
        types = np.flatnonzero(side.count > 0)
        n_types = len(types)
        type_flags = flags[types]
        value = np.clip(side.value[types], 0, _rng.DIE_FACES)
        dice = side.dice[types]
        best_of = side.best_of[types]
        rolls = np.where(best_of, 1, dice)  # rolls per unit: the best of several dice is one
        group = [k.G_SUB if f & k.SUB else k.G_AIR if f & k.AIR and air_restrictable
                 else k.G_OTHER for f in type_flags]
        fires = (type_flags & k.DEFENCELESS) == 0
        rules, supporter, supported = [], [], []
        for r in np.flatnonzero(low.support_side == row):
            helps = low.support_supporter[r][types]
            helped = low.support_supported[r][types] & fires & (value < low.support_value[r])
            if helps.any() and helped.any():  # a rule with nobody to act on is left out
                rules.append(int(r))
                supporter.append(helps)
                supported.append(helped)
        role = np.zeros(n_types, dtype=bool)  # units whose loss changes the support
        for helps, helped in zip(supporter, supported, strict=True):
            role |= helps | helped

        def key(t: int, v: int) -> tuple[int, int, int, bool]:
            return group[t], int(v), int(dice[t]), bool(best_of[t])

        keys = {key(t, value[t]) for t in range(n_types) if fires[t] and (value[t] > 0 or role[t])}
        keys |= {key(t, low.support_value[r]) for i, r in enumerate(rules)
                 for t in range(n_types) if supported[i][t]}
        ordered = sorted(keys)  # by group: submarine lines, then aircraft, then the rest
        line = {key: i for i, key in enumerate(ordered)}
        type_line = np.array([line.get(key(t, value[t]), -1) if fires[t] else -1
                              for t in range(n_types)], dtype=np.int64)
        support = np.zeros((len(rules), n_types, k.N_SUPPORT_FIELDS), dtype=np.int64)
        for i, r in enumerate(rules):
            support[i, :, k.P_SUPPORTER] = supporter[i]
            support[i, :, k.P_SUPPORTED] = supported[i]
            support[i, :, k.P_LINE] = [line[key(t, low.support_value[r])] if supported[i][t]
                                       else 0 for t in range(n_types)]
        position = {int(t): i for i, t in enumerate(types)}
        step_type = np.array([position[int(u)] for u in side.step_unit], dtype=np.int64)
        kill = side.step_kill.astype(np.int64)
        step_flags = flags[side.step_unit]
        recount = kill * role[step_type]
        steps = np.zeros((len(step_type), k.N_STEP_FIELDS), dtype=np.int64)
        steps[:, k.F_TYPE] = step_type
        steps[:, k.F_KILL] = kill
        steps[:, k.F_COUNT] = side.step_count
        steps[:, k.F_CATEGORY] = step_flags & 3
        steps[:, k.F_COST] = kill * low.cost[side.step_unit]
        steps[:, k.F_FIGHTING] = kill * ((step_flags & k.DEFENCELESS) == 0)
        steps[:, k.F_DESTROYER] = kill * ((step_flags & k.DESTROYER) != 0)
        steps[:, k.F_LAND] = kill * ((step_flags & k.LAND) != 0)
        steps[:, k.F_LINE] = np.where((kill == 1) & (recount == 0), type_line[step_type], -1)
        steps[:, k.F_ROLLS] = rolls[step_type]
        steps[:, k.F_RECOUNT] = recount
        steps[:, k.F_LANDED] = side.step_landed
        lines = np.zeros((len(ordered), k.N_LINE_FIELDS), dtype=np.int64)
        lines[:, k.L_VALUE] = [v for _, v, _, _ in ordered]  # L_ROWS: set when tables are placed
        self.line_chance = [_rng.hit_chance(v, n, best) for _, v, n, best in ordered]
        self.records = {
            "steps": steps, "lines": lines, "support": support,
            "types": np.stack([type_line, rolls], axis=1).reshape(n_types, k.N_TYPE_FIELDS),
        }
        self.category = np.where(side.step_landed != 0, LANDED_CATEGORY, steps[:, k.F_CATEGORY])
        self.category_len = np.array([side.step_count[self.category == c].sum()
                                      for c in range(N_KEY_CATEGORIES)], dtype=np.int64)
        self.key_stride = np.cumprod(np.concatenate(([1], self.category_len[:-1] + 1)))
        steps[:, k.F_KEY] = self.key_stride[self.category]
        self.units = int((side.step_count * kill).sum())  # units that can be casualties
        self.has_non_combatants = self.units < int(side.count.sum())
        self.fighting_rolls = int((side.count[types] * rolls)[fires].sum())
        self.always_hits = bool(np.all(value[fires] > 0))  # every unit that fights can hit
        groups = [g for g, _, _, _ in ordered]
        scalars = np.zeros(k.N_SCALARS + len(rules), dtype=np.int64)
        scalars[k.SC_STEPS] = len(step_type)
        scalars[k.SC_TYPES] = n_types
        scalars[k.SC_LINES] = len(ordered)
        scalars[k.SC_SUB_LINES] = groups.count(k.G_SUB)
        scalars[k.SC_AIR_LINES] = groups.count(k.G_AIR)
        scalars[k.SC_RULES] = len(rules)
        scalars[k.SC_SUBS_FIRST] = subs_first and k.G_SUB in groups
        scalars[k.SC_TOTAL_IPC] = int(steps[:, k.F_COST] @ side.step_count)
        scalars[k.SC_DEAD_KEY] = int(self.category_len @ self.key_stride)
        scalars[k.SC_SUBMERGE] = side.submerge
        for i, r in enumerate(rules):
            scalars[k.SC_SUPPORT_PER + i] = low.support_per[r]
        self.scalars = scalars  # SC_KEYS, SC_DEPARTED_KEY: set once the key kind is known
        self.records["scalars"] = scalars
        # the steps whose survivors departed when the side has units departed: its subs, or
        # (an attacker that retreated while its landed units fought on) its units not landed
        self.departing = ((flags[side.step_unit] & k.SUB) != 0 if side.submerge != SUBMERGE_NEVER
                          else side.step_landed == 0)
        self.retreat_key = 0  # where its retreated keys start (0: none), set by KernelModel
        self.departed_key = 0  # where its keys with units departed start (0: none)
        self.layers = 1
        self.verb = "retreated"

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
