"""Private Numba kernels of the Monte Carlo engine: fight many battles on unit counts, tally them.

A battle's state is, per side, the units left in each loss step, the rolls of each firing line
(units whose rolls hit with the same chance and may take the same units) and a few tallies.
Each step of a round rolls every firing line at once (or, with Low Luck, scores each group's
strength) and gives the hits out in the order of loss by kind: submarine hits first, then
aircraft hits that may not take submarines, then all other hits. Between rounds (``_boundary``)
submarines may submerge, then the attacker may retreat. Units that leave the battle early
(submerged subs; the attacker's units that retreat while its landed units fight on) move from a
step's units left to its units departed: they survive, but nothing in the battle sees them.
Bombardment before round 1 is one more group of hits on the defender. Nothing here knows how the
exact engine works.

A plain battle (no submarines, no aircraft barred from hitting them: every hit may take anything)
takes a fast path chosen once per block (``_fight_plain``): each side's casualties are always the
next units in its order of loss, so its dice and everything it reports depend only on how many
it has taken (and on the aircraft AA shot down). The model then holds, per side and casualty
count, the alias table of the side's total hits (the sum of its lines' binomials, the same
distribution as rolling each line), so a round is one draw per side and two additions.

For speed the hot helpers (``hot_jit``) never allocate, so they cost no reference counting, and
take two arrays only: the battle's ``state`` and the battle's ``model``, one int64 array holding
every table, found through the header below (an array argument is passed as a dozen machine
words, so a long argument list costs more than the work). Battles are split over threads in
blocks and seeded by their global index; results are integer sums, so they are the same for any
number of threads or chunks.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from oddsim._jit import jit, parallel_jit
from oddsim.montecarlo._rng import (
    add,
    alias_hits,
    battle_words,
    get,
    hits_of,
    hot_jit,
    low_luck_hits,
    next_word,
    put,
    roll,
    seed_battle,
    step_words,
)

# Constants are int64 scalars, not Python ints: Numba compiles a helper once per distinct literal
# argument it is called with, and int64 constants keep that to one compile per helper.
ATTACKER, DEFENDER = np.arange(2)
ZERO, ONE = np.arange(2)
FIRST_LINE = np.int64(0)

# unit flag bits; the low two bits are the unit's category for typed hits and survivor keys
AIR, SUB, DESTROYER, LAND, DEFENCELESS = np.int64([1, 2, 4, 8, 16])
N_CATEGORIES = np.int64(4)  # 0 land/surface, 1 air, 2 submarine, 3 both air and submarine
NOT_AIR, NOT_SUB, SUBS = np.int64([0b0101, 0b0011, 0b1100])  # sets of categories, one bit each

G_SUB, G_AIR, G_OTHER = np.arange(3)  # firing-line groups, in the order lines are stored
HIT_SUB, HIT_AIR, HIT_ANY, HIT_AA = np.arange(4)  # may take: not air / not subs / any / air only

# model header: where each table starts, per-side strides, offsets in a side's state
H_STEPS, H_STEP_SIDE, H_LINES, H_LINE_SIDE, H_TYPES, H_TYPE_SIDE = np.arange(6)
H_SUPPORT, H_SUPPORT_SIDE, H_SUPPORT_RULE, H_SCALARS, H_SCALAR_SIDE, H_RULES = np.arange(6, 12)
H_WIDTH, H_DICE_AT, H_ALIVE_AT, H_RAISED_AT = np.arange(12, 16)
H_RETREAT = np.int64(16)  # retreat table (-1: none), see RT_*
H_PLAIN = np.int64(17)  # the plain battle's tables by casualties (-1: none), see ``_fight_plain``
H_GONE_AT = np.int64(18)  # offset of the units departed per loss step in a side's state
N_HEADER = np.int64(19)
# the retreat table: defender states, each side's departed-layer size, then each side's step
# strides (H_STEP_SIDE / N_STEP_FIELDS each), then one decision per joint state
RT_DEFENDER_STATES, RT_LAYER = np.int64([0, 1])  # RT_LAYER + s: side s's layer size
RT_STRIDES = np.int64(3)
# a loss step's fields
F_TYPE, F_KILL, F_COUNT, F_CATEGORY, F_COST = np.arange(5)
F_FIGHTING, F_DESTROYER, F_LAND = np.arange(5, 8)  # 1: a casualty of the step removes such a unit
F_LINE = np.int64(8)  # the line losing rolls per casualty; -1: none, or the support is recounted
F_ROLLS = np.int64(9)  # rolls a casualty of the step takes from its line
F_RECOUNT = np.int64(10)  # 1 where a casualty changes support, so the side's lines are recounted
F_KEY = np.int64(11)  # what a casualty of the step adds to the side's survivor key
F_LANDED = np.int64(12)  # 1: the attacker's units that came by sea (they never retreat)
N_STEP_FIELDS = np.int64(13)
# a firing line's fields (lines are ordered: submarine, aircraft, other). L_ROWS: where the
# alias tables of its hit chance start in the model (see ``_rng.roll``); L_VALUE: the value its
# dice hit on (a roll's strength in Low Luck)
L_ROWS, L_VALUE = np.arange(2)
N_LINE_FIELDS = np.int64(2)
# a unit type's fields: the line its units roll on without support (-1: they never fire), and
# the rolls each unit makes
T_LINE, T_ROLLS = np.arange(2)
N_TYPE_FIELDS = np.int64(2)
# a support rule's fields, per unit type
P_SUPPORTER, P_SUPPORTED, P_LINE = np.arange(3)  # P_LINE: the line a supported unit is raised to
N_SUPPORT_FIELDS = np.int64(3)
# a side's scalars
SC_STEPS, SC_TYPES, SC_LINES, SC_SUB_LINES, SC_AIR_LINES, SC_RULES = np.arange(6)
SC_SUBS_FIRST, SC_TOTAL_IPC = np.arange(6, 8)
SC_KEYS = np.int64(8)  # survivor keys of the side (a retreated attacker's keys come after them)
SC_DEAD_KEY = np.int64(9)  # the survivor key of the side destroyed
SC_SUBMERGE = np.int64(10)  # the side's submerge policy (lowering's SUBMERGE_*)
SC_DEPARTED_KEY = np.int64(11)  # added to the survivor key when the side has units departed
SC_SUPPORT_PER = np.int64(12)  # 12..: units each supporter of rule r supports
N_SCALARS = np.int64(12)
# the battle's rules. R_PLAIN: no submarine or restricted aircraft lines on either side;
# R_NO_STALEMATE: besides, every unit of either side that is not defenceless can hit, so a side
# that can fight can always hurt the other. R_RETREAT_*: the attacker's retreat policy (0 / -1:
# never) besides the table.
R_AIR_NEEDS_DESTROYER, R_AA_DICE, R_AA_ROWS, R_DEFENDER_HOLDS, R_LAND_BATTLE = np.arange(5)
R_KEY_COARSE, R_PLAIN, R_NO_STALEMATE, R_LOW_LUCK, R_AA_STRENGTH = np.arange(5, 10)
R_RETREAT_AFTER, R_RETREAT_UNITS = np.arange(10, 12)
# bombardment: its Low Luck strength (0: none), the alias table of its hits (where its cells
# start, how many), whether the defender's casualties fire back in round 1
R_BOMBARD_STRENGTH, R_BOMBARD_ROW, R_BOMBARD_CELLS, R_BOMBARD_FIRE_BACK = np.arange(12, 16)
# R_SUBMERGE: some side's subs may submerge; R_START_BOUNDARY: besides, the boundary between
# rounds comes once before round 1 too; R_PARTIAL_RETREAT: the attacker has landed units and a
# retreat policy, so a retreat may leave its landed units fighting on
R_SUBMERGE, R_START_BOUNDARY, R_PARTIAL_RETREAT = np.arange(16, 19)
N_RULES = np.int64(19)

# a battle's state: its generator's two words, then the attacker's part, then the defender's.
# A side's part: tallies, then units left in the battle per loss step, rolls per line, scratch
# for recounting support (units alive and raised, per type), and units departed per loss step.
RNG_AT = np.int64(0)
ST_SLOTS, ST_FIGHTING, ST_DESTROYERS, ST_HEAD = np.arange(4)  # ST_HEAD: first step not used up
ST_GONE = np.int64(4)  # units departed (submerged, or retreated while the landed fight on)
N_TALLIES = np.int64(5)
SIDES_AT = np.int64(2)

ONGOING, ATTACKER_WINS, DEFENDER_WINS, DRAW, STALEMATE, RETREAT = np.arange(6)  # outcomes
SUBMERGE_ALWAYS = np.int64(1)  # lowering.SUBMERGE_ALWAYS (0: never, 2: alone)

# A plain battle (every hit may take anything) is a chain on each side's casualties so far: after
# the AA fire they are always the next units in its order of loss, so a side's rolls, strength
# and all it reports are functions of that count alone (and, for the attacker, of the aircraft AA
# shot down: one chain per AA hit count). Its section in the model: the defender's chain, the
# attacker's chains, each a pair (slots, where its records start), then one record per chain and
# casualty count 0..slots. PL_ROW: where the alias table of the side's hits starts (with Low
# Luck: its strength); PL_CELLS: its cells; PL_RETREAT: the side's part of the retreat table's
# index.
PL_SLOTS, PL_AT = np.arange(2)  # a chain's pair
PL_DEFENDER, PL_ATTACKER = np.int64([0, 2])  # where the defender's, the attacker's chains start
PL_ROW, PL_CELLS, PL_FIGHTING, PL_CAN_HIT, PL_COST, PL_KEY, PL_LAND = np.arange(7)
PL_UNITS, PL_RETREAT = np.arange(7, 9)
N_PLAIN_FIELDS = np.int64(9)

# stats columns: 0 battles, 1..5 outcome counts (by code), then integer sums
S_BATTLES, S_TAKES = np.int64([0, 6])
S_ATTACKER_IPC, S_ATTACKER_IPC_SQ, S_DEFENDER_IPC, S_DEFENDER_IPC_SQ = np.arange(7, 11)
S_ROUNDS, S_ROUNDS_SQ, S_RETREAT_ROUNDS = np.arange(11, 14)
N_STATS = np.int64(14)


def state_offsets(n_steps: int, n_lines: int, n_types: int) -> tuple[int, int, int, int, int]:
    """(width, rolls, alive, raised, departed): a side's part of the state and where its parts
    start."""
    dice = N_TALLIES + n_steps
    alive = dice + n_lines
    raised = alive + n_types
    gone = raised + n_types
    return gone + n_steps, dice, alive, raised, gone


@hot_jit
def _step(model, s, i, field):
    return get(model, get(model, H_STEPS) + s * get(model, H_STEP_SIDE) + i * N_STEP_FIELDS
               + field)


@hot_jit
def _steps_at(model, s):
    """Where side ``s``'s loss steps start in the model."""
    return get(model, H_STEPS) + s * get(model, H_STEP_SIDE)


