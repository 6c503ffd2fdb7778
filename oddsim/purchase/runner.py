"""Run a sweep: enumerate the purchases, skip those already in the output file, solve the rest
in-process or on Dask, write each finished row, and rank them all."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, closing, nullcontext
from pathlib import Path

from oddsim._runtime.progress import ProgressBar
from oddsim.model.battle import ArmySpec, UnitListSpec
from oddsim.model.rules import Ruleset, load_ruleset
from oddsim.purchase.dask_runner import check_options, dask_client, dask_rows
from oddsim.purchase.enumeration import iter_purchases
from oddsim.purchase.evaluate import PROCESS_CACHE, BattleCache, Evaluated
from oddsim.purchase.goals import Goal, PurchaseError
from oddsim.purchase.output import (
    CHUNK_ROWS,
    CHUNK_SECONDS,
    RowFormat,
    RowWriter,
    check_writable_rows_file,
    holds_columns,
    read_rows,
    rewrite_rows,
)
from oddsim.purchase.rows import PurchaseRow, columns, columns_before_std_errors
from oddsim.purchase.spec import CapsSpec, SweepSpec, UnitsSpec
from oddsim.purchase.swept import evaluate_rows
from oddsim.purchase.table import PurchaseTable, SweepStats


class SweepInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM in the CLI) stopped a sweep; the finished rows are in the file (with
    ``out``) and in ``table``, ranked (the rows done: resumed ones and those solved here)."""

    def __init__(self, message: str, rows_done: int, out: Path | None,
                 table: PurchaseTable | None = None, purchases: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.rows_done = rows_done
        self.out = out
        self.table = table
        self.purchases = purchases  # how many the whole sweep has

    def __str__(self) -> str:
        return self.message


def sweep(rules: Ruleset | str, budget: int, units: UnitsSpec, against: ArmySpec,
          goal: Goal | str = "take", existing: ArmySpec = None, max_counts: CapsSpec = None,
          sea: bool = False, ool_attacker: UnitListSpec = None, ool_defender: UnitListSpec = None,
          keep_land: int = 0, method: str = "auto", runs: int | None = None, seed: int = 0,
          out: str | Path | None = None, resume: bool = False, workers: int | None = None,
          scheduler: str | None = None, progress: bool = False, cache: BattleCache | None = None,
          territory_value: float | None = None, counter_attack: ArmySpec = None,
          prices: Ruleset | str | None = None, casualty_goal: str | None = None) -> PurchaseTable:
    """Every purchase of ``units`` within ``budget`` (each at most its ``max_counts``), added to
    ``existing``, fought against ``against``, and ranked by ``goal``.

    The buyer attacks for ``take``, ``clear``, ``tuv``, ``value`` (with ``territory_value``) and
    ``hold-after`` (against ``counter_attack``) and defends for ``hold`` (see
    ``oddsim.purchase.goals``). Each battle is solved by ``method`` (``auto``: exact when cheap,
    else Monte Carlo with ``runs`` runs and a seed derived from the battle and ``seed``). With
    ``out`` (``.csv``, or ``.json`` for JSON Lines) rows are written as they finish; ``resume``
    keeps the rows already there and solves only the rest. ``workers`` runs on a new local
    Dask cluster, ``scheduler`` on an existing one. ``prices``: the edition whose costs the
    purchases pay where ``rules`` values units otherwise (``unit_value_changes``). An order of
    loss ``"best"`` solves each battle with that side choosing each loss, for ``casualty_goal``
    (default: the sweep's goal; ``oddsim.engines.exact.casualties``). Returns the rows ranked,
    best first.
    """
    spec = SweepSpec.build(load_ruleset(rules), budget, units, against, goal=goal,
                           existing=existing, max_counts=max_counts, sea=sea,
                           ool_attacker=ool_attacker, ool_defender=ool_defender,
                           keep_land=keep_land, method=method, runs=runs, seed=seed,
                           territory_value=territory_value, counter_attack=counter_attack,
                           prices=None if prices is None else load_ruleset(prices),
                           casualty_goal=casualty_goal)
    return run_sweep(spec, out=out, resume=resume, workers=workers, scheduler=scheduler,
                     progress=progress, cache=cache)


def purchases_of(spec: SweepSpec) -> list[tuple[int, tuple[int, ...]]]:
    """``(index, counts)`` of every purchase of the sweep, in enumeration order, buying nothing
    (first) included: with no existing army it is no attack (``evaluate.no_attack``), a row
    the frontier starts from."""
    return list(enumerate(iter_purchases(spec.costs, spec.caps, spec.budget)))


def run_sweep(spec: SweepSpec, out: str | Path | None = None, resume: bool = False,
              workers: int | None = None, scheduler: str | None = None, progress: bool = False,
              cache: BattleCache | None = None, chunk_rows: int = CHUNK_ROWS,
              chunk_seconds: float = CHUNK_SECONDS,
              stop_requested: Callable[[], bool] | None = None) -> PurchaseTable:
    """Run a validated sweep (see ``sweep``). ``stop_requested`` is asked after every row; when
    it says yes the sweep stops as on Ctrl-C (the command line's signal handlers only set a
    flag: an exception raised from a handler can land inside a Numba call and come out as a
    SystemError)."""
    if not isinstance(spec, SweepSpec):
        raise PurchaseError(f"run_sweep needs a SweepSpec (see SweepSpec.build), not {type(spec).__name__}")
    check_options(workers, scheduler)
    if cache is not None and not isinstance(cache, BattleCache):
        raise PurchaseError(f"cache must be a BattleCache, not {type(cache).__name__}")
    if out is not None and (not isinstance(out, (str, Path)) or "\0" in str(out)):
        raise PurchaseError(f"out must be a file path (.csv or .json), not {out!r}")
    cache = PROCESS_CACHE if cache is None else cache
    purchases = purchases_of(spec)
    path = Path(out) if out is not None else None
    done = _rows_already_written(spec, path, resume, purchases)
    todo = [(index, counts) for index, counts in purchases if index not in done]
    fresh: list[PurchaseRow] = []
    cached = 0
    writer: RowWriter | None = None
    with ExitStack() as stack:
        try:
            if path is not None:
                writer = stack.enter_context(RowWriter(path, columns(spec.units), chunk_rows,
                                                       chunk_seconds))
            rows = _row_source(spec, todo, cache, workers, scheduler, stack)
            bar = ProgressBar(len(purchases), unit="rows", already_done=len(done), enabled=progress,
                              width=24, show_percent=False, show_rate=True)
            stack.callback(bar.close)
            for evaluated in rows:
                if writer is not None:
                    writer.add(evaluated.row.record(spec.units))
                fresh.append(evaluated.row)
                cached += evaluated.cached
                bar.advance()
                if stop_requested is not None and stop_requested():
                    raise KeyboardInterrupt
        except KeyboardInterrupt:
            stack.close()  # writes the finished rows before saying so
            finished = len(done) + (writer.rows_written if writer is not None else len(fresh))
            saved = f"; {path} holds them: rerun with --resume to finish" if path else ""
            raise SweepInterrupted(f"stopped after {finished:,} of {len(purchases):,} rows{saved}",
                                   finished, path, _table(spec, done, fresh, cached, path),
                                   len(purchases)) from None
    return _table(spec, done, fresh, cached, path)


def _table(spec: SweepSpec, done: dict[int, PurchaseRow], fresh: list[PurchaseRow], cached: int,
           path: Path | None) -> PurchaseTable:
    """The rows of a sweep, resumed (``done``) and solved here (``fresh``), ranked."""
    stats = SweepStats(resumed=len(done), cached=cached, solved=len(fresh) - cached,
                       out=str(path) if path else None)
    return PurchaseTable.from_rows([*done.values(), *fresh], spec.goal, spec.units, stats,
                                   battle=spec.describe())


def _row_source(spec: SweepSpec, todo: Sequence[tuple[int, tuple[int, ...]]], cache: BattleCache,
                workers: int | None, scheduler: str | None, stack: ExitStack) -> Iterator[Evaluated]:
    if workers is None and scheduler is None:
        return evaluate_rows(spec, todo, cache)
    client = stack.enter_context(dask_client(workers, scheduler) if todo else nullcontext())
    return stack.enter_context(closing(dask_rows(spec, todo, client))) if todo else iter(())


def _rows_already_written(spec: SweepSpec, path: Path | None, resume: bool,
                          purchases: Sequence[tuple[int, tuple[int, ...]]]) -> dict[int, PurchaseRow]:
    """The rows a resumed sweep keeps, by index; refuses a file of another sweep, and an
    existing file without ``resume``."""
    if path is None:
        if resume:
            raise PurchaseError("--resume needs --out: the file to resume")
        return {}
    check_writable_rows_file(path)
    if not resume:
        if path.exists() and path.stat().st_size > 0:
            raise PurchaseError(f"{path} already exists: add --resume to continue it, or choose "
                                f"another --out")
        RowFormat.for_path(path)  # a bad suffix fails now, not after the first chunk
        return {}
    done: dict[int, PurchaseRow] = {}

    def keep(records: list[dict[str, object]]) -> None:
        """Every row must be this sweep's, once; checked before the file is touched."""
        for record in records:
            row = PurchaseRow.from_record(record, spec.units)
            if row.sweep != spec.fingerprint:
                raise PurchaseError(f"{path} holds rows of another sweep (other rules, armies, "
                                    f"goal, budget, units or engine settings): choose another --out")
            if not 0 <= row.index < len(purchases) or purchases[row.index][1] != row.counts:
                raise PurchaseError(f"{path}: row {row.index} ({row.purchase}) is not this sweep's "
                                    f"purchase number {row.index}: the file is damaged")
            if row.index in done:
                raise PurchaseError(f"{path} holds row {row.index} ({row.purchase}) twice: the file "
                                    f"is damaged; choose another --out")
            done[row.index] = row

    new, old = columns(spec.units), columns_before_std_errors(spec.units)
    if not holds_columns(path, old):
        read_rows(path, new, check=keep)
        return done
    # written before rows had standard errors: exact rows have none, so such a file is read and
    # rewritten with empty standard errors; Monte Carlo rows would lack theirs
    upgraded: list[dict[str, object]] = []

    def keep_old(records: list[dict[str, object]]) -> None:
        if any(record["method"] == "mc" for record in records):
            raise PurchaseError(f"{path} was written by an older oddsim whose Monte Carlo rows have no "
                                f"standard errors: rerun the sweep with another --out")
        upgraded.extend({key: record.get(key) for key in new} for record in records)
        keep(upgraded)

    read_rows(path, old, check=keep_old)
    rewrite_rows(path, new, upgraded)
    return done
