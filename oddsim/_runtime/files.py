"""Reading a file a user named (a ruleset, a wave plan, a purchase sweep's rows to resume): only a
regular file, and only up to a stated size, so that ``/dev/zero``, a FIFO or a huge file is
refused in one line instead of filling the memory or waiting forever.

The path is checked before it is opened (a device is never opened), opened without blocking (a
FIFO that appeared since is not waited on) and checked again on the open descriptor; at most
``cap + 1`` bytes are read, so a file that grows while it is read is still refused.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from oddsim.errors import OddsimError

KiB = 1024
MiB = 1024 * KiB


@dataclass(frozen=True)
class InputFile:
    """One kind of input file: its name in errors (``what``), its size cap in bytes and why it
    is small (``small_because``), the fix for a wrong kind of file (``fix``), and the
    ``OddsimError`` subclass its refusals raise."""

    what: str
    cap: int
    small_because: str
    fix: str
    error: type[OddsimError]

    @contextmanager
    def open(self, path: str | Path) -> Iterator[BinaryIO]:
        """``path`` opened for binary reading, or ``error`` when it is not a regular file, is
        over the cap or cannot be opened."""
        try:
            if not stat.S_ISREG(os.stat(path).st_mode):
                raise self._not_regular(path)
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
        except OSError as exc:
            raise self._unreadable(path, exc) from None
        except ValueError:  # (a NUL in the path)
            raise self.error(f"{self.what} {str(path)!r}: a file name has no NUL character") from None
        try:
            status = os.fstat(fd)
            if not stat.S_ISREG(status.st_mode):
                raise self._not_regular(path)
            if status.st_size > self.cap:
                raise self._too_big(path)
            file = os.fdopen(fd, "rb")
        except BaseException:
            os.close(fd)
            raise
        with file:
            yield file

    def read(self, path: str | Path) -> bytes:
        """The whole content of ``path`` (at most ``cap`` bytes), refused as ``open`` says."""
        with self.open(path) as file:
            try:
                data = file.read(self.cap + 1)
            except OSError as exc:
                raise self._unreadable(path, exc) from None
        if len(data) > self.cap:
            raise self._too_big(path)
        return data

    def read_text(self, path: str | Path) -> str:
        """``read``, decoded as UTF-8 (anything else is refused: ``fix`` says what to give)."""
        try:
            return self.read(path).decode("utf-8")
        except UnicodeDecodeError:
            raise self.error(f"{self.what} {path} is not UTF-8 text: {self.fix}") from None

    def _not_regular(self, path: str | Path) -> OddsimError:
        return self.error(f"{self.what} {path} is not a regular file: {self.fix}")

    def _unreadable(self, path: str | Path, exc: OSError) -> OddsimError:
        return self.error(f"cannot read {self.what} {path}: {exc.strerror or exc}")

    def _too_big(self, path: str | Path) -> OddsimError:
        return self.error(f"{self.what} {path} is over {size_text(self.cap)}: {self.small_because}")


def size_text(size: int) -> str:
    """A byte count as people write it: ``1 MiB``, ``256 KiB``."""
    if size >= MiB and size % MiB == 0:
        return f"{size // MiB:,} MiB"
    return f"{size // KiB:,} KiB" if size % KiB == 0 else f"{size:,} bytes"
