"""AA fire that picks its own casualties: each die is rolled at one aircraft (per_aircraft).

Where the edition says ``[combat] aa_casualties = "per_aircraft"`` (revised, anniversary: TripleA's
"Roll AA Individually"), a hit destroys the aircraft the die was rolled at, so how many of each
type die is chance, not the attacker's order of loss: with standard dice each type loses a
binomial number of its aircraft, independently of the other types; in Low Luck each type is its
own group (``n x hit // 6`` sure hits, one more with chance ``(n x hit % 6) / 6``).

The engines' states follow the order of loss, which cannot hold such losses. So the battle is
split here, a stage before either engine runs (``oddsim.stages.pipeline``): one battle per
outcome of the AA fire (aircraft lost per type), fought with the AA already fired, and the
results are mixed by the outcomes' probabilities, the aircraft shot down added to the
attacker's losses. Only battles where AA fires at two or more aircraft types are split; with
one type both readings agree.
"""

from __future__ import annotations

import copy
import itertools
import math
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from oddsim.errors import TooLargeError
from oddsim.model.aa_fire import aa_hit, split_aircraft
from oddsim.model.battle import Battle
from oddsim.model.forces import Force, parse_force
from oddsim.model.order_of_loss import casualty_order
from oddsim.results.battle_result import BattleResult, Method, Survivors, row_key, survivor_row
from oddsim.results.mixing import part_variance
from oddsim.results.swing import SwingDistribution, mix_swings
from oddsim.stages.holding_units import with_holding_units

MAX_SPLITS = 4096
"""At most this many AA outcomes (of nonzero probability) are fought apart, by either engine (above
it the battle is refused)."""

Split = tuple[float, Battle | None, Force]
"""(probability, the battle after the AA fire or None when every attacker was shot down,
the aircraft lost)."""


def splits(battle: Battle) -> list[Split] | None:
    """The AA outcomes of ``battle`` to fight apart, or None when the engines can take it whole.
    Worked out anew on each call (milliseconds): the pipeline asks once and passes the parts on."""
    rules = battle.rules
    aircraft = split_aircraft(battle)
    if aircraft is None:
        return None
    hit = aa_hit(battle)
    per_type = [_type_hits(n, hit, battle.dice == "lowluck", battle.rules.combat.dice_sides)
                for _, n in aircraft]
    support = [np.flatnonzero(d).tolist() for d in per_type]  # (Low Luck: two counts a type)
    outcomes = math.prod(len(s) for s in support)
    if outcomes > MAX_SPLITS:
        shape = " x ".join(f"{name} {s[0]}-{s[-1]}" for s, (name, _) in zip(support, aircraft, strict=True))
        raise TooLargeError(
            f"AA fire at {battle.attacker.army.describe()} has {outcomes:,} outcomes (aircraft lost by type: "
            f"{shape}), and both engines, exact and Monte Carlo, fight each outcome apart, at most "
            f"{MAX_SPLITS:,}: fight fewer aircraft")
    out: list[Split] = []
    for losses in itertools.product(*support):
        p = float(np.prod([d[k] for d, k in zip(per_type, losses, strict=True)]))
        if p <= 0.0:
            continue
        lost = parse_force({name: k for (name, _), k in zip(aircraft, losses, strict=True) if k}, rules,
                           "shot down")
        out.append((p, _after_aa(battle, lost), lost))
    return out


def is_split(battle: Battle) -> bool:
    """Whether ``splits`` splits ``battle`` (microseconds: nothing is built). A server asks this
    before it estimates a battle's work on its event loop: a split battle's estimate lowers every
    part (up to a second)."""
    return split_aircraft(battle) is not None


def _type_hits(n: int, hit: int, low_luck: bool, sides: int) -> np.ndarray:
    """Distribution of the aircraft of one type (``n`` of them) that AA shoots down with
    ``sides``-sided dice."""
    if low_luck:
        total = n * hit
        dist = np.zeros(n + 1)
        sure, extra = divmod(total, sides)
        dist[min(sure, n)] += 1.0 - extra / sides
        dist[min(sure + 1, n)] += extra / sides
        return dist
    p = hit / sides
    return np.array([math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)])


def _after_aa(battle: Battle, lost: Force) -> Battle | None:
    """``battle`` with the aircraft ``lost`` gone and the AA fired, or None when none is left:
    ``replace(battle, attacker=..., aa_fired=True)`` without checking again what did not change
    (fewer aircraft break no rule of a checked battle), which took most of the time ``splits``
    takes (``pipeline.exact_size`` of a split battle splits it)."""
    attacker = battle.attacker.army.minus(lost, battle.rules, "attacker")
    if attacker.is_empty():
        return None
    side = battle.attacker
    steps = casualty_order(attacker, battle.rules, True, side.order_of_loss, side.keep_land, side.landed)
    fewer = copy.copy(side)  # (frozen dataclasses that keep only their fields in ``__dict__``)
    fewer.__dict__.update(army=attacker, steps=steps)
    made = copy.copy(battle)
    made.__dict__.update(attacker=fewer, aa_fired=True)
    return made


def fight_split(battle: Battle, parts: list[Split],
                run: Callable[[Battle, float, int], BattleResult | None]) -> BattleResult:
    """Fight each part with ``run(battle, probability, index)`` and mix the results. ``run`` may
    answer None for a part it did not fight (Monte Carlo stopped): its probability is the
    result's ``truncated_mass``."""
    results: list[tuple[float, BattleResult | None, Force]] = []
    unfought = 0.0
    for i, (p, spec, lost) in enumerate(parts):
        result = None if spec is None else run(spec, p, i)
        if spec is not None and result is None:
            unfought += p
        else:
            results.append((p, result, lost))
    return mix(battle, results, unfought)


