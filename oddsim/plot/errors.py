"""The error the plotting helpers and ``oddsim chart`` raise on bad input."""

from collections.abc import Iterable

from oddsim.errors import OddsimError


class PlotError(OddsimError):
    """A chart that cannot be drawn or saved as asked: a bad range, metric, file name or path."""


def require(value: object, kinds: type | tuple[type, ...], caller: str) -> None:
    """A ``PlotError`` unless ``value`` is one of ``kinds`` (a chart given the wrong thing)."""
    if not isinstance(value, kinds):
        names = " or ".join(k.__name__ for k in (kinds if isinstance(kinds, tuple) else (kinds,)))
        raise PlotError(f"{caller} needs a {names}, not {type(value).__name__}")


def require_many(value: object, caller: str) -> None:
    """A ``PlotError`` unless ``value`` is a collection of items (not text, not one number)."""
    if isinstance(value, (str, bytes)) or not (isinstance(value, Iterable) or hasattr(value, "records")):
        raise PlotError(f"{caller} needs a list of results or records, not {type(value).__name__}")
