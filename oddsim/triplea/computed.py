"""Which of TripleA's features oddsim's rulesets can hold and its engines compute today.

Each feature is probed once by loading the smallest ruleset that uses it: a key the schema does
not declare, or a value the engines do not compute yet (``oddsim.model.rules`` refuses both when
a ruleset loads), makes the probe fail. A game file then maps a feature that passes onto its key,
and names a unit using one that does not as refused, so that the rest of the map still loads and
only the battles with that unit are refused.
"""

from __future__ import annotations

from functools import cache

from oddsim.errors import RulesetError
from oddsim.model.rules import parse_ruleset


def _loads(unit: dict[str, object], extra: dict[str, object] | None = None) -> bool:
    table: dict[str, object] = {"name": "probe", "units": {"probe": {
        "cost": 1, "attack": 1, "defense": 1, "domain": "land", **unit}}}
    table.update(extra or {})
    try:
        parse_ruleset(table, "probe")
    except RulesetError:
        return False
    return True


@cache
def dice_sides(sides: int) -> bool:
    """Whether a game rolling ``sides``-sided dice can be computed."""
    return sides == 6 or _loads({}, {"combat": {"dice_sides": sides}})


@cache
def unit_key(key: str, value: object) -> bool:
    """Whether a unit may have ``key = value`` (``attack_rolls = 2``, ``hits = 3``)."""
    return _loads({key: value})


@cache
def bonus_supports() -> bool:
    """Whether support rules with an additive ``bonus`` (TripleA's own kind) are computed."""
    return _loads({}, {"support": [{"supporters": ["probe"], "supported": ["probe"], "bonus": 1}]})
