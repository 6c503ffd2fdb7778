"""The layout of the Monte Carlo kernel's packed arrays, declared once.

The kernel reads one int64 ``model`` array (every table of a battle) and writes one int64
``state`` array per battle. Each kind of record in them is declared below as a NamedTuple whose
fields, in order, are the record's words: ``offsets`` turns a declaration into the constant the
kernel reads (``STEP.kill`` is 1: the second word of a loss step), and ``width`` gives the
record's size. Adding a field is adding one line here; nothing is numbered by hand. Numba reads
the constants as frozen global tuples of int64, so they cost nothing at run time and never add a
compiled specialisation.

``describe_model`` unpacks a model back into named records, for debugging.
"""

from __future__ import annotations

from typing import Any, NamedTuple, TypeVar

import numpy as np

R = TypeVar("R", bound=tuple)


def offsets(schema: type[R]) -> R:
    """The record declared by ``schema`` with each field set to its position (an int64)."""
    return schema._make(np.arange(len(schema._fields), dtype=np.int64))  # type: ignore[attr-defined]


def width(schema: type[tuple]) -> np.int64:
    """Words in one record declared by ``schema``."""
    return np.int64(len(schema._fields))  # type: ignore[attr-defined]


class Header(NamedTuple):
    """The model's header: where each table starts, per-side strides, offsets in a side's state."""

    steps: int  # where the loss steps start (the attacker's, then the defender's)
    step_side: int  # words of one side's loss steps (padded to the larger side)
    lines: int  # where the firing lines start
    line_side: int
    types: int  # where the unit types start
    type_side: int
    support: int  # where the support rules start
    support_side: int
    support_rule: int  # words of one support rule (a Support record per unit type)
    scalars: int  # where the sides' scalars start
    scalar_side: int
    rules: int  # where the battle's rules start
    width: int  # words of one side's part of the state
    dice_at: int  # offset of the rolls per line in a side's part of the state
    alive_at: int  # offset of the units alive per type (scratch for recounting support)
    raised_at: int  # offset of the units raised by support per type (scratch)
    retreat: int  # where the retreat table starts (-1: none), see RetreatTable
    plain: int  # where the plain battle's section starts (-1: none), see Chain and Plain
    gone_at: int  # offset of the units departed per loss step in a side's part of the state
    left_at: int  # offset of the support left per bonus rule in a side's part of the state (scratch)
    value_lines: int  # where the bonus-support line tables start (types x (dice sides + 1) a side)
    value_line_side: int


class Step(NamedTuple):
    """A loss step: ``count`` units of one type that are the next casualties, in order of loss."""

    type: int  # the unit type (index among the side's types present)
    kill: int  # 1: a casualty removes a unit; 0: it damages a two-hit unit
    size: int  # units in the step
    category: int  # the unit's category for typed hits (the low two flag bits)
    cost: int  # IPCs a casualty of the step loses (0 for a damage step)
    fighting: int  # 1: a casualty removes a unit that can fire
    destroyer: int  # 1: a casualty removes a destroyer
    land: int  # 1: a casualty removes a land unit
    line: int  # the line losing rolls per casualty; -1: none, or the support is recounted
    rolls: int  # rolls a casualty takes from that line
    recount: int  # 1: a casualty changes support, so the side's lines are recounted
    key: int  # what a casualty adds to the side's survivor key
    landed: int  # 1: the attacker's units that came by sea (they never retreat)


class Line(NamedTuple):
    """A firing line: units whose rolls hit with the same chance and may take the same units
    (lines are stored by group: submarine, aircraft, other)."""

    rows: int  # where the alias tables of its hit chance start in the model (see _rng.roll)
    value: int  # the value its dice hit on
    strength: int  # a roll's strength in Low Luck: its value, or for the best of n dice (one roll
    # a unit) TripleA's value + (n - 1) x max(1, sides // 6), at most the sides


class UnitType(NamedTuple):
    """A unit type present on the side."""

    line: int  # the line its units roll on without support (-1: they never fire)
    rolls: int  # rolls each unit makes
    order: int  # bonus support: the type (among those present) whose units take support this-th


class Support(NamedTuple):
    """One unit type's part in one support rule."""

    supporter: int  # 1: the type supports
    supported: int  # 1: the type is supported
    line: int  # the line a supported unit is raised to (a value rule)
    bonus: int  # what a bonus rule adds to a supported unit's value
    group: int  # a bonus rule's bonus type: a unit takes one rule of each


