"""Armies: parse ``"3 inf, 2 art, 1 damaged bb"`` or ``{"inf": 3}`` into unit counts, and the
arithmetic of armies (``join_forces``, ``Force.minus``, ``Force.where``, ``Force.ipc``) that the
stages use to key compositions by ``Force``: a normalised Force (units in the edition's order,
as ``parse_force`` makes it) is hashable and equal exactly when its ``describe()`` is."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from numbers import Integral

from oddsim._runtime.ascii_integers import ASCII_DIGITS_HINT, other_digits, whole_number
from oddsim.errors import ForceError
from oddsim.model.names import DAMAGED_WORDS, EMPTY_WORDS, count_label, describe_counts, unit_label
from oddsim.model.rules import Ruleset, load_ruleset

MAX_UNITS_PER_SIDE = 1000
"""The largest army oddsim accepts; bigger ones are surely a typo."""

_NUMBER = re.compile(r"^[+-]?[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?$")
_GLUED = re.compile(r"^([0-9]+)([a-zA-Z].*)$")  # "3inf"


@dataclass(frozen=True)
class Force:
    """One side's units: counts by canonical unit name, and how many of them are already damaged."""

    counts: tuple[tuple[str, int], ...]
    damaged: tuple[tuple[str, int], ...] = ()

    def count(self, name: str) -> int:
        return dict(self.counts).get(name, 0)

    def damaged_count(self, name: str) -> int:
        return dict(self.damaged).get(name, 0)

    @property
    def total(self) -> int:
        return sum(n for _, n in self.counts)

    def is_empty(self) -> bool:
        return self.total == 0

    def repaired(self) -> Force:
        """The same units with every damaged two-hit unit whole again."""
        return Force(self.counts)

    def describe(self) -> str:
        """The units as players write them, e.g. ``3 infantry, 2 AA guns, 1 damaged battleship``;
        it parses back to the same force."""
        return describe_counts(self.counts, dict(self.damaged))

    def ipc(self, rules: Ruleset) -> int:
        """What the units cost in ``rules`` (IPC), damaged ones at full price."""
        return sum(rules.unit(name).cost * n for name, n in self.counts)

    def where(self, keep: Callable[[str], bool]) -> Force:
        """The units of the types ``keep(name)`` says, in the same order (a normalised force
        stays normalised)."""
        return Force(tuple((name, n) for name, n in self.counts if keep(name)),
                     tuple((name, n) for name, n in self.damaged if keep(name)))

    def plus(self, other: Force) -> Force:
        """These units and ``other``'s, damaged ones added too, this army's unit order first; not
        checked against an edition (``join_forces`` checks)."""
        counts = dict(self.counts)
        damaged = dict(self.damaged)
        for name, n in other.counts:
            counts[name] = counts.get(name, 0) + n
        for name, n in other.damaged:
            damaged[name] = damaged.get(name, 0) + n
        return Force(tuple(counts.items()), tuple(damaged.items()))

    def minus(self, taken: Force, rules: Ruleset, side: str = "army") -> Force:
        """These units without ``taken`` (of them: ForceError where it is not), normalised for
        ``rules``. Damaged units in ``taken`` leave as damaged ones; of each type the whole units
        leave first, so its damaged ones stay damaged as far as its units left go."""
        counts = dict(self.counts)
        for name, n in taken.counts:
            if n > counts.get(name, 0):
                raise ForceError(f"{side}: {count_label(name, n)} cannot be taken from "
                                 f"{count_label(name, counts.get(name, 0))}")
            counts[name] -= n
        damaged = {name: min(n - taken.damaged_count(name), counts.get(name, 0))
                   for name, n in self.damaged}
        return _normalise(counts, {name: n for name, n in damaged.items() if n > 0}, rules, side)


def join_forces(rules: Ruleset, *forces: Force | None, side: str = "army") -> Force:
    """One army of several (None: none), damaged units kept, checked and normalised for
    ``rules`` as ``parse_force`` checks a hand-built Force (``side`` names it in errors)."""
    joined = Force((), ())
    for force in forces:
        if force is not None:
            joined = joined.plus(force)
    return parse_force(joined, rules, side)


