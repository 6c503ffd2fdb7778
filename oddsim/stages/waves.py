"""Second waves: each wave attacks whatever the defender has left after the waves before it.

The defender's survivor distribution of wave k is the start of wave k+1: every surviving
composition (damaged units included) is fought again, weighted by its probability. A wave that
finds the defender already destroyed walks in: it takes the territory if it has a land unit.
Where aircraft alone destroyed the defender's fighting units, a unit of its that is no casualty
(an AA gun) still stands: the next wave fights it (its aircraft face the gun) and captures it
with a land unit.
With Monte Carlo each composition gets a share of the runs equal to how often it was seen, so
the later waves sample exactly the earlier waves' outcomes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from oddsim.errors import BattleError, OddsimError
from oddsim.model.battle import ArmySpec, Battle, RetreatPolicy, Side
from oddsim.model.forces import Force, join_forces, parse_force
from oddsim.model.options import set_side_options, side_options
from oddsim.model.rules import Domain, RepairTiming
from oddsim.model.side import ATTACKER, DEFENDER, is_best_order
from oddsim.results.battle_result import BattleResult
from oddsim.results.casualty_policy import CasualtyPolicy
from oddsim.results.estimates import number, percent, swing, swing_error_bound
from oddsim.results.mixing import chance_error, error_bound, spread_error
from oddsim.results.text import expected_units_text
from oddsim.stages.wave_units import WaveUnits, row_errors

MAX_WAVES = 10
SHOWN_ROWS = 3
"""How many of the defender's compositions after a wave its text names (the likeliest)."""
TOTAL_OUTCOMES = ("attacker_win", "draw", "defender_win", "retreat", "stalemate", "defender_destroyed",
                  "defender_holds")
"""The chances a waves total gives (``WaveResult``), each as the JSON names it."""
# a wave's options that, left at None, are the first battle's
INHERITED = ("retreat", "attacker_submerge", "defender_submerge", "dice", "attacker_destroyer_last",
             "defender_destroyer_last")
WAVE_SIDE_OPTIONS = {ATTACKER: ("ool_attacker", "keep_land", "attacker_submerge", "attacker_destroyer_last"),
                     DEFENDER: ("defender_submerge", "defender_destroyer_last")}
"""The options a wave's ``Side`` values may set, by their flat names."""


@dataclass(frozen=True)
class Wave:
    """One later wave: its attacker and its own options. ``retreat``, ``attacker_submerge``,
    ``defender_submerge``, ``dice``, ``attacker_destroyer_last`` and ``defender_destroyer_last``
    left at None are the first battle's (a wave that must not retreat when the first battle does:
    ``retreat=RetreatPolicy()``; one that must not keep its destroyer: ``False``). The defender's
    choices are per wave too, since it may take its losses differently against each attacker.
    ``defender_reinforcements`` join every defending composition still standing before this
    wave fights it, and (``reinforce_emptied``, the default) a territory emptied but not taken
    (a draw, a win by aircraft alone): it is still the defender's, so they stand there alone
    (beside an AA gun that is no casualty, where one still stands).
    ``reinforce_emptied=False`` is the other reading: they join only defenders still standing.
    A territory taken gets none.
    The defender's damaged two-hit units meet the wave whole again where the edition repairs
    them after each battle (``[combat] repair``), else still damaged.
    A later wave is a new attack (``replace_attacker``): the first battle's landed units,
    bombardment and "in progress" are that battle's alone.
    ``attacker`` may be a ``Side``, whose order of loss, ``keep_land``, submerge and destroyer-last
    fill those fields; ``defender`` a ``Side`` with no army (the defender is what is left), whose
    submerge and destroyer-last do. A Side's options at its defaults are those of the keywords
    left alone (the first battle's, where they inherit); each option is given once, in the Side
    or as its keyword. Both are then read through the flat fields (``defender`` is left None)."""

    attacker: ArmySpec | Side
    ool_attacker: str | tuple[str, ...] | None = None
    keep_land: int = 0
    retreat: RetreatPolicy | Mapping[str, object] | None = None
    attacker_submerge: str | None = None
    defender_submerge: str | None = None
    dice: str | None = None
    attacker_destroyer_last: bool | None = None
    defender_destroyer_last: bool | None = None
    defender_reinforcements: ArmySpec = None
    reinforce_emptied: bool = True
    source: str = field(default="", compare=False, repr=False)  # where it was written, for its errors:
    # a plan file's path and the wave's number there (``wave_plan``); "": its place among the waves
    defender: Side | None = field(default=None, compare=False, repr=False)  # (None once unpacked)

    def __post_init__(self) -> None:
        if isinstance(self.attacker, Side):
            options = side_options(self.attacker, ATTACKER, WAVE_SIDE_OPTIONS[ATTACKER], "a wave")
            set_side_options(self, options, "a wave")
            object.__setattr__(self, "attacker", self.attacker.army)
        if self.defender is not None:
            if isinstance(self.defender, Side) and self.defender.army is not None:
                raise BattleError("a wave: the defender's Side has no army (the defender is what the "
                                  "earlier waves left): give Side(None, ...)")
            options = side_options(self.defender, DEFENDER, WAVE_SIDE_OPTIONS[DEFENDER], "a wave")
            set_side_options(self, options, "a wave")
            object.__setattr__(self, "defender", None)


