"""The text of a BattleResult the CLI prints: outcomes, losses, units left, survivors."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

import numpy as np

from oddsim.errors import BattleError
from oddsim.model.names import unit_label
from oddsim.results.estimates import needs_interval, number, percent, snapped, swing
from oddsim.results.swing import signed

SIDES = ("attacker", "defender")
SHOWN_BELOW = 5e-7
"""Rows less likely than this print as 0.0000%: they are left out of the text (--json has them)."""


def survivor_rows(survivors: object) -> int | None:
    """How many survivor rows a summary shows: None (no tables), 0 or ``"all"`` (every row), or
    a positive number of rows; anything else is a ``BattleError``. The CLI's ``--survivors`` and
    ``to_table`` read it the same way."""
    if survivors is None:
        return None
    if isinstance(survivors, str):
        word = survivors.strip().lower()
        if word == "all":
            return 0
        try:
            survivors = int(word)
        except ValueError:
            raise BattleError(f"survivors '{survivors}' is neither 'all' nor a number of rows") from None
    if isinstance(survivors, bool) or not isinstance(survivors, int | np.integer):
        raise BattleError(f"survivors must be a number of rows or 'all', not {type(survivors).__name__}")
    if survivors < 0:
        raise BattleError(f"survivors {survivors}: give a positive number of rows, or 'all'")
    return int(survivors)


def battle_text(result, survivors: int | str | None = None) -> str:
    """The summary of ``result``; with ``survivors`` (0 or "all": all, ``survivor_rows``) each
    side's survivor and IPC-loss tables, that many most likely rows each."""
    survivors = survivor_rows(survivors)
    lines = [result.battle]
    method = "exact" if result.method == "exact" else f"Monte Carlo, {result.runs:,} runs"
    if result.interrupted:
        method += " (interrupted: partial result)"
        if result.truncated_mass > 0:  # (parts of a split battle left unfought after the stop)
            method += (f"; {percent(result.truncated_mass)} of the battle's chances not fought "
                       f"(its rarest AA outcomes), left out of every figure below")
    lines.append(f"method: {method}")
    intervals = result.interval_95()

    def pct(name: str) -> str:
        value = getattr(result, name)
        if value is not None and result.runs and needs_interval(value, result.runs):
            return percent(value, interval=intervals.get(name))
        return percent(value, result.std_error.get(name))

    lines.append(f"  attacker wins   {pct('attacker_win')}")
    lines.append(f"  defender wins   {pct('defender_win')}")
    lines.append(f"  draw (both die) {pct('draw')}")
    if result.stalemate:
        lines.append(f"  stalemate       {pct('stalemate')}")
    if result.retreat:
        lines.append(f"  retreat         {pct('retreat')}")
    landed = result.landed_after_retreat
    if landed is not None:
        lines.append(f"  landed units fighting on after the others retreated: won "
                     f"{percent(landed['won'])} (part of attacker wins), destroyed "
                     f"{percent(landed['destroyed'])}, both sides destroyed "
                     f"{percent(landed['both_destroyed'])} (part of retreat)")
    if result.takes_territory is not None:
        lines.append(f"  takes territory {pct('takes_territory')}")
    se = result.std_error
    # (a Monte Carlo error: the sum of the two sides', a bound: see montecarlo.simulate)
    swung = swing(result.tuv_swing, se.get("tuv_swing"))
    lost = {side: number(getattr(result, f"{side}_ipc_lost"), se.get(f"{side}_ipc_lost"))
            for side in SIDES}
    lines.append(f"expected IPC lost: attacker {lost['attacker']}, defender {lost['defender']} "
                 f"(TUV swing {swung})")
    lines += swing_marks_text(result)
    lines.append("average units left:")
    for side in SIDES:
        lines.append(f"  {side}: {units_left_text(result, side)}")
    rounds = f"expected rounds: {number(result.expected_rounds, se.get('expected_rounds'))}"
    if result.retreat_round is not None:
        after = number(result.retreat_round, se.get("retreat_round"))
        rounds += f"; a retreat comes after {after} rounds on average"
        if result.landed_after_retreat is not None:  # the round the others left, not the fight's end
            rounds += " (when the others left; the landed units fought on)"
    lines.append(rounds)
    if survivors is None:
        for side in SIDES:
            lines.append(f"most likely {side} survivors:")
            for row in shown(result.most_likely(side, 3)):
                lines.append(f"  {percent(row.probability, row.std_error or None):>18s}  {row.units}")
    else:
        for side in SIDES:
            lines += [""] + survivor_table(result, side, survivors)
            lines += [""] + ipc_loss_table(result, side)
        lines += swing_table(result)
    lines += retreat_plan_text(result)
    policy = getattr(result, "casualty_policy", None)
    if policy is not None:  # a side chose each loss: the goal beside the fixed order, the advice
        lines += policy.lines()
    return "\n".join(lines)


def swing_marks_text(result) -> list[str]:
    """The TUV swing's 5%, median and 95% marks (``oddsim.results.swing.percentiles``), or why
    there are none (none at all for a result of no swing distribution's kind)."""
    marks = result.tuv_swing_percentiles()
    if marks is None:
        return ["  TUV swing range: not known for this battle (crashed fighters: only its mean)"]
    if not marks:
        return []
    return [f"  TUV swing range: 5% {signed(marks[5])}, median {signed(marks[50])}, "
            f"95% {signed(marks[95])}"]


def swing_table(result) -> list[str]:
    """The TUV swing's distribution with the chance of a swing at least as large."""
    chances = result.tuv_swing_distribution()
    if chances is None:
        return []
    errors = dict(zip(result.swing_distribution.swings, result.swing_distribution.std_errors, strict=True))
    return _at_least_table(result, ["", "TUV swing (defender IPC lost - attacker IPC lost)"], "swing",
                           chances, signed, lambda value, p: percent(p, errors[value] or None),
                           1.0 - result.truncated_mass)


