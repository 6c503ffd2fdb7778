"""BattleResult: the one result type both engines return; plots and the CLI only read it.

A survivor row is data (units left by type, damaged ones, those that left the battle early, its
probability and IPC value); its label is rendered from them and never parsed back.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from graphlib import TopologicalSorter
from typing import Any, TypeVar, overload

import numpy as np

from oddsim.errors import BattleError, TooLargeError
from oddsim.limits import MethodChoice
from oddsim.model.forces import Force, parse_force
from oddsim.model.names import describe_counts
from oddsim.results.casualty_policy import CasualtyPolicy
from oddsim.results.estimates import binomial_interval
from oddsim.results.swing import SwingDistribution, percentile_dict
from oddsim.results.text import battle_text

Row = TypeVar("Row")
"""The row type of a ``LazyRows``."""

OUTCOMES = ("attacker_win", "defender_win", "draw", "stalemate", "retreat", "takes_territory")
"""The outcome probabilities of a result (``takes_territory`` is None at sea)."""


class Method(StrEnum):
    """How a result was found: solved exactly, or estimated by Monte Carlo (its JSON form is the
    string, ``"exact"`` or ``"mc"``)."""

    EXACT = MethodChoice.EXACT.value
    MC = MethodChoice.MC.value


@dataclass(frozen=True)
class Survivors:
    """One possible end state of a side, with its probability.

    ``counts``: every unit left by type (those that left the battle early included);
    ``damaged``: how many of them are damaged two-hit units; ``departed``: how many of them left
    the battle early (``departed_as``: "submerged" subs, or "retreated" units while the landed
    ones fought on); ``retreated``: the whole side left the battle (a retreat). ``ipc`` is the
    IPC value of the units left. ``std_error`` is the probability's standard error (Monte Carlo).
    ``other`` > 0 marks the row that gathers the end states of a very large Monte Carlo battle
    that were not kept one by one (that many of its runs): its units are unknown, ``ipc`` is their
    mean IPC value."""

    counts: Mapping[str, int]
    probability: float
    ipc: float = 0
    damaged: Mapping[str, int] = field(default_factory=dict)
    departed: Mapping[str, int] = field(default_factory=dict)
    retreated: bool = False
    departed_as: str = "retreated"
    std_error: float = 0.0
    other: int = 0

    @property
    def count(self) -> int:
        """Number of units left."""
        return sum(self.counts.values())

    @property
    def units(self) -> str:
        """The row as players read it: ``"2 infantry, 1 damaged battleship (1 submarine
        submerged)"``, ``"none"``, or ``"other end states"``."""
        if self.other:
            return "other end states"
        units = describe_counts(self.counts.items(), self.damaged)
        gone = describe_counts(self.departed.items())
        if not self.retreated:
            if gone == "none":
                return units
            return f"{units} ({self.departed_as})" if gone == units \
                else f"{units} ({gone} {self.departed_as})"
        if gone == "none":
            return f"{units} (retreated)"
        if gone == units:
            if self.departed_as == "retreated":  # the landed units stayed, and were destroyed
                return f"{units} (retreated; the landed units fought on and were destroyed)"
            return f"{units} ({self.departed_as})"
        return f"{units} ({gone} {self.departed_as}, the rest retreated)"

    def force(self, rules) -> Force:
        """The army this row leaves (units that left the battle early included), damaged units
        kept, to fight a later stage with."""
        if self.other:
            raise TooLargeError("the 'other end states' row of a very large battle has no single "
                                "army: fight the stages as separate battles")
        return parse_force(Force(tuple(self.counts.items()), tuple(self.damaged.items())), rules,
                           "survivors")

    def to_dict(self) -> dict:
        return {"label": self.units, "counts": _plain(self.counts), "damaged": _plain(self.damaged),
                "departed": _plain(self.departed), "retreated": bool(self.retreated),
                "units_left": int(self.count),
                "ipc": float(self.ipc), "probability": float(self.probability),
                "std_error": float(self.std_error), "other": int(self.other)}


