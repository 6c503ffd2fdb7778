"""Private Numba kernels of the Monte Carlo engine: fight many battles on unit counts, tally them.

A battle's state is, per side, the units left in each loss step, the rolls of each firing line
(units whose rolls hit with the same chance and may take the same units) and a few tallies.
Each step of a round rolls every firing line at once (or, with Low Luck, scores each group's
strength) and gives the hits out in the order of loss by kind: submarine hits first, then
aircraft hits that may not take submarines, then all other hits. Between rounds submarines may
submerge, then the attacker may retreat. Units that leave the battle early
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

For speed the hot helpers never allocate and take two arrays only: the battle's ``state`` and
the battle's ``model``, one int64 array holding every table, found through its header
(``_layout.Header``; an array argument is passed as a dozen machine words, so a long argument
list costs more than the work). Battles are split over threads in blocks and seeded by their
global index; results are integer sums, so they are the same for any number of threads or chunks.

Numba's runtime counts references to every array a function takes (two atomic operations per
array and call) unless its pruning pass removes them, which it does where no call it cannot
inline is made while the array is held, no array is handed to a helper inside a branch unless
that helper counts none itself, and each array's last use comes after every branch (``_held``).
Both paths are written so, with Numba's public options (``jit``): a battle's rounds are written
out in one kernel (``_fight``, ``_fight_plain``) that calls helpers which call no other but the
small ones LLVM inlines, so references are counted at most once per battle (``_fight``'s own
arrays: it calls helpers LLVM keeps), never per round.
``tests/engines/montecarlo/test_reference_counts.py`` reads the compiled code and fails if any
come back.
"""

from __future__ import annotations

import numpy as np

from oddsim._runtime.jit import jit
from oddsim.engines.montecarlo._layout import (
    ATTACKER_WINS,
    CHAIN,
    CHAIN_WIDTH,
    DEFENDER_WINS,
    DRAW,
    HEADER,
    LINE,
    LINE_WIDTH,
    ONGOING,
    PLAIN,
    PLAIN_WIDTH,
    RETREAT,
    RETREAT_TABLE,
    RETREAT_TABLE_WIDTH,
    RULES,
    SCALARS,
    SCALARS_WIDTH,
    STALEMATE,
    STATE,
    STATE_WIDTH,
    STATS,
    STATS_WIDTH,
    STEP,
    STEP_WIDTH,
    SUPPORT,
    SUPPORT_WIDTH,
    TALLY,
    TALLY_WIDTH,
    UNIT_TYPE,
    UNIT_TYPE_WIDTH,
)
from oddsim.engines.montecarlo._rng import (
    add,
    alias_hits,
    battle_words,
    get,
    hits_of,
    low_luck_hits,
    next_word,
    put,
    roll,
    seed_battle,
    step_words,
)

# Codes below are int64 scalars, not Python ints: Numba compiles a helper once per distinct literal
# argument it is called with, and int64 constants keep that to one compile per helper. Offsets
# into the packed arrays come from their declarations in ``_layout``.
ATTACKER, DEFENDER = np.arange(2)
ZERO, ONE = np.arange(2)
FIRST_LINE = np.int64(0)

# unit flag bits; the low two bits are the unit's category for typed hits and survivor keys
# (0 land/surface, 1 air, 2 submarine, 3 both air and submarine)
AIR, SUB, DESTROYER, LAND, DEFENCELESS = np.array([1, 2, 4, 8, 16], dtype=np.int64)
# sets of categories, one bit each
NOT_AIR, NOT_SUB, SUBS = np.array([0b0101, 0b0011, 0b1100], dtype=np.int64)

G_SUB, G_AIR, G_OTHER = np.arange(3)  # firing-line groups, in the order lines are stored
HIT_SUB, HIT_AIR, HIT_AA, HIT_ANY = np.arange(4)  # hits that may take: not air / not subs / air only / any

SUBMERGE_ALWAYS = np.int64(1)  # lowering.SUBMERGE_ALWAYS (0: never, 2: alone)

# A plain battle (every hit may take anything) is a chain on each side's casualties so far: after
# the AA fire they are always the next units in its order of loss, so a side's rolls, strength
# and all it reports are functions of that count alone (and, for the attacker, of the aircraft AA
# shot down: one chain per AA hit count). Its section in the model: the defender's Chain, the
# attacker's Chains, then their Plain records (``_layout``).


def state_offsets(n_steps: int, n_lines: int, n_types: int,
                  n_rules: int) -> tuple[int, int, int, int, int, int]:
    """(width, rolls, alive, raised, departed, left): a side's part of the state and where its
    parts start (left: the support each bonus rule has left, scratch)."""
    dice = int(TALLY_WIDTH) + n_steps
    alive = dice + n_lines
    raised = alive + n_types
    gone = raised + n_types
    left = gone + n_steps
    return left + n_rules, dice, alive, raised, gone, left


@jit
def _step(model, s, i, field):
    return get(model, get(model, HEADER.steps) + s * get(model, HEADER.step_side) + i * STEP_WIDTH
               + field)


@jit
def _steps_at(model, s):
    """Where side ``s``'s loss steps start in the model."""
    return get(model, HEADER.steps) + s * get(model, HEADER.step_side)


@jit
def _lines_at(model, s):
    """Where side ``s``'s firing lines start in the model."""
    return get(model, HEADER.lines) + s * get(model, HEADER.line_side)


@jit
def _type(model, s, t, field):
    return get(model, get(model, HEADER.types) + s * get(model, HEADER.type_side) + t * UNIT_TYPE_WIDTH
               + field)


@jit
def _support(model, s, r, t, field):
    return get(model, get(model, HEADER.support) + s * get(model, HEADER.support_side)
               + r * get(model, HEADER.support_rule) + t * SUPPORT_WIDTH + field)


@jit
def _scalar(model, s, column):
    return get(model, get(model, HEADER.scalars) + s * get(model, HEADER.scalar_side) + column)


@jit
def _rule(model, column):
    return get(model, get(model, HEADER.rules) + column)


