"""JSON as oddsim reads it from users (API bodies, wave plans): an object's key given twice is
refused instead of the last one silently winning, and every refusal is one ``ValueError`` line
(Python's own ``json`` raises a bare ValueError for an integer of more than 4,300 digits)."""

from __future__ import annotations

import json


class JSONInputError(ValueError):
    """Text that is not JSON oddsim takes; the message says where and why, in one line."""


def _unique(pairs: list[tuple[str, object]]) -> dict[str, object]:
    seen: dict[str, object] = {}
    for key, value in pairs:
        if key in seen:
            raise JSONInputError(f"the key {json.dumps(key)} is given twice in one object")
        seen[key] = value
    return seen


def loads(text: str) -> object:
    """``json.loads(text)``, refusing duplicate keys; JSONInputError for anything refused."""
    try:
        return json.loads(text, object_pairs_hook=_unique)
    except JSONInputError:
        raise
    except RecursionError:
        raise JSONInputError("it is nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, and integers over Python's digit limit
        raise JSONInputError(str(exc)) from None