@dataclass(frozen=True)
class WaveResult:
    """Per-wave figures and the totals. Each wave's ``attacker_win`` and IPC figures are
    unconditional (weighted over every way the waves before it went, 0 where it never fought);
    ``fights`` is the chance it reaches the battle, and ``given_it_fights`` holds the same
    figures given that it does. With Monte Carlo, ``std_error`` (and each wave's) holds the
    standard error of each figure as if each of the runs followed one path through the waves
    (``wave_errors``); the IPC totals' errors are the sum of the waves' (a bound).
    The waves' total TUV swing has no distribution (``tuv_swing_distribution`` null in the
    JSON), only its mean: a later wave's swing depends on what the earlier waves lost on the
    same path, and the waves keep each defender composition's chance, not the swing so far that
    led to it.

    The total's outcomes mean what one battle's do, of the whole attack's end: ``attacker_win``
    the defender is destroyed and an attacking unit is left (the wave that destroyed it, or a
    later one that walked in); ``draw`` the defender is destroyed and no attacking unit is left
    (the last wave to fight was destroyed with it, and no later wave came); ``defender_win``,
    ``retreat`` and ``stalemate`` are how the last wave's battle ended where the defender still
    stands after it. What a total needs besides: ``defender_destroyed`` (``attacker_win`` +
    ``draw``) and ``defender_holds`` (the defender stands at the end: ``defender_win`` +
    ``retreat`` + ``stalemate``). As in one battle, "destroyed" counts the units that fight: where
    aircraft alone won, a unit that is no casualty (Revised's AA gun) still stands in the rows
    of ``defender_survivors``, and each later wave meets it (its aircraft face its fire; its land
    units capture it)."""

    waves: tuple[dict, ...]
    attacker_win: float  # the defender is destroyed by the end, an attacking unit left
    defender_win: float  # the last wave is destroyed and the defender stands
    takes_territory: float | None
    attacker_ipc_lost: float
    defender_ipc_lost: float
    std_error: dict[str, float] = field(default_factory=dict)
    interrupted: bool = False  # Ctrl-C cut Monte Carlo stages short: figures from fewer runs
    draw: float = 0.0  # the defender is destroyed by the end, no attacking unit left
    retreat: float = 0.0  # the last wave retreated, the defender stands
    stalemate: float = 0.0  # the last wave's battle stalled, the defender stands
    defender_holds: float = 0.0  # the defender stands after the last wave (any way)
    casualty_policy: CasualtyPolicy | None = None  # wave 1's best casualties (the plain battle's);
    # later waves fight many defender compositions, each with advice of its own: none kept

    @property
    def defender_destroyed(self) -> float:
        """The chance the defender is destroyed by the end (an attacking unit left or none)."""
        return self.attacker_win + self.draw

    @property
    def tuv_swing(self) -> float:
        return self.defender_ipc_lost - self.attacker_ipc_lost

    def to_dict(self) -> dict:
        waves = list(self.waves)
        if self.casualty_policy is not None:  # (only where a side chooses each loss)
            waves[0] = {**waves[0], "casualty_policy": self.casualty_policy.to_dict()}
        return {"interrupted": self.interrupted, "waves": waves,
                **{name: getattr(self, name) for name in TOTAL_OUTCOMES},
                "takes_territory": self.takes_territory,
                "attacker_ipc_lost": self.attacker_ipc_lost, "defender_ipc_lost": self.defender_ipc_lost,
                "tuv_swing": self.tuv_swing,
                "tuv_swing_distribution": None,  # (not known: see the class's docstring)
                "std_error": dict(self.std_error)}

    def to_table(self) -> str:
        lines = ["interrupted: partial result (Monte Carlo stages cut short)"] if self.interrupted else []
        for count, wave in enumerate(self.waves, start=1):
            given = wave["given_it_fights"]
            se = wave.get("std_error", {})
            given_se = se.get("given_it_fights", {})
            method = wave["method"] or "nothing left to fight"
            lines.append(f"wave {count}: {wave['attacker']} ({method}): reaches the battle "
                         f"{percent(wave['fights'], se.get('fights'))}")
            lines.append(f"  attacker wins   {percent(wave['attacker_win'], se.get('attacker_win'))} "
                         f"unconditional, {percent(given['attacker_win'], given_se.get('attacker_win'))} "
                         f"given it reaches the battle")
            for side in ("attacker", "defender"):
                name = f"{side}_ipc_lost"
                lines.append(f"  {side} IPC lost {number(wave[name], se.get(name))} unconditional, "
                             f"{number(given[name], given_se.get(name))} given it reaches the battle")
            if wave.get("takes_territory") is not None:
                lines.append(f"  territory taken by the end of this wave "
                             f"{percent(wave['takes_territory'], se.get('takes_territory'))}")
            lines += _units_left_lines(wave)
            if count == 1 and self.casualty_policy is not None:  # the plain battle's advice
                lines += ["  " + line for line in self.casualty_policy.lines()]
        se = self.std_error

        def chance(name: str) -> str:
            return percent(getattr(self, name), se.get(name))

        ends = [f"attacker wins {chance('attacker_win')}", f"draw {chance('draw')}",
                f"defender wins {chance('defender_win')}"]
        ends += [f"{label} {chance(name)}" for name, label in (("retreat", "attacker retreats"),
                                                               ("stalemate", "stalemate"))
                 if getattr(self, name) > 0.0]
        if self.takes_territory is not None:
            ends.append(f"territory taken {chance('takes_territory')}")
        lines.append("total: " + ", ".join(ends))
        lines.append(f"  defender destroyed {chance('defender_destroyed')}, "
                     f"holds {chance('defender_holds')}")
        lost = {side: number(getattr(self, f"{side}_ipc_lost"), se.get(f"{side}_ipc_lost"))
                for side in ("attacker", "defender")}
        lines.append(f"expected IPC lost: attacker {lost['attacker']}, defender {lost['defender']} "
                     f"(TUV swing {swing(self.tuv_swing, se.get('tuv_swing'))})")
        return "\n".join(lines)