@jit
def _base(model, s):
    """Where side ``s``'s part of the state starts."""
    return STATE_WIDTH + s * get(model, HEADER.width)


@jit
def _held(state, model):
    """Nothing, given the two arrays: called last in a helper whose last reads of them lie in a
    branch, it makes their last use come after every branch, where Numba's pruning removes the
    reference counts the helper would otherwise pay on every call (see the module's doc). Costs
    nothing once LLVM inlines it."""
    return state.shape[0] + model.shape[0] >= 0


@jit
def _count_lines(state, s, model):
    """Recount side ``s``'s rolls per line from its units left, with support: each supporter
    raises ``per`` supported units (in type order) onto the rule's line. With rules that add
    bonuses instead, the unit types go in their support order, each unit taking one rule of each
    bonus type (the first in the rules' order that covers it and has support left: its supporters
    x ``per``, less what earlier units took); its value, the sum kept within 0..sides, picks its
    line from the ``value_lines`` table. (One helper, calling none: see ``_fight``.)"""
    base = _base(model, s)
    rem = base + TALLY_WIDTH
    dice = base + get(model, HEADER.dice_at)
    alive = base + get(model, HEADER.alive_at)
    raised = base + get(model, HEADER.raised_at)
    left = base + get(model, HEADER.left_at)
    n_types = _scalar(model, s, SCALARS.types)
    n_rules = _scalar(model, s, SCALARS.rules)
    for t in range(n_types):
        put(state, alive + t, ZERO)
        put(state, raised + t, ZERO)
    for i in range(_scalar(model, s, SCALARS.steps)):
        add(state, alive + _step(model, s, i, STEP.type), get(state, rem + i) * _step(model, s, i,
                                                                                  STEP.kill))
    for line in range(_scalar(model, s, SCALARS.lines)):
        put(state, dice + line, ZERO)
    for r in range(n_rules):
        capacity = 0
        for t in range(n_types):
            capacity += _support(model, s, r, t, SUPPORT.supporter) * get(state, alive + t)
        put(state, left + r, capacity * _scalar(model, s, SCALARS_WIDTH + r))
    if _scalar(model, s, SCALARS.adds):
        sides = _rule(model, RULES.dice_sides)
        table = get(model, HEADER.value_lines) + s * get(model, HEADER.value_line_side)
        for j in range(n_types):
            t = _type(model, s, j, UNIT_TYPE.order)
            value_at = get(model, _lines_at(model, s) + _type(model, s, t, UNIT_TYPE.line) * LINE_WIDTH
                           + LINE.value) if _type(model, s, t, UNIT_TYPE.line) >= 0 else 0
            rolls = _type(model, s, t, UNIT_TYPE.rolls)
            for _ in range(get(state, alive + t)):
                value = value_at
                groups = 0  # bit g: a rule of bonus type g was taken
                for r in range(n_rules):
                    bit = np.int64(1) << _support(model, s, r, t, SUPPORT.group)
                    if (get(state, left + r) > 0 and _support(model, s, r, t, SUPPORT.supported)
                            and not groups & bit):
                        value += _support(model, s, r, t, SUPPORT.bonus)
                        add(state, left + r, -1)
                        groups |= bit
                line = get(model, table + t * (sides + 1) + min(max(value, 0), sides))
                if line >= 0:
                    add(state, dice + line, rolls)
    else:
        for t in range(n_types):
            line = _type(model, s, t, UNIT_TYPE.line)
            if line >= 0:
                add(state, dice + line, get(state, alive + t) * _type(model, s, t, UNIT_TYPE.rolls))
        for r in range(n_rules):
            capacity = get(state, left + r)
            for t in range(n_types):
                if capacity == 0:
                    break
                if _support(model, s, r, t, SUPPORT.supported):
                    take = min(capacity, get(state, alive + t) - get(state, raised + t))
                    rolls = take * _type(model, s, t, UNIT_TYPE.rolls)
                    add(state, dice + _type(model, s, t, UNIT_TYPE.line), -rolls)
                    add(state, dice + _support(model, s, r, t, SUPPORT.line), rolls)
                    add(state, raised + t, take)
                    capacity -= take
    _held(state, model)


@jit
def start_state(state, model):
    """Write a battle's state before any fire into ``state`` (generator words left at 0)."""
    for i in range(state.shape[0]):
        state[i] = 0
    for s in range(2):
        base = _base(model, s)
        for i in range(_scalar(model, s, SCALARS.steps)):
            n = _step(model, s, i, STEP.size)
            put(state, base + TALLY_WIDTH + i, n)
            add(state, base + TALLY.slots, n)
            add(state, base + TALLY.fighting, n * _step(model, s, i, STEP.fighting))
            add(state, base + TALLY.destroyers, n * _step(model, s, i, STEP.destroyer))
        _count_lines(state, s, model)


@jit
def _remove(state, base, i, take, model, steps):
    """Take ``take`` casualties from loss step ``i`` of the side whose state starts at ``base``
    and whose steps start at ``steps`` in the model; returns whether its support must be
    recounted."""
    step = steps + i * STEP_WIDTH
    add(state, base + TALLY_WIDTH + i, -take)
    add(state, base + TALLY.slots, -take)
    add(state, base + TALLY.fighting, -take * get(model, step + STEP.fighting))
    add(state, base + TALLY.destroyers, -take * get(model, step + STEP.destroyer))
    line = get(model, step + STEP.line)
    recount = get(model, step + STEP.recount) != 0
    if line >= 0:
        add(state, base + get(model, HEADER.dice_at) + line, -take * get(model, step + STEP.rolls))
    _held(state, model)
    return take > 0 and recount


@jit
def _settle(state, base, head, n_steps):
    """Move the head of the side whose state starts at ``base`` past its used-up steps from
    ``head`` on."""
    while head < n_steps and get(state, base + TALLY_WIDTH + head) == 0:
        head += 1
    put(state, base + TALLY.head, head)