@hot_jit
def _lines_at(model, s):
    """Where side ``s``'s firing lines start in the model."""
    return get(model, H_LINES) + s * get(model, H_LINE_SIDE)


@hot_jit
def _type(model, s, t, field):
    return get(model, get(model, H_TYPES) + s * get(model, H_TYPE_SIDE) + t * N_TYPE_FIELDS
               + field)


@hot_jit
def _support(model, s, r, t, field):
    return get(model, get(model, H_SUPPORT) + s * get(model, H_SUPPORT_SIDE)
               + r * get(model, H_SUPPORT_RULE) + t * N_SUPPORT_FIELDS + field)


@hot_jit
def _scalar(model, s, column):
    return get(model, get(model, H_SCALARS) + s * get(model, H_SCALAR_SIDE) + column)


@hot_jit
def _rule(model, column):
    return get(model, get(model, H_RULES) + column)


@hot_jit
def _base(model, s):
    """Where side ``s``'s part of the state starts."""
    return SIDES_AT + s * get(model, H_WIDTH)


@hot_jit
def _count_lines(state, s, model):
    """Recount side ``s``'s rolls per line from its units left, with support: each supporter
    raises ``per`` supported units (in type order) onto the rule's line."""
    base = _base(model, s)
    rem = base + N_TALLIES
    dice = base + get(model, H_DICE_AT)
    alive = base + get(model, H_ALIVE_AT)
    raised = base + get(model, H_RAISED_AT)
    n_types = _scalar(model, s, SC_TYPES)
    for t in range(n_types):
        put(state, alive + t, ZERO)
        put(state, raised + t, ZERO)
    for i in range(_scalar(model, s, SC_STEPS)):
        add(state, alive + _step(model, s, i, F_TYPE), get(state, rem + i) * _step(model, s, i,
                                                                                  F_KILL))
    for line in range(_scalar(model, s, SC_LINES)):
        put(state, dice + line, ZERO)
    for t in range(n_types):
        line = _type(model, s, t, T_LINE)
        if line >= 0:
            add(state, dice + line, get(state, alive + t) * _type(model, s, t, T_ROLLS))
    for r in range(_scalar(model, s, SC_RULES)):
        capacity = 0
        for t in range(n_types):
            capacity += _support(model, s, r, t, P_SUPPORTER) * get(state, alive + t)
        capacity *= _scalar(model, s, SC_SUPPORT_PER + r)
        for t in range(n_types):
            if capacity == 0:
                break
            if _support(model, s, r, t, P_SUPPORTED):
                take = min(capacity, get(state, alive + t) - get(state, raised + t))
                rolls = take * _type(model, s, t, T_ROLLS)
                add(state, dice + _type(model, s, t, T_LINE), -rolls)
                add(state, dice + _support(model, s, r, t, P_LINE), rolls)
                add(state, raised + t, take)
                capacity -= take