def _units_left_lines(wave: dict) -> list[str]:
    """A wave's units left, as its text says them: both sides' expected units by type
    (unconditional, and given it reaches the battle) and the defender's likeliest compositions
    after it (all of them: ``--json``)."""
    if "attacker_units_left" not in wave:  # (a wave's dict from before they were reported)
        return []
    se = wave.get("std_error", {})
    given_se = se.get("given_it_fights", {})
    walks = " (its whole army where it does not fight)" if wave["fights"] < 1.0 else ""

    def left(figures: dict, errors: dict, side: str) -> str:
        return expected_units_text(figures[f"{side}_units_left"], errors.get(f"{side}_units_left"))

    lines = [f"  units left, unconditional: attacker {left(wave, se, ATTACKER)}{walks}, "
             f"defender {left(wave, se, DEFENDER)}",
             f"  units left, given it reaches the battle: attacker "
             f"{left(wave['given_it_fights'], given_se, ATTACKER)}, "
             f"defender {left(wave['given_it_fights'], given_se, DEFENDER)}"]
    rows = wave["defender_survivors"]
    likeliest = ", ".join(f"{row['label']} {percent(row['probability'], row.get('std_error'))}"
                          for row in rows[:SHOWN_ROWS])
    more = f" and {len(rows) - SHOWN_ROWS} less likely" if len(rows) > SHOWN_ROWS else ""
    lines.append(f"  the defender after this wave: {likeliest}{more}")
    return lines