@jit
def _take_any_hits(state, s, hits, model):
    """``_take_hits`` for hits that may take anything, with no destroyer waiting: they go down
    the order from the head. (Small: LLVM inlines it, which saves a plain battle a sixth of its
    time.)"""
    base = _base(model, s)
    hits = min(hits, get(state, base + TALLY.slots))
    rem = base + TALLY_WIDTH
    steps = _steps_at(model, s)
    i = get(state, base + TALLY.head)
    recount = False
    while hits > 0:
        left = get(state, rem + i)
        take = min(left, hits)
        recount |= _remove(state, base, i, take, model, steps)
        hits -= take
        i += take == left
    put(state, base + TALLY.head, i)
    _held(state, model)
    return recount


@jit
def _take_hits(state, s, sub_hits, air_hits, aa_hits, any_hits, model, waits):
    """Give side ``s`` its casualties of one step, hits of each kind in turn: the submarines'
    (they may not take aircraft), the aircraft's barred from hitting submarines, AA's (aircraft
    only), then those that may take anything; each to the first unit in its order of loss that
    can take it; hits nothing can take are lost. ``waits`` (the enemy has subs in the battle): a
    destroyer the side keeps last is taken only just before its units chosen last. Returns
    whether the side's lines must be recounted, which the caller does (``_count_lines``)."""
    base = _base(model, s)
    rem = base + TALLY_WIDTH
    n_steps = _scalar(model, s, SCALARS.steps)
    steps = _steps_at(model, s)
    kept = _scalar(model, s, SCALARS.kept) if waits else -1
    kept_before = _scalar(model, s, SCALARS.kept_before)
    head = get(state, base + TALLY.head)
    recount = False
    last = HIT_ANY if kept >= 0 else HIT_AA  # (else those that may take anything go down the order)
    for kind in range(HIT_SUB, last + 1):  # (each from the head: steps used up since hold 0)
        hits = (sub_hits if kind == HIT_SUB else air_hits if kind == HIT_AIR
                else aa_hits if kind == HIT_AA else any_hits)
        pending = kept >= 0
        i = head
        while hits > 0 and (i < n_steps or pending):
            if pending and i >= kept_before:
                at = kept
                pending = False
            else:
                at = i
                i += 1
                if at == kept:
                    continue
            category = get(model, steps + at * STEP_WIDTH + STEP.category)
            if not ((kind == HIT_SUB and category & AIR) or (kind == HIT_AIR and category & SUB)
                    or (kind == HIT_AA and not category & AIR)):
                take = min(get(state, rem + at), hits)
                recount |= _remove(state, base, at, take, model, steps)
                hits -= take
    _settle(state, base, head, n_steps)
    if last == HIT_AA:
        recount |= _take_any_hits(state, s, any_hits, model)
    _held(state, model)
    return recount


@jit
def _strength(state, s, first, last, model):
    """Sum of the Low Luck strengths of side ``s``'s rolls in lines ``first`` to ``last - 1``."""
    dice = _base(model, s) + get(model, HEADER.dice_at)
    values = _lines_at(model, s) + LINE.strength
    total = 0
    for line in range(first, last):
        total += get(state, dice + line) * get(model, values + line * LINE_WIDTH)
    return total


@jit
def _dice(state, s, group, model):
    """Rolls of side ``s`` in lines of ``group`` that can hit (value at least 1)."""
    dice = _base(model, s) + get(model, HEADER.dice_at)
    n_sub = _scalar(model, s, SCALARS.sub_lines)
    n_sub_air = n_sub + _scalar(model, s, SCALARS.air_lines)
    first = 0 if group == G_SUB else n_sub if group == G_AIR else n_sub_air
    last = (n_sub if group == G_SUB else n_sub_air if group == G_AIR
            else _scalar(model, s, SCALARS.lines))
    values = _lines_at(model, s) + LINE.value
    total = 0
    for line in range(first, last):
        if get(model, values + line * LINE_WIDTH) > 0:
            total += get(state, dice + line)
    return total


@jit
def _slots_left(state, s, categories, model):
    """Loss slots side ``s`` has left among units of the ``categories`` (one bit each)."""
    rem = _base(model, s) + TALLY_WIDTH
    steps = _steps_at(model, s)
    total = 0
    for i in range(_scalar(model, s, SCALARS.steps)):
        if (categories >> get(model, steps + i * STEP_WIDTH + STEP.category)) & 1:
            total += get(state, rem + i)
    return total


@jit
def _volley(state, s, subs, others, model):
    """Side ``s``'s hits of one step, as (its submarines', its aircraft's barred from hitting
    submarines, all others'): its submarines fire when ``subs``, its other units when ``others``.
    Its lines are stored by group (submarines, aircraft, others); aircraft that may hit anything
    (the side has a destroyer, or the enemy no submarine) fire with the others, as one group. Each
    group's lines are rolled in turn, or with Low Luck each group's strength scored (one draw
    where it has any)."""
    n_sub = _scalar(model, s, SCALARS.sub_lines)
    n_sub_air = n_sub + _scalar(model, s, SCALARS.air_lines)
    n_lines = _scalar(model, s, SCALARS.lines)
    low_luck = _rule(model, RULES.low_luck) != 0
    sides = _rule(model, RULES.dice_sides)
    dice = _base(model, s) + get(model, HEADER.dice_at)
    rows = _lines_at(model, s) + LINE.rows  # offsets read once: stores to state may alias model
    barred = 0  # lines of aircraft barred from hitting submarines
    if (others and n_sub_air > n_sub and get(state, _base(model, s) + TALLY.destroyers) == 0
            and _slots_left(state, 1 - s, SUBS, model) > 0):
        barred = n_sub_air - n_sub
    sub = air = other = 0
    for group in range(G_SUB, G_OTHER + 1):
        first = 0 if group == G_SUB else n_sub if group == G_AIR else n_sub + barred
        last = n_sub if group == G_SUB else n_sub + barred if group == G_AIR else n_lines
        hits = 0
        if subs if group == G_SUB else others:
            if low_luck:
                strength = _strength(state, s, first, last, model)
                hits = low_luck_hits(next_word(state, STATE.rng), strength, sides) if strength > 0 else 0
            else:
                for line in range(first, last):
                    hits += roll(state, STATE.rng, model, get(model, rows + line * LINE_WIDTH),
                                 get(state, dice + line))
        if group == G_SUB:
            sub = hits
        elif group == G_AIR:
            air = hits
        else:
            other = hits
    _held(state, model)
    return sub, air, other


