"""Rows on disk: written as they finish, in whole lines, and read back to resume a sweep.

Two formats, chosen by the file's suffix: ``.csv`` (a header line, then one line per row) and
``.json``/``.jsonl`` (JSON Lines: one JSON object per line, no enclosing list, so the file is
valid after every chunk). Rows go to the file in chunks; each chunk is one ``write`` of whole
lines, then ``fsync``. A process killed outright therefore leaves whole lines, except in the rare
case of a write torn by the kernel, which ``read_rows`` repairs by cutting the trailing partial
line. Ctrl-C and SIGTERM write the rows already finished before stopping (see ``runner``).
"""

from __future__ import annotations

import csv
import enum
import io
import json
import os
import stat
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from oddsim._runtime.files import InputFile, MiB
from oddsim._runtime.interrupt import signals_held
from oddsim.purchase.goals import PurchaseError

MAX_ROWS_FILE_BYTES = 256 * MiB
"""The largest file ``--resume`` reads: a sweep has at most 100,000 rows (``MAX_PURCHASES``) of
well under 1 KiB each with the built-in units (about 0.4 KiB in CSV, 0.9 KiB in JSON with five),
so 256 MiB leaves room for long unit names while a wrong file (a disk image, ``/dev/zero``
through a link) is refused before it fills the memory."""
ROWS_FILE = InputFile("--out file", MAX_ROWS_FILE_BYTES, "a sweep's rows are smaller: choose another "
                      "--out", "choose another --out", PurchaseError)

CHUNK_ROWS = 200
"""A chunk is written once it holds this many rows..."""
CHUNK_SECONDS = 1.0
"""...or once this long has passed since the last one, so a kill loses at most a second's rows."""


class RowFormat(enum.Enum):
    CSV = "csv"
    JSON_LINES = "jsonl"

    @classmethod
    def for_path(cls, path: Path) -> RowFormat:
        suffix = path.suffix.lower()
        if suffix == ".csv":
            return cls.CSV
        if suffix in (".json", ".jsonl"):
            return cls.JSON_LINES
        raise PurchaseError(f"--out {path}: use a .csv or .json file (JSON Lines), "
                            f"not '{suffix or 'no suffix'}'")


def read_rows(path: Path, columns: Sequence[str],
              check: Callable[[list[dict[str, object]]], object] | None = None
              ) -> list[dict[str, object]]:
    """The records already in ``path`` (none if it is missing or empty).

    Everything is checked before the file is touched (``check`` is called on the records
    too, and may raise): a file that is not UTF-8 text, whose
    header or any whole line does not hold this sweep's columns, or whose only content is a
    line that does not begin like one of ours, belongs to something else and is refused as it
    is. Only then is a trailing partial line (a write cut short) cut off the file.
    """
    fmt = RowFormat.for_path(path)
    if not path.exists():
        return []
    data = ROWS_FILE.read(path)
    end = data.rfind(b"\n") + 1
    try:
        lines = data[:end].decode("utf-8").splitlines()
    except UnicodeDecodeError:
        raise PurchaseError(f"{path} is not UTF-8 text, so it holds no rows of a sweep: "
                            f"choose another --out") from None
    records = _csv_records(lines, columns, path) if fmt is RowFormat.CSV else \
        _json_records(lines, columns, path)
    if check is not None:
        check(records)
    partial = data[end:]
    if partial:
        if not lines and not _begins_like_ours(partial, fmt, columns):
            raise PurchaseError(f"{path} holds something other than rows of a sweep: choose "
                                f"another --out")
        _cut_partial_line(path, end)
    return records


def _csv_records(lines: list[str], columns: Sequence[str], path: Path) -> list[dict[str, object]]:
    if not lines:
        return []
    try:
        header = next(csv.reader([lines[0]]))
        if header != list(columns):
            raise PurchaseError(f"{path} has other columns than this sweep's: it holds another "
                                f"sweep or other data; choose another --out")
        return [dict(zip(columns, values, strict=True)) for values in csv.reader(lines[1:])
                if _width_ok(values, columns, path)]
    except csv.Error as exc:
        raise PurchaseError(f"{path}: not CSV rows of a sweep ({exc}): choose another --out") from None


def _json_records(lines: list[str], columns: Sequence[str], path: Path) -> list[dict[str, object]]:
    records = []
    for number, line in enumerate(lines, start=1):
        try:
            record = json.loads(line)
        except (json.JSONDecodeError, RecursionError):  # (a line nested thousands deep)
            raise PurchaseError(f"{path}, line {number}: not valid JSON: the file is damaged or "
                                f"not a sweep's; choose another --out") from None
        if not isinstance(record, dict) or list(record) != list(columns):
            raise PurchaseError(f"{path}, line {number}: not a row of this sweep: choose another --out")
        records.append(record)
    return records


def _begins_like_ours(partial: bytes, fmt: RowFormat, columns: Sequence[str]) -> bool:
    """Whether a file's only (partial) line could be the start of what ``RowWriter`` writes
    first: the CSV header, or a JSON row."""
    if fmt is RowFormat.CSV:
        start = ",".join(columns).encode()
    else:
        start = json.dumps({columns[0]: 0})[:-2].encode()  # '{"index": '
    return partial.startswith(start) or start.startswith(partial)


def _width_ok(values: list[str], columns: Sequence[str], path: Path) -> bool:
    if len(values) != len(columns):
        raise PurchaseError(f"{path}: a line has {len(values)} fields, not {len(columns)}: "
                            f"the file is damaged")
    return True


def _cut_partial_line(path: Path, end: int) -> None:
    with open(path, "r+b") as f:
        f.truncate(end)
        f.flush()
        os.fsync(f.fileno())