def fight_waves(first: Battle, waves: list[Wave], run) -> WaveResult:
    """Fight ``first`` and then each of ``waves``. ``run(battle, share)`` returns a BattleResult
    for one battle given the share (0..1] of the whole that reaches it."""
    if len(waves) + 1 > MAX_WAVES:
        raise BattleError(f"at most {MAX_WAVES} waves, not {len(waves) + 1}")
    battles = [first]
    reinforcements: list[Force | None] = [None]
    for place, later in enumerate(waves, start=2):  # (the first battle is wave 1)
        try:
            battles.append(replace_attacker(first, later))
            reinforcements.append(_reinforcements(first, later))
        except OddsimError as error:  # say which wave, and where it was written
            raise error.located(later.source or f"wave {place}") from None
    standing: dict[Force, float] = {first.defender.army: 1.0}  # defender compositions still standing
    # the defender's fighting units destroyed, the territory not taken, an attacking unit left,
    # and units of its that are no casualty (a lone AA gun) still there: the next wave meets them
    guarded: dict[Force, float] = {}
    taken = 0.0
    # defender destroyed, the territory not taken: an attacking unit left (air, or at sea), or none
    open_won = open_drawn = 0.0
    ended = dict.fromkeys(("defender_win", "retreat", "stalemate"), 0.0)  # of the last wave
    attacker_lost = defender_lost = 0.0
    interrupted = False
    reports = []
    squares = []  # per wave: each IPC figure's second moment over the paths through the waves
    tallies = []  # per wave: its units left (``WaveUnits``)
    paced = []  # per Monte Carlo battle: its runs over its share, the runs in all it stands for
    policy = None  # wave 1's best casualties
    emptied = [True] + [later.reinforce_emptied for later in waves]
    for battle, extra, joins_emptied in zip(battles, reinforcements, emptied, strict=True):
        if extra is not None:
            standing = {join_forces(battle.rules, defender, extra, side="defender"): weight
                        for defender, weight in standing.items()}
            emptied_land = 0.0 if battle.sea else open_won + open_drawn
            if joins_emptied and emptied_land > 0.0:  # the emptied territory is still the defender's
                standing[extra] = standing.get(extra, 0.0) + emptied_land
                open_won = open_drawn = 0.0
            if joins_emptied:  # and where a lone gun still stands, they join it
                for units, weight in guarded.items():
                    joined = join_forces(battle.rules, units, extra, side="defender")
                    standing[joined] = standing.get(joined, 0.0) + weight
                guarded = {}
        # the wave walks in wherever the defender is gone: an attacking unit is there again
        open_won += open_drawn
        open_drawn = 0.0
        has_land = any(battle.rules.unit(name).domain is Domain.LAND
                       for name, _ in battle.attacker.army.counts)
        if has_land and not battle.sea:
            taken += open_won
            open_won = 0.0
        ended = dict.fromkeys(ended, 0.0)
        wave: dict[str, Any] = {"attacker": battle.attacker.army.describe(), "fights": 0.0,
                                "attacker_win": 0.0, "attacker_ipc_lost": 0.0, "defender_ipc_lost": 0.0,
                                "method": ""}
        after: dict[Force, float] = {}
        guarded_after: dict[Force, float] = {}
        square = {"attacker_ipc_lost": 0.0, "defender_ipc_lost": 0.0}
        tally = WaveUnits(battle.rules)
        tally.walk_in(battle.attacker.army, taken + open_won + open_drawn)  # (the defender is gone)
        fronts = [(units, weight, False) for units, weight in standing.items()]
        fronts += [(units, weight, True) for units, weight in guarded.items()]
        for defender, weight, won in fronts:
            result: BattleResult = run(replace(battle, defender=replace(battle.defender, army=defender)),
                                       weight)
            if result.runs:
                paced.append(result.runs / weight)
            if battle is first:
                policy = result.casualty_policy
            for side in ("attacker", "defender"):
                square[f"{side}_ipc_lost"] += weight * sum(
                    p * lost * lost for lost, p in result.ipc_lost_distribution(side).items())
            interrupted = interrupted or result.interrupted
            wave["fights"] += weight
            wave["method"] = result.method
            wave["attacker_win"] += weight * result.attacker_win
            wave["attacker_ipc_lost"] += weight * result.attacker_ipc_lost
            wave["defender_ipc_lost"] += weight * result.defender_ipc_lost
            tally.battle(weight, result.attacker_survivors)
            left = still_standing(battle, result)
            took = 0.0 if battle.sea else result.takes_territory or 0.0
            taken += weight * took
            if won:  # an earlier wave won here: the attack has, whatever this wave's aircraft do
                _add(guarded_after, left.holding, weight)
                _add(guarded_after, left.guarded, weight)
                continue
            _add(after, left.holding, weight)
            _add(guarded_after, left.guarded, weight)
            if not left.guarded:  # (where it is, the lone gun stands wherever aircraft alone won)
                open_won += weight * (result.attacker_win - took)
            open_drawn += weight * result.draw
            for name in ended:
                ended[name] += weight * getattr(result, name)
        reached = wave["fights"]
        wave["given_it_fights"] = {name: wave[name] / reached if reached > 0 else 0.0 for name in
                                   ("attacker_win", "attacker_ipc_lost", "defender_ipc_lost")}
        tally.end(_add(dict(after), guarded_after, 1.0), taken + open_won + open_drawn)
        left_units, given_left = tally.figures(reached)
        wave.update(left_units)
        wave["given_it_fights"].update(given_left)
        wave["takes_territory"] = None if first.sea else taken  # by the end of this wave
        attacker_lost += wave["attacker_ipc_lost"]
        defender_lost += wave["defender_ipc_lost"]
        reports.append(wave)
        squares.append(square)
        tallies.append(tally)
        standing, guarded = after, guarded_after
    holds = float(sum(standing.values()))
    total = WaveResult(waves=tuple(reports), attacker_win=taken + open_won + sum(guarded.values()),
                       draw=open_drawn, defender_holds=holds, defender_win=ended["defender_win"],
                       retreat=ended["retreat"], stalemate=ended["stalemate"],
                       takes_territory=None if first.sea else taken,
                       attacker_ipc_lost=attacker_lost, defender_ipc_lost=defender_lost,
                       interrupted=interrupted, casualty_policy=policy)
    if not paced:
        return total
    # Each battle gets its share of the runs (rounded up to 1), so the largest pace is the runs
    # in all. After Ctrl-C the battles stopped at different points (later ones after one chunk,
    # which can exceed a rare one's share): the smallest pace is the runs every path had.
    runs = min(paced) if interrupted else max(paced)
    return wave_errors(total, squares, max(1, round(runs)), tallies)


