"""A plan's input, parsed and checked once: the pool, the targets, their values, where each unit
type may go, what stays home, and each target's battle (the options of ``oddsim battle``).

Every ``NAME=...`` entry (``"Ukraine=6 inf, 2 arm"``, ``"Ukraine=3"``, ``"ftr=Ukraine,Belarus"``)
names a target as it was first written (matched without regard to case); an unknown or doubled
name is refused with the names that are known.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from oddsim.errors import OddsimError
from oddsim.limits import check_runs, check_seed
from oddsim.model.battle import MAX_TERRITORY_VALUE, Battle, RetreatPolicy
from oddsim.model.forces import Force, parse_defender, parse_force
from oddsim.model.names import count_label, unit_label
from oddsim.model.options import battle_from
from oddsim.model.rules import Ruleset, require_ruleset
from oddsim.model.side import is_best_order
from oddsim.plan.goals import Combine, Goal, GoalKind, PlanError, parse_goal
from oddsim.stages.best_size import (
    MAX_GAMES_SECONDS,
    GameSize,
    armies_size,
    check_games,
    with_counter_attacks,
)
from oddsim.stages.sub_armies import joined, sub_armies

MAX_SUB_ARMIES = 20_000
"""Most sub-armies a pool may have (the product of each unit type's count plus one): the
optimiser's lattice, and every target's battles; more is a pool too large to plan exactly."""

DEFAULT_PLAN_RUNS = 20_000
"""Monte Carlo runs per sub-army of a target too large for the exact engine (``oddsim.plan.odds``):
a chance's standard error at most 0.36 points."""
MAX_MONTE_CARLO_RUNS = 200_000_000
"""Most Monte Carlo runs a plan may simulate for one target too large to solve exactly, over all
its sub-armies (a few minutes on a laptop core); more is refused before any is run."""

Entries = Mapping[str, object] | Iterable[str] | None
"""``{"Ukraine": 3}`` or ``["Ukraine=3"]``: a value per target name."""


@dataclass(frozen=True)
class Target:
    """One territory of the plan: its name, the army there (the defenders an attack meets, or
    the threat a defence faces), what already stands there (defence), its value, the pool's
    units that may go there, its battle with that whole reachable pool (None when no unit may
    go), and its counter-attack (attack, ``hold-after``)."""

    name: str
    army: Force
    value: float
    reachable: Force
    battle: Battle | None
    stands: Force = Force(())
    counter: Force | None = None


@dataclass(frozen=True)
class PlanSpec:
    """The whole plan: ``pool`` is what may be sent (the units kept home taken out), ``home``
    the units kept home, ``targets`` in the order given."""

    rules: Ruleset
    defend: bool
    pool: Force
    home: Force
    targets: tuple[Target, ...]
    goal: Goal
    alternatives: int
    runs: int = DEFAULT_PLAN_RUNS  # per sub-army, where a target is too large for the exact engine
    seed: int = 0  # of those Monte Carlo battles: each target's own seed derives from it

    @property
    def side(self) -> str:
        """The side the pool fights on in every battle."""
        return "defender" if self.defend else "attacker"

    def target(self, name: str) -> Target:
        return next(t for t in self.targets if t.name == name)


def _pairs(entries: Entries, what: str) -> list[tuple[str, object]]:
    """``NAME=TEXT`` entries (or a mapping) as (name, text) pairs, the name stripped."""
    if entries is None:
        return []
    if isinstance(entries, str):
        entries = [entries]
    if not isinstance(entries, Mapping | list | tuple):
        raise PlanError(f"{what}: give a list of NAME=... entries, e.g. [{_EXAMPLES[what]}], "
                        f"not {type(entries).__name__}")
    if isinstance(entries, Mapping):
        raw = list(entries.items())
    else:
        raw = []
        for entry in entries:
            if not isinstance(entry, str):
                raise PlanError(f"{what}: write NAME=..., not {entry!r}")
            name, sep, text = entry.partition("=")
            if not sep or not name.strip() or not text.strip():
                raise PlanError(f"{what} '{entry}': write NAME=..., e.g. {_EXAMPLES[what]}")
            raw.append((name, text))
    out = []
    for name, text in raw:
        if not isinstance(name, str) or not name.strip():
            raise PlanError(f"{what}: a name must be text, not {name!r}")
        out.append((" ".join(name.split()), text))
    return out


_EXAMPLES = {"target": "'Ukraine=6 inf, 2 arm'", "threat": "'Karelia=6 inf, 3 arm'",
             "value": "'Ukraine=3'", "reach": "'ftr=Ukraine,Belarus'", "stands": "'Karelia=2 inf'",
             "counter-attack": "'Ukraine=5 inf, 3 arm'"}


def plan_entries(defend: bool, targets: Entries, threats: Entries) -> Entries:
    """The territories of a plan: the attack's ``targets``, or (``defend``) the ``threats``;
    refuses the other side's entries (``--target`` with ``--defend``, ``--threat`` without), as
    the CLI and the web API both ask."""
    if defend and targets:
        raise PlanError("--target names an attack: with --defend, name each territory and its attacker "
                        "with --threat")
    if not defend and threats:
        raise PlanError("--threat belongs to a defence: add --defend, or name attacks with --target")
    return threats if defend else targets


def _named(names: Sequence[str], name: str, what: str) -> str:
    """The target named ``name`` (any case), or a PlanError listing the known ones."""
    for known in names:
        if known.lower() == name.lower():
            return known
    raise PlanError(f"{what}: unknown target '{name}' (targets: {', '.join(names)}): name one of them "
                    f"as --target/--threat writes it")


def _by_target(entries: Entries, names: Sequence[str], what: str) -> dict[str, object]:
    out: dict[str, object] = {}
    for name, text in _pairs(entries, what):
        known = _named(names, name, what)
        if known in out:
            raise PlanError(f"{what}: '{known}' is given twice: give each target once")
        out[known] = text
    return out


def _value(name: str, raw: object) -> float:
    try:
        value = float(raw) if not isinstance(raw, bool) else math.nan  # type: ignore[arg-type]
    except (TypeError, ValueError):
        value = math.nan
    if not math.isfinite(value) or not 0 <= value <= MAX_TERRITORY_VALUE:
        raise PlanError(f"value of {name}: '{raw}' is not a number of IPCs from 0 to {MAX_TERRITORY_VALUE}")
    return value


def _reach(entries: Entries, names: Sequence[str], pool: Force, rules: Ruleset) -> dict[str, tuple[str, ...]]:
    """Unit type -> the targets it may go to (the types not named may go anywhere)."""
    out: dict[str, tuple[str, ...]] = {}
    for token, text in _pairs(entries, "reach"):
        unit = rules.resolve_name(token)
        if unit is None:
            raise PlanError(f"reach: unknown unit '{token}' in {rules.name}")
        if pool.count(unit) == 0:
            raise PlanError(f"reach: the pool has no {unit_label(unit)}: drop --reach {token}=... or "
                            f"add it to the pool")
        if unit in out:
            raise PlanError(f"reach: {unit_label(unit)} is given twice: list all its targets once, "
                            f"e.g. {token}=A,B")
        places = [p.strip() for p in str(text).split(",") if p.strip()]
        out[unit] = tuple(dict.fromkeys(_named(names, p, "reach") for p in places))
    return out


def _minus(pool: Force, home: Force) -> Force:
    """The pool without the units kept home (damaged ones kept first where the home has them)."""
    counts, damaged = [], []
    for name, n in pool.counts:
        left = n - home.count(name)
        if left < 0:
            raise PlanError(f"keep home: {count_label(name, home.count(name))} but the pool has "
                            f"{pool.count(name)}: keep at most what the pool has")
        hurt = max(0, pool.damaged_count(name) - home.damaged_count(name))
        if left:
            counts.append((name, left))
        if min(hurt, left):
            damaged.append((name, min(hurt, left)))
    for name, _ in home.counts:
        if pool.count(name) == 0:
            raise PlanError(f"keep home: the pool has no {unit_label(name)}: drop it from --keep-home")
    return Force(tuple(counts), tuple(damaged))


def sub_army_count(pool: Force) -> int:
    """How many sub-armies ``pool`` has (damaged units counted apart)."""
    return math.prod((n - pool.damaged_count(name) + 1) * (pool.damaged_count(name) + 1)
                     for name, n in pool.counts)


RETREAT_FIELDS = ("after_round", "units_left", "below_win", "aircraft_risk", "strafe", "best",
                  "territory_value")
"""The fields of a ``RetreatPolicy`` a plan's ``retreat`` may set."""


def _retreat(fields: RetreatPolicy | Mapping[str, object] | None, value: float) -> RetreatPolicy | None:
    """A target's retreat: the options given, the best retreat by value counting the target's own
    value (``--value NAME=V``)."""
    if fields is None:
        return None
    if not isinstance(fields, RetreatPolicy | Mapping):
        raise PlanError(f"retreat: give the retreat options as a mapping (e.g. {{'after_round': 2}}), "
                        f"not {type(fields).__name__}")
    if isinstance(fields, RetreatPolicy):
        fields = {name: getattr(fields, name) for name in RETREAT_FIELDS}
    fields = {k: v for k, v in fields.items() if v is not None}
    unknown = [k for k in fields if k not in RETREAT_FIELDS]
    if unknown:
        raise PlanError(f"unknown retreat option {str(unknown[0])!r}: use {', '.join(RETREAT_FIELDS)}")
    if "territory_value" in fields:
        raise PlanError("a plan gives each target its own value: use --value NAME=V, not --territory-value")
    if fields.get("best") == "value":
        fields["territory_value"] = value
    policy = RetreatPolicy(**fields)  # type: ignore[arg-type]  # its __post_init__ checks
    return policy if policy.active else None


def parse_plan(rules: Ruleset, pool: str | Mapping[str, int] | Force, targets: Entries,
               goal: Goal | str = "value", values: Entries = None, reach: Entries = None,
               keep_home: str | Mapping[str, int] | Force | None = None, counter_attack: Entries = None,
               stands: Entries = None, defend: bool = False, alternatives: int = 3,
               retreat: RetreatPolicy | Mapping[str, object] | None = None,
               battle_options: Mapping[str, object] | None = None, runs: int | None = None,
               seed: int | None = 0) -> PlanSpec:
    """Parse and check a plan; raises PlanError (or the Battle's own error) naming the bad part.

    ``targets``: ``["Ukraine=6 inf, 2 arm", ...]`` or ``{"Ukraine": "6 inf, 2 arm"}``: the
    defenders of each target (attack) or the threat each territory faces (``defend``).
    ``battle_options``: what ``Battle`` takes besides the armies and the retreat (``sea``,
    ``ool_attacker``, ``ool_defender``, ``casualty_goal``, ``keep_land``, ``dice``,
    ``attacker_tech``, ``defender_tech``; an order of loss ``"best"``: the plan is sized first,
    ``check_best_size``); ``retreat`` as ``Battle``'s, where ``best="value"`` counts each target's
    value. ``runs`` and ``seed``: the Monte Carlo battles of a target too large to solve exactly
    for every sub-army (``oddsim.plan.odds``; default ``DEFAULT_PLAN_RUNS`` runs each). ``rules``
    is a loaded ``Ruleset`` (``oddsim.plan.attack`` and ``defend`` take an edition's name too)."""
    rules = require_ruleset(rules, "a plan")
    runs = check_runs(DEFAULT_PLAN_RUNS if runs is None else runs, PlanError)
    seed = check_seed(0 if seed is None else seed, PlanError)
    what = "threat" if defend else "target"
    armies = _pairs(targets, what)
    if not armies:
        raise PlanError(f"a plan needs at least one {what}: add --{what} 'NAME=...'")
    names: list[str] = []
    for name, _ in armies:
        if any(name.lower() == known.lower() for known in names):
            raise PlanError(f"{what} '{name}' is named twice: give each {what} once")
        names.append(name)
    whole = parse_force(pool, rules, "pool")
    if whole.is_empty():
        raise PlanError("pool: the pool is empty: list the units to plan with, e.g. '6 inf, 2 arm'")
    home = parse_force(keep_home, rules, "keep home")
    free = _minus(whole, home)
    if sub_army_count(free) > MAX_SUB_ARMIES:
        raise PlanError(f"pool: {free.describe()} has {sub_army_count(free)} sub-armies, more than the "
                        f"{MAX_SUB_ARMIES} an exact plan takes: plan with fewer units (keep some home)")
    value_of = {name: _value(name, raw) for name, raw in _by_target(values, names, "value").items()}
    reach_of = _reach(reach, names, free, rules)
    counters = _by_target(counter_attack, names, "counter-attack")
    standing = _by_target(stands, names, "stands")
    if defend and counters:
        raise PlanError("--counter-attack belongs to an attack plan: drop it with --defend")
    if not defend and standing:
        raise PlanError("--stands belongs to a defence plan (--defend): drop it, or add --defend")
    parsed_goal = parse_goal(goal, len(names), defend)
    if (battle_options or {}).get("sea") and parsed_goal.combine is not Combine.ADD:
        raise PlanError(f"goal {parsed_goal.name} counts territories taken or held, and a sea zone is "
                        f"neither: use --goal value or tuv for sea battles")
    if free.is_empty():
        raise PlanError("keep home: it keeps the whole pool home, so there is nothing to plan: keep fewer")
    if isinstance(alternatives, bool) or not isinstance(alternatives, int) or not 0 <= alternatives <= 20:
        raise PlanError(f"alternatives must be a whole number from 0 to 20, not {alternatives!r}")
    built = []
    for name, text in armies:
        army_text = text if isinstance(text, (str, Mapping, Force)) else str(text)
        army = (parse_force(army_text, rules, "threat") if defend
                else parse_defender(army_text, rules, f"target {name}"))
        if defend and army.is_empty():
            raise PlanError(f"threat {name}: the army is empty: name the units that attack it")
        allowed = [(unit, n) for unit, n in free.counts if name in reach_of.get(unit, names)]
        reachable = Force(tuple(allowed),
                          tuple((u, h) for u, h in free.damaged if name in reach_of.get(u, names)))
        value = value_of.get(name, 0.0)
        there = parse_force(standing.get(name), rules, f"stands {name}")  # type: ignore[arg-type]
        counter = None
        if name in counters:
            counter = parse_force(counters[name], rules, "counter-attack")  # type: ignore[arg-type]
        built.append(Target(name=name, army=army, value=value, reachable=reachable,
                            battle=_battle(rules, defend, army, there, reachable, value, retreat,
                                           battle_options or {}, name, parsed_goal),
                            stands=there, counter=counter))
    spec = PlanSpec(rules=rules, defend=defend, pool=free, home=home, targets=tuple(built),
                    goal=parsed_goal, alternatives=alternatives, runs=runs, seed=seed)
    if any(t.battle is not None and t.battle.best_losses for t in spec.targets):
        check_best_size(spec)
    return spec


def _casualty_options(goal: Goal, options: Mapping[str, object], value: float) -> Mapping[str, object]:
    """The battle options of one target, with the casualty goal where a side chooses each loss:
    as given (``casualty_goal``), else the plan's goal seen from one battle (``value``: the TUV
    swing plus the target's value when taken, ``tuv`` at sea; ``tuv``; ``take`` for the goals
    that count targets taken or held, whose battles the pool's side plays for the territory); a
    goal of ``value`` counts the target's own value, as the best retreat does."""
    chooses = is_best_order(options.get("ool_attacker")) or is_best_order(options.get("ool_defender"))
    if not chooses:
        return options
    asked = options.get("casualty_goal")
    if asked is None:
        if goal.kind not in (GoalKind.VALUE, GoalKind.TUV):
            asked = "take"
        else:
            asked = "tuv" if options.get("sea") or goal.kind is GoalKind.TUV else "value"
    extra = {"casualty_goal": asked, "casualty_value": value if asked == "value" else None}
    return {**options, **extra}


def best_games(spec: PlanSpec) -> Iterator[tuple[str, GameSize]]:
    """Each battle a plan solves with best casualties, named, and its game's size: every
    sub-army of each target whose side chooses each loss (with ``hold-after``, the
    counter-attacks after it as one game on all its land units per composition of them: a
    bound)."""
    rules = spec.rules
    for target in spec.targets:
        battle = target.battle
        if battle is None or not battle.best_losses:
            continue
        fixed = dict(target.army.counts), dict(target.army.damaged)
        counter = (dict(target.counter.counts) if target.counter is not None and spec.goal.needs_holds
                   else None)
        for army in sub_armies(target.reachable):
            force = joined(target.stands if spec.defend else None, army)
            if force.is_empty() and not spec.defend:
                continue
            pool = dict(force.counts), dict(force.damaged)
            sides = (fixed, pool) if spec.defend else (pool, fixed)
            size = armies_size(rules, *sides[0], *sides[1], defender_best=battle.defender.best_losses)
            size = with_counter_attacks(size, rules, pool[0], counter, battle.attacker.best_losses)
            yield f"target {target.name}, sub-army {army.describe()}", size


def check_best_size(spec: PlanSpec, limit: float = MAX_GAMES_SECONDS) -> float:
    """Refuse in one line (TooLargeError), before any battle, a plan whose best-casualties
    battles (``best_games``) hold one too large for the solver or together pass ``limit``
    seconds; returns the seconds predicted."""
    return check_games(best_games(spec), "the plan", "keep some units home or limit --reach", limit)


def _battle(rules: Ruleset, defend: bool, army: Force, there: Force, reachable: Force, value: float,
            retreat: RetreatPolicy | Mapping[str, object] | None, options: Mapping[str, object],
            name: str, goal: Goal) -> Battle | None:
    """The target's battle with the whole reachable pool (checks the options and the units
    against it once); None for an attack no unit may go on."""
    unknown = set(options) - set(BATTLE_OPTIONS)
    if unknown:
        raise PlanError(f"unknown battle option '{sorted(unknown)[0]}': use "
                        f"{', '.join(sorted(BATTLE_OPTIONS))}")
    if not defend and reachable.is_empty():
        return None
    options = _casualty_options(goal, options, value)
    try:
        if defend:
            return battle_from(rules, army, joined(there, reachable),
                               {**options, "retreat": _retreat(retreat, value)})
        return battle_from(rules, reachable, army, {**options, "retreat": _retreat(retreat, value)})
    except PlanError:
        raise
    except OddsimError as error:
        raise error.located(f"{'threat' if defend else 'target'} {name}") from None


BATTLE_OPTIONS = ("sea", "ool_attacker", "ool_defender", "casualty_goal", "keep_land", "dice",
                  "attacker_tech", "defender_tech")
"""The battle options (``oddsim.model.options``, by their flat names) a plan applies to every target
(the retreat comes on its own): ``oddsim plan``'s and the web's plan request's."""