@hot_jit
def start_state(state, model):
    """Write a battle's state before any fire into ``state`` (generator words left at 0)."""
    for i in range(state.shape[0]):
        state[i] = 0
    for s in range(2):
        base = _base(model, s)
        for i in range(_scalar(model, s, SC_STEPS)):
            n = _step(model, s, i, F_COUNT)
            put(state, base + N_TALLIES + i, n)
            add(state, base + ST_SLOTS, n)
            add(state, base + ST_FIGHTING, n * _step(model, s, i, F_FIGHTING))
            add(state, base + ST_DESTROYERS, n * _step(model, s, i, F_DESTROYER))
        _count_lines(state, s, model)


@hot_jit
def _remove(state, base, i, take, model, steps):
    """Take ``take`` casualties from loss step ``i`` of the side whose state starts at ``base``
    and whose steps start at ``steps`` in the model; returns whether its support must be
    recounted."""
    step = steps + i * N_STEP_FIELDS
    add(state, base + N_TALLIES + i, -take)
    add(state, base + ST_SLOTS, -take)
    add(state, base + ST_FIGHTING, -take * get(model, step + F_FIGHTING))
    add(state, base + ST_DESTROYERS, -take * get(model, step + F_DESTROYER))
    line = get(model, step + F_LINE)
    if line >= 0:
        add(state, base + get(model, H_DICE_AT) + line, -take * get(model, step + F_ROLLS))
    return take > 0 and get(model, step + F_RECOUNT) != 0


@hot_jit
def _take_hits(state, s, kind, hits, model):
    """Give ``hits`` hits of ``kind`` to side ``s``, each to the first unit in its order of loss
    that can take it; hits nothing can take are lost."""
    base = _base(model, s)
    rem = base + N_TALLIES
    n_steps = _scalar(model, s, SC_STEPS)
    steps = _steps_at(model, s)
    head = get(state, base + ST_HEAD)
    recount = False
    i = head
    while hits > 0 and i < n_steps:
        category = get(model, steps + i * N_STEP_FIELDS + F_CATEGORY)
        if not ((kind == HIT_SUB and category & AIR) or (kind == HIT_AIR and category & SUB)
                or (kind == HIT_AA and not category & AIR)):
            take = min(get(state, rem + i), hits)
            recount |= _remove(state, base, i, take, model, steps)
            hits -= take
        i += 1
    _settle(state, s, head, recount, model)


@hot_jit
def _settle(state, s, head, recount, model):
    """After side ``s`` lost units: move its head past the used-up steps from ``head`` on and,
    where support changed, recount its lines."""
    base = _base(model, s)
    rem = base + N_TALLIES
    n_steps = _scalar(model, s, SC_STEPS)
    while head < n_steps and get(state, rem + head) == 0:
        head += 1
    put(state, base + ST_HEAD, head)
    if recount:
        _count_lines(state, s, model)


@hot_jit
def _take_any_hits(state, s, hits, model):
    """``_take_hits`` for hits that may take anything: they go down the order from its head."""
    base = _base(model, s)
    hits = min(hits, get(state, base + ST_SLOTS))
    rem = base + N_TALLIES
    steps = _steps_at(model, s)
    i = get(state, base + ST_HEAD)
    recount = False
    while hits > 0:
        left = get(state, rem + i)
        take = min(left, hits)
        recount |= _remove(state, base, i, take, model, steps)
        hits -= take
        i += take == left
    put(state, base + ST_HEAD, i)
    if recount:
        _count_lines(state, s, model)


@hot_jit
def _strength(state, s, first, last, model):
    """Sum of the values of side ``s``'s dice in lines ``first`` to ``last - 1``."""
    dice = _base(model, s) + get(model, H_DICE_AT)
    values = _lines_at(model, s) + L_VALUE
    total = 0
    for line in range(first, last):
        total += get(state, dice + line) * get(model, values + line * N_LINE_FIELDS)
    return total


@hot_jit
def _fire(state, s, first, last, model):
    """Hits of side ``s``'s lines ``first`` to ``last - 1`` as one group that fires together:
    each line rolled at once, or with Low Luck the group's strength scored."""
    if _rule(model, R_LOW_LUCK):
        strength = _strength(state, s, first, last, model)
        return low_luck_hits(next_word(state, RNG_AT), strength) if strength > 0 else 0
    dice = _base(model, s) + get(model, H_DICE_AT)
    rows = _lines_at(model, s) + L_ROWS  # offsets read once: stores to state may alias model
    hits = 0
    for line in range(first, last):
        hits += roll(state, RNG_AT, model, get(model, rows + line * N_LINE_FIELDS),
                     get(state, dice + line))
    return hits


