"""Sweeps over unit counts, the data behind odds curves and heatmaps: one battle per unit count
(or pair of counts), returned as ``oddsim.sweeps.results`` values that the charts only read.

A sweep takes an army and adds each count of a range of one unit type to it: units of that type
the army already has stay (``-a "1 arm"`` with ``arm=0..5`` fights 1 to 6 armor), and titles
write the varied count after them (``1 + N armor``).
Every battle goes through ``oddsim.api.run_battle`` (``method="auto"``: exact when cheap, Monte
Carlo with ``runs`` runs otherwise), so a sweep mixes engines as a battle's size demands; each
point records its engine and standard error. An attacker left with no unit at all does not
attack: it wins and takes nothing, and the defender holds.

The metrics (``win``, ``take``, ``hold``) are ``oddsim.sweeps.results.METRICS``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from oddsim._runtime.interrupt import stop_on_interrupt
from oddsim.api import run_battle
from oddsim.limits import MAX_SEED, METHODS, check_runs, check_seed, refuse_for_exact
from oddsim.model.forces import Force, parse_force
from oddsim.model.names import count_label, unit_label
from oddsim.model.options import WEB_FIELDS, battle_from
from oddsim.model.rules import Ruleset, load_ruleset
from oddsim.results.battle_result import BattleResult
from oddsim.sweeps.errors import SweepError
from oddsim.sweeps.ranges import UnitRange, parse_unit_range
from oddsim.sweeps.results import (
    DEFAULT_CHART_RUNS,
    MAX_CURVE_POINTS,
    MAX_CURVES,
    MAX_HEATMAP_CELLS,
    METRICS,
    SIDES,
    Curve,
    CurveSweep,
    HeatmapSweep,
    SweepPoint,
)


@dataclass(frozen=True)
class _Engine:
    """How each battle of a sweep is fought."""

    method: str
    runs: int | None
    seed: int | None
    options: dict

    def point(self, rules: Ruleset, attacker: dict, defender: dict, sea: bool, metric: str,
              index: int) -> SweepPoint:
        if not any(attacker.values()):
            return SweepPoint(1.0 if metric == "hold" else 0.0, 0.0, "none")
        battle = battle_from(rules, attacker, defender, {**self.options, "sea": sea})
        exact = self.method == "exact"  # (the exact engine takes neither runs nor a seed)
        seed = None if self.seed is None or exact else (self.seed + index) % (MAX_SEED + 1)
        with stop_on_interrupt() as stop:
            result = run_battle(battle, method=self.method, runs=None if exact else self.runs, seed=seed)
            if stop.is_set():  # a chart of partial points is no chart: stop the whole sweep
                raise KeyboardInterrupt
        return point_of(result, metric, sea)


def point_of(result: BattleResult, metric: str, sea: bool) -> SweepPoint:
    """``metric`` of one ``BattleResult``; Monte Carlo results carry the proportion's standard
    error."""
    if metric == "win":
        value = result.attacker_win
    elif metric == "take":
        value = result.takes_territory or 0.0
    else:
        value = 1.0 - result.attacker_win - result.draw if sea else 1.0 - (result.takes_territory or 0.0)
    value = min(max(float(value), 0.0), 1.0)
    runs = result.runs if result.method == "mc" else None
    error = math.sqrt(value * (1.0 - value) / runs) if runs else 0.0
    return SweepPoint(value, error, result.method)


def curve_sweep(rules: Ruleset | str, attackers: str | Sequence[str], defenders: str | Sequence[str],
                vary: UnitRange | str, side: str = "attacker", metric: str = "win",
                sea: bool = False, method: str = "auto", runs: int | None = None,
                seed: int | None = 0, **battle_options) -> CurveSweep:
    """``metric`` at each count of ``vary`` (``"inf=0..20"``) in ``side``'s army: one curve per
    attacker, and per defender when several are given (every pairing). ``battle_options``
    (``ool_attacker``, ``ool_defender``, ``keep_land``, ...) go to every ``Battle``."""
    ruleset = load_ruleset(rules)
    attackers, defenders = _armies(attackers, "attacker"), _armies(defenders, "defender")
    _check_choices(side, metric, method, sea)
    spec = parse_unit_range(vary, "--vary")
    unit = _unit_name(spec, ruleset, "--vary")
    counts = spec.counts
    pairs = [(a, d) for a in attackers for d in defenders]
    if len(pairs) > MAX_CURVES:
        raise SweepError(f"{len(pairs)} curves is too many for one chart: at most {MAX_CURVES}")
    if len(counts) > MAX_CURVE_POINTS:
        raise SweepError(f"--vary {spec}: {len(counts)} points is too many: at most "
                        f"{MAX_CURVE_POINTS} (use a step, e.g. {spec.unit}={spec.low}..{spec.high}:"
                        f"{math.ceil(len(counts) / MAX_CURVE_POINTS) * spec.step})")
    engine = _engine(method, runs, seed, battle_options)
    curves: list[Curve] = []
    for a_text, d_text in pairs:
        attacker = parse_force(a_text, ruleset, "attacker")
        defender = parse_force(d_text, ruleset, "defender")
        if side == "defender" and attacker.is_empty():
            raise SweepError("the attacker has no units and --side defender varies the defender: "
                            "every point would have no battle; give an attacking army")
        varied = attacker if side == "attacker" else defender
        points: list[SweepPoint] = []
        for count in counts:
            a = _with_count(attacker, unit, count) if side == "attacker" else _mapping(attacker)
            d = _with_count(defender, unit, count) if side == "defender" else _mapping(defender)
            points.append(engine.point(ruleset, a, d, sea, metric, len(curves) * len(counts)
                                       + len(points)))
        label = _describe_with(varied, {unit: "N"})
        if side == "attacker" and len(defenders) > 1:
            label += f" vs {defender.describe()}"
        if side == "defender" and len(attackers) > 1:
            label = f"{attacker.describe()} vs {label}"
        curves.append(Curve(label, counts, tuple(points)))
    other = defenders if side == "attacker" else attackers
    against = parse_force(other[0], ruleset).describe() if len(other) == 1 else ""
    return CurveSweep(ruleset.name, sea, metric, side, unit, tuple(curves), against)


def heatmap_sweep(rules: Ruleset | str, attacker: str, defender: str, x: UnitRange | str,
                  y: UnitRange | str, x_side: str = "attacker", y_side: str = "attacker",
                  metric: str = "win", sea: bool = False, method: str = "auto",
                  runs: int | None = None, seed: int | None = 0,
                  **battle_options) -> HeatmapSweep:
    """``metric`` for every pair of counts of ``x`` (in ``x_side``'s army) and ``y`` (in
    ``y_side``'s army), e.g. ``x="inf=0..15", y="arm=0..10"``."""
    ruleset = load_ruleset(rules)
    _check_choices(x_side, metric, method, sea)
    _check_choices(y_side, metric, method, sea)
    x_spec, y_spec = parse_unit_range(x, "--x"), parse_unit_range(y, "--y")
    x_unit, y_unit = _unit_name(x_spec, ruleset, "--x"), _unit_name(y_spec, ruleset, "--y")
    if (x_unit, x_side) == (y_unit, y_side):
        raise SweepError(f"--x and --y both vary the {x_side}'s {x_unit}: vary two different units "
                        f"(or one on each side)")
    cells = len(x_spec.counts) * len(y_spec.counts)
    if cells > MAX_HEATMAP_CELLS:
        raise SweepError(f"--x {x_spec} by --y {y_spec} is {cells} cells, too many: at most "
                        f"{MAX_HEATMAP_CELLS} (e.g. 21 x 21; use a step such as "
                        f"{x_spec.unit}={x_spec.low}..{x_spec.high}:2)")
    engine = _engine(method, runs, seed, battle_options)
    forces = {"attacker": parse_force(attacker, ruleset, "attacker"),
              "defender": parse_force(defender, ruleset, "defender")}
    if forces["attacker"].is_empty() and "attacker" not in (x_side, y_side):
        raise SweepError("the attacker has no units and both axes vary the defender: every cell "
                        "would have no battle; give -a ARMY or put an axis on the attacker")
    rows: list[tuple[SweepPoint, ...]] = []
    for y_count in y_spec.counts:
        row: list[SweepPoint] = []
        for x_count in x_spec.counts:
            armies = {side: _mapping(force) for side, force in forces.items()}
            armies[x_side][x_unit] = armies[x_side].get(x_unit, 0) + x_count
            armies[y_side][y_unit] = armies[y_side].get(y_unit, 0) + y_count
            row.append(engine.point(ruleset, armies["attacker"], armies["defender"], sea, metric,
                                    len(rows) * len(x_spec.counts) + len(row)))
        rows.append(tuple(row))
    names = {side: _describe_with(forces[side], {u: mark for u, s, mark in
                                                 ((x_unit, x_side, "X"), (y_unit, y_side, "Y"))
                                                 if s == side}) for side in SIDES}
    battle = f"{names['attacker']} attack {names['defender']}"
    return HeatmapSweep(ruleset.name, sea, metric, x_side, x_unit, x_spec.counts, y_side, y_unit,
                        y_spec.counts, tuple(rows), battle)


def _armies(armies: str | Sequence[str], side: str) -> list[str]:
    if not (isinstance(armies, (str, list, tuple)) or armies is None):
        raise SweepError(f"{side} armies: expected a string like '2 arm' or a list of them, not "
                        f"{type(armies).__name__}")
    listed = [armies] if isinstance(armies, str) or armies is None else list(armies)
    if not listed:
        raise SweepError(f"give at least one {side} army")
    return ["none" if a is None else a for a in listed]


def _check_choices(side: str, metric: str, method: str, sea: bool) -> None:
    if not all(isinstance(choice, str) for choice in (side, metric, method)):
        raise SweepError(f"side, metric and method are names, not {(side, metric, method)!r}")
    if side not in SIDES:
        raise SweepError(f"unknown side '{side}': use attacker or defender")
    if metric not in METRICS:
        raise SweepError(f"unknown metric '{metric}': use {', '.join(METRICS)}")
    if method not in METHODS:
        raise SweepError(f"unknown method '{method}': use {', '.join(METHODS)}")
    if metric == "take" and sea:
        raise SweepError("metric 'take' needs a land battle (a sea zone is not taken): use win or "
                        "hold")


def _battle_options() -> set[str]:
    """The battle options a sweep passes on to every battle (it sets the armies, rules and sea)."""
    return set(WEB_FIELDS) - {"sea"}


def _engine(method: str, runs: int | None, seed: int | None, options: dict) -> _Engine:
    """The engine settings, checked against ``oddsim.limits`` (``runs``: Monte Carlo runs per
    battle, default DEFAULT_CHART_RUNS; not with method "exact")."""
    unknown = sorted(set(options) - _battle_options())
    if unknown:
        raise SweepError(f"unknown battle option {unknown[0]!r}: use {', '.join(sorted(_battle_options()))}")
    if runs is not None:
        check_runs(runs, SweepError)
        if method == "exact":
            refuse_for_exact(runs, None, SweepError, use="--method auto or mc")
    return _Engine(method, DEFAULT_CHART_RUNS if runs is None else runs,
                   check_seed(seed, SweepError), dict(options))


def _unit_name(spec: UnitRange, rules: Ruleset, what: str) -> str:
    name = rules.resolve_name(spec.unit)
    if name is None:
        known = ", ".join(unit_label(u.name) for u in rules.units)
        raise SweepError(f"{what} {spec}: unknown unit '{spec.unit.strip()}' in {rules.name} "
                        f"(known: {known})")
    return name


def _mapping(force: Force) -> dict[str, int]:
    """``force`` as a mapping ``Battle`` accepts: whole units by name, damaged ones apart."""
    damaged = dict(force.damaged)
    army: dict[str, int] = {}
    for name, count in force.counts:
        if count - damaged.get(name, 0):
            army[name] = count - damaged.get(name, 0)
        if damaged.get(name):
            army[f"damaged {name}"] = damaged[name]
    return army


def _with_count(force: Force, unit: str, count: int) -> dict[str, int]:
    """``force`` with ``count`` more whole ``unit``."""
    army = _mapping(force)
    army[unit] = army.get(unit, 0) + count
    return army


def _describe_with(force: Force, marks: dict[str, str]) -> str:
    """``force`` in words with each marked unit's varied count written as its mark, after the
    units of that type the army already has (e.g. ``N infantry, 1 + M armor``); a marked unit
    the army lacks comes first."""
    parts = [f"{mark} {unit_label(name, 2)}" for name, mark in marks.items()
             if force.count(name) == 0]
    damaged = dict(force.damaged)
    for name, count in force.counts:
        whole = count - damaged.get(name, 0)
        if name in marks:
            parts.append(f"{whole} + {marks[name]} {unit_label(name, 2)}" if whole
                         else f"{marks[name]} {unit_label(name, 2)}")
        elif whole:
            parts.append(count_label(name, whole))
        if damaged.get(name):
            parts.append(count_label(name, damaged[name], damaged=True))
    return ", ".join(parts) if parts else "none"
