"""The battle options declared in ``oddsim.model.options``, as click options (``declared``).
A module of its own, below ``oddsim.cli.chart`` and ``oddsim.cli.common`` both: the chart
commands take the same declared options as the others."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import click

from oddsim.model.options import OPTION, OPTIONS, Kind, Option, Owner

F = TypeVar("F", bound=Callable)


def click_option(option: Option):
    """The click option of a declared battle option (``oddsim.model.options``)."""
    kind = option.kind
    extra: dict[str, Any] = {}
    if kind is Kind.FLAG:
        extra["is_flag"] = True
    elif kind is Kind.CHOICE:
        extra["type"] = click.Choice(list(option.choices))
    elif kind is Kind.INT:
        extra["type"] = int if option.minimum is None else click.IntRange(min=int(option.minimum))
    elif kind is Kind.FLOAT:
        extra["type"] = float if option.minimum is None else click.FloatRange(min=option.minimum)
    if kind is not Kind.FLAG:
        extra["default"] = option.default
    if option.metavar is not None:
        extra["metavar"] = option.metavar
    if option.show_default:
        extra["show_default"] = True
    return click.option(option.flag, option.name, help=option.help, **extra)


def declared(*options: Option | str):
    """The declared battle options (``oddsim.model.options``: by name, or an ``Option`` a command
    words its own way), as click options in this order; the command receives the values given
    as one ``options`` argument, a dict by the options' flat names (every ``declared`` group of
    a command adds to the same dict)."""
    chosen = [OPTION[option] if isinstance(option, str) else option for option in options]

    def decorate(command: F) -> F:
        @functools.wraps(command)
        def gather(*args, **kwargs):
            given = kwargs.setdefault("options", {})
            for option in chosen:
                given[option.name] = kwargs.pop(option.name)
            return command(*args, **kwargs)

        wrapper: Any = gather
        for option in reversed(chosen):
            wrapper = click_option(option)(wrapper)
        return wrapper

    return decorate


RETREAT_FLAGS = tuple(option.name for option in OPTIONS if option.owner is Owner.RETREAT)
"""The attacker's retreat options, as every command that fights a land battle has them."""