@hot_jit
def _dice(state, s, group, model):
    """Rolls of side ``s`` in lines of ``group`` that can hit (value at least 1)."""
    dice = _base(model, s) + get(model, H_DICE_AT)
    n_sub = _scalar(model, s, SC_SUB_LINES)
    n_sub_air = n_sub + _scalar(model, s, SC_AIR_LINES)
    first = 0 if group == G_SUB else n_sub if group == G_AIR else n_sub_air
    last = (n_sub if group == G_SUB else n_sub_air if group == G_AIR
            else _scalar(model, s, SC_LINES))
    values = _lines_at(model, s) + L_VALUE
    total = 0
    for line in range(first, last):
        if get(model, values + line * N_LINE_FIELDS) > 0:
            total += get(state, dice + line)
    return total


@hot_jit
def _slots_left(state, s, categories, model):
    """Loss slots side ``s`` has left among units of the ``categories`` (one bit each)."""
    rem = _base(model, s) + N_TALLIES
    steps = _steps_at(model, s)
    total = 0
    for i in range(_scalar(model, s, SC_STEPS)):
        if (categories >> get(model, steps + i * N_STEP_FIELDS + F_CATEGORY)) & 1:
            total += get(state, rem + i)
    return total


@hot_jit
def _can_hit(state, f, t, model):
    """Whether side ``f`` can still take one of side ``t``'s units."""
    if _dice(state, f, G_OTHER, model) > 0:
        return True
    if _dice(state, f, G_SUB, model) > 0 and _slots_left(state, t, NOT_AIR, model) > 0:
        return True
    if _dice(state, f, G_AIR, model) > 0:
        if (_rule(model, R_AIR_NEEDS_DESTROYER) == 0
                or get(state, _base(model, f) + ST_DESTROYERS) > 0):
            return True
        if _slots_left(state, t, NOT_SUB, model) > 0:
            return True
    return False


@hot_jit
def _outcome(state, model):
    """The battle's outcome code (ONGOING while it goes on)."""
    ab = _base(model, ATTACKER)
    db = _base(model, DEFENDER)
    code = _end_by_units(get(state, ab + ST_SLOTS) > 0, get(state, db + ST_SLOTS) > 0,
                         get(state, ab + ST_FIGHTING) == 0, get(state, db + ST_FIGHTING) == 0, model)
    if code != ONGOING or _rule(model, R_NO_STALEMATE):
        return code
    if not _can_hit(state, ATTACKER, DEFENDER, model) and not _can_hit(state, DEFENDER, ATTACKER,
                                                                        model):
        return STALEMATE
    return ONGOING


@hot_jit
def _end_by_units(a_left, d_left, a_weak, d_weak, model):
    """The outcome decided by what each side has left (``weak``: only defenceless units), or
    ONGOING; the stalemate test is the caller's, as it reads its own state."""
    if not a_left or not d_left:
        if a_left:
            return ATTACKER_WINS
        if d_left or _rule(model, R_DEFENDER_HOLDS):
            return DEFENDER_WINS
        return DRAW
    if a_weak or d_weak:
        if not d_weak:
            return DEFENDER_WINS
        return STALEMATE if a_weak else ATTACKER_WINS
    return ONGOING


@hot_jit
def _both_fight_on(state, model):
    """A quick sufficient test that the battle goes on: both sides have units that can fight
    and, where no stalemate is possible, nothing else to check."""
    ab = _base(model, ATTACKER)
    db = _base(model, DEFENDER)
    return (_rule(model, R_NO_STALEMATE) != 0 and get(state, ab + ST_FIGHTING) > 0
            and get(state, db + ST_FIGHTING) > 0)


@hot_jit
def _air_restricted(state, f, t, model):
    """Side ``f`` has aircraft lines that may not hit side ``t``'s submarines (``f`` has no
    destroyer), and ``t`` has some."""
    return (_scalar(model, f, SC_AIR_LINES) > 0
            and get(state, _base(model, f) + ST_DESTROYERS) == 0
            and _slots_left(state, t, SUBS, model) > 0)


@hot_jit
def _first_strike(state, s, model):
    """Side ``s``'s submarines strike first this round: the edition allows it and the enemy
    has no destroyer."""
    return (_scalar(model, s, SC_SUBS_FIRST) != 0
            and get(state, _base(model, 1 - s) + ST_DESTROYERS) == 0
            and _dice(state, s, G_SUB, model) > 0)


@hot_jit
def _general_fire(state, s, subs, model):
    """Side ``s``'s (submarine, restricted aircraft, other) hits in general fire; its
    submarines fire only when ``subs`` (they did not strike first). Aircraft that may hit
    anything fire with the other units, as one group."""
    n_sub = _scalar(model, s, SC_SUB_LINES)
    n_sub_air = n_sub + _scalar(model, s, SC_AIR_LINES)
    n_lines = _scalar(model, s, SC_LINES)
    sub_hits = _fire(state, s, FIRST_LINE, n_sub, model) if subs else 0
    if _air_restricted(state, s, 1 - s, model):
        return sub_hits, _fire(state, s, n_sub, n_sub_air, model), _fire(state, s, n_sub_air,
                                                                          n_lines, model)
    return sub_hits, 0, _fire(state, s, n_sub, n_lines, model)


@hot_jit
def _take_volley(state, s, sub_hits, air_hits, other_hits, model):
    """Side ``s``'s casualties of one step: submarine hits placed first, then restricted
    aircraft hits, then all other hits."""
    if sub_hits + air_hits > 0:
        _take_hits(state, s, HIT_SUB, sub_hits, model)
        _take_hits(state, s, HIT_AIR, air_hits, model)
    _take_any_hits(state, s, other_hits, model)


