"""MkDocs hook: the CLI reference page is generated from the commands' own click help text at
build time, so it cannot drift from ``oddsim --help``. ``docs/reference/cli.md`` holds the
marker below; every command (and subcommand) of the ``oddsim`` group replaces it, each as its
``--help`` prints it. The ruleset file's keys are generated the same way, from their one
declaration (``oddsim.model.schema``), where ``docs/reference/ruleset.md`` holds ``KEYS_MARKER``."""

from __future__ import annotations

import click

MARKER = "<!-- oddsim-cli-reference -->"
KEYS_MARKER = "<!-- oddsim-ruleset-keys -->"
WIDTH = 100


def _group() -> click.Group:
    from oddsim.cli import cli  # the click group behind the ``oddsim`` command

    return cli


def commands(group: click.Command | None = None, path: tuple[str, ...] = ("oddsim",)):
    """Every command under the group, depth first, as (its words, the command, its context)."""
    group = group or _group()
    parent = None
    yield from _walk(group, path, parent)


def _walk(command: click.Command, path: tuple[str, ...], parent: click.Context | None):
    ctx = click.Context(command, info_name=path[-1], parent=parent, terminal_width=WIDTH,
                        max_content_width=WIDTH)
    yield path, command, ctx
    if isinstance(command, click.Group):
        for name in sorted(command.commands):
            yield from _walk(command.commands[name], (*path, name), ctx)


def render() -> str:
    """The reference as Markdown: a heading and the help text of each command."""
    parts = []
    for path, command, ctx in commands():
        level = "#" * min(len(path) + 1, 4)
        parts.append(f"{level} `{' '.join(path)}`\n\n```text\n{command.get_help(ctx)}\n```\n")
    return "\n".join(parts)


def render_keys() -> str:
    """Every key of a ruleset file as a Markdown table, from the keys' declarations."""
    from oddsim.model.rules import Ruleset
    from oddsim.model.schema import key_reference

    return key_reference(Ruleset)


def on_page_markdown(markdown: str, page, config, files) -> str:  # noqa: ARG001 - MkDocs hook
    if MARKER in markdown:
        markdown = markdown.replace(MARKER, render())
    if KEYS_MARKER in markdown:
        markdown = markdown.replace(KEYS_MARKER, render_keys())
    return markdown
