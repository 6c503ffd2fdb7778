"""Whole numbers as users type them (unit counts, Longest Trench strengths and weights): one rule
everywhere, an optional sign and the ASCII digits 0 to 9. ``int()`` alone also takes other
scripts' digits ("٣", "３"), underscores ("1_000") and refuses over 4,300 digits."""

from __future__ import annotations

import re

_WHOLE = re.compile(r"[+-]?[0-9]+")
ASCII_DIGITS_HINT = "write it with the digits 0 to 9"
"""What an error says of a number written in other digits."""


def whole_number(text: str, cap: int) -> int | None:
    """The value of ``text`` (stripped) when it is a whole number in ASCII digits, else None; one
    of more digits than ``cap`` has is returned as ``cap + 1`` (with its sign), past any limit."""
    text = text.strip()
    if not _WHOLE.fullmatch(text):
        return None
    digits = text.lstrip("+-").lstrip("0")
    sign = -1 if text.startswith("-") else 1
    if len(digits) > len(str(cap)):
        return sign * (cap + 1)
    return sign * int(digits or "0")


def other_digits(text: str) -> bool:
    """Whether ``text`` is a whole number that Python reads but not in ASCII digits ("٣", "1_000")."""
    try:
        int(text)
    except ValueError:
        return False
    return whole_number(text, 1) is None