@hot_jit
def _round(state, bombard, model):
    """Fight one round with submarines or restricted aircraft, ``bombard`` hits added to the
    attacker's general hits; returns the outcome code."""
    a_first = _first_strike(state, ATTACKER, model)
    d_first = _first_strike(state, DEFENDER, model)
    if a_first or d_first:
        on_d = _fire(state, ATTACKER, FIRST_LINE, _scalar(model, ATTACKER, SC_SUB_LINES),
                     model) if a_first else 0
        on_a = _fire(state, DEFENDER, FIRST_LINE, _scalar(model, DEFENDER, SC_SUB_LINES),
                     model) if d_first else 0
        _take_hits(state, DEFENDER, HIT_SUB, on_d, model)
        _take_hits(state, ATTACKER, HIT_SUB, on_a, model)
        if on_d + on_a > 0:
            code = _outcome(state, model)
            if code != ONGOING:
                return code
    # general fire: both sides roll from the same state, then both take their casualties
    sub_d, air_d, any_d = _general_fire(state, ATTACKER, not a_first, model)
    sub_a, air_a, any_a = _general_fire(state, DEFENDER, not d_first, model)
    any_d += bombard
    _take_volley(state, DEFENDER, sub_d, air_d, any_d, model)
    _take_volley(state, ATTACKER, sub_a, air_a, any_a, model)
    if sub_d + air_d + any_d + sub_a + air_a + any_a == 0:
        return ONGOING
    return _outcome(state, model)


@hot_jit
def _retreats(state, rounds, model):
    """Whether the attacker's policy retreats at the end of round ``rounds``."""
    after = _rule(model, R_RETREAT_AFTER)
    if after > 0 and rounds >= after:
        return True
    ab = _base(model, ATTACKER)
    steps = _steps_at(model, ATTACKER)
    if _rule(model, R_RETREAT_UNITS) >= 0:
        units = 0
        for i in range(_scalar(model, ATTACKER, SC_STEPS)):
            units += get(state, ab + N_TALLIES + i) * get(model, steps + i * N_STEP_FIELDS + F_KILL)
        if units <= _rule(model, R_RETREAT_UNITS):
            return True
    table = get(model, H_RETREAT)
    if table < 0:
        return False
    # the exact engine's decision for this state: index by casualties per loss step (departed
    # units are not casualties), plus the side's layer size when it has units departed
    width = get(model, H_STEP_SIDE) // N_STEP_FIELDS
    index = 0
    for s in range(2):
        base = _base(model, s)
        rem = base + N_TALLIES
        gone = base + get(model, H_GONE_AT)
        strides = table + RT_STRIDES + s * width
        side = get(model, table + RT_LAYER + s) if get(state, base + ST_GONE) > 0 else 0
        for i in range(_scalar(model, s, SC_STEPS)):
            lost = _step(model, s, i, F_COUNT) - get(state, rem + i) - get(state, gone + i)
            side += lost * get(model, strides + i)
        # attacker index x defender states + defender index
        index = index * get(model, table + RT_DEFENDER_STATES) + side
    return get(model, table + RT_STRIDES + 2 * width + index) != 0


@hot_jit
def _depart(state, s, retreat, model):
    """Side ``s``'s units leave the battle and survive: all its subs still in it (they
    submerge) or, with ``retreat``, all but the landed ones (they retreat while those fight on)."""
    base = _base(model, s)
    rem = base + N_TALLIES
    gone = base + get(model, H_GONE_AT)
    steps = _steps_at(model, s)
    n_steps = _scalar(model, s, SC_STEPS)
    recount = False
    for i in range(n_steps):
        step = steps + i * N_STEP_FIELDS
        if retreat:
            leaves = get(model, step + F_LANDED) == 0
        else:
            leaves = (get(model, step + F_CATEGORY) & SUB) != 0
        left = get(state, rem + i)
        if leaves and left > 0:
            add(state, gone + i, left)
            add(state, base + ST_GONE, left * get(model, step + F_KILL))
            recount |= _remove(state, base, i, left, model, steps)
    _settle(state, s, get(state, base + ST_HEAD), recount, model)


@hot_jit
def _submerges(state, s, model):
    """Whether side ``s``'s subs submerge now: it has some in the battle, the enemy has no
    destroyer in it, and its policy says so (``always``; ``alone``: nothing else of the side
    in the battle can fire)."""
    policy = _scalar(model, s, SC_SUBMERGE)
    if policy == 0 or get(state, _base(model, 1 - s) + ST_DESTROYERS) > 0:
        return False
    rem = _base(model, s) + N_TALLIES
    steps = _steps_at(model, s)
    subs = others = 0
    for i in range(_scalar(model, s, SC_STEPS)):
        step = steps + i * N_STEP_FIELDS
        left = get(state, rem + i)
        if get(model, step + F_CATEGORY) & SUB:
            subs += left * get(model, step + F_KILL)
        else:
            others += left * get(model, step + F_FIGHTING)
    return subs > 0 and (policy == SUBMERGE_ALWAYS or others == 0)


@hot_jit
def _landed_left(state, model):
    """The attacker's landed units still in the battle."""
    rem = _base(model, ATTACKER) + N_TALLIES
    steps = _steps_at(model, ATTACKER)
    total = 0
    for i in range(_scalar(model, ATTACKER, SC_STEPS)):
        step = steps + i * N_STEP_FIELDS
        total += get(state, rem + i) * get(model, step + F_LANDED) * get(model, step + F_KILL)
    return total


@hot_jit
def _boundary(state, rounds, retreat, model):
    """Between rounds (after round ``rounds``; 0: before the first): first the subs submerge,
    then the battle-end check, then (while ``retreat``: the attacker may still retreat, never
    before the first round) its retreat rules. A retreat with landed units in the battle takes
    the others away and leaves those to fight on, with no further retreat. Returns (outcome
    code, ``retreat`` after)."""
    code = ONGOING
    if _rule(model, R_SUBMERGE):
        a = _submerges(state, ATTACKER, model)
        d = _submerges(state, DEFENDER, model)
        if a:
            _depart(state, ATTACKER, False, model)
        if d:
            _depart(state, DEFENDER, False, model)
        if a or d:
            code = _outcome(state, model)
    if retreat and code == ONGOING and _retreats(state, rounds, model):
        if _rule(model, R_PARTIAL_RETREAT) and _landed_left(state, model) > 0:
            _depart(state, ATTACKER, True, model)
            return _outcome(state, model), False
        return RETREAT, retreat
    return code, retreat


