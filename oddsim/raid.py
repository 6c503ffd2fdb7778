"""Strategic bombing raids: the air battle (where the edition has one), AA fire, and damage.

Sequence: escorts and interceptors fight one round (global-1940-2e: every attacking aircraft
hits on ``escort_hit``, interceptors on ``interceptor_hit``; the attacker loses escorts first,
then tactical bombers, then strategic bombers, cheapest first); AA then fires one die per
surviving bomber (tactical bombers first among the losses); each survivor rolls its damage and
the total is capped by the edition's rule. AA fires where the edition's facilities have it
built in (``[raid] builtin_aa``) or where an AA gun stands (``aa_gun``, assumed by default).
``solve_raid`` enumerates this exactly; ``simulate_raid`` samples it (NumPy, one generator
seeded from ``seed``).

Low Luck (``dice="lowluck"``): every group of dice that fires together scores ``total // 6``
hits and one more with chance ``(total % 6) / 6``. The groups: the attacking aircraft in the
air battle, the interceptors, and AA fire (one die per surviving bomber, tactical and strategic
together). Damage dice are not hits and are rolled as standard dice.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from oddsim._runtime.interrupt import stop_on_interrupt
from oddsim.errors import BattleError
from oddsim.limits import EXACT_OR_MC, check_runs, refuse_for_exact, seed_or_random
from oddsim.model.battle import MAX_TERRITORY_VALUE, tech_names
from oddsim.model.rules import RaidCap, RaidDiceRule, Ruleset, load_ruleset
from oddsim.results.battle_result import Method
from oddsim.results.estimates import standard_error_of_mean

MAX_AIRCRAFT = 200
DEFAULT_RAID_RUNS = 1_000_000
FACILITIES = ("major", "minor", "air_base", "naval_base")
DICE_MODES = ("standard", "lowluck")


@dataclass(frozen=True)
class Raid:
    """One raid, validated: the edition, the aircraft on each side, the target.

    ``aa_gun``: whether an AA gun stands in the territory, for editions whose facilities have no
    built-in AA (``None``: yes); where they have it, ``False`` is an error. ``dice``:
    ``"standard"`` or ``"lowluck"`` (see the module docstring for the groups)."""

    rules: Ruleset  # the constructor also takes an edition's name or a ruleset file's path
    bombers: int = 0
    tactical_bombers: int = 0
    escorts: int = 0
    interceptors: int = 0
    territory_value: int | None = None
    facility: str | None = None
    attacker_tech: tuple[str, ...] = ()
    defender_tech: tuple[str, ...] = ()
    aa_gun: bool | None = None
    dice: str = "standard"

    if TYPE_CHECKING:  # what the constructor accepts (the dataclass writes it at run time)
        def __init__(self, rules: Ruleset | str, bombers: int = 0, tactical_bombers: int = 0,
                     escorts: int = 0, interceptors: int = 0, territory_value: int | None = None,
                     facility: str | None = None, attacker_tech: str | tuple[str, ...] = (),
                     defender_tech: str | tuple[str, ...] = (), aa_gun: bool | None = None,
                     dice: str = "standard") -> None: ...

    def __post_init__(self) -> None:
        rules = load_ruleset(self.rules)
        object.__setattr__(self, "rules", rules)
        if self.aa_gun is not None and not isinstance(self.aa_gun, bool):
            raise BattleError(f"aa_gun must be True, False or None, not {self.aa_gun!r}")
        if rules.combat.dice_sides != 6:  # (its damage and AA dice are six-sided here)
            raise BattleError(f"{rules.name} rolls {rules.combat.dice_sides}-sided dice "
                              f"(combat.dice_sides), and a strategic bombing raid is worked out "
                              f"with six-sided dice only")
        if self.aa_gun is False and rules.raid.builtin_aa:
            raise BattleError(f"{rules.name}'s facilities have built-in AA: drop --no-aa-gun")
        if self.dice not in DICE_MODES:
            raise BattleError(f"unknown dice mode {self.dice!r}: use standard or lowluck")
        for name in ("bombers", "tactical_bombers", "escorts", "interceptors"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_AIRCRAFT:
                raise BattleError(f"{name.replace('_', ' ')} must be a whole number from 0 to "
                                  f"{MAX_AIRCRAFT}, not {value!r}")
        if self.bombers + self.tactical_bombers == 0:
            raise BattleError("a raid needs at least one bomber (--bombers N)")
        raid = rules.raid
        if (self.escorts or self.interceptors) and not raid.air_battle:
            raise BattleError(f"escorts and interceptors fight only where the edition has an air "
                              f"battle; {rules.name} has none: drop --escorts/--interceptors")
        for unit in ("bomber", "fighter") + (("tactical_bomber",) if self.tactical_bombers else ()):
            if rules.resolve_name(unit) is None:
                raise BattleError(f"{rules.name} has no {unit.replace('_', ' ')}")
        if self.facility is not None and not isinstance(self.facility, str):
            raise BattleError(f"facility must be a name ({', '.join(FACILITIES)}), not "
                              f"{self.facility!r}")
        if raid.cap is RaidCap.FACILITY:
            caps = dict(raid.facility_caps)
            if self.facility not in caps:
                raise BattleError(f"{rules.name} caps raid damage by facility: give --facility "
                                  f"{' | '.join(caps)}")
            if self.tactical_bombers and self.facility not in raid.tactical_targets:
                raise BattleError(f"tactical bombers may raid only {', '.join(raid.tactical_targets)}"
                                  f", not {self.facility}")
        else:
            if self.facility is not None:
                raise BattleError(f"{rules.name} caps raid damage by territory value: drop "
                                  f"--facility and give --territory-value")
            if self.tactical_bombers:
                raise BattleError(f"tactical bombers do not raid in {rules.name}")
            tv = self.territory_value
            if tv is None:
                raise BattleError(f"{rules.name} caps raid damage by the territory value: give "
                                  f"--territory-value N (0 to {MAX_TERRITORY_VALUE})")
            if isinstance(tv, bool) or not isinstance(tv, int) or not 0 <= tv <= MAX_TERRITORY_VALUE:
                raise BattleError(f"territory value must be a whole number from 0 to {MAX_TERRITORY_VALUE}, "
                                  f"not {tv!r}")
        object.__setattr__(self, "attacker_tech", tech_names(self.attacker_tech, rules))
        object.__setattr__(self, "defender_tech", tech_names(self.defender_tech, rules))

    @property
    def cap(self) -> int:
        raid = self.rules.raid
        if raid.cap is RaidCap.FACILITY:
            return dict(raid.facility_caps)[str(self.facility)]  # checked when built
        return int(self.territory_value or 0) * (2 if raid.cap is RaidCap.DOUBLE_TERRITORY else 1)

    @property
    def aa_fires(self) -> bool:
        """AA fires at the bombers: built into the facility, or an AA gun stands there."""
        return self.rules.raid.builtin_aa or self.aa_gun is not False

    @property
    def aa_hit(self) -> int:
        """AA hits on this or less (0: no AA fires)."""
        if not self.aa_fires:
            return 0
        hit = self.rules.combat.aa_hit
        for name in self.defender_tech:
            tech = self.rules.technology(name)
            hit = tech.aa_hit if tech.aa_hit is not None else hit
        return hit

    def bomber_damage(self) -> np.ndarray:
        """Distribution of one strategic bomber's damage (index = IPCs)."""
        raid = self.rules.raid
        dice, rule, bonus = raid.damage_dice, RaidDiceRule.SUM, raid.damage_bonus
        for name in self.attacker_tech:
            tech = self.rules.technology(name)
            if tech.raid_dice is not None:
                dice, rule = tech.raid_dice, tech.raid_rule
                bonus += tech.raid_bonus
        return _shift(_dice_total(dice, rule), bonus)

    def tactical_damage(self) -> np.ndarray:
        return _shift(_dice_total(1, RaidDiceRule.SUM), self.rules.raid.tactical_bonus)

    def describe(self) -> str:
        target = self.facility or f"territory worth {self.territory_value}"
        from oddsim.model.names import count_label

        parts = [count_label("bomber", self.bombers)] + (
            [count_label("tactical_bomber", self.tactical_bombers)] if self.tactical_bombers else [])
        if self.escorts:
            parts.append(count_label("escort", self.escorts))
        against = f" against {count_label('interceptor', self.interceptors)}" \
            if self.interceptors else ""
        extras = ("" if self.aa_fires else ", no AA") + (", Low Luck" if self.dice == "lowluck" else "")
        return (f"{self.rules.name} raid: {', '.join(parts)}{against} on {target} "
                f"(cap {self.cap}{extras})")

    def hits(self, dice: int, value: int) -> np.ndarray:
        """Hit distribution of one group of ``dice`` dice hitting on ``value`` or less."""
        if self.dice == "lowluck":
            total = dice * value
            out = np.zeros(total // 6 + 2)
            out[total // 6] = 1.0 - (total % 6) / 6
            out[total // 6 + 1] = (total % 6) / 6
            return out
        return _binomial(dice, value / 6)

    def sample_hits(self, rng: np.random.Generator, dice, value: int, runs: int) -> np.ndarray:
        """``runs`` samples of the hits of ``dice`` dice (a number or one per run) at ``value``."""
        if self.dice == "lowluck":
            total = np.asarray(dice) * value
            return total // 6 + (rng.random(runs) < (total % 6) / 6)
        return rng.binomial(dice, value / 6, runs if np.ndim(dice) == 0 else None)


@dataclass(frozen=True)
class RaidResult:
    """Damage distribution, aircraft lost and the IPC swing of a raid."""

    raid: str
    method: Method
    damage: dict[int, float]  # IPCs of damage -> probability
    expected_damage: float
    bombers_lost: float  # expected strategic + tactical bombers lost (air battle and AA)
    escorts_lost: float
    interceptors_lost: float
    ipc_swing: float  # damage + interceptors' cost - attacking aircraft's cost, expected
    runs: int | None = None
    std_error: dict[str, float] = field(default_factory=dict)
    interrupted: bool = False  # Ctrl-C stopped Monte Carlo early: figures from ``runs`` raids

    def to_dict(self) -> dict:
        data = {"interrupted": self.interrupted, **asdict(self)}
        data["damage"] = {str(k): v for k, v in self.damage.items()}
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)

    def to_table(self) -> str:
        method = "exact" if self.method == "exact" else f"Monte Carlo, {self.runs:,} runs"
        if self.interrupted:
            method += " (interrupted: partial result)"
        from oddsim.results.estimates import number, percent

        def figure(name: str) -> str:
            return number(getattr(self, name), self.std_error.get(name), decimals=3)

        lines = [self.raid, f"method: {method}",
                 f"expected damage {figure('expected_damage')} IPCs; bombers lost "
                 f"{figure('bombers_lost')}; escorts lost {figure('escorts_lost')}; interceptors "
                 f"lost {figure('interceptors_lost')}",
                 f"expected IPC swing for the attacker: {'+' if self.ipc_swing >= 0 else ''}"
                 f"{figure('ipc_swing')}", "damage distribution:"]
        from oddsim.results.text import SHOWN_BELOW

        hidden = 0
        for damage, p in sorted(self.damage.items()):
            if p < SHOWN_BELOW:  # (as in a battle's survivor table: it would print as 0.0000%)
                hidden += 1
                continue
            error = math.sqrt(p * (1 - p) / self.runs) if self.runs else None
            lines.append(f"  {damage:4d}  {percent(p, error):>18s}")
        if hidden:
            lines.append(f"  ({hidden} damage values less likely than {100 * SHOWN_BELOW:g}% not shown; "
                         f"--json has all)")
        return "\n".join(lines)


def _dice_total(dice: int, rule: RaidDiceRule) -> np.ndarray:
    """Distribution of ``dice`` d6 summed, or of the best of them."""
    if rule is RaidDiceRule.BEST:
        faces = np.arange(7)
        cdf = np.where(faces == 0, 0.0, (faces / 6.0) ** dice)
        return np.diff(cdf, prepend=0.0)
    dist = np.array([1.0])
    for _ in range(dice):
        dist = _convolve(dist, np.r_[0.0, np.full(6, 1 / 6)])
    return dist


def _convolve(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """The distribution of the sum of two independent totals, added in one fixed order:
    ``np.convolve`` sums each term as a dot product whose rounding follows the CPU's vector
    width (raid answers moved in their last digit between two machines)."""
    out = np.zeros(len(first) + len(second) - 1)
    for i, p in enumerate(first.tolist()):
        out[i:i + len(second)] += p * second
    return out


def _shift(dist: np.ndarray, bonus: int) -> np.ndarray:
    return np.r_[np.zeros(bonus), dist]


def _binomial(n: int, p: float) -> np.ndarray:
    from scipy.stats import binom

    return binom.pmf(np.arange(n + 1), n, p)


def _check_raid(raid: object, caller: str) -> None:
    if not isinstance(raid, Raid):
        raise BattleError(f"{caller} needs a Raid, not {type(raid).__name__}")


def solve_raid(raid: Raid) -> RaidResult:
    """Exact distribution of the raid's damage and losses."""
    _check_raid(raid, "solve_raid")
    rules = raid.rules
    r = rules.raid
    attackers = raid.escorts + raid.tactical_bombers + raid.bombers
    damage = np.zeros(1)
    lost_bombers = lost_tactical = lost_escorts = lost_interceptors = 0.0
    air_battle = r.air_battle and (raid.escorts or raid.interceptors)
    hits_on_interceptors = raid.hits(attackers if air_battle else 0, r.escort_hit)
    hits_on_attackers = raid.hits(raid.interceptors if air_battle else 0, r.interceptor_hit)
    per_bomber, per_tactical = raid.bomber_damage(), raid.tactical_damage()
    bomber_totals = [np.array([1.0])]  # [k]: the damage of k bombers, each made from the one before

    def bombers_damage(k: int) -> np.ndarray:
        while len(bomber_totals) <= k:
            bomber_totals.append(_convolve(bomber_totals[-1], per_bomber))
        return bomber_totals[k]

    for h_i, p_i in enumerate(hits_on_interceptors):
        lost_interceptors += p_i * min(h_i, raid.interceptors)
    for h_a, p_a in enumerate(hits_on_attackers):
        escorts_left = max(0, raid.escorts - h_a)
        spill = max(0, h_a - raid.escorts)
        tactical_left = max(0, raid.tactical_bombers - spill)
        bombers_left = max(0, raid.bombers - max(0, spill - raid.tactical_bombers))
        lost_escorts += p_a * (raid.escorts - escorts_left)
        survivors = tactical_left + bombers_left
        for aa_hits, p_aa in enumerate(raid.hits(survivors, raid.aa_hit)):
            p = p_a * p_aa
            tactical = max(0, tactical_left - aa_hits)
            bombers = max(0, bombers_left - max(0, aa_hits - tactical_left))
            lost_bombers += p * (raid.bombers - bombers)
            lost_tactical += p * (raid.tactical_bombers - tactical)
            dist = bombers_damage(bombers)  # (the same sums in the same order as one by one)
            for _ in range(tactical):
                dist = _convolve(dist, per_tactical)
            capped = _cap(dist, raid.cap)
            if len(capped) > len(damage):
                damage = np.r_[damage, np.zeros(len(capped) - len(damage))]
            damage[: len(capped)] += p * capped
    return _result(raid, Method.EXACT, damage, lost_bombers, lost_tactical, lost_escorts,
                   lost_interceptors)


def _cap(dist: np.ndarray, cap: int) -> np.ndarray:
    if len(dist) <= cap + 1:
        return dist
    capped = dist[: cap + 1].copy()
    capped[cap] += math.fsum(dist[cap + 1:].tolist())
    return capped


def _result(raid, method, damage, bombers, tactical, escorts, interceptors, runs=None,
            std_error=None):
    """The result from expected losses; the swing prices each kind of aircraft at its cost."""
    fighter = raid.rules.unit("fighter").cost
    tac_cost = raid.rules.unit("tactical_bomber").cost if raid.tactical_bombers else 0
    # a correctly rounded sum: NumPy's dot of a few floats rounds by the CPU's vector width
    # (its last digit moved between two machines)
    expected = math.fsum(k * float(p) for k, p in enumerate(damage))
    swing = (expected + (interceptors - escorts) * fighter - bombers * raid.rules.unit("bomber").cost
             - tactical * tac_cost)
    return RaidResult(
        raid=raid.describe(), method=method,
        damage={int(k): float(p) for k, p in enumerate(damage) if p > 0},
        expected_damage=expected, bombers_lost=float(bombers + tactical), escorts_lost=float(escorts),
        interceptors_lost=float(interceptors), ipc_swing=float(swing), runs=runs,
        std_error=std_error or {})


RAID_CHUNK = 2**18
"""Raids are simulated this many at a time, so memory stays bounded however many runs."""


def run_raid(raid: Raid, method: str = "exact", runs: int | None = None,
             seed: int | None = None, on_chunk: Callable[[int], bool] | None = None) -> RaidResult:
    """``solve_raid`` or ``simulate_raid`` by ``method``; ``runs``/``seed``/``on_chunk`` only
    matter with "mc"."""
    if not isinstance(method, str) or method not in EXACT_OR_MC:
        raise BattleError(f"unknown method {method!r}: use exact or mc")
    if method == "exact":
        refuse_for_exact(runs, seed, BattleError)
        return solve_raid(raid)
    return simulate_raid(raid, runs=DEFAULT_RAID_RUNS if runs is None else runs, seed=seed,
                         on_chunk=on_chunk)


def simulate_raid(raid: Raid, runs: int = 100_000, seed: int | None = None,
                  on_chunk: Callable[[int], bool] | None = None) -> RaidResult:
    """Monte Carlo estimate of the raid, die by die, with standard errors.

    Raids are drawn in chunks of ``RAID_CHUNK`` from one generator seeded with ``seed`` (the same
    seed, the same figures); Ctrl-C stops after the chunk in hand and returns the raids done
    (``interrupted=True``), and so does ``on_chunk`` returning True (it is called after each
    chunk with the raids done so far, as in ``oddsim.simulate``: progress, and a way to stop a
    server's request)."""
    _check_raid(raid, "simulate_raid")
    runs = check_runs(runs, BattleError)
    rng = np.random.default_rng(seed_or_random(seed, BattleError))
    damage = np.zeros(raid.cap + 1, dtype=np.int64)
    sums = {name: [0, 0] for name in ("expected_damage", "bombers_lost", "escorts_lost",
                                      "interceptors_lost", "strategic_lost", "tactical_lost",
                                      "ipc_swing")}
    done = 0
    interrupted = False
    with stop_on_interrupt() as stop:
        while done < runs:
            n = min(RAID_CHUNK, runs - done)
            for name, values in _raid_chunk(raid, rng, n).items():
                if name == "expected_damage":
                    damage += np.bincount(values, minlength=raid.cap + 1)
                sums[name][0] += int(values.sum())
                sums[name][1] += int(np.dot(values, values))
            done += n
            if (stop.is_set() or (on_chunk is not None and on_chunk(done))) and done < runs:
                interrupted = True
                break
    mean = {name: total / done for name, (total, _) in sums.items()}
    result = _result(raid, Method.MC, damage / done, mean["strategic_lost"], mean["tactical_lost"],
                     mean["escorts_lost"], mean["interceptors_lost"], runs=done)
    se = {name: standard_error_of_mean(sums[name][0], sums[name][1], done) for name in
          ("expected_damage", "bombers_lost", "escorts_lost", "interceptors_lost", "ipc_swing")}
    return RaidResult(**{**asdict(result), "std_error": se, "interrupted": interrupted})


def _raid_chunk(raid: Raid, rng: np.random.Generator, runs: int) -> dict[str, np.ndarray]:
    """Per-raid damage and losses of ``runs`` simulated raids (int64 arrays)."""
    r = raid.rules.raid
    air_battle = r.air_battle and (raid.escorts or raid.interceptors)
    attackers = raid.escorts + raid.tactical_bombers + raid.bombers
    on_interceptors = raid.sample_hits(rng, attackers, r.escort_hit, runs) if air_battle \
        else np.zeros(runs, int)
    on_attackers = raid.sample_hits(rng, raid.interceptors, r.interceptor_hit, runs) if air_battle \
        else np.zeros(runs, int)
    interceptors_lost = np.minimum(on_interceptors, raid.interceptors)
    escorts_lost = np.minimum(on_attackers, raid.escorts)
    spill = on_attackers - escorts_lost
    tactical = raid.tactical_bombers - np.minimum(spill, raid.tactical_bombers)
    bombers = raid.bombers - np.minimum(np.maximum(spill - raid.tactical_bombers, 0), raid.bombers)
    aa = raid.sample_hits(rng, tactical + bombers, raid.aa_hit, runs)
    tac_hit = np.minimum(aa, tactical)
    tactical = tactical - tac_hit
    bombers = bombers - np.minimum(aa - tac_hit, bombers)
    per_bomber, per_tactical = raid.bomber_damage(), raid.tactical_damage()
    bomber_totals = [np.array([1.0])]  # [k]: the damage of k bombers, each made from the one before

    def bombers_damage(k: int) -> np.ndarray:
        while len(bomber_totals) <= k:
            bomber_totals.append(_convolve(bomber_totals[-1], per_bomber))
        return bomber_totals[k]

    total = np.zeros(runs, dtype=np.int64)
    for count, dist in ((bombers, per_bomber), (tactical, per_tactical)):
        for k in range(int(count.max(initial=0))):
            rolls = rng.choice(len(dist), size=runs, p=dist / dist.sum())
            total += np.where(count > k, rolls, 0)
    strategic_lost = raid.bombers - bombers
    tactical_lost = raid.tactical_bombers - tactical
    damage = np.minimum(total, raid.cap)
    costs = raid.rules.unit
    swing = (damage + (interceptors_lost - escorts_lost) * costs("fighter").cost
             - strategic_lost * costs("bomber").cost
             - (tactical_lost * costs("tactical_bomber").cost if raid.tactical_bombers else 0))
    return {"expected_damage": damage,
            "bombers_lost": (strategic_lost + tactical_lost).astype(np.int64),
            "escorts_lost": escorts_lost.astype(np.int64),
            "interceptors_lost": interceptors_lost.astype(np.int64),
            "strategic_lost": strategic_lost.astype(np.int64),
            "tactical_lost": tactical_lost.astype(np.int64),
            "ipc_swing": np.asarray(swing, dtype=np.int64)}
