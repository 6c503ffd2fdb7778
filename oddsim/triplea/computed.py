"""Which of TripleA's features oddsim's rulesets can hold and its engines compute today.

Each feature is probed once by asking whether the smallest ruleset that uses it loads (``loads``:
``oddsim.model.rules.loads``; a key the schema does not declare, or a value the engines do not
compute yet, makes it fail). A game file then maps a feature that passes onto its key, and names
a unit using one that does not as refused, so that the rest of the map still loads and only the
battles with that unit are refused.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

Loads = Callable[[dict], bool]


def _probe(loads: Loads, unit: tuple[tuple[str, object], ...], extra: tuple[tuple[str, object], ...] = ()
           ) -> bool:
    table: dict = {"name": "probe", "units": {"probe": {
        "cost": 1, "attack": 1, "defense": 1, "domain": "land", **dict(unit)}}}
    table.update(dict(extra))
    return loads(table)


@cache
def dice_sides(loads: Loads, sides: int) -> bool:
    """Whether a game rolling ``sides``-sided dice can be computed."""
    return sides == 6 or _probe(loads, (), (("combat", {"dice_sides": sides}),))


@cache
def unit_key(loads: Loads, key: str, value: object) -> bool:
    """Whether a unit may have ``key = value`` (``attack_rolls = 2``, ``hits = 3``)."""
    return _probe(loads, ((key, value),))


@cache
def bonus_supports(loads: Loads) -> bool:
    """Whether support rules with an additive ``bonus`` (TripleA's own kind) are computed."""
    return _probe(loads, (), (("support", [{"supporters": ["probe"], "supported": ["probe"],
                                             "bonus": 1}]),))


@cache
def bonus_rule(loads: Loads, faction: str, count: int, bonus_to: str) -> bool:
    """Whether a bonus rule of this ``faction``, bonus-type count and ``bonus_to`` is computed."""
    return _probe(loads, (), (("support", [{"supporters": ["probe"], "supported": ["probe"],
                                             "bonus": 1, "faction": faction, "bonus_type": "t",
                                             "bonus_type_count": count, "bonus_to": bonus_to}]),))