def _plain(numbers: Mapping[str, int]) -> dict[str, int]:
    """A copy of ``numbers`` with plain ints (most rows' damaged and departed are empty)."""
    return {k: int(v) for k, v in numbers.items()} if numbers else {}


def survivor_row(names: list[str], alive, damaged, departed, probability: float, ipc: float,
                 verb: str, retreated: bool = False) -> Survivors:
    """A row from per-type numbers in the edition's unit order (zeros left out)."""
    counts = {n: int(a) for n, a in zip(names, alive, strict=True) if a > 0}
    hurt = {n: min(int(h), counts.get(n, 0)) for n, h in zip(names, damaged, strict=True) if h > 0}
    gone = {n: int(g) for n, g in zip(names, departed, strict=True) if g > 0}
    return Survivors(counts=counts, probability=float(probability), ipc=ipc,
                     damaged={n: h for n, h in hurt.items() if h}, departed=gone,
                     retreated=bool(retreated and counts), departed_as=verb)


def row_key(row: Survivors) -> tuple:
    """What tells two end states apart (rows with the same key are one row)."""
    return (tuple(row.counts.items()), tuple(row.damaged.items()), tuple(row.departed.items()),
            row.retreated, row.other > 0)


def merge_rows(rows, runs: int | None = None) -> tuple[Survivors, ...]:
    """Rows with the same end state added up, zero-probability rows dropped, most likely first;
    with ``runs`` (Monte Carlo), each row gets its binomial standard error."""
    merged: dict[tuple, Survivors] = {}
    for row in rows:
        key = row_key(row)
        if key in merged:
            old = merged[key]
            total = old.probability + row.probability
            ipc = old.ipc if not row.other else (
                (old.ipc * old.probability + row.ipc * row.probability) / total if total else 0)
            merged[key] = replace(old, probability=total, ipc=ipc, other=old.other + row.other)
        else:
            merged[key] = row
    out = [r for r in merged.values() if r.probability > 0]
    if runs:
        out = [replace(r, std_error=math.sqrt(r.probability * (1 - r.probability) / runs))
               for r in out]
    # most likely first, ties by their text: formatting every row's text for the sort key was
    # most of the time of a small exact solve, and ties are rare
    out.sort(key=lambda s: (-s.probability, s.other > 0))
    start = 0
    for end in range(1, len(out) + 1):
        if end == len(out) or (out[end].probability, out[end].other > 0) != (
                out[start].probability, out[start].other > 0):
            if end - start > 1:
                out[start:end] = sorted(out[start:end], key=lambda s: s.units)
            start = end
    return tuple(out)


