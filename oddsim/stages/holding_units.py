"""Units that hold a territory without fighting: a defender's AA gun that is no casualty
(``combatant = false``: Revised, Anniversary, Europe 1999) is still there after the battle
unless the attacker takes the territory. Both engines leave such units out of their states; this
puts them back into the defender's survivor rows, so that "defender wins" and "most likely
defender survivors" agree. They count in no IPC figure: they are never lost in battle."""

from __future__ import annotations

from dataclasses import replace

from oddsim.model.battle import Battle
from oddsim.results.battle_result import BattleResult, Survivors, merge_rows


def holding_units(battle: Battle) -> dict[str, int]:
    """The defender's units that take no part in combat, by type (none at sea)."""
    if battle.sea:
        return {}
    return {name: n for name, n in battle.defender.army.counts if not battle.rules.unit(name).combatant}


def with_holding_units(result: BattleResult, battle: Battle) -> BattleResult:
    """``result`` with the defender's non-combatant units in each survivor row where it keeps the
    territory: every row with units left, and of the rows with none the part where the attacker
    did not take it (a draw, a win by aircraft alone): 1 - takes - the rows with units. Applied
    to a result that has them (a battle split by AA outcome, each part given them) it changes
    nothing."""
    idle = holding_units(battle)
    if not idle or result.takes_territory is None:
        return result
    rows: list[Survivors] = []
    left = 0.0
    for row in result.defender_survivors:
        if row.other or row.count == 0:
            rows.append(row)
            continue
        left += row.probability
        rows.append(replace(row, counts={**row.counts, **idle}))  # (once: a row that has them keeps them)
    held_empty = 1.0 - result.takes_territory - left
    if held_empty > 1e-15:
        rows = _split_empty(rows, held_empty, idle)
    return replace(result, defender_survivors=merge_rows(rows, result.runs))


def _split_empty(rows: list[Survivors], held: float, idle: dict[str, int]) -> list[Survivors]:
    """The rows with ``held`` of the chance of the rows with no unit left moved to a row of the
    ``idle`` units alone."""
    out = []
    for row in rows:
        if row.other or row.count != 0 or row.retreated:
            out.append(row)
            continue
        moved = min(held, row.probability)
        held -= moved
        if row.probability - moved > 0:
            out.append(replace(row, probability=row.probability - moved))
        out.append(replace(row, counts=dict(idle), probability=moved))
    return out
