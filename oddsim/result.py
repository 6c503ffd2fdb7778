"""BattleResult: the one result type both engines return; plots and the CLI only read it."""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field

from oddsim.errors import OddsimError, TooLargeError
from oddsim.forces import Force, parse_force


@dataclass(frozen=True)
class Survivors:
    """One possible set of units left on a side, with its probability."""

    units: str  # e.g. "2 infantry, 1 damaged battleship", or "none"
    count: int  # number of units left
    ipc: int  # IPC value of the units left
    probability: float


@dataclass(frozen=True)
class BattleResult:
    """Outcome probabilities, expected losses and survivor distributions of one battle.

    ``method`` is ``"exact"`` or ``"mc"``. Monte Carlo results also carry ``runs`` and the
    standard error of every probability and mean in ``std_error`` (exact results: all zero).
    ``takes_territory`` is the chance the attacker wins with a land unit left (land battles;
    ``None`` at sea). ``tuv_swing`` is defender IPCs lost minus attacker IPCs lost.
    """

    battle: str
    method: str
    attacker_win: float
    defender_win: float
    draw: float
    stalemate: float
    takes_territory: float | None
    attacker_ipc_lost: float
    defender_ipc_lost: float
    expected_rounds: float
    attacker_survivors: tuple[Survivors, ...]
    defender_survivors: tuple[Survivors, ...]
    retreat: float = 0.0  # the attacker retreated (the defender keeps the territory)
    retreat_round: float | None = None  # expected rounds fought, given a retreat
    runs: int | None = None
    std_error: dict[str, float] = field(default_factory=dict)
    truncated_mass: float = 0.0
    interrupted: bool = False

    @property
    def tuv_swing(self) -> float:
        return self.defender_ipc_lost - self.attacker_ipc_lost

    def to_dict(self) -> dict:
        """Plain JSON-ready dict with every figure, survivors as lists of records; ``interrupted``
        comes first, where a reader sees it."""
        data = {"interrupted": self.interrupted, **asdict(self)}
        data["tuv_swing"] = self.tuv_swing
        return data

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    def most_likely(self, side: str, top: int = 5) -> tuple[Survivors, ...]:
        survivors = self.attacker_survivors if side == "attacker" else self.defender_survivors
        return tuple(sorted(survivors, key=lambda s: -s.probability)[:top])

    def to_table(self) -> str:
        """A readable multi-line summary: outcomes, IPC losses, most likely survivors."""
        def pct(name: str, value: float | None) -> str:
            if value is None:
                return "—"
            err = self.std_error.get(name)
            return f"{100 * value:6.2f}%" + (f" ± {100 * err:.2f}" if err else "")

        lines = [self.battle]
        method = "exact" if self.method == "exact" else f"Monte Carlo, {self.runs:,} runs"
        if self.interrupted:
            method += " (interrupted: partial result)"
        lines.append(f"method: {method}")
        lines.append(f"  attacker wins   {pct('attacker_win', self.attacker_win)}")
        lines.append(f"  defender wins   {pct('defender_win', self.defender_win)}")
        lines.append(f"  draw (both die) {pct('draw', self.draw)}")
        if self.stalemate:
            lines.append(f"  stalemate       {pct('stalemate', self.stalemate)}")
        if self.retreat:
            lines.append(f"  retreat         {pct('retreat', self.retreat)}"
                         + (f" (after {self.retreat_round:.2f} rounds on average)"
                            if self.retreat_round is not None else ""))
        if self.takes_territory is not None:
            lines.append(f"  takes territory {pct('takes_territory', self.takes_territory)}")
        lines.append(f"expected IPC lost: attacker {self.attacker_ipc_lost:.2f}, "
                     f"defender {self.defender_ipc_lost:.2f} (TUV swing {self.tuv_swing:+.2f})")
        lines.append(f"expected rounds: {self.expected_rounds:.2f}")
        for side in ("attacker", "defender"):
            lines.append(f"most likely {side} survivors:")
            for s in self.most_likely(side, 3):
                lines.append(f"  {100 * s.probability:6.2f}%  {s.units}")
        return "\n".join(lines)

    def check(self) -> float:
        """How far the outcome probabilities (win, loss, draw, stalemate, retreat) are from
        summing to 1."""
        return math.fabs(self.attacker_win + self.defender_win + self.draw + self.stalemate
                         + self.retreat - 1.0)


def describe_units(names: list[str], alive, damaged) -> str:
    """``"3 infantry, 1 damaged battleship"`` from per-type counts (damaged ones counted apart)."""
    parts = []
    for name, n, hurt in zip(names, alive, damaged, strict=True):
        whole = int(n) - int(hurt)
        if whole > 0:
            parts.append(f"{whole} {name}")
        if hurt > 0:
            parts.append(f"{int(hurt)} damaged {name}")
    return ", ".join(parts) if parts else "none"


def describe_survivors(names: list[str], alive, damaged, departed, verb: str,
                       retreated: bool = False) -> str:
    """A side's survivors for the survivor table, the same in both engines: ``alive`` counts
    every unit left per type, ``departed`` those of them that left the battle early (``verb``:
    "submerged" subs, or "retreated" units while the landed ones fought on); ``retreated``: the
    attacker's whole force left (a retreat, or its units in battle died and the departed live)."""
    units = describe_units(names, alive, damaged)
    if not retreated and not any(departed):
        return units
    gone = describe_units(names, departed, [0] * len(names))
    if not retreated:
        if gone == "none":
            return units
        return f"{units} ({verb})" if gone == units else f"{units} ({gone} {verb})"
    if gone == "none":
        return f"{units} (retreated)"
    if gone == units:
        return f"{units} ({verb})"
    return f"{units} ({gone} {verb}, the rest retreated)"


def survivor_table(entries: dict[str, tuple[int, int, float]]) -> tuple[Survivors, ...]:
    """Survivors sorted by probability from ``{units: (count, ipc, probability)}``."""
    rows = [Survivors(units, count, ipc, p) for units, (count, ipc, p) in entries.items() if p > 0]
    return tuple(sorted(rows, key=lambda s: (-s.probability, s.units)))


def survivor_force(units: str, rules) -> Force:
    """The army a survivor row describes (what left the battle early included), to fight a
    later stage with. Rows of very large Monte Carlo battles only count units: TooLargeError."""
    text = units.partition(" (")[0]
    try:
        return parse_force(None if text == "none" else text, rules, "survivors")
    except OddsimError:
        raise TooLargeError(f"'{units}': the battle is too large to follow each unit into the next "
                            f"stage; fight the stages as separate battles") from None