RowArrays = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""A side's end states as arrays, one row per state: units left by type, damaged ones, those
that left the battle early (``survivor_row``'s numbers), whether the side retreated, the
probability and the IPC value."""


class LazyRows(Sequence[Row]):
    """A tuple of rows worked out by ``build`` (a function of no arguments) only when first read:
    a small exact solve spent a third of its time building rows that most callers never read.
    Reads like the tuple it stands for, compares equal to any sequence of the same rows, and
    pickles as that tuple."""

    __slots__ = ("_build", "_rows")

    def __init__(self, build: Callable[[], tuple[Row, ...]]) -> None:
        self._build: Callable[[], tuple[Row, ...]] | None = build
        self._rows: tuple[Row, ...] = ()

    def _built(self) -> tuple[Row, ...]:
        if self._build is not None:
            self._rows = self._build()
            self._build = None  # let go of what it held
        return self._rows

    def __len__(self) -> int:
        return len(self._built())

    @overload
    def __getitem__(self, i: int) -> Row: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[Row, ...]: ...

    def __getitem__(self, i: int | slice) -> Row | tuple[Row, ...]:
        return self._built()[i]

    def __iter__(self) -> Iterator[Row]:
        return iter(self._built())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return self._built() == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to tuples, so not hashable

    def __repr__(self) -> str:
        return repr(self._built())

    def __reduce__(self) -> tuple[Any, ...]:  # pickles (Dask sweeps) as the plain rows
        return (tuple, (self._built(),))


class SurvivorTable(LazyRows[Survivors]):
    """A side's survivor rows (``merge_rows`` of its end states), worked out from ``source``, a
    function that returns its end states (``RowArrays``), only when first read (``LazyRows``)."""

    __slots__ = ()

    def __init__(self, names: Sequence[str], verb: str, source: Callable[[], RowArrays]) -> None:
        super().__init__(lambda: _merged_rows(names, verb, *source()))


def _merged_rows(names: Sequence[str], verb: str, counts: np.ndarray, damaged: np.ndarray,
                 departed: np.ndarray, retreated: np.ndarray, probability: np.ndarray,
                 ipc: np.ndarray) -> tuple[Survivors, ...]:
    """``merge_rows`` of the rows given as arrays (``RowArrays``), as arrays until the end: the
    same end states added up in the order given, zero rows dropped, most likely first, ties by
    their text."""
    damaged = np.minimum(damaged, counts)
    retreated = retreated & counts.any(axis=1)
    key = np.ascontiguousarray(np.column_stack((counts, damaged, departed, retreated)), dtype=np.int64)
    as_bytes = key.view(np.dtype((np.void, key.dtype.itemsize * key.shape[1]))).ravel()
    _, first, inverse = np.unique(as_bytes, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")  # merged rows in the order they first came
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    total = np.bincount(rank[inverse.ravel()], probability, len(order))  # summed in the order given
    rows = first[order]
    kept = total > 0
    rows, total = rows[kept], total[kept]
    by_chance = np.argsort(-total, kind="stable")
    rows, total = rows[by_chance], total[by_chance]
    out = [_exact_row(alive, p, value, hurt, gone, left, verb)
           for alive, hurt, gone, left, p, value in zip(
               _by_name(names, counts[rows]), _by_name(names, damaged[rows]), _by_name(names, departed[rows]),
               retreated[rows].tolist(), total.tolist(), ipc[rows].tolist(), strict=True)]
    if len(total) > 1 and (total[1:] == total[:-1]).any():  # ties (rare): by their text
        out.sort(key=lambda s: (-s.probability, s.units))
    return tuple(out)


def _exact_row(counts: dict[str, int], probability: float, ipc: float, damaged: dict[str, int],
               departed: dict[str, int], retreated: bool, departed_as: str) -> Survivors:
    """``Survivors(counts, probability, ipc, damaged, departed, retreated, departed_as)`` (no
    standard error, not an "other" row), made without the frozen dataclass's ``__init__``, which
    sets each field through ``object.__setattr__``: that was about half the time of building
    the rows of a large exact result."""
    row = object.__new__(Survivors)
    row.__dict__.update(counts=counts, probability=probability, ipc=ipc, damaged=damaged, departed=departed,
                        retreated=retreated, departed_as=departed_as, std_error=0.0, other=0)
    return row


def _by_name(names: Sequence[str], table: np.ndarray) -> list[dict[str, int]]:
    """Each row of ``table`` (a number per unit type) as {name: number}, zeros left out. Only the
    types some row has are looked at (few of an edition's, and rarely any damaged or departed),
    not all of the edition's for every row."""
    used = np.flatnonzero(table.any(axis=0))
    if not len(used):
        return [{} for _ in range(len(table))]
    used_names = [names[j] for j in used.tolist()]
    return [{name: n for name, n in zip(used_names, row, strict=True) if n}
            for row in table[:, used].tolist()]


@dataclass(frozen=True)
class RetreatPlanRow:
    """One state where the best retreat policy retreats (at the end of a round): the units in
    the battle on each side, the chance the battle retreats there and the mean round it does.
    The policy depends only on the units left, so the same row holds whichever round it is."""

    attacker: str
    defender: str
    probability: float
    mean_round: float


def row_dict(row: RetreatPlanRow) -> dict[str, object]:
    """A retreat plan row as ``BattleResult.to_dict`` writes it."""
    return plan_row_dict(row.attacker, row.defender, row.probability, row.mean_round)


def plan_row_dict(attacker: str, defender: str, probability: float, mean_round: float) -> dict[str, object]:
    """A retreat plan row's fields as ``BattleResult.to_dict`` writes them (``row_dict``; the
    exact engine's plan writes its rows from its arrays, without a row object each)."""
    return {"attacker": attacker, "defender": defender, "probability": float(probability),
            "mean_round": float(mean_round)}


def _plan_dicts(plan: Sequence[RetreatPlanRow]) -> list[dict[str, object]]:
    """A retreat plan's rows as dicts: the exact engine's plan makes them from its arrays
    (``as_dicts``), without making a row object each."""
    as_dicts = getattr(plan, "as_dicts", None)
    return as_dicts() if as_dicts is not None else [row_dict(row) for row in plan]


@dataclass(frozen=True, repr=False)
class BattleResult:
    """Outcome probabilities, expected losses and survivor distributions of one battle.

    ``method`` is ``Method.EXACT`` or ``Method.MC`` (equal to ``"exact"`` and ``"mc"``). Monte
    Carlo results also carry ``runs`` and the standard error of every probability and mean in
    ``std_error`` (exact results: empty).
    ``takes_territory`` is the chance the attacker wins with a land unit left (land battles;
    ``None`` at sea). ``tuv_swing`` is defender IPCs lost minus attacker IPCs lost.
    ``attacker_ipc_total``/``defender_ipc_total``: IPCs of the units each side may lose, so
    that IPC lost = total - the IPC value of a survivor row. ``retreat_round`` is the mean
    number of rounds fought before the attacker retreated, given the battle ends in a retreat,
    apart from ``expected_rounds`` (all battles); where landed units fight on after the others
    retreat, it is when the others left (the landed units' fight is in ``expected_rounds``).
    ``swing_distribution``: the chance of each TUV swing value, tallied by the engine over its
    joint end states (``oddsim.results.swing``); None where the answer cannot give it (crashed
    fighters change the defender's losses per end state after the battle: see
    ``oddsim.stages.crash``), never a guess from the two sides' rows.
    """

    battle: str
    method: Method
    attacker_win: float
    defender_win: float
    draw: float
    stalemate: float
    takes_territory: float | None
    attacker_ipc_lost: float
    defender_ipc_lost: float
    expected_rounds: float
    attacker_survivors: Sequence[Survivors]
    defender_survivors: Sequence[Survivors]
    retreat: float = 0.0  # the attacker retreated (the defender keeps the territory)
    retreat_round: float | None = None  # expected rounds fought, given a retreat
    runs: int | None = None
    std_error: dict[str, float] = field(default_factory=dict)
    truncated_mass: float = 0.0
    interrupted: bool = False
    attacker_ipc_total: float = 0
    defender_ipc_total: float = 0
    objective: float | None = None  # the best retreat's expected objective (RetreatPolicy.best)
    retreat_plan: Sequence[RetreatPlanRow] | None = None  # where the best retreat retreats (rows
    # built when first read)
    swing_distribution: SwingDistribution | None = None  # chance of each TUV swing value
    casualty_policy: CasualtyPolicy | None = None  # best casualties' figures and advice


    @property
    def tuv_swing(self) -> float:
        return self.defender_ipc_lost - self.attacker_ipc_lost

    def tuv_swing_distribution(self) -> dict[float, float] | None:
        """Chance of each TUV swing value (defender IPC lost - attacker IPC lost), smallest first,
        from both sides' losses together; None where the result does not have it."""
        return None if self.swing_distribution is None else self.swing_distribution.chances()

    def tuv_swing_percentiles(self) -> dict[float, float] | None:
        """The TUV swing's 5%, 50% and 95% marks (``oddsim.results.swing.percentiles``); None
        where the result has no swing distribution."""
        return None if self.swing_distribution is None else self.swing_distribution.percentiles()

    @property
    def attacker_units_left(self) -> dict[str, float]:
        """Expected number of the attacker's units left, by unit type."""
        return units_left(self.attacker_survivors)[0]

    @property
    def defender_units_left(self) -> dict[str, float]:
        """Expected number of the defender's units left, by unit type."""
        return units_left(self.defender_survivors)[0]

    def units_left_std_error(self, side: str) -> dict[str, float]:
        """Standard error of each expected number of units left (Monte Carlo; empty if exact)."""
        side = _side(side)
        if not self.runs:
            return {}
        return units_left(getattr(self, f"{side}_survivors"), self.runs)[1]

    def ipc_lost_distribution(self, side: str) -> dict[float, float]:
        """Chance of each IPC loss of ``side`` (smallest first), from its survivor rows."""
        side = _side(side)
        total = getattr(self, f"{side}_ipc_total")
        out: dict[float, float] = {}
        for row in getattr(self, f"{side}_survivors"):
            lost = round(float(total - row.ipc), 6)
            out[lost] = out.get(lost, 0.0) + row.probability
        return dict(sorted(out.items()))

    @property
    def landed_after_retreat(self) -> dict[str, float] | None:
        """What became of the landed units that fought on after the others retreated: the
        chance they ``won``, were ``destroyed`` (the defender held), or ``both_destroyed``;
        None when no landed unit ever fought on alone."""
        rows = [r for r in self.attacker_survivors if r.departed and r.departed_as == "retreated"]
        if not rows:
            return None
        won = sum(r.probability for r in rows if not r.retreated)
        gone = sum(r.probability for r in rows if r.retreated)
        defender_dead = sum(r.probability for r in self.defender_survivors
                            if not r.counts and not r.other)
        both = min(gone, max(0.0, defender_dead - self.attacker_win - self.draw))
        return {"won": won, "destroyed": max(0.0, gone - both), "both_destroyed": both}

    def interval_95(self) -> dict[str, tuple[float, float]]:
        """95% Wilson intervals of the outcome probabilities (Monte Carlo; empty if exact)."""
        if not self.runs:
            return {}
        out = {}
        for name in OUTCOMES:
            p = getattr(self, name)
            if p is not None and (name != "retreat" or "retreat" in self.std_error):
                out[name] = binomial_interval(round(p * self.runs), self.runs)
        return out

    def to_dict(self) -> dict:
        """Plain JSON-ready dict (stable keys, plain floats): every figure, its standard error
        and 95% interval (Monte Carlo), units left, both sides' whole survivor and IPC-loss
        distributions. The one JSON form of a result: ``oddsim battle --json`` prints it."""
        def number(x):
            return None if x is None else float(x)

        std_error: dict[str, object] = {k: float(v) for k, v in self.std_error.items()}
        if self.runs:
            for side in ("attacker", "defender"):
                std_error[f"{side}_units_left"] = self.units_left_std_error(side)
        data = {
            "interrupted": bool(self.interrupted),  # first, where a reader sees it
            "battle": self.battle, "method": self.method,
            "runs": None if self.runs is None else int(self.runs),
            "truncated_mass": float(self.truncated_mass),
            **{name: number(getattr(self, name)) for name in OUTCOMES},
            "attacker_ipc_lost": float(self.attacker_ipc_lost),
            "defender_ipc_lost": float(self.defender_ipc_lost),
            "tuv_swing": float(self.tuv_swing),
            "tuv_swing_distribution": None if self.swing_distribution is None
            else self.swing_distribution.to_dict(),
            "tuv_swing_percentiles": percentile_dict(self.swing_distribution),
            "attacker_units_left": self.attacker_units_left,
            "defender_units_left": self.defender_units_left,
            "expected_rounds": float(self.expected_rounds),
            "retreat_round": number(self.retreat_round),
            "landed_after_retreat": self.landed_after_retreat,
            "std_error": std_error,
            "interval_95": {k: [float(lo), float(hi)] for k, (lo, hi) in self.interval_95().items()},
            "attacker_ipc_total": float(self.attacker_ipc_total),
            "defender_ipc_total": float(self.defender_ipc_total),
            "objective": number(self.objective),
            "retreat_plan": None if self.retreat_plan is None else _plan_dicts(self.retreat_plan),
        }
        if self.casualty_policy is not None:  # (only where a side chooses each loss)
            data["casualty_policy"] = self.casualty_policy.to_dict()
        for side in ("attacker", "defender"):
            data[f"{side}_ipc_lost_distribution"] = [
                {"ipc": float(k), "probability": float(p),
                 "std_error": math.sqrt(max(p * (1.0 - p), 0.0) / self.runs) if self.runs else 0.0}
                for k, p in self.ipc_lost_distribution(side).items()]
            data[f"{side}_survivors"] = [row.to_dict() for row in getattr(self, f"{side}_survivors")]
        return data

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    def most_likely(self, side: str, top: int = 5) -> tuple[Survivors, ...]:
        """The side's ``top`` most likely end states, most likely first."""
        survivors = getattr(self, f"{_side(side)}_survivors")
        if isinstance(top, bool) or not isinstance(top, int | np.integer) or top < 0:
            raise BattleError(f"top must be a number of rows, 0 or more, not {top!r}")
        return tuple(sorted(survivors, key=lambda s: -s.probability)[:top])

    def to_table(self, survivors: int | str | None = None) -> str:
        """The readable summary the CLI prints; ``survivors``: also each side's whole survivor
        and IPC-loss tables (that many rows each, 0 or "all": all; else a ``BattleError``)."""
        return battle_text(self, survivors)

    def __str__(self) -> str:
        return self.to_table()

    def __repr__(self) -> str:
        return self.to_table()

    def check(self) -> float:
        """How far the outcome probabilities (win, loss, draw, stalemate, retreat) are from
        summing to 1."""
        return math.fabs(self.attacker_win + self.defender_win + self.draw + self.stalemate
                         + self.retreat - 1.0)


def _side(side: object) -> str:
    """``side`` checked: "attacker" or "defender" (a result's figures are per side)."""
    if side not in ("attacker", "defender"):
        raise BattleError(f"side must be 'attacker' or 'defender', not {side!r}")
    return str(side)


def units_left(rows, runs: int | None = None) -> tuple[dict[str, float], dict[str, float]]:
    """(expected units left by type, their standard errors with ``runs`` Monte Carlo runs)."""
    mean: dict[str, float] = {}
    square: dict[str, float] = {}
    for row in rows:
        p = row.probability
        for name, n in row.counts.items():
            mean[name] = mean.get(name, 0.0) + p * n
            if runs:  # only the standard errors need them
                square[name] = square.get(name, 0.0) + p * n * n
    order = _unit_order(rows)
    mean = {name: mean[name] for name in order}
    errors = {}
    if runs:
        errors = {name: math.sqrt(max(square[name] - m * m, 0.0) / runs) for name, m in mean.items()}
    return {name: float(m) for name, m in mean.items()}, errors


def _unit_order(rows) -> list[str]:
    """The unit types of the rows in the edition's order (each row lists its units in it)."""
    graph: dict[str, set[str]] = {}
    for names in dict.fromkeys(tuple(row.counts) for row in rows):  # each list of types once
        for i, name in enumerate(names):
            graph.setdefault(name, set()).update(names[:i])
    sorter = TopologicalSorter(graph)
    sorter.prepare()
    seen = list(graph)
    order: list[str] = []
    while sorter.is_active():
        ready = sorted(sorter.get_ready(), key=seen.index)
        order.extend(ready)
        sorter.done(*ready)
    return order
