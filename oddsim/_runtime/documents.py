"""The TOML and JSON documents users give (ruleset files, wave plans): parsed with their nesting
bounded, so that a deeply nested file is bad input (the error class the caller names), never a
RecursionError from the parser or from code that walks what it returned.

A ruleset or a plan is a few tables deep; ``MAX_DEPTH`` leaves room for any real one.
"""

from __future__ import annotations

import tomllib
from typing import Any

from oddsim._runtime import strict_json
from oddsim.errors import OddsimError

MAX_DEPTH = 32
"""Tables and arrays nested deeper than this are refused (a ruleset is three deep)."""
BOM = "\ufeff"
"""A UTF-8 byte-order mark as decoded text: some editors start a file with it; it is skipped."""


def load_toml(text: str, what: str, error: type[OddsimError]) -> dict[str, Any]:
    """The table in TOML ``text`` (``what`` names it in errors, ``error`` is their class)."""
    try:
        data = tomllib.loads(text.removeprefix(BOM))
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{what} is not valid TOML: {exc}") from None
    except RecursionError:
        raise too_deep(what, error) from None
    check_depth(data, what, error)
    return data


def load_json(text: str, what: str, error: type[OddsimError]) -> Any:
    """The value in JSON ``text``, as ``load_toml``."""
    try:
        data = strict_json.loads(text.removeprefix(BOM))  # (a key given twice is refused)
    except ValueError as exc:
        raise error(f"{what} is not valid JSON: {exc}") from None
    except RecursionError:
        raise too_deep(what, error) from None
    check_depth(data, what, error)
    return data


def check_depth(data: Any, what: str, error: type[OddsimError]) -> None:
    """Refuse ``data`` nested deeper than ``MAX_DEPTH`` (walked without recursion)."""
    stack = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise too_deep(what, error)
        if isinstance(value, dict):
            stack.extend((child, depth + 1) for child in value.values())
        elif isinstance(value, list):
            stack.extend((child, depth + 1) for child in value)


def too_deep(what: str, error: type[OddsimError]) -> OddsimError:
    return error(f"{what} is nested too deeply (over {MAX_DEPTH} tables or arrays inside each other): "
                 f"write the tables one after another")