@jit
def _outcome(state, model):
    """The battle's outcome code (ONGOING while it goes on): decided by the units each side has
    left (``_end_by_units``), else a stalemate where neither side can take a unit of the other."""
    ab = _base(model, ATTACKER)
    db = _base(model, DEFENDER)
    no_stalemate = _rule(model, RULES.no_stalemate) != 0
    needs_destroyer = _rule(model, RULES.air_needs_destroyer) != 0
    code = _end_by_units(get(state, ab + TALLY.slots) > 0, get(state, db + TALLY.slots) > 0,
                         get(state, ab + TALLY.fighting) == 0, get(state, db + TALLY.fighting) == 0,
                         _rule(model, RULES.defender_holds))
    stuck = code == ONGOING and not no_stalemate  # so far: no side can take a unit of the other
    for f in range(2):
        if stuck:  # can side f take one? its rolls that can hit (value at least 1), by group
            dice = _base(model, f) + get(model, HEADER.dice_at)
            values = _lines_at(model, f) + LINE.value
            n_sub = _scalar(model, f, SCALARS.sub_lines)
            n_sub_air = n_sub + _scalar(model, f, SCALARS.air_lines)
            sub = air = other = 0
            for line in range(_scalar(model, f, SCALARS.lines)):
                if get(model, values + line * LINE_WIDTH) > 0:
                    rolls = get(state, dice + line)
                    if line < n_sub:
                        sub += rolls
                    elif line < n_sub_air:
                        air += rolls
                    else:
                        other += rolls
            air_free = not needs_destroyer or get(state, _base(model, f) + TALLY.destroyers) > 0
            stuck = not (other > 0 or (air > 0 and air_free)
                         or (sub > 0 and _slots_left(state, 1 - f, NOT_AIR, model) > 0)
                         or (air > 0 and _slots_left(state, 1 - f, NOT_SUB, model) > 0))
    _held(state, model)
    return STALEMATE if stuck else code


@jit
def _end_by_units(a_left, d_left, a_weak, d_weak, defender_holds):
    """The outcome decided by what each side has left (``weak``: only defenceless units), or
    ONGOING; the stalemate test is the caller's, as it reads its own state. Takes the
    ``RULES.defender_holds`` flag, not the model: a helper that takes no array costs no
    reference counts."""
    if not a_left or not d_left:
        if a_left:
            return ATTACKER_WINS
        if d_left or defender_holds:
            return DEFENDER_WINS
        return DRAW
    if a_weak or d_weak:
        if not d_weak:
            return DEFENDER_WINS
        return STALEMATE if a_weak else ATTACKER_WINS
    return ONGOING


@jit
def _both_fight_on(state, model):
    """A quick sufficient test that the battle goes on, which spares a plain battle most calls
    of ``_outcome``: both sides have units that can fight and no stalemate is possible."""
    a_fights = get(state, _base(model, ATTACKER) + TALLY.fighting) > 0
    d_fights = get(state, _base(model, DEFENDER) + TALLY.fighting) > 0
    return _rule(model, RULES.no_stalemate) != 0 and a_fights and d_fights


@jit
def _first_strike(state, s, rounds, model):
    """Side ``s``'s submarines strike first in round ``rounds``: the edition allows it (in this
    round: ``RULES.strike_rounds``) and the enemy has no destroyer."""
    last = _rule(model, RULES.strike_rounds)
    allowed = _scalar(model, s, SCALARS.subs_first) != 0 and (last < 0 or rounds <= last)
    destroyers = get(state, _base(model, 1 - s) + TALLY.destroyers)
    rolls = _dice(state, s, G_SUB, model)
    return allowed and destroyers == 0 and rolls > 0


@jit
def _waits(state, s, model):
    """Side ``s`` keeps a destroyer last and the enemy has subs in the battle: its casualties
    skip that destroyer until just before its units chosen last."""
    subs = _slots_left(state, 1 - s, SUBS, model) if _scalar(model, s, SCALARS.kept) >= 0 else 0
    _held(state, model)
    return subs > 0


@jit
def _has_retreat_rules(model):
    """Whether the attacker has a retreat policy at all."""
    after = _rule(model, RULES.retreat_after)  # (all read first: see ``_plain_outcome``)
    units = _rule(model, RULES.retreat_units)
    strafe = _rule(model, RULES.retreat_strafe)
    table = get(model, HEADER.retreat)
    return after > 0 or units >= 0 or strafe >= 0 or table >= 0


@jit
def _retreats(state, rounds, model):
    """Whether the attacker's policy retreats at the end of round ``rounds``."""
    after = _rule(model, RULES.retreat_after)
    most = _rule(model, RULES.retreat_units)
    strafe = _rule(model, RULES.retreat_strafe)
    table = get(model, HEADER.retreat)
    retreats = after > 0 and rounds >= after
    if not retreats and most >= 0:
        ab = _base(model, ATTACKER)
        steps = _steps_at(model, ATTACKER)
        units = 0
        for i in range(_scalar(model, ATTACKER, SCALARS.steps)):
            units += get(state, ab + TALLY_WIDTH + i) * get(model, steps + i * STEP_WIDTH + STEP.kill)
        retreats = units <= most
    if not retreats and strafe >= 0:
        db = _base(model, DEFENDER)
        d_steps = _steps_at(model, DEFENDER)
        units = 0
        for i in range(_scalar(model, DEFENDER, SCALARS.steps)):
            units += get(state, db + TALLY_WIDTH + i) * get(model, d_steps + i * STEP_WIDTH + STEP.kill)
        retreats = units <= strafe
    if not retreats and table >= 0:
        # the exact engine's decision for this state: index by casualties per loss step (departed
        # units are not casualties), plus the side's layer size when it has units departed
        width = get(model, HEADER.step_side) // STEP_WIDTH
        index = 0
        for s in range(2):
            base = _base(model, s)
            rem = base + TALLY_WIDTH
            gone = base + get(model, HEADER.gone_at)
            strides = table + RETREAT_TABLE_WIDTH + s * width
            departed = get(state, base + TALLY.gone) > 0
            side = get(model, table + RETREAT_TABLE.attacker_layer + s) if departed else 0
            for i in range(_scalar(model, s, SCALARS.steps)):
                lost = _step(model, s, i, STEP.size) - get(state, rem + i) - get(state, gone + i)
                side += lost * get(model, strides + i)
            # attacker index x defender states + defender index
            index = index * get(model, table + RETREAT_TABLE.defender_states) + side
        retreats = get(model, table + RETREAT_TABLE_WIDTH + 2 * width + index) != 0
    _held(state, model)
    return retreats


