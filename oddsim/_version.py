"""oddsim's version: pyproject.toml is its one source, read back from the installed metadata."""

from __future__ import annotations

PACKAGE = "oddsim"


def package_version() -> str:
    """The installed package's version ("0+unknown" in a source tree that was never installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(PACKAGE)
    except PackageNotFoundError:
        return "0+unknown"


__version__ = package_version()
