"""``oddsim cache``: where the compiled kernels are, and removing old ones (``kernel_cache``).
No Numba import."""

from __future__ import annotations

import time

import click

from oddsim._runtime import kernel_cache as _kernel_cache
from oddsim._runtime.kernel_cache import DAY, CacheDir
from oddsim._runtime.kernel_cache import current_kernel_dir as current_dir

MAX_DAYS = 1_000_000
"""--unused-for beyond this (some 2,700 years) is read as this: no directory is that old, and a
float cannot hold any number of days."""


@click.group()
def cache() -> None:
    """The compiled engines' cache: one directory per version and engine sources."""


@cache.command()
def info() -> None:
    """Show this version's kernel directory and the others beside it."""
    here = current_dir()
    dirs = _kernel_cache.kernel_dirs(here.parent)
    mine = next((d for d in dirs if d.path == here), None)
    others = [d for d in dirs if d.path != here]
    click.echo(f"kernel cache: {here.parent}")
    click.echo(f"  this version: {here.name}, "
               + (_describe(mine) if mine is not None and mine.size else "nothing compiled yet"))
    if not others:
        click.echo("  no other directories")
        return
    click.echo(f"  {len(others)} other director{'y' if len(others) == 1 else 'ies'}, "
               f"{_megabytes(sum(d.size for d in others))} (other versions or installations; "
               f"'oddsim cache prune' removes them):")
    for d in others:
        click.echo(f"    {d.path.name}  {_describe(d)}")


@cache.command()
@click.option("--unused-for", "days", type=click.IntRange(min=0), default=0, show_default=True,
              metavar="DAYS", help="Only directories not used for this many days.")
def prune(days: int) -> int:
    """Remove other versions' kernel directories; this version's is kept.

    Other installations sharing the cache compile again on their next run."""
    here = current_dir()
    now = time.time()
    chosen = [d for d in _kernel_cache.kernel_dirs(here.parent)
              if d.path != here and now - d.last_used >= min(days, MAX_DAYS) * DAY]
    return _remove(chosen, "")


@cache.command()
def clear() -> int:
    """Remove every kernel directory: the next run compiles again."""
    here = current_dir()
    return _remove(_kernel_cache.kernel_dirs(here.parent), ": the next run compiles the engines again")


def _remove(chosen: list[CacheDir], then: str) -> int:
    gone = set(_kernel_cache.remove(d.path for d in chosen))
    freed = sum(d.size for d in chosen if d.path in gone)
    plural = "y" if len(gone) == 1 else "ies"
    click.echo(f"removed {len(gone)} kernel director{plural} ({_megabytes(freed)}){then if gone else ''}")
    left = [d.path for d in chosen if d.path not in gone]
    if left:
        click.echo(f"oddsim: could not remove {len(left)} (permissions, or in use): {left[0]}"
                   + (f" and {len(left) - 1} more" if len(left) > 1 else ""), err=True)
        return 1
    return 0


def _describe(d: CacheDir) -> str:
    days = int((time.time() - d.last_used) // DAY)
    used = "used today" if days <= 0 else f"last used {days} day{'s' if days > 1 else ''} ago"
    return f"{_megabytes(d.size)}, {used}"


def _megabytes(size: int) -> str:
    return f"{size / 1e6:.1f} MB"