@jit
def _depart(state, s, retreat, model):
    """Side ``s``'s units leave the battle and survive: all its subs still in it (they
    submerge) or, with ``retreat``, all but the landed ones (they retreat while those fight on).
    Returns whether its lines must be recounted (``_count_lines``, the caller's)."""
    base = _base(model, s)
    rem = base + TALLY_WIDTH
    gone = base + get(model, HEADER.gone_at)
    steps = _steps_at(model, s)
    n_steps = _scalar(model, s, SCALARS.steps)
    recount = False
    for i in range(n_steps):
        step = steps + i * STEP_WIDTH
        if retreat:
            leaves = get(model, step + STEP.landed) == 0
        else:
            leaves = (get(model, step + STEP.category) & SUB) != 0
        left = get(state, rem + i)
        if leaves and left > 0:
            add(state, gone + i, left)
            add(state, base + TALLY.gone, left * get(model, step + STEP.kill))
            recount |= _remove(state, base, i, left, model, steps)
    _settle(state, base, get(state, base + TALLY.head), n_steps)
    _held(state, model)
    return recount


@jit
def _submerges(state, s, model):
    """Whether side ``s``'s subs submerge now: it has some in the battle, the enemy has no
    destroyer in it, and its policy says so (``always``; ``alone``: nothing else of the side
    in the battle can fire)."""
    policy = _scalar(model, s, SCALARS.submerge)
    rem = _base(model, s) + TALLY_WIDTH
    steps = _steps_at(model, s)
    subs = others = 0
    if policy != 0 and get(state, _base(model, 1 - s) + TALLY.destroyers) == 0:
        for i in range(_scalar(model, s, SCALARS.steps)):
            step = steps + i * STEP_WIDTH
            left = get(state, rem + i)
            if get(model, step + STEP.category) & SUB:
                subs += left * get(model, step + STEP.kill)
            else:
                others += left * get(model, step + STEP.fighting)
    _held(state, model)
    return subs > 0 and (policy == SUBMERGE_ALWAYS or others == 0)


@jit
def _landed_left(state, model):
    """The attacker's landed units still in the battle."""
    rem = _base(model, ATTACKER) + TALLY_WIDTH
    steps = _steps_at(model, ATTACKER)
    total = 0
    for i in range(_scalar(model, ATTACKER, SCALARS.steps)):
        step = steps + i * STEP_WIDTH
        total += get(state, rem + i) * get(model, step + STEP.landed) * get(model, step + STEP.kill)
    return total


@jit
def _bombard_hits(word, model):
    """Hits of the bombardment for the random 64-bit ``word``."""
    if _rule(model, RULES.low_luck):
        return low_luck_hits(word, _rule(model, RULES.bombard_strength), _rule(model, RULES.dice_sides))
    return alias_hits(word, model, _rule(model, RULES.bombard_row), _rule(model, RULES.bombard_cells))


