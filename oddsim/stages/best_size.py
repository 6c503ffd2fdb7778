"""How large the game of best casualties is for a battle, from its armies alone, and the cap on
answers that solve many such games (a purchase sweep's candidates, a plan's sub-armies, the
counter-attacks after a battle).

A side that chooses each loss (``oddsim.engines.exact.casualties``) makes the exact solve a game
over every pair of compositions the armies can be left in: its best-loss table has one entry per
pair and per number of hits the attacker can take, and a defender that chooses scans every
composition its hits can leave. ``game_size`` counts both from the unit counts, without building
the game, so that a sweep over thousands of battles is sized, and refused in one line where it is
too large, before any battle is solved (``check_games``). The solver keeps its own guard for one
battle (``casualties.MAX_ENTRIES``, ``MAX_WORK``); this module applies the same limits to each
battle of a sweep up front, and one more to their sum.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from oddsim.errors import TooLargeError
from oddsim.model.battle import Battle
from oddsim.model.forces import Force
from oddsim.model.rules import Domain, Ruleset

BATTLE_SECONDS = 0.003
"""What one best-casualties battle costs besides its game (lowering, its tables, the forward
pass, the fixed orders' game beside it; in a sweep its row): 1.2-1.7 ms a solve alone on battles
of a few units, 3-4 ms a row of a purchase sweep on a loaded machine (benchmarks/best_sweeps.py)."""
ENTRY_SECONDS = 5e-8
"""Seconds per entry of the best-loss table (composition pairs x the attacker's hits) ..."""
STEP_SECONDS = 2e-9
"""... and per inner step (a pair x the defender's options x the attacker's hits). Fitted to
solves of 288 to 11.7 M entries, the attacker, the defender or both choosing, on a quiet 2-core
machine (1942-2e land battles up to 10 inf, 3 art, 3 arm, 2 ftr, 2 bmb against 12 inf, 2 art,
2 arm, 2 ftr: predicted 1.0-1.9 s, measured 0.7-1.6 s)."""
MAX_GAMES_SECONDS = 600.0
"""Seconds of best-casualties solves one answer of many battles may ask for (a purchase sweep, a
plan), as ``game_size`` predicts them: some ten minutes. A server asks less
(``oddsim.web.limits``)."""


@dataclass(frozen=True)
class GameSize:
    """A best-casualties game's size: ``entries`` of its best-loss table, ``steps`` of its inner
    loop (both as the solver counts them for its guard) and the seconds they predict."""

    entries: int
    steps: int

    @property
    def seconds(self) -> float:
        return BATTLE_SECONDS + ENTRY_SECONDS * self.entries + STEP_SECONDS * self.steps


@dataclass(frozen=True)
class _Side:
    compositions: int  # compositions the side can be left in
    capacity: int  # hits it can take
    options: int  # (composition, composition it can be hit down to) pairs


def _side(counts: Mapping[str, int], damaged: Mapping[str, int], rules: Ruleset) -> _Side:
    """A side's compositions by its units that take hits: a two-hit unit's whole and damaged
    ones counted apart (it may be damaged, then destroyed)."""
    compositions = options = 1
    capacity = 0
    for name, n in counts.items():
        unit = rules.unit(name)
        if n <= 0 or not unit.combatant:
            continue
        if unit.hits > 1:
            whole = n - damaged.get(name, 0)
            compositions *= (n + 1) * (whole + 1)
            options *= (n + 1) * (n + 2) // 2 * (whole + 1) * (whole + 2) // 2
            capacity += n + 2 * whole  # (as the solver bounds it: damaged and whole types)
        else:
            compositions *= n + 1
            options *= (n + 1) * (n + 2) // 2
            capacity += n
    return _Side(compositions, capacity, options)


def _of(force: Force) -> tuple[dict[str, int], dict[str, int]]:
    return dict(force.counts), dict(force.damaged)


def game_size(battle: Battle) -> GameSize:
    """The size of ``battle``'s game of best casualties (its sides as they choose, or not)."""
    return armies_size(battle.rules, *_of(battle.attacker.army), *_of(battle.defender.army),
                       defender_best=battle.defender.best_losses)


def armies_size(rules: Ruleset, attacker: Mapping[str, int], attacker_damaged: Mapping[str, int],
                defender: Mapping[str, int], defender_damaged: Mapping[str, int],
                defender_best: bool) -> GameSize:
    """``game_size`` of the armies given as unit counts (a sweep sizes its candidates so, without
    building a ``Battle`` for each)."""
    a = _side(attacker, attacker_damaged, rules)
    d = _side(defender, defender_damaged, rules)
    entries = a.compositions * d.compositions * (a.capacity + 1)
    options = d.options if defender_best else d.compositions * (d.capacity + 1)
    return GameSize(entries, a.compositions * options * (a.capacity + 1))


def with_counter_attacks(size: GameSize, rules: Ruleset, attacker: Mapping[str, int],
                         counter: Mapping[str, int] | None, stayers_best: bool) -> GameSize:
    """``size`` plus the counter-attacks after the battle (``counter``: the counter-attacking
    army's counts, None: none): one game of it against all the attacker's land units for each
    composition of them that may stay (a bound: each is fought against fewer)."""
    if counter is None:
        return size
    land = {name: n for name, n in attacker.items() if n and rules.unit(name).domain is Domain.LAND}
    after = armies_size(rules, counter, {}, land, {}, defender_best=stayers_best)
    times = math.prod(n + 1 for n in land.values())
    return GameSize(size.entries + times * after.entries, size.steps + times * after.steps)


def check_game(size: GameSize, what: str, fix: str) -> None:
    """Refuse (TooLargeError, one line) one battle of ``what`` (a purchase, a sub-army) whose game
    passes the solver's own guard; ``fix``: what to do instead."""
    from oddsim.engines.exact.casualties import MAX_ENTRIES, MAX_WORK

    if size.entries > MAX_ENTRIES or size.steps > MAX_WORK:
        raise TooLargeError(f"{what}: its battle is too large for best casualties (about "
                            f"{size.entries:,} entries and {size.steps:,} steps; the limits are "
                            f"{MAX_ENTRIES:,} and {MAX_WORK:,}): {fix}, or give the sides a fixed "
                            f"order of loss instead of best")


def check_games(sizes: Iterable[tuple[str, GameSize]], what: str, fix: str,
                limit: float = MAX_GAMES_SECONDS) -> float:
    """Refuse (TooLargeError, one line) an answer of many best-casualties battles, before any is
    solved: one of them too large for the solver (``check_game``), or all of them together
    predicted to take more than ``limit`` seconds. ``sizes``: each battle's name and size;
    ``what``: the answer ("the sweep"); ``fix``: what makes it smaller. Returns the seconds."""
    seconds, battles = 0.0, 0
    for name, size in sizes:
        check_game(size, name, fix)
        seconds += size.seconds
        battles += 1
    if seconds > limit:
        raise TooLargeError(f"{what} solves {battles:,} battles with best casualties, about "
                            f"{_duration(seconds)}, more than the {_duration(limit)} it may take: "
                            f"{fix}, or give the sides a fixed order of loss instead of best")
    return seconds


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.3g} s"
    return f"{math.ceil(seconds / 60):,} min"