class Scalars(NamedTuple):
    """A side's scalars; then one word per active support rule: the units each of its supporters
    supports."""

    steps: int  # loss steps
    types: int  # unit types present
    lines: int  # firing lines
    sub_lines: int  # of which submarine lines (first)
    air_lines: int  # of which aircraft lines barred from submarines (next)
    rules: int  # active support rules
    subs_first: int  # 1: its submarines strike first where the enemy has no destroyer
    total_ipc: int  # IPCs of all its units
    keys: int  # survivor keys of a battle fought to the end (a retreated attacker's follow)
    dead_key: int  # the survivor key of the side destroyed
    submerge: int  # its submerge policy (lowering's SUBMERGE_*)
    departed_key: int  # added to the survivor key when the side has units departed
    kept: int  # destroyer last: the step of the destroyer kept while enemy subs live (-1: none)
    kept_before: int  # while they live it is taken just before this step (units chosen last)
    adds: int  # 1: its support rules add bonuses (the lines a value reaches: the value_lines table)


class Rules(NamedTuple):
    """The battle's rules."""

    air_needs_destroyer: int  # aircraft may hit submarines only with a destroyer of their side
    aa_dice: int  # AA dice rolled before round 1
    aa_rows: int  # the alias tables of AA's hit chance
    defender_holds: int  # the defender keeps the territory with only units that cannot be hit
    land_battle: int
    key_coarse: int  # survivor keys count units left (huge battles), not casualties per category
    plain: int  # no submarine or restricted aircraft lines on either side: every hit takes anything
    no_stalemate: int  # plain, and every unit that fights can hit: a side that can fight can hurt
    low_luck: int
    dice_sides: int  # faces of every die (Low Luck's divisor; the hit chances are in the tables)
    aa_strength: int  # AA's Low Luck strength
    retreat_after: int  # the attacker retreats after this round (0: never)
    retreat_units: int  # the attacker retreats at this many units or fewer (-1: never)
    bombard_strength: int  # the bombardment's Low Luck strength (0: no bombardment)
    bombard_row: int  # where the alias table of the bombardment's hits starts
    bombard_cells: int  # its cells
    bombard_fire_back: int  # the defender's casualties of the bombardment fire back in round 1
    submerge: int  # some side's subs may submerge
    start_boundary: int  # besides, the boundary between rounds comes once before round 1
    partial_retreat: int  # the attacker has landed units and a retreat policy: they fight on
    retreat_strafe: int  # the attacker retreats at this many defending units or fewer (-1: never)
    strike_rounds: int  # subs strike first in rounds 1 to this only (-1: in every round)


class RetreatTable(NamedTuple):
    """The head of the retreat table (the exact engine's decisions); then each side's step
    strides (``step_side / STEP_WIDTH`` each), then one decision per joint state."""

    defender_states: int
    attacker_layer: int  # added to the attacker's index while it has units departed
    defender_layer: int  # the same for the defender (``attacker_layer + s`` is side s's)


class Chain(NamedTuple):
    """One chain of a plain battle's section: the defender's chain comes first, then the
    attacker's, one per number of aircraft AA shot down."""

    slots: int  # casualties the side can take
    at: int  # where its Plain records start (one per casualty count 0..slots)


class Plain(NamedTuple):
    """A side of a plain battle after a number of casualties."""

    row: int  # where the alias table of its hits starts (with Low Luck: its strength)
    cells: int  # cells of that table
    fighting: int  # units left that can fire
    can_hit: int  # 1: it has rolls that can hit
    cost: int  # IPCs lost
    key: int  # survivor key
    land: int  # land units left
    units: int  # units left
    retreat: int  # its part of the retreat table's index


class BattleState(NamedTuple):
    """The head of a battle's state: its generator's two words and the round of a retreat
    that left the landed units fighting; then the attacker's part, then the defender's (see
    Tally and the Header's ``*_at`` offsets)."""

    rng: int
    rng_high: int
    retreat_round: int  # the round after which the attacker's others retreated while its landed
    # units fight on (0: they have not)


class Tally(NamedTuple):
    """The tallies that start a side's part of the state; then its units left per loss step."""

    slots: int  # units (and damage steps) left to take casualties
    fighting: int  # units left that can fire
    destroyers: int
    head: int  # the first loss step not used up
    gone: int  # units departed (submerged, or retreated while the landed fight on)