@hot_jit
def _bombard_hits(word, model):
    """Hits of the bombardment for the random 64-bit ``word``."""
    if _rule(model, R_LOW_LUCK):
        return low_luck_hits(word, _rule(model, R_BOMBARD_STRENGTH))
    return alias_hits(word, model, _rule(model, R_BOMBARD_ROW), _rule(model, R_BOMBARD_CELLS))


@hot_jit
def _fight(state, start, seed, index, model):
    """Fight battle ``index`` from ``start`` to its end; returns (outcome code, rounds)."""
    for i in range(start.shape[0]):
        put(state, i, get(start, i))
    seed_battle(state, RNG_AT, seed, index)
    aa_dice = _rule(model, R_AA_DICE)
    if aa_dice > 0:
        if _rule(model, R_LOW_LUCK):
            hits = low_luck_hits(next_word(state, RNG_AT), _rule(model, R_AA_STRENGTH))
        else:
            hits = roll(state, RNG_AT, model, _rule(model, R_AA_ROWS), aa_dice)
        _take_hits(state, ATTACKER, HIT_AA, hits, model)
    bombard = 0  # bombardment hits still to be removed (with round 1's)
    if _rule(model, R_BOMBARD_STRENGTH) > 0:
        bombard = _bombard_hits(next_word(state, RNG_AT), model)
        if not _rule(model, R_BOMBARD_FIRE_BACK):
            _take_any_hits(state, DEFENDER, bombard, model)
            bombard = 0
    code = _outcome(state, model)
    rounds = 0
    plain = _rule(model, R_PLAIN) != 0
    retreat = _rule(model, R_RETREAT_AFTER) > 0 or _rule(model, R_RETREAT_UNITS) >= 0 or get(
        model, H_RETREAT) >= 0
    submerge = _rule(model, R_SUBMERGE) != 0
    if code == ONGOING and _rule(model, R_START_BOUNDARY):  # subs only: no retreat before round 1
        code = _boundary(state, rounds, False, model)[0]
    a_lines = _scalar(model, ATTACKER, SC_LINES)
    d_lines = _scalar(model, DEFENDER, SC_LINES)
    while code == ONGOING:
        rounds += 1
        if plain:  # every hit may take anything: no submarines, no restricted aircraft
            on_d = _fire(state, ATTACKER, FIRST_LINE, a_lines, model) + bombard
            on_a = _fire(state, DEFENDER, FIRST_LINE, d_lines, model)
            if on_d > 0:
                _take_any_hits(state, DEFENDER, on_d, model)
            if on_a > 0:
                _take_any_hits(state, ATTACKER, on_a, model)
            if on_d + on_a > 0 and not _both_fight_on(state, model):
                code = _outcome(state, model)
        else:
            code = _round(state, bombard, model)
        bombard = 0
        if (retreat or submerge) and code == ONGOING:
            code, retreat = _boundary(state, rounds, retreat, model)
    return code, rounds


@hot_jit
def _losses(state, s, dead, model):
    """IPCs side ``s`` lost (``dead``: its units in the battle were destroyed; those departed
    survive), and how many of its land units are left in the battle."""
    base = _base(model, s)
    departed = get(state, base + ST_GONE) > 0
    if dead and not departed:
        return _scalar(model, s, SC_TOTAL_IPC), 0
    rem = base + N_TALLIES
    gone = base + get(model, H_GONE_AT)
    lost = land = 0
    for i in range(_scalar(model, s, SC_STEPS)):
        left = 0 if dead else get(state, rem + i)
        if departed:
            left += get(state, gone + i)
        lost += (_step(model, s, i, F_COUNT) - left) * _step(model, s, i, F_COST)
        if not dead:
            land += get(state, rem + i) * _step(model, s, i, F_LAND)
    return lost, land


@hot_jit
def _survivor_key(state, s, dead, model):
    """Compact code of side ``s``'s end state: its casualties per key category in mixed radix
    (all slots taken when the side is destroyed), plus SC_DEPARTED_KEY when some of its units
    departed (they are not casualties: the departed survivors are the side's subs at sea, its
    units not landed on land)."""
    base = _base(model, s)
    departed = get(state, base + ST_GONE) > 0
    if dead and not departed:
        return _scalar(model, s, SC_DEAD_KEY)
    rem = base + N_TALLIES
    gone = base + get(model, H_GONE_AT)
    key = _scalar(model, s, SC_DEPARTED_KEY) if departed else 0
    for i in range(_scalar(model, s, SC_STEPS)):
        left = 0 if dead else get(state, rem + i)
        if departed:
            left += get(state, gone + i)
        key += (_step(model, s, i, F_COUNT) - left) * _step(model, s, i, F_KEY)
    return key


@hot_jit
def _record(state, code, rounds, counts, hist_a, hist_d, ipc_a, ipc_d, model):
    """Add a finished battle to the block's tallies and survivor histograms. ``code`` is the
    outcome of the units in the battle; with units departed it becomes: the attacker's in the
    battle destroyed but some departed, a retreat; a draw with only the defender's departed, a
    defender win."""
    a_dead = code == DEFENDER_WINS or code == DRAW
    d_dead = code == ATTACKER_WINS or code == DRAW
    if a_dead and get(state, _base(model, ATTACKER) + ST_GONE) > 0:
        code = RETREAT
    elif code == DRAW and get(state, _base(model, DEFENDER) + ST_GONE) > 0:
        code = DEFENDER_WINS
    lost_a, land = _losses(state, ATTACKER, a_dead, model)
    lost_d = _losses(state, DEFENDER, d_dead, model)[0]
    _tally(code, rounds, lost_a, lost_d, land, _survivor_key(state, ATTACKER, a_dead, model),
           _survivor_key(state, DEFENDER, d_dead, model), counts, hist_a, hist_d, ipc_a, ipc_d, model)


