"""Second waves: each wave attacks whatever the defender has left after the waves before it.

The defender's survivor distribution of wave k is the start of wave k+1: every surviving
composition (damaged units included) is fought again, weighted by its probability. A wave that
finds the defender already destroyed walks in: it takes the territory if it has a land unit.
With Monte Carlo each composition gets a share of the runs equal to how often it was seen, so
the later waves sample exactly the earlier waves' outcomes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from oddsim.battle import ArmySpec, Battle
from oddsim.errors import BattleError
from oddsim.result import BattleResult, survivor_force
from oddsim.rules import Domain

MAX_WAVES = 10


@dataclass(frozen=True)
class Wave:
    """One later wave: its attacker and its own order-of-loss options."""

    attacker: ArmySpec
    ool_attacker: str | tuple[str, ...] | None = None
    keep_land: int = 0


@dataclass(frozen=True)
class WaveResult:
    """Per-wave figures (each weighted over the states it met) and the totals."""

    waves: tuple[dict, ...]
    attacker_win: float  # the defender is destroyed by the end
    defender_win: float  # the defender still stands after the last wave
    takes_territory: float | None
    attacker_ipc_lost: float
    defender_ipc_lost: float
    interrupted: bool = False  # Ctrl-C cut Monte Carlo stages short: figures from fewer runs

    @property
    def tuv_swing(self) -> float:
        return self.defender_ipc_lost - self.attacker_ipc_lost

    def to_dict(self) -> dict:
        return {"interrupted": self.interrupted, "waves": list(self.waves), "attacker_win": self.attacker_win,
                "defender_win": self.defender_win, "takes_territory": self.takes_territory,
                "attacker_ipc_lost": self.attacker_ipc_lost, "defender_ipc_lost": self.defender_ipc_lost,
                "tuv_swing": self.tuv_swing}

    def to_table(self) -> str:
        lines = ["interrupted: partial result (Monte Carlo stages cut short)"] if self.interrupted else []
        for number, wave in enumerate(self.waves, start=1):
            lines.append(f"wave {number}: {wave['attacker']} ({wave['method']}) — reaches the battle "
                         f"{100 * wave['fights']:.2f}%, attacker wins {100 * wave['attacker_win']:.2f}%, "
                         f"IPC lost {wave['attacker_ipc_lost']:.2f} / {wave['defender_ipc_lost']:.2f}")
        lines.append(f"total: defender destroyed {100 * self.attacker_win:.2f}%, holds "
                     f"{100 * self.defender_win:.2f}%"
                     + ("" if self.takes_territory is None
                        else f", territory taken {100 * self.takes_territory:.2f}%"))
        lines.append(f"expected IPC lost: attacker {self.attacker_ipc_lost:.2f}, defender "
                     f"{self.defender_ipc_lost:.2f} (TUV swing {self.tuv_swing:+.2f})")
        return "\n".join(lines)


def fight_waves(first: Battle, waves: list[Wave], run) -> WaveResult:
    """Fight ``first`` and then each of ``waves``. ``run(battle, share)`` returns a BattleResult
    for one battle given the share (0..1] of the whole that reaches it."""
    if len(waves) + 1 > MAX_WAVES:
        raise BattleError(f"at most {MAX_WAVES} waves, not {len(waves) + 1}")
    battles = [first] + [replace_attacker(first, wave) for wave in waves]
    standing = {first.defender.describe(): 1.0}  # defender compositions still standing
    taken = 0.0
    destroyed_open = 0.0  # defender destroyed, nobody has moved in with a land unit yet
    attacker_lost = defender_lost = 0.0
    interrupted = False
    reports = []
    for battle in battles:
        has_land = any(battle.rules.unit(name).domain is Domain.LAND for name, _ in battle.attacker.counts)
        if has_land and not battle.sea:
            taken += destroyed_open
            destroyed_open = 0.0
        wave = {"attacker": battle.attacker.describe(), "fights": 0.0, "attacker_win": 0.0,
                "attacker_ipc_lost": 0.0, "defender_ipc_lost": 0.0, "method": ""}
        after: dict[str, float] = {}
        for defender, weight in standing.items():
            result: BattleResult = run(replace(battle, defender=defender), weight)
            interrupted = interrupted or result.interrupted
            wave["fights"] += weight
            wave["method"] = result.method
            wave["attacker_win"] += weight * result.attacker_win
            wave["attacker_ipc_lost"] += weight * result.attacker_ipc_lost
            wave["defender_ipc_lost"] += weight * result.defender_ipc_lost
            for row in result.defender_survivors:
                units = survivor_force(row.units, battle.rules).describe()  # submerged subs stay
                if units != "none":
                    after[units] = after.get(units, 0.0) + weight * row.probability
            if not battle.sea:
                taken += weight * (result.takes_territory or 0.0)
                took = result.takes_territory or 0.0
                destroyed_open += weight * (result.attacker_win + result.draw - took)
        attacker_lost += wave["attacker_ipc_lost"]
        defender_lost += wave["defender_ipc_lost"]
        reports.append(wave)
        standing = after
    holds = sum(standing.values())
    return WaveResult(waves=tuple(reports), attacker_win=1.0 - holds, defender_win=holds,
                      takes_territory=None if first.sea else taken,
                      attacker_ipc_lost=attacker_lost, defender_ipc_lost=defender_lost,
                      interrupted=interrupted)


def replace_attacker(battle: Battle, wave: Wave) -> Battle:
    """The battle with a later wave's attacker and options."""
    return replace(battle, attacker=wave.attacker, ool_attacker=wave.ool_attacker,
                   keep_land=wave.keep_land)