def mix(battle: Battle, parts: list[tuple[float, BattleResult | None, Force]],
        unfought: float = 0.0) -> BattleResult:
    """One result of ``battle`` from the results after each AA outcome, by their probability;
    None: every attacker was shot down (the defender wins before round 1); ``unfought``: the
    probability of the parts not fought, counted as truncated. Monte Carlo standard errors
    combine as those of a stratified sample: the root of the sum of (share x error)^2.
    The TUV swing's distribution is the parts' own, each moved by the aircraft it lost to AA
    and weighed by its probability (None if a part has none).
    The defender's AA gun that is no casualty stands in its rows as in any battle's
    (``holding_units``), those where every aircraft was shot down included."""
    rules = battle.rules
    fought = [(p, r, lost) for p, r, lost in parts if r is not None]
    first = fought[0][1] if fought else None
    totals = dict.fromkeys(("attacker_win", "defender_win", "draw", "stalemate", "retreat",
                            "takes_territory", "attacker_ipc_lost", "defender_ipc_lost",
                            "expected_rounds", "truncated_mass"), 0.0)
    totals["truncated_mass"] = unfought
    retreat_rounds = 0.0
    rows: dict[str, dict[tuple, list]] = {"attacker": {}, "defender": {}}
    errors: dict[str, float] = {}
    swings: list[tuple[float, SwingDistribution | None]] = []
    attacker_total = defender_total = 0.0
    for p, result, lost in parts:
        shot_down = lost.ipc(rules)
        totals["attacker_ipc_lost"] += p * shot_down
        if result is None:  # every attacker shot down: the defender lost nothing
            swings.append((p, SwingDistribution((-float(shot_down),), (1.0,), (0.0,))))
            totals["defender_win"] += p
            _add(rows["attacker"], Survivors(counts={}, probability=1.0), p)
            _add(rows["defender"], _standing_defender(battle), p)
            continue
        attacker_total = result.attacker_ipc_total + shot_down
        swing = result.swing_distribution
        swings.append((p, None if swing is None else swing.shifted(-shot_down)))
        defender_total = result.defender_ipc_total
        for name in totals:
            totals[name] += p * (getattr(result, name) or 0.0)
        retreat_rounds += p * result.retreat * (result.retreat_round or 0.0)
        for side in ("attacker", "defender"):
            for row in getattr(result, f"{side}_survivors"):
                _add(rows[side], row, p)
        for name, se in result.std_error.items():
            if isinstance(se, float | int):
                # the rounds before a retreat are a mean over the retreats: weighted by them
                weight = p * result.retreat if name == "retreat_round" else p
                errors[name] = errors.get(name, 0.0) + part_variance(weight, se)
    if "retreat_round" in errors:
        if totals["retreat"] > 0:
            errors["retreat_round"] /= totals["retreat"] ** 2
        else:
            del errors["retreat_round"]
    runs = None if first is None or first.runs is None else sum(r.runs or 0 for _, r, _ in fought)
    return with_holding_units(BattleResult(
        battle=battle.describe(), method=first.method if first else Method.EXACT,
        attacker_win=totals["attacker_win"], defender_win=totals["defender_win"],
        draw=totals["draw"], stalemate=totals["stalemate"],
        takes_territory=totals["takes_territory"],
        attacker_ipc_lost=totals["attacker_ipc_lost"], defender_ipc_lost=totals["defender_ipc_lost"],
        expected_rounds=totals["expected_rounds"],
        attacker_survivors=_table(rows["attacker"]), defender_survivors=_table(rows["defender"]),
        retreat=totals["retreat"],
        retreat_round=retreat_rounds / totals["retreat"] if totals["retreat"] > 0 else None,
        runs=runs, std_error={name: math.sqrt(v) for name, v in errors.items()},
        truncated_mass=totals["truncated_mass"],
        interrupted=unfought > 0 or any(r.interrupted for _, r, _ in fought),
        attacker_ipc_total=attacker_total, defender_ipc_total=defender_total,
        swing_distribution=mix_swings(swings)), battle)


def _add(table: dict[tuple, list], row: Survivors, p: float) -> None:
    """Add ``row`` with weight ``p``: its probability and its variance (Monte Carlo)."""
    entry = table.setdefault(row_key(row), [row, 0.0, 0.0])
    entry[1] += p * row.probability
    entry[2] += part_variance(p, row.std_error)


def _table(entries: dict[tuple, list]) -> tuple[Survivors, ...]:
    rows = [replace(row, probability=p, std_error=math.sqrt(var))
            for row, p, var in entries.values() if p > 0]
    return tuple(sorted(rows, key=lambda s: (-s.probability, s.other > 0, s.units)))


def _standing_defender(battle: Battle) -> Survivors:
    """The defender untouched, as the engines list it (non-casualty AA guns left out)."""
    rules = battle.rules
    counts = dict(battle.defender.army.counts)
    hurt = dict(battle.defender.army.damaged)
    names = [u.name for u in rules.units]
    alive = [counts.get(u.name, 0) if u.combatant else 0 for u in rules.units]
    damaged = [hurt.get(u.name, 0) if u.combatant else 0 for u in rules.units]
    ipc = sum(n * u.cost for n, u in zip(alive, rules.units, strict=True))
    return survivor_row(names, alive, damaged, [0] * len(names), 1.0, ipc, "retreated")
