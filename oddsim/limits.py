"""The engine options of every command and API entry point: the method (``MethodChoice``), the
Monte Carlo runs and the seed, their limits, and their one validator each.

Monte Carlo runs are ``MIN_RUNS`` (2) to ``MAX_RUNS`` everywhere (battles, waves, amphibious
assaults, raids, the Longest Trench, purchase sweeps and charts): one run has no standard error,
and memory never grows with runs, so the upper limit only guards against a typo that would run
for days. A seed is a whole number from 0 to ``MAX_SEED``
(2**64 - 1) everywhere; nothing is wrapped. Each caller passes the ``OddsimError`` subclass its
API raises.
"""

from __future__ import annotations

import secrets
from enum import StrEnum
from numbers import Integral
from typing import overload

from oddsim.errors import OddsimError


class MethodChoice(StrEnum):
    """The engine an answer is asked of (``--method``, a request's ``method``): ``EXACT``, ``MC``
    (Monte Carlo), or ``AUTO``, exact where the solve is cheap, battle by battle. Its values are
    the strings the CLI and the JSON API take; a result says which engine answered
    (``oddsim.results.battle_result.Method``: the same strings but ``auto``)."""

    AUTO = "auto"
    EXACT = "exact"
    MC = "mc"


METHODS = tuple(choice.value for choice in MethodChoice)
"""Every method's string (``click.Choice``'s)."""
EXACT_OR_MC = (MethodChoice.EXACT.value, MethodChoice.MC.value)
"""The methods of the answers that take no ``auto`` (raids, the Longest Trench)."""

MIN_RUNS = 2
"""Fewest Monte Carlo runs: a figure's standard error needs two (one run would show it as 0)."""
MAX_RUNS = 10**10
MAX_SEED = 2**64 - 1
RUNS_RANGE = f"a whole number from {MIN_RUNS} to {MAX_RUNS:,}"
NO_ERROR_OF_ONE = " (one run has no standard error)"


def check_runs(runs: object, error: type[OddsimError] = OddsimError, what: str = "runs") -> int:
    """``runs`` as an int from MIN_RUNS to MAX_RUNS, else ``error`` naming the range."""
    if isinstance(runs, bool) or not isinstance(runs, Integral):
        raise error(f"{what} must be {RUNS_RANGE}, not {runs!r}")
    count = int(runs)
    if not MIN_RUNS <= count <= MAX_RUNS:
        raise error(f"{what} must be {RUNS_RANGE}, not {count:,}{NO_ERROR_OF_ONE if count == 1 else ''}")
    return count


def share_of_runs(share: float, runs: int) -> int:
    """The runs of a part of a battle that ``share`` of its ``runs`` reach (an AA outcome, a
    stage after another): rounded, and never under ``MIN_RUNS``, however rare the part."""
    return max(MIN_RUNS, round(share * runs))


def sub_seed(seed: int, position: int) -> int:
    """The seed of the battle at ``position`` (1, 2, ...) among the parts or stages of an answer
    seeded ``seed``: each sub-battle its own stream, and one seed fixes the whole answer. The one
    rule for both the AA split's parts and the stages of waves, counter-attacks and assaults."""
    return (seed * 1_000_003 + position) % (1 << 63)


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


def refuse_for_exact(runs: object, seed: object, error: type[OddsimError] = OddsimError,
                     use: str = "--method mc") -> None:
    """Runs or a seed given with the exact method would be ignored: refused, naming them and
    ``use`` (the methods they apply to)."""
    given = [name for name, value in (("--runs", runs), ("--seed", seed)) if value is not None]
    if len(given) == 1:
        raise error(f"{given[0]} applies to Monte Carlo: drop it or use {use}")
    if given:
        raise error(f"--runs and --seed apply to Monte Carlo: drop them or use {use}")


def seed_or_random(seed: object, error: type[OddsimError] = OddsimError) -> int:
    """A checked seed, or a fresh random one in the same range for ``None``."""
    checked = check_seed(seed, error)
    return secrets.randbits(64) if checked is None else checked
