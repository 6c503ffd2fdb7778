"""Saving a chart: the format comes from the file's extension (.png, .svg or .pdf), and a path
that cannot be written is refused with one clear line, before any work when checked early."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Any

from oddsim.plot.errors import PlotError

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}
_NO_DATE = {"svg": {"Date": None}, "pdf": {"CreationDate": None}, "png": {}}
MAX_DPI = 1200
"""Largest resolution a chart is saved at (an 8-inch-wide PNG of 9,600 pixels)."""
_FIXED_IDS: dict[RcKeyType, Any] = {"svg.hashsalt": "oddsim"}
"""No timestamp and fixed element ids in vector files, so a chart saves to the same bytes."""


def check_output_path(path: str | os.PathLike) -> Path:
    """``path`` as a ``Path`` once it has a chart extension, names a regular file or none yet
    (through a link: what it links to), and its folder exists and is writable; otherwise a
    ``PlotError`` saying which."""
    if not isinstance(path, str | os.PathLike):
        raise PlotError(f"a chart path is a file name such as odds.png, not {type(path).__name__}")
    if not str(path):
        raise PlotError("the chart path is empty: give a file name such as odds.png")
    if "\0" in str(path):
        raise PlotError(f"{str(path)!r}: a file name has no NUL character")
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        found = f"'{path.suffix}'" if path.suffix else "no extension"
        raise PlotError(f"{path}: a chart is saved as .png, .svg or .pdf, not {found}")
    if path.is_dir():
        raise PlotError(f"{path} is a folder: give a file name such as {path / 'odds.png'}")
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    name = f"{path} (a link to {target})" if target is not path else str(path)
    if target.exists() and not target.is_file():
        raise PlotError(f"{name} is not a regular file: give a chart file name such as odds.png")
    folder = target.parent
    if not folder.is_dir():
        if folder.exists():
            raise PlotError(f"{name}: {folder} is not a folder")
        raise PlotError(f"{name}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise PlotError(f"{name}: cannot write there (permission denied)")
    return path


def save_figure(fig, path: str | os.PathLike, dpi: float | None = None) -> Path:
    """Write ``fig`` to ``path`` in the format its extension names; returns the path. PNGs are
    800 px wide at the default ``dpi`` (the figure's own)."""
    import matplotlib  # here, not at the top: checking a path must not load matplotlib

    if not hasattr(fig, "savefig"):
        raise PlotError(f"save_figure needs a matplotlib Figure, not {type(fig).__name__}")
    if dpi is not None and (isinstance(dpi, bool) or not isinstance(dpi, int | float)
                            or not 1 <= dpi <= MAX_DPI):
        raise PlotError(f"dpi must be a number from 1 to {MAX_DPI}, not {dpi!r}")
    path = check_output_path(path)
    kind = FORMATS[path.suffix.lower()]
    target = Path(os.path.realpath(path))  # (through a link: the link stays, what it names changes)
    part = target.with_name(f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}.part")
    try:
        # a new file beside it, put in its place once whole: a chart that cannot be written
        # (a disk that fills, Ctrl-C) leaves the old one as it was and no part of the new one
        with open(os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), "wb") as out:
            with matplotlib.rc_context(_FIXED_IDS):
                fig.savefig(out, format=kind, dpi=dpi or fig.dpi, metadata=_NO_DATE[kind])
        os.replace(part, target)
    except OSError as exc:
        raise PlotError(f"{path}: cannot write the chart ({exc.strerror or exc})") from None
    finally:
        part.unlink(missing_ok=True)
    return path