@hot_jit
def _tally(code, rounds, lost_a, lost_d, land, key_a, key_d, counts, hist_a, hist_d, ipc_a, ipc_d,
           model):
    """Add one battle's outcome, losses, rounds and end states (survivor keys) to the tallies."""
    add(counts, code, ONE)
    if code == ATTACKER_WINS and _rule(model, R_LAND_BATTLE) and land > 0:
        add(counts, S_TAKES, ONE)
    if code == RETREAT:
        add(counts, S_RETREAT_ROUNDS, rounds)
        key_a += _scalar(model, ATTACKER, SC_KEYS)
    add(counts, S_ATTACKER_IPC, lost_a)
    add(counts, S_ATTACKER_IPC_SQ, lost_a * lost_a)
    add(counts, S_DEFENDER_IPC, lost_d)
    add(counts, S_DEFENDER_IPC_SQ, lost_d * lost_d)
    add(counts, S_ROUNDS, rounds)
    add(counts, S_ROUNDS_SQ, rounds * rounds)
    if _rule(model, R_KEY_COARSE):
        _keep(hist_a, ipc_a, key_a, _scalar(model, ATTACKER, SC_TOTAL_IPC) - lost_a)
        _keep(hist_d, ipc_d, key_d, _scalar(model, DEFENDER, SC_TOTAL_IPC) - lost_d)
    else:
        add(hist_a, key_a, ONE)
        add(hist_d, key_d, ONE)


@hot_jit
def _keep(hist, held, key, ipc_left):
    """Count an end state of a side whose keys are too many for a histogram: in its slot
    (1 + key mod slots) when ``held`` there says it is kept there (key + 1; 0: a free slot,
    which the first end state seen takes), else in slot 0, "other", ``held[0]`` summing the
    IPCs left of those."""
    slot = 1 + key % (hist.shape[0] - 1)
    owner = get(held, slot)
    if owner == 0:
        put(held, slot, key + 1)
        owner = key + 1
    if owner == key + 1:
        add(hist, slot, ONE)
    else:
        add(hist, ZERO, ONE)
        add(held, ZERO, ipc_left)


@jit
def plain_profile(model, s, aa_hits):
    """Side ``s`` of a plain battle (the attacker: once AA took ``aa_hits`` of its aircraft)
    after each number of casualties c = 0..slots: its rolls per line ``(slots + 1, lines)`` and
    its records ``(slots + 1, N_PLAIN_FIELDS)``, PL_ROW holding its strength and PL_CELLS 0 (the
    caller places the alias tables)."""
    state = np.zeros(SIDES_AT + 2 * model[H_WIDTH], dtype=np.int64)
    start_state(state, model)
    if aa_hits > 0:
        _take_hits(state, ATTACKER, HIT_AA, aa_hits, model)
    base = _base(model, s)
    n = state[base + ST_SLOTS]
    n_lines = _scalar(model, s, SC_LINES)
    n_steps = _scalar(model, s, SC_STEPS)
    steps = _steps_at(model, s)
    dice = np.zeros((n + 1, n_lines), dtype=np.int64)
    records = np.zeros((n + 1, N_PLAIN_FIELDS), dtype=np.int64)
    table = model[H_RETREAT]
    width = model[H_STEP_SIDE] // N_STEP_FIELDS
    for c in range(n + 1):
        if c > 0:
            _take_any_hits(state, s, ONE, model)
        for line in range(n_lines):
            dice[c, line] = state[base + model[H_DICE_AT] + line]
        record = records[c]
        record[PL_ROW] = _strength(state, s, 0, n_lines, model)
        record[PL_FIGHTING] = state[base + ST_FIGHTING]
        record[PL_CAN_HIT] = _dice(state, s, G_OTHER, model) > 0
        record[PL_COST], record[PL_LAND] = _losses(state, s, False, model)
        record[PL_KEY] = _survivor_key(state, s, False, model)
        for i in range(n_steps):
            left = state[base + N_TALLIES + i]
            record[PL_UNITS] += left * model[steps + i * N_STEP_FIELDS + F_KILL]
            if table >= 0:
                lost = model[steps + i * N_STEP_FIELDS + F_COUNT] - left
                record[PL_RETREAT] += lost * model[table + RT_STRIDES + s * width + i]
    return dice, records


@hot_jit
def _plain_hits(word, record, low_luck, model):
    """Hits of a side of a plain battle whose record starts at ``record``, for the random
    ``word`` (drawn only where it is needed)."""
    if low_luck:
        strength = get(model, record + PL_ROW)
        return low_luck_hits(word, strength) if strength > 0 else 0
    return alias_hits(word, model, get(model, record + PL_ROW), get(model, record + PL_CELLS))


@hot_jit
def _plain_outcome(a_rec, d_rec, a_left, d_left, model):
    """``_outcome`` of a plain battle from its sides' records and whether each has slots."""
    code = _end_by_units(a_left, d_left, get(model, a_rec + PL_FIGHTING) == 0,
                         get(model, d_rec + PL_FIGHTING) == 0, model)
    if code != ONGOING or _rule(model, R_NO_STALEMATE):
        return code
    if get(model, a_rec + PL_CAN_HIT) == 0 and get(model, d_rec + PL_CAN_HIT) == 0:
        return STALEMATE
    return ONGOING


@hot_jit
def _plain_retreats(a_rec, d_rec, rounds, model):
    """``_retreats`` of a plain battle."""
    after = _rule(model, R_RETREAT_AFTER)
    if after > 0 and rounds >= after:
        return True
    units = _rule(model, R_RETREAT_UNITS)
    if units >= 0 and get(model, a_rec + PL_UNITS) <= units:
        return True
    table = get(model, H_RETREAT)
    if table < 0:
        return False
    width = get(model, H_STEP_SIDE) // N_STEP_FIELDS
    index = (get(model, a_rec + PL_RETREAT) * get(model, table + RT_DEFENDER_STATES)
             + get(model, d_rec + PL_RETREAT))
    return get(model, table + RT_STRIDES + 2 * width + index) != 0