@jit
def _fight(state, start, seed, index, counts, model):
    """Fight battle ``index`` from ``start`` to its end and add it to the block's tallies
    (``counts``); returns each side's survivor key and IPCs lost, for ``_count_end_state``.

    Every round is written out here, and each helper it calls calls no other but the small ones
    LLVM inlines: a helper that makes a call LLVM keeps pays Numba's reference counts each time
    (see the module's doc), this one once per battle. So the helpers that remove units return
    whether a side's lines must be recounted, and the recount (``_count_lines``) is made here."""
    for i in range(start.shape[0]):
        put(state, i, get(start, i))
    seed_battle(state, STATE.rng, seed, index)
    plain = _rule(model, RULES.plain) != 0  # every hit may take anything: no subs, no barred aircraft
    submerge = _rule(model, RULES.submerge) != 0
    at_start = _rule(model, RULES.start_boundary) != 0  # subs may submerge before round 1
    partial = _rule(model, RULES.partial_retreat) != 0
    retreat = _has_retreat_rules(model)
    aa_dice = _rule(model, RULES.aa_dice)
    if aa_dice > 0:
        if _rule(model, RULES.low_luck):
            hits = low_luck_hits(next_word(state, STATE.rng), _rule(model, RULES.aa_strength),
                                 _rule(model, RULES.dice_sides))
        else:
            hits = roll(state, STATE.rng, model, _rule(model, RULES.aa_rows), aa_dice)
        if _take_hits(state, ATTACKER, ZERO, ZERO, hits, ZERO, model, False):
            _count_lines(state, ATTACKER, model)
    bombard = 0  # bombardment hits still to be removed (with round 1's)
    if _rule(model, RULES.bombard_strength) > 0:
        bombard = _bombard_hits(next_word(state, STATE.rng), model)
        if not _rule(model, RULES.bombard_fire_back):
            if _take_any_hits(state, DEFENDER, bombard, model):
                _count_lines(state, DEFENDER, model)
            bombard = 0
    code = _outcome(state, model)
    rounds = 0
    may_retreat = False  # never before the first round
    while code == ONGOING:
        # between rounds: first the subs submerge, then the battle-end check, then the attacker's
        # retreat rules; a retreat with landed units in the battle takes the others away and
        # leaves those to fight on, with no further retreat
        if submerge and (rounds > 0 or at_start):
            a_dives = _submerges(state, ATTACKER, model)
            d_dives = _submerges(state, DEFENDER, model)
            if a_dives and _depart(state, ATTACKER, False, model):
                _count_lines(state, ATTACKER, model)
            if d_dives and _depart(state, DEFENDER, False, model):
                _count_lines(state, DEFENDER, model)
            if a_dives or d_dives:
                code = _outcome(state, model)
        if may_retreat and code == ONGOING and _retreats(state, rounds, model):
            if partial and _landed_left(state, model) > 0:
                if _depart(state, ATTACKER, True, model):
                    _count_lines(state, ATTACKER, model)
                put(state, STATE.retreat_round, rounds)
                code = _outcome(state, model)
                retreat = False
            else:
                code = RETREAT
        if code != ONGOING:
            break
        rounds += 1
        may_retreat = retreat
        # subs that strike first fire alone, then general fire; in each step both sides fire from
        # the same state, then both take their casualties; who waits is judged before either
        # side's are removed
        a_first = d_first = a_waits = d_waits = False
        if not plain:
            a_first = _first_strike(state, ATTACKER, rounds, model)
            d_first = _first_strike(state, DEFENDER, rounds, model)
            a_waits = _waits(state, ATTACKER, model)
            d_waits = _waits(state, DEFENDER, model)
        if a_first or d_first:
            on_d = _volley(state, ATTACKER, a_first, False, model)[0]
            on_a = _volley(state, DEFENDER, d_first, False, model)[0]
            if on_d > 0 and _take_hits(state, DEFENDER, on_d, ZERO, ZERO, ZERO, model, d_waits):
                _count_lines(state, DEFENDER, model)
            if on_a > 0 and _take_hits(state, ATTACKER, on_a, ZERO, ZERO, ZERO, model, a_waits):
                _count_lines(state, ATTACKER, model)
            if on_d + on_a > 0:
                code = _outcome(state, model)
                a_waits = _waits(state, ATTACKER, model)
                d_waits = _waits(state, DEFENDER, model)
        if code == ONGOING:
            sub_d, air_d, any_d = _volley(state, ATTACKER, not a_first, True, model)
            sub_a, air_a, any_a = _volley(state, DEFENDER, not d_first, True, model)
            any_d += bombard
            on_d = sub_d + air_d + any_d
            on_a = sub_a + air_a + any_a
            if plain:  # (the small helper, which LLVM inlines)
                if on_d > 0 and _take_any_hits(state, DEFENDER, on_d, model):
                    _count_lines(state, DEFENDER, model)
                if on_a > 0 and _take_any_hits(state, ATTACKER, on_a, model):
                    _count_lines(state, ATTACKER, model)
            else:
                if on_d > 0 and _take_hits(state, DEFENDER, sub_d, air_d, ZERO, any_d, model, d_waits):
                    _count_lines(state, DEFENDER, model)
                if on_a > 0 and _take_hits(state, ATTACKER, sub_a, air_a, ZERO, any_a, model, a_waits):
                    _count_lines(state, ATTACKER, model)
            if on_d + on_a > 0 and not _both_fight_on(state, model):
                code = _outcome(state, model)
        bombard = 0
    # ``code`` is the outcome of the units in the battle; with units departed it becomes: the
    # attacker's in the battle destroyed but some departed, a retreat; a draw with only the
    # defender's departed, a defender win
    a_dead = code == DEFENDER_WINS or code == DRAW
    d_dead = code == ATTACKER_WINS or code == DRAW
    if a_dead and get(state, _base(model, ATTACKER) + TALLY.gone) > 0:
        code = RETREAT
    elif code == DRAW and get(state, _base(model, DEFENDER) + TALLY.gone) > 0:
        code = DEFENDER_WINS
    lost_a, land, key_a = _end_state(state, ATTACKER, a_dead, model)
    lost_d, _, key_d = _end_state(state, DEFENDER, d_dead, model)
    left = get(state, STATE.retreat_round)  # the others retreated then, the landed fought on
    key_a = _tally(code, rounds, left if left > 0 else rounds, lost_a, lost_d, land, key_a, counts, model)
    return key_a, key_d, lost_a, lost_d


@jit
def _end_state(state, s, dead, model):
    """Side ``s`` at the end (``dead``: its units in the battle were destroyed; those departed
    survive): (IPCs lost, its land units left in the battle, its survivor key). The key is a
    compact code of its casualties per key category in mixed radix (all slots taken when the
    side is destroyed), plus SCALARS.departed_key when some of its units departed (they are not
    casualties: the departed survivors are the side's subs at sea, its units not landed on land)."""
    base = _base(model, s)
    departed = get(state, base + TALLY.gone) > 0
    rem = base + TALLY_WIDTH
    gone = base + get(model, HEADER.gone_at)
    lost = land = 0
    key = _scalar(model, s, SCALARS.departed_key) if departed else 0
    if dead and not departed:
        lost = _scalar(model, s, SCALARS.total_ipc)
        key = _scalar(model, s, SCALARS.dead_key)
    else:
        for i in range(_scalar(model, s, SCALARS.steps)):
            left = 0 if dead else get(state, rem + i)
            if departed:
                left += get(state, gone + i)
            lost += (_step(model, s, i, STEP.size) - left) * _step(model, s, i, STEP.cost)
            key += (_step(model, s, i, STEP.size) - left) * _step(model, s, i, STEP.key)
            if not dead:
                land += get(state, rem + i) * _step(model, s, i, STEP.land)
    _held(state, model)
    return lost, land, key


