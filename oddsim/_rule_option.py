"""``--rule KEY=VALUE``: the command-line side of ``oddsim.model.rules.with_changes``, shared by every
command that takes ``--rules`` (battle, amphibious, raid, purchase)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

import click

F = TypeVar("F", bound=Callable)


def rule_option(command: F) -> F:
    """The repeatable ``--rule`` option (a tuple of ``KEY=VALUE`` texts, ``rule_changes``)."""
    return click.option(
        "--rule", "rule_changes", multiple=True, metavar="KEY=VALUE",
        help="Set one key of the edition's ruleset file for this command, e.g. "
             "combat.repair=end_of_turn or units.transport.defense=1: the readings the rules "
             "leave open (docs/rules.md; repeatable).")(command)


def with_rule_changes(rules: str | Path, changes: Sequence[str]):
    """The edition ``rules`` (a name or path, as ``--rules`` gives it), with ``changes`` set (the
    name or path itself when there are none)."""
    if not changes:
        return rules
    from oddsim.model.rules import parse_change, with_changes

    return with_changes(rules, dict(parse_change(change) for change in changes))