def holds_columns(path: Path, columns: Sequence[str]) -> bool:
    """Whether the first whole line of ``path`` is of ``columns``: the CSV header, or a JSON row
    with exactly these keys (False for a missing file or a first line that is neither); a file
    ``--resume`` may not read (see ``ROWS_FILE``) is refused."""
    fmt = RowFormat.for_path(path)
    if not path.exists():
        return False
    with ROWS_FILE.open(path) as f:
        try:
            line = f.readline(ROWS_FILE.cap + 1)
        except OSError:
            return False
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return False
    if not text.endswith("\n"):
        return False
    if fmt is RowFormat.CSV:
        try:
            return next(csv.reader([text.rstrip("\r\n")]), None) == list(columns)
        except csv.Error:
            return False
    try:
        record = json.loads(text)
    except (ValueError, RecursionError):
        return False
    return isinstance(record, dict) and list(record) == list(columns)


def check_writable_rows_file(path: Path) -> None:
    """Refuse an ``--out`` that exists and is not a regular file (a FIFO would block the sweep
    forever, a device would take its rows), before any battle is fought."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise PurchaseError(f"cannot write {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(mode):
        raise _not_a_regular_file(path)


def _not_a_regular_file(path: Path) -> PurchaseError:
    return PurchaseError(f"--out {path} is not a regular file: choose a .csv or .json file")


def rewrite_rows(path: Path, columns: Sequence[str], records: Sequence[dict[str, object]]) -> None:
    """Replace ``path`` by ``records`` under ``columns``, atomically: they are written to a new
    file beside it (fsync'd), which then takes its name, so a crash leaves the old file or the
    new one, never a mix."""
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=path.suffix)
    os.close(fd)
    temporary = Path(name)
    try:
        os.chmod(temporary, stat.S_IMODE(path.stat().st_mode))
        with RowWriter(temporary, columns, chunk_rows=len(records) + 1, chunk_seconds=float("inf")) as writer:
            for record in records:
                writer.add(record)
        os.replace(temporary, path)
    except OSError as exc:
        raise PurchaseError(f"cannot rewrite {path}: {exc.strerror or exc}") from None
    finally:
        temporary.unlink(missing_ok=True)
    _sync_directory(path.parent)


class RowWriter:
    """Appends records to a CSV or JSON Lines file in whole-line chunks (see the module doc).

    Use it as a context manager: leaving the block, normally or by an exception (Ctrl-C
    included), writes the rows still buffered.
    """

    def __init__(self, path: Path, columns: Sequence[str], chunk_rows: int = CHUNK_ROWS,
                 chunk_seconds: float = CHUNK_SECONDS) -> None:
        self.path = Path(path)
        self.format = RowFormat.for_path(self.path)
        self.columns = list(columns)
        self.chunk_rows = chunk_rows
        self.chunk_seconds = chunk_seconds
        self.rows_written = 0
        self._pending: list[str] = []
        self._last_write = time.monotonic()
        self._fd: int | None = None

    def __enter__(self) -> RowWriter:
        new = not self.path.exists()
        check_writable_rows_file(self.path)
        try:  # (without blocking: a FIFO that appeared since is refused, not waited on)
            self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND
                               | getattr(os, "O_NONBLOCK", 0), 0o644)
        except OSError as exc:
            raise PurchaseError(f"cannot write {self.path}: {exc.strerror or exc}") from None
        if not stat.S_ISREG(os.fstat(self._fd).st_mode):
            os.close(self._fd)
            self._fd = None
            raise _not_a_regular_file(self.path)
        if os.fstat(self._fd).st_size == 0 and self.format is RowFormat.CSV:
            self._write(self._line(self.columns))
        if new:
            _sync_directory(self.path.parent)
        return self

    def __exit__(self, *exc_info: object) -> None:
        try:
            self.commit()
        finally:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None

    def add(self, record: dict[str, object]) -> None:
        """Buffer one finished row; write the chunk when it is big or old enough."""
        if self.format is RowFormat.CSV:
            line = self._line(["" if record[key] is None else record[key] for key in self.columns])
        else:
            line = json.dumps(record, allow_nan=False) + "\n"
        self._pending.append(line)
        if (len(self._pending) >= self.chunk_rows
                or time.monotonic() - self._last_write >= self.chunk_seconds):
            self.commit()

    def commit(self) -> None:
        """Write every buffered row as one chunk of whole lines, and fsync it.

        Ctrl-C and SIGTERM are held back while the chunk is written, so the chunk is never
        half-written by an interruption, nor written twice.
        """
        if self._pending:
            text, rows = "".join(self._pending), len(self._pending)
            with signals_held():
                self._pending.clear()
                self._write(text)
                self.rows_written += rows
        self._last_write = time.monotonic()

    def _line(self, values: Sequence[object]) -> str:
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\n").writerow(values)
        return buffer.getvalue()

    def _write(self, text: str) -> None:
        """Write whole lines, or nothing: a failed write (a full disk) is cut back off the file,
        which keeps the rows written before, and reported as one line."""
        fd = self._fd
        if fd is None:
            raise RuntimeError("the row file is not open")
        data = memoryview(text.encode("utf-8"))
        size = os.fstat(fd).st_size
        try:
            while data:
                written = os.write(fd, data)
                data = data[written:]
            os.fsync(fd)
        except OSError as exc:
            try:
                os.ftruncate(fd, size)
            except OSError:
                pass
            kept = f"the {self.rows_written:,} rows written before are kept: " if self.rows_written else ""
            raise PurchaseError(f"cannot write {self.path}: {exc.strerror or exc}; {kept}free space "
                                f"and rerun with --resume, or choose another --out") from None


def _sync_directory(folder: Path) -> None:
    """Make a new file's directory entry durable too (ignored where directories can't be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
