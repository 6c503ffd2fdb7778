"""What a unit costs, for the IPC figures (TUV): the PUs its production rule asks, in the
production frontiers the players are given (``playerProduction``), never in the frontiers a
technology switches to (shipyards, industrial technology), which list cheaper prices.

Where the players' own frontiers disagree, the price most of them pay is taken (the lower on a
tie); a unit no player's frontier sells is valued at its ``tuv`` option, else 0. A unit's ``tuv``
option, where given, is its value, as TripleA's own TUV reads it.
"""

from __future__ import annotations

from collections import Counter

from oddsim.triplea.options import GameParts


def unit_costs(parts: GameParts) -> dict[str, int]:
    """TripleA unit name -> its value in PUs."""
    paid: dict[str, Counter[int]] = {}
    for frontier in parts.player_frontiers.values():
        for rule_name in parts.frontiers.get(frontier, ()):
            rule = parts.production_rules.get(rule_name)
            if rule is None:
                continue
            unit, pus, quantity = rule
            paid.setdefault(unit, Counter())[round(pus / quantity)] += 1
    costs = {}
    for unit in parts.units:
        tuv = _int(parts.unit_attachment(unit).get("tuv"))
        if tuv is not None and tuv >= 0:
            cost = tuv
        elif unit in paid:
            cost = min(paid[unit].items(), key=lambda item: (-item[1], item[0]))[0]
        else:
            cost = 0
        costs[unit] = max(0, cost)  # (the schema bounds it: a cost over its bound is one error)
    return costs


def _int(text: str | None) -> int | None:
    try:
        return int(text) if text is not None else None
    except ValueError:
        return None
