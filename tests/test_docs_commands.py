"""Every ``oddsim`` command the README and the docs show in an illustration block (``sh`` or no
info string) is one the command line accepts: its subcommand exists and every option, choice
and value type parses. ``tests/test_docs_blocks.py`` runs the ``console`` blocks and checks
their output; these are the lines a player copies without an answer beside them, too long or
too slow to run in the suite, so they are parsed (click's own parser) but not run.

A line with ``...`` (an elided army or option list) is a sketch and is skipped; ``[--opt v]``
marks an optional part and is parsed with it.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import click
import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted(p for p in (ROOT / "docs").rglob("*.md") if "hooks" not in p.parts)]
FENCE = re.compile(r"^(?P<indent> *)```(?P<info>[^`\n]*)\n(?P<body>.*?)^(?P=indent)```[ \t]*$",
                   re.MULTILINE | re.DOTALL)


def _commands() -> list[tuple[str, str]]:
    """(page:line, command) of every complete ``oddsim`` command in an illustration block."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            if m["info"].strip() not in ("sh", ""):
                continue
            first = text.count("\n", 0, m.start()) + 2
            lines = m["body"].split("\n")
            i = 0
            while i < len(lines):
                number, line = first + i, lines[i]
                while line.endswith("\\") and i + 1 < len(lines):  # a continued line
                    i += 1
                    line = line[:-1] + " " + lines[i].strip()
                i += 1
                for part in line.split("&&"):
                    command = re.split(r"\s#\s", part)[0].strip()
                    if command.startswith("oddsim ") and "..." not in command:
                        found.append((f"{page.relative_to(ROOT)}:{number}",
                                      command.replace("[", "").replace("]", "")))
    return found


COMMANDS = _commands()


def test_commands_are_found():
    """The pages hold such lines, every guide's examples among them."""
    assert len(COMMANDS) > 30
    assert any(where.startswith("docs/guides/trench.md") for where, _ in COMMANDS)


def _parse(words: list[str]) -> click.Command:
    """Parse ``oddsim WORDS`` down to the command that would run, as click does; raise its
    usage error where a word is not accepted."""
    from oddsim.cli import cli

    command: click.Command = cli
    ctx = command.make_context("oddsim", words)
    while isinstance(command, click.Group):
        rest = [*getattr(ctx, "_protected_args", []), *ctx.args]
        if not rest:  # a group that runs without a subcommand (oddsim trench)
            break
        name, sub, args = command.resolve_command(ctx, rest)
        assert sub is not None and name is not None
        command, ctx = sub, sub.make_context(name, args, parent=ctx)
    return command


@pytest.mark.parametrize(("where", "command"), COMMANDS, ids=[w for w, _ in COMMANDS])
def test_command_parses(where: str, command: str):
    try:
        _parse(shlex.split(command)[1:])
    except click.UsageError as e:
        pytest.fail(f"{where}: {command}\n{e.format_message()}")


def test_a_wrong_option_is_caught():
    """The check itself: an option that does not exist, a choice that is not offered and a
    subcommand that does not exist are usage errors."""
    for words in (["battle", "-a", "1 inf", "-d", "1 inf", "--no-such-option"],
                  ["trench", "--attacker", "5,4,3", "--defender", "4,4,4", "--year", "1917",
                   "--policy", "clever"],
                  ["rules", "nonesuch"]):
        with pytest.raises(click.UsageError):
            _parse(words)