def parse_force(spec: str | Mapping[str, int] | Force | None, rules: Ruleset | str,
                side: str = "army") -> Force:
    """Parse an army for ``rules`` (a Ruleset or an edition name); raises ForceError naming the
    bad token.

    A ``Force`` built by hand is checked like a string or a mapping: unit names (aliases
    included) are resolved, counts must be whole numbers in range, and damaged units must be
    two-hit units counted among the side's units."""
    if not isinstance(rules, Ruleset):
        rules = load_ruleset(rules)
    if isinstance(spec, Force):
        return _parse_built(spec, rules, side)
    if spec is None:
        return Force(())
    entries: list[tuple[str, object]]
    if isinstance(spec, Mapping):
        entries = []
        for key, value in spec.items():
            if not isinstance(key, str):
                raise ForceError(f"{side}: unit names must be strings, not {key!r}")
            entries.append((key, value))
    elif isinstance(spec, str):
        entries = _split(spec, side)
    else:
        raise ForceError(f"{side}: expected a string like '3 inf, 1 arm' or a mapping, "
                         f"not {type(spec).__name__}")
    counts: dict[str, int] = {}
    damaged: dict[str, int] = {}
    for token, raw_count in entries:
        count = _count(raw_count, token, side)
        words = token.strip().split(maxsplit=1)
        is_damaged = len(words) == 2 and words[0].lower() in DAMAGED_WORDS
        name = _resolve(words[1] if is_damaged else token, rules, side)
        counts[name] = counts.get(name, 0) + count
        if is_damaged:
            damaged[name] = damaged.get(name, 0) + count
    return _normalise(counts, damaged, rules, side)


EMPTY_DEFENDER = "the army is empty: write 'none' for an undefended territory"


def parse_defender(spec: str | Mapping[str, int] | Force | None, rules: Ruleset,
                   side: str = "defender") -> Force:
    """A defending army, by the one rule of the CLI, the web and the Python API: no units only
    when written so (``"none"``, ``"nothing"`` ...); a missing army (``None``), an empty text or
    mapping, or counts of 0 (``{"inf": 0}``, ``"0 inf"``) are refused, naming the word. A
    ``Force`` already built (a program's value) is taken as it is, empty or not."""
    if isinstance(spec, Force):
        return parse_force(spec, rules, side)
    if isinstance(spec, str) and spec.strip().lower() in EMPTY_WORDS:
        return Force(())
    if spec is None or (isinstance(spec, str) and not spec.strip()):
        raise ForceError(f"{side}: {EMPTY_DEFENDER}")
    force = parse_force(spec, rules, side)
    if force.is_empty():
        raise ForceError(f"{side}: {EMPTY_DEFENDER}")
    return force


def _resolve(token: str, rules: Ruleset, side: str) -> str:
    name = rules.resolve_name(token)
    if name is None:
        known = ", ".join(unit_label(u.name) for u in rules.units)
        raise ForceError(f"{side}: unknown unit '{token.strip()}' in {rules.name} (known: {known})")
    return name


def _parse_built(force: Force, rules: Ruleset, side: str) -> Force:
    """A hand-built ``Force`` checked and normalised like parsed text (counts include the
    damaged units, as ``Force.counts`` does)."""
    tallies: list[dict[str, int]] = []
    for field_name in ("counts", "damaged"):
        pairs = getattr(force, field_name)
        tally: dict[str, int] = {}
        if not isinstance(pairs, (tuple, list)):
            raise ForceError(f"{side}: Force.{field_name} must be (unit, count) pairs, "
                             f"not {type(pairs).__name__}")
        for pair in pairs:
            if not isinstance(pair, (tuple, list)) or len(pair) != 2 or not isinstance(pair[0], str):
                raise ForceError(f"{side}: Force.{field_name} must be (unit, count) pairs, "
                                 f"not {pair!r}")
            token, raw = pair
            name = _resolve(token, rules, side)
            tally[name] = tally.get(name, 0) + _count(raw, token, side)
        tallies.append(tally)
    return _normalise(tallies[0], tallies[1], rules, side)


def _split(text: str, side: str) -> list[tuple[str, object]]:
    stripped = text.strip()
    if stripped.lower() in EMPTY_WORDS:
        return []
    entries = []
    for part in re.split(r"[,;]", stripped):
        words = part.split(maxsplit=1)
        if not words:
            continue
        glued = _GLUED.match(words[0])
        if glued and len(words) == 1:
            entries.append((glued.group(2), glued.group(1)))
        elif _NUMBER.match(words[0]):
            if len(words) == 1:
                raise ForceError(f"{side}: '{part.strip()}' has a count but no unit: write e.g. "
                                 f"'{words[0]} inf'")
            entries.append((words[1], words[0]))
        elif other_digits(words[0]):  # "٣ inf"
            raise ForceError(f"{side}: count '{words[0]}': {ASCII_DIGITS_HINT}, e.g. '3 inf'")
        elif words[0].startswith(("-", "+")) or words[0][0].isdigit():
            raise ForceError(f"{side}: count '{words[0]}' is not a whole number: write e.g. '3 inf'")
        else:
            entries.append((part.strip(), 1))
    if not entries:
        hint = " (or 'none' for no units)"
        if side in ATTACKING_SIDES:
            hint = ""
        elif side in DEFENDING_SIDES:
            hint = " (or 'none' for an undefended territory)"
        raise ForceError(f"{side}: the army is empty: list units like '3 inf, 1 arm'{hint}")
    return entries