@hot_jit
def _fight_plain(seed, index, model):
    """``_fight`` for a plain battle, on casualty counts: one draw per side and round. Returns
    (outcome code, rounds, where the attacker's and the defender's final records start); a
    destroyed side's is the one with all its slots taken."""
    s0, s1 = battle_words(seed, index)
    section = get(model, H_PLAIN)
    low_luck = _rule(model, R_LOW_LUCK) != 0
    chain = section + PL_ATTACKER
    aa_dice = _rule(model, R_AA_DICE)
    if aa_dice > 0:
        word, s0, s1 = step_words(s0, s1)
        if low_luck:
            aa_hits = low_luck_hits(word, _rule(model, R_AA_STRENGTH))
        else:
            aa_hits = hits_of(word, model, _rule(model, R_AA_ROWS), aa_dice)
        chain += 2 * aa_hits
    a_slots = get(model, chain + PL_SLOTS)
    a_at = get(model, chain + PL_AT)
    d_slots = get(model, section + PL_DEFENDER + PL_SLOTS)
    d_at = get(model, section + PL_DEFENDER + PL_AT)
    retreat = _rule(model, R_RETREAT_AFTER) > 0 or _rule(model, R_RETREAT_UNITS) >= 0 or get(
        model, H_RETREAT) >= 0
    no_stalemate = _rule(model, R_NO_STALEMATE) != 0
    a_lost = 0
    d_lost = 0
    bombard = 0  # bombardment hits still to be removed (with round 1's)
    if _rule(model, R_BOMBARD_STRENGTH) > 0:
        word, s0, s1 = step_words(s0, s1)
        bombard = _bombard_hits(word, model)
        if not _rule(model, R_BOMBARD_FIRE_BACK):
            d_lost = min(bombard, d_slots)
            bombard = 0
    a_rec = a_at
    d_rec = d_at + d_lost * N_PLAIN_FIELDS
    code = _plain_outcome(a_rec, d_rec, a_slots > 0, d_lost < d_slots, model)
    rounds = 0
    while code == ONGOING:
        rounds += 1
        word, s0, s1 = step_words(s0, s1)
        on_d = _plain_hits(word, a_rec, low_luck, model) + bombard
        bombard = 0
        word, s0, s1 = step_words(s0, s1)
        on_a = _plain_hits(word, d_rec, low_luck, model)
        if on_d + on_a > 0:
            a_lost = min(a_lost + on_a, a_slots)
            d_lost = min(d_lost + on_d, d_slots)
            a_rec = a_at + a_lost * N_PLAIN_FIELDS
            d_rec = d_at + d_lost * N_PLAIN_FIELDS
            if not (no_stalemate and a_lost < a_slots and d_lost < d_slots
                    and get(model, a_rec + PL_FIGHTING) > 0 and get(model, d_rec + PL_FIGHTING) > 0):
                code = _plain_outcome(a_rec, d_rec, a_lost < a_slots, d_lost < d_slots, model)
        if retreat and code == ONGOING and _plain_retreats(a_rec, d_rec, rounds, model):
            code = RETREAT
    if code == DEFENDER_WINS or code == DRAW:
        a_rec = a_at + a_slots * N_PLAIN_FIELDS
    if code == ATTACKER_WINS or code == DRAW:
        d_rec = d_at + d_slots * N_PLAIN_FIELDS
    return code, rounds, a_rec, d_rec


@hot_jit
def _record_plain(code, rounds, a_rec, d_rec, counts, hist_a, hist_d, ipc_a, ipc_d, model):
    """``_record`` for a plain battle from its sides' final records."""
    _tally(code, rounds, get(model, a_rec + PL_COST), get(model, d_rec + PL_COST),
           get(model, a_rec + PL_LAND), get(model, a_rec + PL_KEY), get(model, d_rec + PL_KEY),
           counts, hist_a, hist_d, ipc_a, ipc_d, model)


@jit
def _run_block(seed, first, last, stats, hist_a, hist_d, ipc_a, ipc_d, model):
    """Fight battles ``first`` to ``last - 1`` and add their results to this block's rows."""
    start = np.zeros(SIDES_AT + 2 * model[H_WIDTH], dtype=np.int64)
    start_state(start, model)
    state = start.copy()
    counts = np.zeros(N_STATS, dtype=np.int64)
    for index in range(first, last):
        code, rounds = _fight(state, start, seed, index, model)
        _record(state, code, rounds, counts, hist_a, hist_d, ipc_a, ipc_d, model)
    counts[S_BATTLES] = last - first
    for column in range(N_STATS):
        stats[column] += counts[column]


@jit
def _run_plain_block(seed, first, last, stats, hist_a, hist_d, ipc_a, ipc_d, model):
    """``_run_block`` for a plain battle (the model has its section, see ``_fight_plain``)."""
    counts = np.zeros(N_STATS, dtype=np.int64)
    for index in range(first, last):
        code, rounds, a_rec, d_rec = _fight_plain(seed, index, model)
        _record_plain(code, rounds, a_rec, d_rec, counts, hist_a, hist_d, ipc_a, ipc_d, model)
    counts[S_BATTLES] = last - first
    for column in range(N_STATS):
        stats[column] += counts[column]


@parallel_jit
def simulate_chunk(seed, first, n_battles, stats, hist_a, hist_d, ipc_a, ipc_d, model):
    """Fight battles ``first .. first + n_battles - 1`` of the battle in ``model`` and add their
    results to the per-block rows of ``stats`` (N_STATS columns) and of the survivor histograms
    (the ``ipc_*`` ones, used only where keys are too many, say which end state each slot keeps,
    see ``_keep``). One block per row,
    blocks run in parallel."""
    n_blocks = stats.shape[0]
    for b in prange(n_blocks):
        lo = first + (b * n_battles) // n_blocks
        hi = first + ((b + 1) * n_battles) // n_blocks
        if model[H_PLAIN] >= 0:
            _run_plain_block(seed, lo, hi, stats[b], hist_a[b], hist_d[b], ipc_a[b], ipc_d[b],
                             model)
        else:
            _run_block(seed, lo, hi, stats[b], hist_a[b], hist_d[b], ipc_a[b], ipc_d[b], model)