def _add(into: dict[Force, float], part: Mapping[Force, float], weight: float) -> dict[Force, float]:
    """``into`` with each composition of ``part`` added, its chance times ``weight``."""
    for units, p in part.items():
        into[units] = into.get(units, 0.0) + weight * p
    return into


class Standing(NamedTuple):
    """The defender compositions standing after one battle, with their chances in it."""

    holding: dict[Force, float]  # the defender keeps the territory: the next wave fights them
    guarded: dict[Force, float]  # its units that are no casualty alone, where the attacker won
    # without taking the territory (aircraft alone): still there, the next wave meets them


def still_standing(battle: Battle, result: BattleResult) -> Standing:
    """The defender compositions still standing after one battle: a composition with a unit that
    fights as it is left (submerged subs stay; damaged units repaired where the edition repairs
    after each battle), and units that are no casualty (``combatant = false``: an AA gun,
    captured only with the territory) left alone wherever the territory was not taken. Those
    hold it where the attacker did not win (both sides destroyed, or the attacker's aircraft
    shot down), and are ``guarded`` where it won with aircraft alone: the battle's outcome
    counts that a win, as one battle's does, and the gun is still there for the next wave's
    aircraft. They are never lost, so they are one composition, and its chance is all the
    rows' with no unit that fights, less the territory taken."""
    rules = battle.rules
    repairs = rules.combat.repair is RepairTiming.AFTER_BATTLE
    fighting: dict[Force, float] = {}
    bystanders: dict[Force, float] = {}
    for row in result.defender_survivors:
        force = row.force(rules)
        units = force.repaired() if repairs else force
        if units.is_empty():
            continue
        fights = any(rules.unit(name).combatant for name, n in units.counts if n > 0)
        into = fighting if fights else bystanders
        into[units] = into.get(units, 0.0) + row.probability
    guarded: dict[Force, float] = {}
    seen = sum(bystanders.values())
    if seen > 0.0:
        held = min(seen, max(0.0, 1.0 - result.attacker_win - result.draw - sum(fighting.values())))
        for units, p in bystanders.items():
            if held > 0.0:
                fighting[units] = held * p / seen
            if seen > held:
                guarded[units] = (seen - held) * p / seen
    return Standing(fighting, guarded)