ATTACKING_SIDES = frozenset(("attacker", "counter-attack"))
"""Armies that attack: never empty, so 'none' is no way to write them (``_split``'s hint)."""
DEFENDING_SIDES = frozenset(("defender", "against"))
"""Armies that defend a territory: 'none' is an undefended one."""


_SHOWN_DIGITS = 40
"""A count is quoted in full up to this many digits, longer ones by their first digits and length."""


def _count(raw: object, token: str, side: str) -> int:
    """One unit count, from army text ("3") or a mapping's value (3, 3.0, "3"): exact at any
    size, so an error quotes the count as it was written (shortened when it is very long)."""
    if isinstance(raw, bool):
        raise ForceError(f"{side}: count of '{token}' must be a whole number, not {raw!r}")
    if isinstance(raw, str):
        text = raw.strip()
        value = whole_number(text, MAX_UNITS_PER_SIDE)
        if value is not None:
            return _in_range(value, _shown(text), token, side)
        if other_digits(text):  # "1_000", "３"
            raise ForceError(f"{side}: count '{raw}' of '{token}': {ASCII_DIGITS_HINT}")
        try:
            float(text)
        except ValueError:
            raise ForceError(f"{side}: count '{raw}' of '{token}' is not a number") from None
        raise ForceError(f"{side}: count '{raw}' of '{token}' must be a whole number")
    if isinstance(raw, float):
        if not math.isfinite(raw) or not raw.is_integer():
            raise ForceError(f"{side}: count {raw} of '{token}' must be a whole number")
        return _in_range(int(raw), repr(raw), token, side)  # 1e+308, not int(1e308)'s 309 digits
    if isinstance(raw, Integral):
        value = int(raw)
        return _in_range(value, _shown_int(value), token, side)
    raise ForceError(f"{side}: count of '{token}' must be a whole number, not {raw!r}")


def _shown(text: str) -> str:
    """A count as typed; a very long one as its first digits and its number of digits."""
    sign = text[0] if text[0] in "+-" else ""
    digits = text.lstrip("+-")
    if len(digits) <= _SHOWN_DIGITS:
        return text
    return f"{sign}{digits[:12]}... ({len(digits)} digits)"


def _shown_int(value: int) -> str:
    """An integer's digits (shortened like typed text), at any size: ``str()`` refuses over
    4300 digits."""
    size = abs(value)
    if size.bit_length() <= 4 * _SHOWN_DIGITS:  # at most 49 digits
        return _shown(str(value))
    digits = int(size.bit_length() * math.log10(2))  # within one of the count of digits
    while 10 ** digits <= size:
        digits += 1
    lead = size // 10 ** (digits - 12)
    return f"{'-' if value < 0 else ''}{lead}... ({digits} digits)"


def _in_range(value: int, shown: str, token: str, side: str) -> int:
    if value < 0:
        raise ForceError(f"{side}: count {shown} of '{token}' is negative: counts start at 0")
    if value > MAX_UNITS_PER_SIDE:
        raise ForceError(f"{side}: {shown} '{token}' is too many: at most {MAX_UNITS_PER_SIDE} "
                         f"units per side")
    return value


def _normalise(counts: dict[str, int], damaged: dict[str, int], rules: Ruleset,
               side: str) -> Force:
    for name, n in damaged.items():
        if rules.unit(name).hits < 2:
            raise ForceError(f"{side}: {unit_label(name)} has one hit in {rules.name}, so it cannot "
                             f"be entered as damaged")
        if n > counts.get(name, 0):
            raise ForceError(f"{side}: {count_label(name, n, damaged=True)} but "
                             f"{count_label(name, counts.get(name, 0))} in all: "
                             f"damaged units are counted among the side's units")
    if rules.not_modelled:  # (a ruleset read from a TripleA game file)
        refused = rules.refusal(name for name, n in counts.items() if n > 0)
        if refused is not None:
            raise ForceError(f"{side}: {refused}")
    total = sum(counts.values())
    if total > MAX_UNITS_PER_SIDE:
        raise ForceError(f"{side}: {total} units is too many: at most {MAX_UNITS_PER_SIDE} "
                         f"units per side")
    order = [u.name for u in rules.units]
    return Force(
        counts=tuple((n, counts[n]) for n in order if counts.get(n)),
        damaged=tuple((n, damaged[n]) for n in order if damaged.get(n)),
    )