class Stats(NamedTuple):
    """A block's result row: battles, a count per outcome code, then integer sums."""

    battles: int
    attacker_wins: int
    defender_wins: int
    draws: int
    stalemates: int
    retreats: int
    takes: int  # attacker wins with a land unit left
    attacker_ipc: int
    attacker_ipc_sq: int
    defender_ipc: int
    defender_ipc_sq: int
    rounds: int
    rounds_sq: int
    retreat_rounds: int  # of the battles that end in a retreat: the round the attacker left
    retreat_rounds_sq: int


HEADER, STEP, LINE, UNIT_TYPE, SUPPORT, SCALARS, RULES = (
    offsets(Header), offsets(Step), offsets(Line), offsets(UnitType), offsets(Support),
    offsets(Scalars), offsets(Rules))
RETREAT_TABLE, CHAIN, PLAIN, STATE, TALLY, STATS = (
    offsets(RetreatTable), offsets(Chain), offsets(Plain), offsets(BattleState), offsets(Tally),
    offsets(Stats))
HEADER_WIDTH, STEP_WIDTH, LINE_WIDTH, UNIT_TYPE_WIDTH, SUPPORT_WIDTH, SCALARS_WIDTH = (
    width(Header), width(Step), width(Line), width(UnitType), width(Support), width(Scalars))
RULES_WIDTH, RETREAT_TABLE_WIDTH, CHAIN_WIDTH, PLAIN_WIDTH, STATE_WIDTH, TALLY_WIDTH, STATS_WIDTH = (
    width(Rules), width(RetreatTable), width(Chain), width(Plain), width(BattleState), width(Tally),
    width(Stats))

# outcome codes; each is also its count's column in Stats
ONGOING, ATTACKER_WINS, DEFENDER_WINS, DRAW, STALEMATE, RETREAT = np.arange(6)
assert (STATS.attacker_wins, STATS.defender_wins, STATS.draws, STATS.stalemates,
        STATS.retreats) == (ATTACKER_WINS, DEFENDER_WINS, DRAW, STALEMATE, RETREAT)


def _records(model: np.ndarray, at: int, n: int, schema: type[tuple]) -> list[dict[str, int]]:
    """``n`` records of ``schema`` from ``model[at]`` on, as dicts of field name to value."""
    size = len(schema._fields)  # type: ignore[attr-defined]
    return [dict(zip(schema._fields, (int(v) for v in model[at + i * size: at + (i + 1) * size]),  # type: ignore[attr-defined]
                     strict=True)) for i in range(n)]


def unpack_model(model: np.ndarray) -> dict[str, Any]:
    """The tables of a packed model as named records: the header, the rules, and per side its
    scalars, loss steps, firing lines, unit types and support rules (only the records in use);
    plus the retreat table's head and the plain section's chains where the model has them."""
    header = _records(model, 0, 1, Header)[0]
    rules = _records(model, header["rules"], 1, Rules)[0]
    sides = []
    for s, name in enumerate(("attacker", "defender")):
        scalars = _records(model, header["scalars"] + s * header["scalar_side"], 1, Scalars)[0]
        n_types = scalars["types"]
        per = header["scalars"] + s * header["scalar_side"] + int(SCALARS_WIDTH)
        support = [
            {"per_supporter": int(model[per + r]),
             "types": _records(model, header["support"] + s * header["support_side"]
                               + r * header["support_rule"], n_types, Support)}
            for r in range(scalars["rules"])]
        sides.append({
            "side": name,
            "scalars": scalars,
            "steps": _records(model, header["steps"] + s * header["step_side"], scalars["steps"],
                              Step),
            "lines": _records(model, header["lines"] + s * header["line_side"], scalars["lines"],
                              Line),
            "types": _records(model, header["types"] + s * header["type_side"], n_types, UnitType),
            "support": support,
        })
    out: dict[str, Any] = {"header": header, "rules": rules, "attacker": sides[0],
                           "defender": sides[1], "size": int(model.size)}
    if header["retreat"] >= 0:
        out["retreat"] = _records(model, header["retreat"], 1, RetreatTable)[0]
    if header["plain"] >= 0:
        chains = 1 + 1 + rules["aa_dice"]  # the defender's, then one per AA hit count
        out["plain_chains"] = _records(model, header["plain"], chains, Chain)
    return out
