"""The run and seed limits of every command and API entry point, and their one validator each.

Monte Carlo runs are 1 to ``MAX_RUNS`` everywhere (battles, waves, amphibious assaults, raids,
the Longest Trench, purchase sweeps and charts: memory never grows with runs, so the limit only
guards against a typo that would run for days). A seed is a whole number from 0 to ``MAX_SEED``
(2**64 - 1) everywhere; nothing is wrapped. Each caller passes the ``OddsimError`` subclass its
API raises.
"""

from __future__ import annotations

import secrets
from numbers import Integral
from typing import overload

from oddsim.errors import OddsimError

MAX_RUNS = 10**10
MAX_SEED = 2**64 - 1


def check_runs(runs: object, error: type[OddsimError] = OddsimError, what: str = "runs") -> int:
    """``runs`` as an int from 1 to MAX_RUNS, else ``error`` naming the range."""
    if isinstance(runs, bool) or not isinstance(runs, Integral):
        raise error(f"{what} must be a whole number from 1 to {MAX_RUNS:,}, not {runs!r}")
    count = int(runs)
    if not 1 <= count <= MAX_RUNS:
        raise error(f"{what} must be a whole number from 1 to {MAX_RUNS:,}, not {count:,}")
    return count


@overload
def check_seed(seed: int, error: type[OddsimError] = ..., what: str = ...) -> int: ...
@overload
def check_seed(seed: object, error: type[OddsimError] = ..., what: str = ...) -> int | None: ...
def check_seed(seed: object, error: type[OddsimError] = OddsimError, what: str = "seed") -> int | None:
    """``seed`` as an int from 0 to MAX_SEED (``None`` stays ``None``), else ``error``."""
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, Integral):
        raise error(f"{what} must be a whole number from 0 to 2**64 - 1, not {seed!r}")
    value = int(seed)
    if not 0 <= value <= MAX_SEED:
        raise error(f"{what} must be a whole number from 0 to 2**64 - 1, not {value}")
    return value


def seed_or_random(seed: object, error: type[OddsimError] = OddsimError) -> int:
    """A checked seed, or a fresh random one in the same range for ``None``."""
    checked = check_seed(seed, error)
    return secrets.randbits(64) if checked is None else checked