def _at_least_table(result, heading: list[str], label: str, chances: Mapping[float, float],
                    value_text: Callable[[float], str], chance_text: Callable[[float, float], str],
                    tail: float) -> list[str]:
    """A distribution's table (rows under ``SHOWN_BELOW`` left out) with each value's chance and
    the chance of at least as much, starting from ``tail`` (1 less what the table cannot hold)."""
    out = [*heading, f"  {label:>8s}  {'chance':>18s}  {'at least as much':>18s}"]
    for value, p in chances.items():
        if p >= SHOWN_BELOW:
            out.append(f"  {value_text(value):>8s}  {chance_text(value, p):>18s}  "
                       f"{estimated(result, min(1.0, max(tail, 0.0))):>18s}")
        tail -= p
    return out


def retreat_plan_text(result, top: int = 10) -> list[str]:
    """The best retreat's objective and the most likely states where it retreats (none without
    the best retreat)."""
    if result.objective is None:
        return []
    lines = [f"best retreat: expected objective {result.objective:+.2f}"]
    if result.objective < 0:
        lines.append(f"  not attacking is better by {-result.objective:.2f}")
    plan = result.retreat_plan or ()
    if not plan:
        lines.append("  it never retreats: fight to the end")
        return lines
    lines.append(f"  retreats in {len(plan)} states (most likely first; the same in every round):")
    lines.append(f"  {'chance':>8s}  {'round':>5s}  attacker left  |  defender left")
    for row in plan[:top]:
        lines.append(f"  {100 * row.probability:7.2f}%  {row.mean_round:5.2f}  {row.attacker}  |  "
                     f"{row.defender}")
    if len(plan) > top:
        lines.append(f"  ... {len(plan) - top} more (see --json)")
    return lines


def shown(rows) -> list:
    return [row for row in rows if row.probability >= SHOWN_BELOW]


def units_left_text(result, side: str) -> str:
    """``"0.50 armor"``, ``"2.31 ± 0.01 infantry, 0.12 ± 0.003 AA guns"``, or "none"."""
    return expected_units_text(getattr(result, f"{side}_units_left"), result.units_left_std_error(side))


def expected_units_text(units: Mapping[str, float], errors: Mapping[str, float] | None = None) -> str:
    """Expected units by type as ``units_left_text`` writes them (``errors``: their standard
    errors, where known)."""
    errors = errors or {}
    parts = [f"{_units(n, errors.get(name))} {unit_label(name, 2)}" for name, n in units.items()]
    return ", ".join(parts) if parts else "none"


def _units(n: float, error: float | None) -> str:
    """An expected number of units; a small exact one keeps two significant digits ("0.0019",
    never a bare "0.00" for units that may be left)."""
    if not error and 0 < n < 0.005:
        return f"{n:.{1 - math.floor(math.log10(n))}f}"
    return number(n, error)


def survivor_table(result, side: str, top: int = 0) -> list[str]:
    """The side's survivor rows, most units left first, with the cumulative chance to be left
    with at least as many units; ``top`` > 0: only the ``top`` most likely rows."""
    rows = getattr(result, f"{side}_survivors")
    at_least = _at_least(rows)
    chosen = shown(sorted(rows, key=lambda s: -s.probability)[:top] if top else rows)
    chosen.sort(key=lambda s: (-s.count, -s.probability))
    hidden = len(rows) - len(chosen)
    title = f"{side} survivors ({len(chosen)} of {len(rows)} end states"
    title += f"; {hidden} not shown, --json has all)" if hidden else ")"
    out = [title, f"  {'chance':>18s}  {'at least as many':>18s}  {'units':>5s}  {'IPC':>5s}  units left"]
    for row in chosen:
        count = "?" if row.other else str(row.count)
        cumulative = "" if row.other else estimated(result, at_least[row.count])
        out.append(f"  {percent(row.probability, row.std_error or None):>18s}  {cumulative:>18s}  "
                   f"{count:>5s}  {row.ipc:5.0f}  {row.units}")
    return out


def _at_least(rows) -> list[float]:
    """The chance to be left with at least n units, for n from 0 to the most left: each the sum
    of the rows' probabilities in their order (a cumulative sum adds them one by one, as a loop
    over the rows and their counts did, in a fraction of its time)."""
    count = np.array([row.count for row in rows], dtype=np.int64)
    chance = np.array([row.probability for row in rows], dtype=float)
    levels = np.arange(count.max() + 1 if len(count) else 0)
    kept = np.where(count[:, None] >= levels, chance[:, None], 0.0)
    return np.cumsum(kept, axis=0)[-1].tolist() if len(count) else []


def ipc_loss_table(result, side: str) -> list[str]:
    """The side's IPC-loss distribution with the chance to lose at least as much."""
    return _at_least_table(result, [f"{side} IPC lost"], "IPC lost", result.ipc_lost_distribution(side),
                           lambda lost: f"{lost:8.4g}", lambda lost, p: estimated(result, p), 1.0)


def estimated(result, p: float) -> str:
    """A chance summed from the survivor rows, with its binomial standard error when the result
    is Monte Carlo (each run lands in one row, so a sum of rows is one binomial chance)."""
    if not result.runs:
        return percent(p)
    p = snapped(p)  # (a sum of every row is 1, not 1 - 1e-16 with a false ± 0.000000024%)
    return percent(p, math.sqrt(max(p * (1.0 - p), 0.0) / result.runs) or None)