@jit
def _tally(code, rounds, retreat_round, lost_a, lost_d, land, key_a, counts, model):
    """Add one battle's outcome, losses and rounds to the block's tallies (``retreat_round``: the
    round after which the attacker left, read for a retreat only); returns the attacker's
    survivor key as its histogram counts it (a retreat's end states have keys of their own).
    The end states are counted apart, by the block loops (``_count_end_state``), one side's
    arrays at a time: a helper taking all four histograms was too large for LLVM to inline, and
    passing them (some 7 machine words an array) cost a fifth of a plain battle's time."""
    land_battle = _rule(model, RULES.land_battle)  # (read first: see ``_plain_outcome``)
    retreat_keys = _scalar(model, ATTACKER, SCALARS.keys)
    add(counts, code, ONE)
    if code == ATTACKER_WINS and land_battle and land > 0:
        add(counts, STATS.takes, ONE)
    if code == RETREAT:
        add(counts, STATS.retreat_rounds, retreat_round)
        add(counts, STATS.retreat_rounds_sq, retreat_round * retreat_round)
        key_a += retreat_keys
    add(counts, STATS.attacker_ipc, lost_a)
    add(counts, STATS.attacker_ipc_sq, lost_a * lost_a)
    add(counts, STATS.defender_ipc, lost_d)
    add(counts, STATS.defender_ipc_sq, lost_d * lost_d)
    add(counts, STATS.rounds, rounds)
    add(counts, STATS.rounds_sq, rounds * rounds)
    return key_a


@jit
def _count_end_state(hist, held, key, lost, s, model):
    """Add side ``s``'s end state (survivor ``key``, ``lost`` IPCs) to its histogram, or where
    its keys are too many to count each (``RULES.key_coarse``), to the slots it keeps: in its
    slot (1 + key mod slots) when ``held`` there says it is kept there (key + 1; 0: a free slot,
    which the first end state seen takes), else in slot 0, "other", ``held[0]`` summing the
    IPCs left of those. Both arrays are written last on every path (``held[0]`` by 0 when
    nothing goes there): see ``_plain_outcome``."""
    coarse = _rule(model, RULES.key_coarse)
    ipc_left = _scalar(model, s, SCALARS.total_ipc) - lost
    slot = key
    other = False
    if coarse:
        slot = 1 + key % (hist.shape[0] - 1)
        owner = get(held, slot)
        if owner == 0:
            put(held, slot, key + 1)
            owner = key + 1
        other = owner != key + 1
    add(hist, ZERO if other else slot, ONE)
    add(held, ZERO, ipc_left if other else 0)


@jit
def _count_swing(hist_s, lost_a, lost_d, model):
    """Add one battle's TUV swing (``lost_d - lost_a``) to its histogram, whose entry
    ``attacker's total IPC + s`` counts swing ``s``: both losses of the same run, the one figure
    the two sides' end-state histograms cannot give together."""
    add(hist_s, _scalar(model, ATTACKER, SCALARS.total_ipc) + lost_d - lost_a, ONE)


@jit
def plain_profile(model, s, aa_hits):
    """Side ``s`` of a plain battle (the attacker: once AA took ``aa_hits`` of its aircraft)
    after each number of casualties c = 0..slots: its rolls per line ``(slots + 1, lines)`` and
    its records ``(slots + 1, PLAIN_WIDTH)``, PLAIN.row holding its strength and PLAIN.cells 0 (the
    caller places the alias tables)."""
    state = np.zeros(STATE_WIDTH + 2 * model[HEADER.width], dtype=np.int64)
    start_state(state, model)
    if aa_hits > 0 and _take_hits(state, ATTACKER, ZERO, ZERO, aa_hits, ZERO, model, False):
        _count_lines(state, ATTACKER, model)
    base = _base(model, s)
    n = state[base + TALLY.slots]
    n_lines = _scalar(model, s, SCALARS.lines)
    n_steps = _scalar(model, s, SCALARS.steps)
    steps = _steps_at(model, s)
    dice = np.zeros((n + 1, n_lines), dtype=np.int64)
    records = np.zeros((n + 1, PLAIN_WIDTH), dtype=np.int64)
    table = model[HEADER.retreat]
    width = model[HEADER.step_side] // STEP_WIDTH
    for c in range(n + 1):
        if c > 0 and _take_any_hits(state, s, ONE, model):
            _count_lines(state, s, model)
        for line in range(n_lines):
            dice[c, line] = state[base + model[HEADER.dice_at] + line]
        record = records[c]
        record[PLAIN.row] = _strength(state, s, 0, n_lines, model)
        record[PLAIN.fighting] = state[base + TALLY.fighting]
        record[PLAIN.can_hit] = _dice(state, s, G_OTHER, model) > 0
        record[PLAIN.cost], record[PLAIN.land], record[PLAIN.key] = _end_state(state, s, False, model)
        for i in range(n_steps):
            left = state[base + TALLY_WIDTH + i]
            record[PLAIN.units] += left * model[steps + i * STEP_WIDTH + STEP.kill]
            if table >= 0:
                lost = model[steps + i * STEP_WIDTH + STEP.size] - left
                record[PLAIN.retreat] += lost * model[table + RETREAT_TABLE_WIDTH + s * width + i]
    return dice, records


@jit
def _plain_hits(word, record, low_luck, model):
    """Hits of a side of a plain battle whose record starts at ``record``, for the random
    ``word`` (drawn only where it is needed)."""
    if low_luck:
        strength = get(model, record + PLAIN.row)
        sides = _rule(model, RULES.dice_sides)
        return low_luck_hits(word, strength, sides) if strength > 0 else 0
    return alias_hits(word, model, get(model, record + PLAIN.row), get(model, record + PLAIN.cells))


@jit
def _plain_outcome(a_rec, d_rec, a_left, d_left, model):
    """``_outcome`` of a plain battle from its sides' records and whether each has slots.

    Everything it reads from the model is read first, in one straight block: Numba's runtime
    counts references to an array that stops being used on one branch of a condition (here an
    ``and``) and not on the other, where it counts none for one read in straight code."""
    a_weak = get(model, a_rec + PLAIN.fighting) == 0
    d_weak = get(model, d_rec + PLAIN.fighting) == 0
    no_stalemate = _rule(model, RULES.no_stalemate)
    a_stuck = get(model, a_rec + PLAIN.can_hit) == 0
    d_stuck = get(model, d_rec + PLAIN.can_hit) == 0
    code = _end_by_units(a_left, d_left, a_weak, d_weak, _rule(model, RULES.defender_holds))
    if code != ONGOING or no_stalemate:
        return code
    return STALEMATE if a_stuck and d_stuck else ONGOING


