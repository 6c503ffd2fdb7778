"""Per-state tables of one side for the exact engine's DP: what is left, flags, hit distributions.

A side's state is how many casualties it has taken in each of four classes of its order of
loss (``AIR``, ``SUB``, ``OTHER``, and ``KEPT``: the destroyer a side keeps last while enemy subs
live; see ``_kernel``). For every state the battle can reach (``hit_moves``) these tables say
which units are left (counting), a few yes/no facts the DP branches on (flags), how many hits
the units left score, per group of dice that may hit different targets (hit distributions),
and where the next hit of each kind leads; the states it cannot reach read as a side with
nothing left.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from oddsim._runtime.jit import inline_jit, jit
from oddsim.engines.dice import add_dice_with, hit_chance, low_luck_pmf, low_luck_strength

AIR, SUB, OTHER, KEPT = 0, 1, 2, 3
N_CLASSES = 4
# hit groups: who fired the dice, which decides what they may hit
G_SUB, G_AIR, G_OTHER, G_AIR_OTHER = 0, 1, 2, 3
N_GROUPS = 4
# hit kinds, by what they may hit: a submarine's hit (no aircraft), a hit of aircraft that fire
# apart because they cannot hit submarines (no submarine), any hit
H_SUB, H_AIR, H_ANY = 0, 1, 2
N_HIT_KINDS = 3  # ``next_hit`` has these columns, then the same while the enemy has subs
TAIL = 1e-17  # hit-count tails lighter than this are cut from the loops (mass kept at the edge)

# columns of a side's flag table, about the units still in the battle (not those that left it)
F_SLOTS_LEFT = 0  # loss slots still to take: 0 means the side is gone
F_ONLY_DEFENCELESS = 1  # 1: it has slots left, all of units that never fire
F_DESTROYER = 2  # 1: it has a destroyer
F_NON_AIR = 3  # 1: it has a unit that is not an aircraft (a target for submarines)
F_NON_SUB = 4  # 1: it has a unit that is not a submarine (a target for aircraft)
F_LAND = 5  # 1: it has a land unit (it can take the territory)
F_AIR = 6  # 1: it has an aircraft
F_SUB = 7  # 1: it has a submarine
F_UNITS = 8  # how many units it has
F_DEPARTED = 9  # how many of its units left the battle early (submerged or retreated)
F_ONLY_SUBS = 10  # 1: nothing but submarines and defenceless units
N_FLAGS = 11


class UnitTypes(NamedTuple):
    """What the DP needs to know of each unit type (arrays indexed by type)."""

    cost: np.ndarray
    is_air: np.ndarray
    is_sub: np.ndarray
    is_destroyer: np.ndarray
    is_land: np.ndarray
    defenceless: np.ndarray


class Support(NamedTuple):
    """Support rules, one row each: supporter/supported masks [rule, type], units supported per
    supporter, the value they are raised to, and the side the rule acts for (0 attack, 1 defense);
    with ``adds``, rules that add ``bonus`` instead, each of a bonus type (``group``), given to
    the units in ``order[side]`` (``lowering.LoweredBattle``'s ``support_`` fields)."""

    supporter: np.ndarray
    supported: np.ndarray
    per: np.ndarray
    value: np.ndarray
    side: np.ndarray
    bonus: np.ndarray
    group: np.ndarray
    order: np.ndarray  # int64[2, types]
    adds: bool


class SideDice(NamedTuple):
    """One side's units at the start and how they roll (arrays indexed by type)."""

    count: np.ndarray  # type: ignore[assignment]  # shadows tuple.count, as Numba reads fields by name
    damaged: np.ndarray  # two-hit units already damaged at the start
    value: np.ndarray
    dice: np.ndarray  # dice per unit
    best_of: np.ndarray  # only the best of a unit's dice counts
    support_side: int  # which support rules act for this side
    sides: int  # faces of its dice (a roll at or under a unit's value hits)


class Classes(NamedTuple):
    """How a side's loss slots (its order of loss, one slot per casualty) fall into classes."""

    length: np.ndarray  # int64[N_CLASSES]: slots per class
    slots: np.ndarray  # int64[N_CLASSES, max length]: slot positions of each class, in order
    slot_unit: np.ndarray  # int64[slots]: unit type of each slot
    slot_kill: np.ndarray  # int64[slots]: 1 the slot kills a unit, 0 it damages one
    leave: np.ndarray  # int64[N_CLASSES]: 1 the class leaves the battle in the second layer
    layers: int  # 2 when some classes may leave the battle early, else 1
    kept_before: int  # the ``KEPT`` slot goes just before this slot while enemy subs live


class ClassRules(NamedTuple):
    """What splits a side's loss slots into classes (``side_classes``): the unit types' kinds
    (arrays indexed by type), their IPC cost and the edition's air rule."""

    is_air: np.ndarray
    is_sub: np.ndarray
    is_aa: np.ndarray
    cost: np.ndarray
    air_needs_destroyer: bool  # aircraft hit subs only with a destroyer on their side


class SideSteps(NamedTuple):
    """One side's units at the start and its order of loss (``lowering.SideArrays``'s fields
    that ``side_classes`` reads), as loss steps."""

    count: np.ndarray  # type: ignore[assignment]  # shadows tuple.count, as Numba reads fields by name
    dice: np.ndarray  # dice per unit
    step_unit: np.ndarray  # unit type of each loss step
    step_kill: np.ndarray  # 1: the step removes units, 0: it damages them
    step_slots: np.ndarray  # casualties the step can take
    step_landed: np.ndarray  # 1: the attacker's units that came by sea
    submerge: int  # the side's submerge policy (lowering's SUBMERGE_*)
    reserved: int  # the step of the destroyer kept last (-1: none)
    reserve_before: int  # ... taken just before this step while enemy subs live


class SideLayout(NamedTuple):
    """How one side's order of loss is split into classes for the DP (``side_classes``): the
    ``Classes`` fields, the layer size, and what the solve reads of the side at the start."""

    class_len: np.ndarray  # int64[N_CLASSES]: slots per class
    class_slots: np.ndarray  # int64[N_CLASSES, max length]: slot positions of each class, in order
    slot_unit: np.ndarray
    slot_kill: np.ndarray
    leave: np.ndarray  # int64 per class: 1 = its units leave the battle together (layer 1)
    layer_size: int  # states per layer: product of (class length + 1)
    layers: int  # 2 when some classes may leave the battle (``leave``), else 1
    kept_before: int  # the kept destroyer's slot goes before this one while enemy subs live
    n_units: int  # the side's units at the start (``solve`` estimates their hit spread)
    subs: bool  # the side has a submarine at the start
    rolls: int  # dice its units roll in a combat round at the start
    idle: bool  # some of its units take no part in combat rounds (a non-casualty AA gun)
    fighting_value: int  # IPC value of its units that do

    @property
    def n_states(self) -> int:
        return self.layer_size * self.layers

    def classes(self) -> Classes:
        """The side's ``Classes``, as the side tables read them."""
        return Classes(self.class_len, self.class_slots, self.slot_unit, self.slot_kill, self.leave,
                       self.layers, self.kept_before)


class SideInputs(NamedTuple):
    """One side as ``side_tables`` takes it: its classes, dice, most dice a round (the hit
    tables' width) and its states before round 1 (``seeds``: every state it reaches follows)."""

    classes: Classes
    dice: SideDice
    max_dice: int
    seeds: np.ndarray


class SideCounts(NamedTuple):
    """Per state: units of each type alive (including those that left the battle), damaged and
    departed, and the IPC value lost."""

    alive: np.ndarray
    damaged: np.ndarray
    departed: np.ndarray
    ipc_lost: np.ndarray


class SideTables(NamedTuple):
    """One side's tables as the DP kernels read them."""

    class_info: np.ndarray  # class lengths, then per class whether it leaves, then the layer size
    class_slots: np.ndarray  # as ``Classes.slots``
    stride: np.ndarray  # int64[N_CLASSES]: a state index is sum of casualties x stride per class
    flags: np.ndarray  # int64[states, N_FLAGS]: the F_ columns
    dist: np.ndarray  # float[states, N_GROUPS, dice + 1]: hit distribution per group
    lo: np.ndarray  # int64[states, N_GROUPS]: first hit count with weight (lighter tails cut)
    hi: np.ndarray  # int64[states, N_GROUPS]: last hit count with weight
    next_hit: np.ndarray  # int64[states, 2 * N_HIT_KINDS]: the state after one more hit (itself:
    # none), by hit kind; the second half while the enemy has subs in the battle (destroyer last)


class BuiltSide(NamedTuple):
    """What ``side_tables`` makes of one side: its tables, counts and which states the battle
    reaches (the others read as a side with nothing left)."""

    tables: SideTables
    counts: SideCounts
    reached: np.ndarray  # bool per state


@jit
def decode(state: int, stride: np.ndarray, class_len: np.ndarray, counts: np.ndarray) -> None:
    """Casualties per class of a state (of either layer)."""
    for c in range(N_CLASSES):
        counts[c] = (state // stride[c]) % (class_len[c] + 1)


@jit
def side_classes(rules, is_attacker, partial_retreat, side, enemy_count):
    """Split a side's loss slots into air / sub / other only where the enemy's hits tell them
    apart (enemy subs or AA: air split; enemy aircraft that need a destroyer to hit subs: sub
    split) or where some of them may leave the battle: subs that may submerge (their class
    leaves), units landed from the sea when the attacker may retreat (they take the sub class,
    empty in land battles, and the others leave). A destroyer kept last while enemy subs live
    (the step ``side.reserved``, of one slot) is a class of its own. Reads the ``ClassRules``,
    the side's ``SideSteps`` and the enemy's units at the start (``enemy_count``) (in Numba: in
    Python, both sides took 25 us). Returns the side's ``SideLayout``: besides its classes, its
    units, whether it has subs, the dice its units roll, whether some of them take no part in
    combat rounds (no loss step: a non-casualty AA gun) and the IPC value of those that do."""
    is_air, is_sub, is_aa, cost, air_needs_destroyer = rules
    count, dice, step_unit, step_kill, step_slots, step_landed, submerge, reserved, reserve_before = side
    split_air = False
    split_sub = False
    subs = False
    n_units = 0
    rolls = 0
    idle = False
    fighting_value = 0
    n_steps = step_unit.shape[0]
    for u in range(count.shape[0]):
        if enemy_count[u] > 0:
            if is_sub[u] or (is_attacker and is_aa[u]):
                split_air = True
            if air_needs_destroyer and is_air[u]:
                split_sub = True
        if count[u] > 0:
            n_units += count[u]
            rolls += count[u] * dice[u]
            if is_sub[u]:
                subs = True
            fights = False
            for i in range(n_steps):
                if step_unit[i] == u:
                    fights = True
            if fights:
                fighting_value += count[u] * cost[u]
            else:
                idle = True
    submerges = submerge != 0 and subs
    split_sub = split_sub or submerges
    landed_apart = False  # landed units take the sub class, and the others leave
    if not submerges and partial_retreat:
        for i in range(n_steps):
            if step_landed[i]:
                landed_apart = True
    leave = np.zeros(N_CLASSES, dtype=np.int64)
    if submerges:
        leave[SUB] = 1
    elif landed_apart:
        leave[AIR] = 1
        leave[OTHER] = 1
    step_class = np.zeros(n_steps, dtype=np.int64)
    length = np.zeros(N_CLASSES, dtype=np.int64)
    n_slots = 0
    kept_before = 0
    for i in range(n_steps):
        u = step_unit[i]
        if landed_apart and step_landed[i]:
            c = SUB
        elif i == reserved:
            c = KEPT
        elif split_sub and is_sub[u]:
            c = SUB
        elif split_air and is_air[u]:
            c = AIR
        else:
            c = OTHER
        step_class[i] = c
        length[c] += step_slots[i]
        if i == reserve_before:
            kept_before = n_slots
        n_slots += step_slots[i]
    if reserve_before >= n_steps:
        kept_before = n_slots
    width = 1
    layer_size = 1
    layers = 1
    for c in range(N_CLASSES):
        width = max(width, length[c])
        layer_size *= length[c] + 1
        if leave[c]:
            layers = 2
    slots = np.zeros((N_CLASSES, width), dtype=np.int64)  # slot positions, class by class
    slot_unit = np.zeros(n_slots, dtype=np.int64)
    slot_kill = np.zeros(n_slots, dtype=np.int64)
    filled = np.zeros(N_CLASSES, dtype=np.int64)
    position = 0
    for i in range(n_steps):
        c = step_class[i]
        for _ in range(step_slots[i]):
            slots[c, filled[c]] = position
            filled[c] += 1
            slot_unit[position] = step_unit[i]
            slot_kill[position] = step_kill[i]
            position += 1
    return SideLayout(length, slots, slot_unit, slot_kill, leave, layer_size, layers, kept_before, n_units,
                      subs, rolls, idle, fighting_value)


@jit
def both_side_classes(rules, partial_retreat, attacker, defender):
    """``side_classes`` of the attacker (``partial_retreat``: its landed units may fight on
    after a retreat) and of the defender (``SideSteps`` each), in one call: a battle's sizing
    made two, and each call from Python pays for its arguments and results (some 4 us)."""
    return (side_classes(rules, True, partial_retreat, attacker, defender.count),
            side_classes(rules, False, False, defender, attacker.count))


@jit
def side_tables(side, types, support, low_luck):
    """One side's ``BuiltSide`` from its ``SideInputs``, the ``UnitTypes``, the ``Support``
    rules and the dice (``low_luck``): its ``SideTables`` and ``SideCounts``, and which of its
    states the battle can reach from ``side.seeds`` by hits and by leaving the battle: at sea,
    where the classes interleave in the order of loss, a few in ten. The tables are worked out
    for those only; the others stand for a side with nothing left that takes no hit (and are
    never fought from). States of layer 1 (index layer size and up) are those after the
    ``classes.leave`` classes left."""
    classes, dice = side.classes, side.dice
    stride, class_info = class_strides(classes)
    layer_size = class_info[2 * N_CLASSES]
    next_hit, reached = hit_moves(classes, stride, layer_size, layer_size * classes.layers, side.seeds)
    counts, slots_left = count_units(classes, dice.count, dice.damaged, types.cost, stride, layer_size,
                                     reached)
    fighting = counts.alive - counts.departed
    flags = side_flags(fighting, counts.departed, slots_left, types)
    dist, lo, hi = hit_distributions(fighting, dice, types, support, low_luck, side.max_dice, reached)
    return BuiltSide(SideTables(class_info, classes.slots, stride, flags, dist, lo, hi, next_hit), counts,
                     reached)


@jit
def both_side_tables(attacker, defender, types, support, low_luck):
    """``side_tables`` of the attacker and of the defender (``SideInputs`` each), in one kernel
    call: a solve made two, each paying for its arguments and its results (some 8 us a call, a
    tenth of a small battle's solve)."""
    return (side_tables(attacker, types, support, low_luck),
            side_tables(defender, types, support, low_luck))


@inline_jit
def class_strides(classes):
    """The class strides (a state index is sum of casualties x stride per class) and the class
    table the kernels read (``SideTables.class_info``)."""
    class_len = classes.length
    stride = np.ones(N_CLASSES, dtype=np.int64)
    for c in range(1, N_CLASSES):
        stride[c] = stride[c - 1] * (class_len[c - 1] + 1)
    class_info = np.zeros(2 * N_CLASSES + 1, dtype=np.int64)
    for c in range(N_CLASSES):  # (loops: an array slice assignment costs seconds to compile)
        class_info[c] = class_len[c]
        class_info[N_CLASSES + c] = classes.leave[c]
    class_info[2 * N_CLASSES] = stride[N_CLASSES - 1] * (class_len[N_CLASSES - 1] + 1)
    return stride, class_info


@inline_jit
def count_units(classes, start_count, start_damaged, cost, stride, layer_size, reached):
    """Per state ``reached`` (the others read 0): the units left, damaged and departed, IPC lost,
    and loss slots left in the battle."""
    class_len = classes.length
    n_types = start_count.shape[0]
    n_states = reached.shape[0]
    alive = np.zeros((n_states, n_types), dtype=np.int64)
    departed = np.zeros((n_states, n_types), dtype=np.int64)
    damaged = np.zeros((n_states, n_types), dtype=np.int64)
    ipc_lost = np.zeros(n_states, dtype=np.int64)
    slots_left = np.zeros(n_states, dtype=np.int64)
    counts = np.zeros(N_CLASSES, dtype=np.int64)
    for s in range(n_states):
        if not reached[s]:
            continue
        decode(s, stride, class_len, counts)
        gone = s >= layer_size
        for u in range(n_types):
            alive[s, u] = start_count[u]
        left = 0
        for c in range(N_CLASSES):
            for j in range(counts[c]):
                k = classes.slots[c, j]
                if classes.slot_kill[k] == 1:
                    alive[s, classes.slot_unit[k]] -= 1
                    ipc_lost[s] += cost[classes.slot_unit[k]]
                else:
                    damaged[s, classes.slot_unit[k]] += 1
            if gone and classes.leave[c]:
                for j in range(counts[c], class_len[c]):
                    k = classes.slots[c, j]
                    departed[s, classes.slot_unit[k]] += classes.slot_kill[k]
            else:
                left += class_len[c] - counts[c]
        for u in range(n_types):
            # free hits come before any kill of the type, so the killed ones were damaged
            damaged[s, u] = min(alive[s, u], start_damaged[u] + damaged[s, u])
        slots_left[s] = left
    return SideCounts(alive, damaged, departed, ipc_lost), slots_left


@inline_jit
def hit_moves(classes, stride, layer_size, n_states, seeds):
    """Per state and hit kind, the state after one more hit of that kind: it takes the first
    unit in the order of loss that can take it (itself when none can). In the second layer the
    classes that left the battle take no hits. Columns ``N_HIT_KINDS`` on: the same while the
    enemy has subs, when the ``KEPT`` destroyer waits until just before ``kept_before``.
    Worked out for the states reached from ``seeds`` by these moves and by the ``leave`` classes
    leaving (a state of the first layer to its twin in the second), which it also returns; the
    others move nowhere. Every move leads to a later state: one sweep finds them all."""
    next_hit = np.zeros((n_states, 2 * N_HIT_KINDS), dtype=np.int64)
    reached = np.zeros(n_states, dtype=np.bool_)
    for i in range(seeds.shape[0]):
        reached[seeds[i]] = True
    start = np.zeros(N_CLASSES, dtype=np.int64)
    counts = np.zeros(N_CLASSES, dtype=np.int64)
    cap = np.zeros(N_CLASSES, dtype=np.int64)  # how far each class may take hits
    for s in range(n_states):
        for column in range(2 * N_HIT_KINDS):
            next_hit[s, column] = s
        if not reached[s]:
            continue
        layer = 0 if s < layer_size else layer_size
        if layer == 0 and n_states > layer_size:
            reached[s + layer_size] = True
        decode(s, stride, classes.length, start)
        for c in range(N_CLASSES):
            cap[c] = start[c] if layer > 0 and classes.leave[c] else classes.length[c]
        for column in range(2 * N_HIT_KINDS):
            if column >= N_HIT_KINDS and classes.length[KEPT] == 0:  # nothing kept: the same moves
                next_hit[s, column] = next_hit[s, column - N_HIT_KINDS]
                continue
            for c in range(N_CLASSES):
                counts[c] = start[c]
            kept_at = classes.kept_before if column >= N_HIT_KINDS else -1
            if _hit_one(counts, cap, classes.slots, column % N_HIT_KINDS, kept_at):
                next_hit[s, column] = layer
                for c in range(N_CLASSES):
                    next_hit[s, column] += counts[c] * stride[c]
                reached[next_hit[s, column]] = True
    return next_hit, reached


@inline_jit
def _hit_one(counts, cap, class_slots, kind, kept_at):
    """Take one hit of ``kind`` on the first unit in the order of loss that can take it; False
    if none can. ``cap`` is how far each class may go; ``kept_at`` (-1: its own place) is the
    slot just before which the ``KEPT`` destroyer is taken."""
    best_class = -1
    best_pos = 1 << 60
    for c in range(N_CLASSES):
        if (kind == H_SUB and c == AIR) or (kind == H_AIR and c == SUB):
            continue
        if counts[c] < cap[c]:
            pos = 2 * class_slots[c, counts[c]]  # doubled: the kept destroyer goes in between
            if c == KEPT and kept_at >= 0:
                pos = 2 * kept_at - 1
            if pos < best_pos:
                best_pos = pos
                best_class = c
    if best_class < 0:
        return False
    counts[best_class] += 1
    return True


@inline_jit
def side_flags(fighting, departed, slots_left, types):
    """The ``F_`` flags of every state, from the units in the battle (``fighting``, per state and
    type), those that left it, and the loss slots left."""
    n_states, n_types = fighting.shape
    flags = np.zeros((n_states, N_FLAGS), dtype=np.int64)
    for s in range(n_states):
        flags[s, F_SLOTS_LEFT] = slots_left[s]
        only_defenceless = 1
        only_subs = 1
        for u in range(n_types):
            flags[s, F_DEPARTED] += departed[s, u]
            flags[s, F_UNITS] += fighting[s, u]
            if fighting[s, u] == 0:
                continue
            if not types.defenceless[u]:
                only_defenceless = 0
                if not types.is_sub[u]:
                    only_subs = 0
            if types.is_destroyer[u]:
                flags[s, F_DESTROYER] = 1
            if types.is_air[u]:
                flags[s, F_AIR] = 1
            else:
                flags[s, F_NON_AIR] = 1
            if types.is_sub[u]:
                flags[s, F_SUB] = 1
            else:
                flags[s, F_NON_SUB] = 1
            if types.is_land[u]:
                flags[s, F_LAND] = 1
        flags[s, F_ONLY_DEFENCELESS] = only_defenceless if slots_left[s] > 0 else 0
        flags[s, F_ONLY_SUBS] = only_subs
    return flags


@inline_jit
def hit_distributions(fighting, dice, types, support, low_luck, max_dice, reached):
    """Per state, the distribution of hits the units in the battle score in a combat round, per
    group (``G_``), with support applied; tails lighter than ``TAIL`` are folded into the last
    hit count kept (the counts cut read 0), whose range is ``lo``..``hi``. States not ``reached``
    read no hits (0 with certainty)."""
    n_states, n_types = fighting.shape
    dist = np.zeros((n_states, N_GROUPS, max_dice + 1))
    lo = np.zeros((n_states, N_GROUPS), dtype=np.int64)
    hi = np.zeros((n_states, N_GROUPS), dtype=np.int64)
    scratch = np.zeros(2 * max_dice + 2)
    pmf = np.empty(max_dice + 1)  # (one roll's distribution, for ``add_dice_with``)
    boosted = np.zeros(n_types, dtype=np.int64)  # units of each type raised by some rule
    raised = np.zeros((n_types, dice.sides + 1), dtype=np.int64)  # of those, how many to each value
    size_of = np.ones(N_GROUPS, dtype=np.int64)
    strength = np.zeros(N_GROUPS, dtype=np.int64)
    left = np.zeros(support.per.shape[0], dtype=np.int64)  # (bonus rules: support left per rule)
    taken = np.zeros(support.per.shape[0], dtype=np.bool_)  # (... bonus types a unit has taken)
    for s in range(n_states):
        for g in range(N_GROUPS):
            dist[s, g, 0] = 1.0
        if not reached[s]:
            continue
        if support.adds:
            _add_bonuses(fighting[s], dice, types, support, boosted, raised, left, taken)
        else:
            _apply_support(fighting[s], dice, support, boosted, raised)
        for g in range(N_GROUPS):
            size_of[g] = 1
            strength[g] = 0
        for u in range(n_types):
            if fighting[s, u] == 0 or types.defenceless[u]:
                continue
            g = G_SUB if types.is_sub[u] else (G_AIR if types.is_air[u] else G_OTHER)
            for portion in range(dice.sides + 1):  # 0: units at their own value; v: raised to v
                n = fighting[s, u] - boosted[u] if portion == 0 else raised[u, portion]
                v = dice.value[u] if portion == 0 else portion
                if n == 0 or v == 0:
                    continue
                power = n * low_luck_strength(v, dice.dice[u], dice.best_of[u], dice.sides)
                strength[g] += power
                if g != G_SUB:
                    strength[G_AIR_OTHER] += power
                rolls = n if dice.best_of[u] else n * dice.dice[u]
                p = hit_chance(v, dice.dice[u], dice.best_of[u], dice.sides)
                size_of[g] = add_dice_with(dist[s, g], size_of[g], rolls, p, scratch, pmf)
        # aircraft and the others firing together: the sum of the two groups' hits
        size_of[G_AIR_OTHER] = _sum_of_hits(dist[s, G_AIR], size_of[G_AIR], dist[s, G_OTHER],
                                            size_of[G_OTHER], dist[s, G_AIR_OTHER])
        for g in range(N_GROUPS):
            if low_luck:
                dist[s, g, :] = 0.0
                size_of[g] = low_luck_pmf(strength[g], dice.sides, dist[s, g])
            lo[s, g], hi[s, g] = _cut_tails(dist[s, g], size_of[g])
    return dist, lo, hi


@inline_jit
def _sum_of_hits(first, first_size, second, second_size, out):
    """``out`` = the distribution of the sum of two independent hit counts (``first[:first_size]``
    and ``second[:second_size]``); returns its size. Cheaper than rolling both groups' dice again."""
    size = first_size + second_size - 1
    for k in range(size):
        out[k] = 0.0
    for i in range(first_size):
        if first[i] == 0.0:
            continue
        for j in range(second_size):
            out[i + j] += first[i] * second[j]
    return size


@inline_jit
def _apply_support(fighting, dice, support, boosted, raised):
    """How many units of each type the side's support rules raise, and to which value."""
    boosted[:] = 0
    raised[:, :] = 0
    for r in range(support.per.shape[0]):
        if support.side[r] != dice.support_side:
            continue
        capacity = 0
        for u in range(fighting.shape[0]):
            if support.supporter[r, u]:
                capacity += fighting[u] * support.per[r]
        for u in range(fighting.shape[0]):
            if support.supported[r, u] and dice.value[u] < support.value[r] and capacity > 0:
                take = min(capacity, fighting[u] - boosted[u])
                boosted[u] += take
                raised[u, support.value[r]] += take
                capacity -= take


@inline_jit
def _add_bonuses(fighting, dice, types, support, boosted, raised, left, taken):
    """Bonus support (``support.adds``), unit by unit as TripleA gives it: the units that fire,
    in ``support.order`` (strongest type first), each take from every bonus type the first of
    its rules (in their order) that covers them and has support left, adding its bonus; the
    sum, kept within 0..sides, is the value they roll at (``raised``; ``boosted``: all)."""
    n_types = fighting.shape[0]
    n_rules = support.per.shape[0]
    boosted[:] = 0
    raised[:, :] = 0
    side = dice.support_side
    for r in range(n_rules):
        left[r] = 0
        if support.side[r] == side:
            for u in range(n_types):
                if support.supporter[r, u]:
                    left[r] += fighting[u] * support.per[r]
    for j in range(n_types):
        u = support.order[side, j]
        if fighting[u] == 0 or types.defenceless[u]:
            continue
        boosted[u] = fighting[u]
        for _ in range(fighting[u]):
            for r in range(n_rules):
                taken[r] = False
            value = dice.value[u]
            for r in range(n_rules):
                g = support.group[r]
                if support.side[r] == side and support.supported[r, u] and left[r] > 0 and not taken[g]:
                    value += support.bonus[r]
                    left[r] -= 1
                    taken[g] = True
            raised[u, min(max(value, 0), dice.sides)] += 1


@inline_jit
def _cut_tails(dist, size):
    """Fold each tail of ``dist[:size]`` lighter than ``TAIL`` into the nearest hit count kept
    (the counts cut read 0); returns the range kept."""
    a, b = 0, size - 1
    tail = 0.0
    while a < b and tail + dist[a] < TAIL:
        tail += dist[a]
        dist[a] = 0.0
        a += 1
    dist[a] += tail
    tail = 0.0
    while b > a and tail + dist[b] < TAIL:
        tail += dist[b]
        dist[b] = 0.0
        b -= 1
    dist[b] += tail
    return a, b