def wave_errors(total: WaveResult, squares: list[dict], runs: int,
                tallies: list[WaveUnits] | None = None) -> WaveResult:
    """``total`` with standard errors as if each of ``runs`` runs followed one path through the
    waves: a chance p has sqrt(p (1 - p) / runs); a wave's IPC figure has its spread over the
    paths (``squares``: its second moment) over ``runs``, given that the wave fights over the
    runs that reach it. The engine gives each battle its share of the runs, which spreads less
    than paths drawn at random, so these errors are if anything too large. ``tallies``: the waves'
    units left, whose errors join theirs."""
    waves = []
    for n, (wave, square) in enumerate(zip(total.waves, squares, strict=True)):
        reached = wave["fights"]
        given = wave["given_it_fights"]
        names = ("attacker_ipc_lost", "defender_ipc_lost")
        left: tuple[dict, dict] = ({}, {})
        if tallies is not None:
            left = tallies[n].errors(reached, runs)
            wave = {**wave, "defender_survivors": row_errors(wave["defender_survivors"], runs)}
        wave = {**wave, "std_error": {
            "fights": chance_error(reached, runs), "attacker_win": chance_error(wave["attacker_win"], runs),
            **{name: spread_error(wave[name], square[name], runs) for name in names},
            **left[0],
            **({} if wave.get("takes_territory") is None
               else {"takes_territory": chance_error(wave["takes_territory"], runs)}),
            "given_it_fights": {
                "attacker_win": chance_error(given["attacker_win"], reached * runs),
                **{name: spread_error(given[name], square[name] / reached if reached else 0.0,
                                      reached * runs) for name in names},
                **left[1]}}}
        waves.append(wave)
    errors = {**{name: chance_error(getattr(total, name), runs) for name in TOTAL_OUTCOMES},
              **{name: error_bound(*(w["std_error"][name] for w in waves))
                 for name in ("attacker_ipc_lost", "defender_ipc_lost")}}
    errors["tuv_swing"] = swing_error_bound(errors)
    if total.takes_territory is not None:
        errors["takes_territory"] = chance_error(total.takes_territory, runs)
    return replace(total, waves=tuple(waves), std_error=errors)


def replace_attacker(battle: Battle, wave: Wave) -> Battle:
    """The battle with a later wave's attacker and options (those it leaves at None: the
    battle's). A later wave is a new attack: none of its units landed from the sea, no ships
    bombard for it, the defender's AA fires at its aircraft, and it is not a battle in progress
    (the first battle's ``landed``, ``bombard`` and ``in_progress`` are that battle's alone)."""
    options = {name: getattr(wave, name) for name in INHERITED if getattr(wave, name) is not None}
    for side in ("attacker", "defender"):
        if options.get(f"{side}_destroyer_last") is True and not battle.sea:
            # Battle's own message names the command-line flag, which a wave does not have
            raise BattleError(f"{side}_destroyer_last applies to sea battles: drop it from the wave")
    sides = {role: {name.removeprefix(f"{role}_"): options.pop(name) for name in list(options)
                    if name.startswith(f"{role}_")} for role in ("attacker", "defender")}
    own = sides["attacker"]
    army = wave.attacker.army if isinstance(wave.attacker, Side) else wave.attacker  # (a Side: unpacked)
    attacker = Side(army, wave.ool_attacker, battle.attacker.tech,
                    own.get("submerge", battle.attacker.submerge),
                    own.get("destroyer_last", battle.attacker.destroyer_last), wave.keep_land)
    defender = replace(battle.defender, **sides["defender"])
    if not (defender.best_losses or is_best_order(wave.ool_attacker)):  # (no side plays for the goal)
        options.update(casualty_goal=None, casualty_value=None)
    return replace(battle, attacker=attacker, defender=defender, aa_fired=False, in_progress=False, **options)


def _reinforcements(battle: Battle, wave: Wave) -> Force | None:
    """The wave's defender reinforcements, parsed and checked (None: none)."""
    if wave.defender_reinforcements is None:
        return None
    extra = parse_force(wave.defender_reinforcements, battle.rules, "defender reinforcements")
    if extra.is_empty():
        return None
    replace(battle, defender=replace(battle.defender, army=extra))  # the units must be able to defend here
    return extra