@jit
def _plain_retreats(a_rec, d_rec, rounds, model):
    """``_retreats`` of a plain battle."""
    after = _rule(model, RULES.retreat_after)
    if after > 0 and rounds >= after:
        return True
    units = _rule(model, RULES.retreat_units)
    if units >= 0 and get(model, a_rec + PLAIN.units) <= units:
        return True
    strafe = _rule(model, RULES.retreat_strafe)
    if strafe >= 0 and get(model, d_rec + PLAIN.units) <= strafe:
        return True
    table = get(model, HEADER.retreat)
    if table < 0:
        return False
    width = get(model, HEADER.step_side) // STEP_WIDTH
    index = (get(model, a_rec + PLAIN.retreat) * get(model, table + RETREAT_TABLE.defender_states)
             + get(model, d_rec + PLAIN.retreat))
    return get(model, table + RETREAT_TABLE_WIDTH + 2 * width + index) != 0


@jit
def _fight_plain(seed, index, counts, model):
    """``_fight`` for a plain battle, on casualty counts: one draw per side and round, then the
    tallies from the sides' final records (a destroyed side's is the one with all its slots
    taken). Returns what ``_fight`` returns. (The tally is made here, where the model is read
    last, so that no path leaves the loop with the model unused: see ``_plain_outcome``.)"""
    s0, s1 = battle_words(seed, index)
    section = get(model, HEADER.plain)
    low_luck = _rule(model, RULES.low_luck) != 0
    chain = section + CHAIN_WIDTH
    aa_dice = _rule(model, RULES.aa_dice)
    if aa_dice > 0:
        word, s0, s1 = step_words(s0, s1)
        if low_luck:
            aa_hits = low_luck_hits(word, _rule(model, RULES.aa_strength), _rule(model, RULES.dice_sides))
        else:
            aa_hits = hits_of(word, model, _rule(model, RULES.aa_rows), aa_dice)
        chain += 2 * aa_hits
    a_slots = get(model, chain + CHAIN.slots)
    a_at = get(model, chain + CHAIN.at)
    d_slots = get(model, section + ZERO + CHAIN.slots)
    d_at = get(model, section + ZERO + CHAIN.at)
    retreat = _has_retreat_rules(model)
    no_stalemate = _rule(model, RULES.no_stalemate) != 0
    a_lost = 0
    d_lost = 0
    bombard = 0  # bombardment hits still to be removed (with round 1's)
    if _rule(model, RULES.bombard_strength) > 0:
        word, s0, s1 = step_words(s0, s1)
        bombard = _bombard_hits(word, model)
        if not _rule(model, RULES.bombard_fire_back):
            d_lost = min(bombard, d_slots)
            bombard = 0
    a_rec = a_at
    d_rec = d_at + d_lost * PLAIN_WIDTH
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
            a_rec = a_at + a_lost * PLAIN_WIDTH
            d_rec = d_at + d_lost * PLAIN_WIDTH
            if not (no_stalemate and a_lost < a_slots and d_lost < d_slots
                    and get(model, a_rec + PLAIN.fighting) > 0 and get(model, d_rec + PLAIN.fighting) > 0):
                code = _plain_outcome(a_rec, d_rec, a_lost < a_slots, d_lost < d_slots, model)
        if retreat and code == ONGOING and _plain_retreats(a_rec, d_rec, rounds, model):
            code = RETREAT
    if code == DEFENDER_WINS or code == DRAW:
        a_rec = a_at + a_slots * PLAIN_WIDTH
    if code == ATTACKER_WINS or code == DRAW:
        d_rec = d_at + d_slots * PLAIN_WIDTH
    return _record_plain(code, rounds, a_rec, d_rec, counts, model)


@jit
def _record_plain(code, rounds, a_rec, d_rec, counts, model):
    """The tally of a plain battle (``_fight``'s last part) from its sides' final records."""
    lost_a = get(model, a_rec + PLAIN.cost)
    lost_d = get(model, d_rec + PLAIN.cost)
    land = get(model, a_rec + PLAIN.land)
    key_a = _tally(code, rounds, rounds, lost_a, lost_d, land, get(model, a_rec + PLAIN.key), counts, model)
    return key_a, get(model, d_rec + PLAIN.key), lost_a, lost_d


@jit
def _run_block(seed, first, last, stats, hist_a, hist_d, ipc_a, ipc_d, hist_s, model):
    """Fight battles ``first`` to ``last - 1`` and add their results to this block's rows
    (``hist_s``: its TUV swing histogram, ``_count_swing``)."""
    start = np.zeros(STATE_WIDTH + 2 * model[HEADER.width], dtype=np.int64)
    start_state(start, model)
    state = start.copy()
    counts = np.zeros(STATS_WIDTH, dtype=np.int64)
    for index in range(first, last):
        key_a, key_d, lost_a, lost_d = _fight(state, start, seed, index, counts, model)
        _count_end_state(hist_a, ipc_a, key_a, lost_a, ATTACKER, model)
        _count_end_state(hist_d, ipc_d, key_d, lost_d, DEFENDER, model)
        _count_swing(hist_s, lost_a, lost_d, model)
    counts[STATS.battles] = last - first
    for column in range(STATS_WIDTH):
        stats[column] += counts[column]


@jit
def _run_plain_block(seed, first, last, stats, hist_a, hist_d, ipc_a, ipc_d, hist_s, model):
    """``_run_block`` for a plain battle (the model has its section, see ``_fight_plain``)."""
    counts = stats.copy()  # (the block's own row: ``np.zeros`` would compile an overload, 0.2 s)
    for index in range(first, last):
        key_a, key_d, lost_a, lost_d = _fight_plain(seed, index, counts, model)
        _count_end_state(hist_a, ipc_a, key_a, lost_a, ATTACKER, model)
        _count_end_state(hist_d, ipc_d, key_d, lost_d, DEFENDER, model)
        _count_swing(hist_s, lost_a, lost_d, model)
    counts[STATS.battles] += last - first
    for column in range(STATS_WIDTH):
        stats[column] = counts[column]
