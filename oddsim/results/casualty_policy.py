"""What best casualties answer besides the outcome: the goal under best play beside the fixed
orders, and the advice a player uses at the table (which units to lose for each number of hits).

The attacker chooses its losses last in a round, knowing the defender's state after the defender's
own losses; the hits the attacker scored decide that state. So its advice is a grid: a loss for
each pair (hits scored, hits taken). The table a player reads collapses the grid: per number of
hits taken, the loss for most rolls, and the hits scored after which another loss is better."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from oddsim.model.names import unit_label

RUN = 3
"""Rows in a run this long or longer, each losing one more unit of the same type than the row
before ("1-10 infantry"), are one row of the tables."""

GOAL_WORDS = {"take": "takes the territory", "win": "wins", "tuv": "TUV swing", "value": "value"}


class Loss(NamedTuple):
    """What a side loses: per unit (name), how many it loses (``damaged``: two-hit units damaged,
    not lost), in the edition's order, those lost first."""

    parts: tuple[tuple[str, int, bool], ...]

    def text(self, span: tuple[int, int] | None = None) -> str:
        """"2 infantry, 1 battleship damaged"; "none". ``span`` (part, low): that part's number as
        a range from low ("10 infantry, 1-3 artillery")."""
        def label(i: int, name: str, n: int) -> str:
            count = f"{span[1]}-{n}" if span is not None and span[0] == i else str(n)
            return f"{count} {unit_label(name, n)}"
        shown = [(i, name, n, hurt) for i, (name, n, hurt) in enumerate(self.parts) if n > 0]
        lost = [label(i, name, n) for i, name, n, hurt in shown if not hurt]
        damaged = [label(i, name, n) + " damaged" for i, name, n, hurt in shown if hurt]
        return ", ".join(lost + damaged) or "none"

    def one_more(self, other: Loss) -> int | None:
        """The part ``other`` loses exactly one more unit of, all else equal; None if none."""
        diff = [i for i, (a, b) in enumerate(zip(self.parts, other.parts, strict=True)) if a != b]
        if len(diff) == 1 and other.parts[diff[0]][1] == self.parts[diff[0]][1] + 1:
            return diff[0]
        return None


class Chance(NamedTuple):
    """A number of hits and its chance in the round."""

    hits: int
    probability: float


GROUPS = ("subs", "aircraft", "the rest")
"""At sea with submarines, the groups of hits (``HitGroups``), by who scored them."""


class HitGroups(NamedTuple):
    """Hits at sea with submarines by the group that scored them: subs' (never on aircraft),
    aircraft's that cannot hit subs (no destroyer on their side), the rest's. ``more``: per group,
    whether its count stands for that many or more (more than the side can take fold in)."""

    subs: int
    aircraft: int
    rest: int
    more: tuple[bool, bool, bool] = (False, False, False)

    def words(self) -> str:
        """"1 from subs, 2 or more from the rest"; "no hit"."""
        counts = (self.subs, self.aircraft, self.rest)
        return ", ".join(f"{n}{' or more' if more else ''} from {who}"
                           for n, more, who in zip(counts, self.more, GROUPS, strict=True) if n) or "no hit"

    @property
    def total(self) -> int:
        return self.subs + self.aircraft + self.rest

    def to_dict(self) -> dict[str, object]:
        return {"subs": self.subs, "aircraft": self.aircraft, "rest": self.rest,
                "or_more": [who for who, more in zip(GROUPS, self.more, strict=True) if more],
                "words": self.words()}


class GroupChance(NamedTuple):
    """Hits by group (``HitGroups``) and their chance in the phase."""

    hits: HitGroups
    probability: float


@dataclass(frozen=True)
class WhenScored:
    """An exception to a row of the attacker's advice: having scored one of ``scored`` hits that
    round (numbers; at sea with submarines hits by group), the defender then left with ``left``
    (one text per distinct state), lose ``lose``; ``probability``: the chance of these hits scored
    with the row's hits taken."""

    scored: tuple[int | HitGroups, ...]
    left: tuple[str, ...]
    probability: float
    lose: str

    def to_dict(self) -> dict[str, object]:
        return {"scored": [_hits_dict(h) for h in self.scored], "scored_words": _scored_words(self.scored),
                "defender_left": list(self.left), "probability": float(self.probability), "lose": self.lose}

    def words(self) -> str:
        """"after scoring 2 or 3 (defender left 1 armor / none)" (at sea with submarines, the
        hits by group in all)."""
        return f"after scoring {_scored_words(self.scored)} (defender left {' / '.join(self.left)})"


@dataclass(frozen=True)
class Advice:
    """One row of advice: with ``hits`` hits (to ``through``, a run of rows each losing one more
    unit of one type: ``lose`` gives that number as a range; their chance ``probability``), lose
    ``lose``; for the attacker, ``when``: the hits it scored after which another loss is better."""

    hits: int
    probability: float
    lose: str
    when: tuple[WhenScored, ...] = ()
    through: int | None = None

    @property
    def label(self) -> str:
        """"1", "1-10"."""
        return str(self.hits) if self.through is None else f"{self.hits}-{self.through}"

    def to_dict(self, when: bool = False) -> dict[str, object]:
        data: dict[str, object] = {"hits": self.hits, "through": self.through or self.hits,
                                   "probability": float(self.probability), "lose": self.lose}
        if when:
            data["when_scored"] = [w.to_dict() for w in self.when]
        return data


@dataclass(frozen=True)
class Scored:
    """The attacker scored ``hits`` (chance ``probability``): the defender lost ``lost`` (by its
    best choice or its order of loss), which left it ``left``."""

    hits: int
    probability: float
    lost: Loss
    left: str

    def to_dict(self) -> dict[str, object]:
        return {"hits": self.hits, "probability": float(self.probability), "defender_lost": self.lost.text(),
                "defender_left": self.left}


@dataclass(frozen=True)
class RoundAdvice:
    """The first round's advice from one state the AA fire leaves the attacker in (``aa_hits``,
    their chance ``probability``, the aircraft lost ``aa_lost``; 0, 1 and "none" without AA fire):
    per number of hits the attacker scores, what the defender loses (``scored``); per number of
    hits it takes (``taken``) and per hits scored, what the attacker loses: ``attacker[i][j]`` for
    ``scored[i]`` and ``taken[j]`` (empty where the attacker follows its order of loss)."""

    aa_hits: int
    probability: float
    aa_lost: str
    scored: tuple[Scored, ...]
    taken: tuple[Chance, ...]
    attacker: tuple[tuple[Loss, ...], ...]

    def defender_rows(self) -> tuple[Advice, ...]:
        """The defender's loss for each number of hits it takes (runs collapsed)."""
        return collapse([(s.hits, s.probability, s.lost, ()) for s in self.scored if s.hits > 0])

    def attacker_rows(self) -> tuple[Advice, ...]:
        """The grid collapsed for the table: per number of hits taken, the loss after most rolls
        (the largest chance of the hits scored), and the other losses with the hits scored that
        call for them."""
        rows = [(taken.hits, taken.probability,
                 *_attacker_column(self.scored, self.attacker, j, taken.probability))
                for j, taken in enumerate(self.taken if self.attacker else ())]
        return collapse(rows)

    def start_words(self) -> str:
        """"no AA hit", "1 AA hit (1 fighter lost)"."""
        if self.aa_hits == 0:
            return "no AA hit"
        return f"{self.aa_hits} AA hit{'s' if self.aa_hits != 1 else ''} ({self.aa_lost} lost)"

    def columns(self) -> tuple[tuple[int, ...], ...]:
        """The grid's hits scored (indexes into ``scored``) grouped where the attacker's losses are
        the same for every number of hits taken, in order of their first."""
        return _columns(self.attacker)

    def to_dict(self) -> dict[str, object]:
        """The whole grid, and ``columns``: the hits scored after which the attacker loses the
        same (its first's column of ``attacker`` holds their losses)."""
        return {"aa_hits": self.aa_hits, "probability": float(self.probability), "aa_lost": self.aa_lost,
                "scored": [s.to_dict() for s in self.scored],
                "taken": [{"hits": t.hits, "probability": float(t.probability)} for t in self.taken],
                "attacker": [[lose.text() for lose in row] for row in self.attacker],
                "columns": _columns_dict(self.scored, self.attacker)}


@dataclass(frozen=True)
class TypedAdvice:
    """One row of round 1's advice at sea with submarines: in ``phase`` ("surprise strike",
    "general fire"), ``side`` taking ``hits`` (by group: "1 from subs, 1 from the rest"; chance
    ``probability``) loses ``lose``; for the attacker, ``when``: the hits it scored after which
    another loss is better."""

    side: str
    phase: str
    hits: str
    probability: float
    lose: str
    when: tuple[WhenScored, ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {"side": self.side, "phase": self.phase, "hits": self.hits,
                "probability": float(self.probability), "lose": self.lose,
                "when_scored": [w.to_dict() for w in self.when]}


@dataclass(frozen=True)
class TypedScored:
    """At sea with submarines, the attacker scored ``hits`` (by group, chance ``probability``):
    the defender lost ``lost`` (by its best choice or its order of loss), which left it ``left``."""

    hits: HitGroups
    probability: float
    lost: Loss
    left: str

    def to_dict(self) -> dict[str, object]:
        return {"hits": self.hits.to_dict(), "probability": float(self.probability),
                "defender_lost": self.lost.text(), "defender_left": self.left}


@dataclass(frozen=True)
class PhaseAdvice:
    """Round 1's advice at sea with submarines in one ``phase`` ("surprise strike", "general
    fire") fought from one state, reached with chance ``probability``. ``struck``: general fire
    after a surprise strike, what the strike sank (the attacker's, the defender's); None where no
    strike came before. As ``RoundAdvice``, with hits by group: per hits the attacker scores, what
    the defender loses (``scored``); per hits it takes that cost it a unit (``taken``) and per hits
    scored, what the attacker loses: ``attacker[i][j]`` (empty where it follows its order of loss)."""

    phase: str
    probability: float
    struck: tuple[Loss, Loss] | None
    scored: tuple[TypedScored, ...]
    taken: tuple[GroupChance, ...]
    attacker: tuple[tuple[Loss, ...], ...]

    def title(self) -> str:
        """"surprise strike", "general fire", "general fire after a surprise strike that sank
        nothing", "... that sank the attacker's 1 submarine and the defender's 1 destroyer"."""
        if self.struck is None:
            return self.phase
        sank = [f"the {side}'s {lost.text()}" for side, lost in zip(("attacker", "defender"), self.struck,
                                                                     strict=True) if lost.text() != "none"]
        return f"{self.phase} after a surprise strike that sank {' and '.join(sank) or 'nothing'}"

    def defender_rows(self) -> tuple[TypedAdvice, ...]:
        """The defender's loss for each of the attacker's hits that cost it a unit."""
        return tuple(TypedAdvice("defender", self.phase, s.hits.words(), s.probability, s.lost.text())
                     for s in self.scored if s.lost.text() != "none")

    def attacker_rows(self) -> tuple[TypedAdvice, ...]:
        """The grid collapsed for the table, as on land: per hits taken, the loss after most rolls
        and the other losses with the hits scored that call for them."""
        rows = []
        for j, taken in enumerate(self.taken if self.attacker else ()):
            usual, when = _attacker_column(self.scored, self.attacker, j, taken.probability)
            rows.append(TypedAdvice("attacker", self.phase, taken.hits.words(), taken.probability,
                                    usual.text(), when))
        return tuple(rows)

    def to_dict(self) -> dict[str, object]:
        """The whole grid, as ``RoundAdvice.to_dict`` with hits by group, and its start."""
        struck = None if self.struck is None else {"attacker": self.struck[0].text(),
                                                   "defender": self.struck[1].text()}
        return {"phase": self.phase, "title": self.title(), "probability": float(self.probability),
                "struck": struck, "scored": [s.to_dict() for s in self.scored],
                "taken": [{"hits": t.hits.to_dict(), "probability": float(t.probability)}
                          for t in self.taken],
                "attacker": [[lose.text() for lose in row] for row in self.attacker],
                "columns": _columns_dict(self.scored, self.attacker)}


@dataclass(frozen=True)
class CasualtyPolicy:
    """Best casualties' figures: the goal's value under best play (``value``) and with every side
    by its order of loss (``fixed``), which sides choose, the aircraft the attacker loses to AA fire
    before round 1 (``aa``), and the first round's advice from each state the AA fire leaves
    (``starts``, the likeliest first; one without AA fire). ``in_progress``: the battle resumes
    in progress, so its first round is the round being fought now. ``phases``: at sea with
    submarines, the first round's advice by phase and group of hits instead (``starts`` empty):
    the surprise strike from the start if there is one, then general fire from each state it
    leaves (the likeliest first)."""

    goal: str
    value: float
    fixed: float
    attacker_best: bool
    defender_best: bool
    aa: tuple[Advice, ...]
    starts: tuple[RoundAdvice, ...]
    in_progress: bool = False
    phases: tuple[PhaseAdvice, ...] = ()

    @property
    def chooser(self) -> str:
        sides = [side for side, best in (("attacker", self.attacker_best), ("defender", self.defender_best))
                 if best]
        return " and ".join(sides)

    @property
    def shown_phases(self) -> tuple[PhaseAdvice, ...]:
        """The phases the table shows: the surprise strike, if any, and general fire after its
        likeliest outcome (the others: --json's ``typed_grid``)."""
        strike = bool(self.phases) and self.phases[0].phase == "surprise strike"
        return self.phases[:2] if strike else self.phases[:1]

    @property
    def typed(self) -> tuple[TypedAdvice, ...]:
        """The rows of the phases shown, each phase the defender's then the attacker's."""
        return tuple(row for p in self.shown_phases
                     for row in (p.defender_rows() if self.defender_best else ()) + p.attacker_rows())

    @property
    def defender(self) -> tuple[Advice, ...]:
        """The defender's advice for the first round (after the likeliest AA outcome)."""
        return self.starts[0].defender_rows() if self.defender_best and self.starts else ()

    @property
    def attacker(self) -> tuple[Advice, ...]:
        """The attacker's advice for the first round (after the likeliest AA outcome), collapsed."""
        return self.starts[0].attacker_rows() if self.attacker_best and self.starts else ()

    def summary(self) -> str:
        """"takes 76.3% choosing each loss; 57.8% by the order of loss"."""
        def figure(x: float) -> str:
            return f"{100 * x:.1f}%" if self.goal in ("take", "win") else f"{x:+.2f} IPC"
        what = GOAL_WORDS[self.goal]
        return (f"{what} {figure(self.value)} with the {self.chooser} choosing each loss; "
                f"{figure(self.fixed)} by the order of loss")

    def round_words(self) -> str:
        """"Round 1,", "This round," (in progress), "Round 1, after no AA hit," (after AA fire)."""
        if self.in_progress:
            return "This round,"
        if len(self.starts) > 1:
            return f"Round 1, after {self.starts[0].start_words()},"
        return "Round 1,"

    def lines(self) -> list[str]:
        """The summary and the advice tables as text lines."""
        out = ["Best casualties (goal " + self.goal + "): " + self.summary()]
        when = self.round_words()
        for title, rows in (("AA hits before round 1, the attacker loses", self.aa),
                            (f"{when} the defender takes hits and loses", self.defender),
                            (f"{when} the attacker takes hits and loses", self.attacker)):
            if rows:
                out.append(f"  {title}:")
                width = max(2, *(len(row.label) for row in rows))
                for row in rows:
                    hits = f"{row.label:>{width}} hit{'s' if row.label != '1' else ' '}"
                    out.append(f"    {hits} ({100 * row.probability:5.1f}%): {row.lose}")
                    for other in row.when:
                        out.append(f"        {other.words()} ({100 * other.probability:.1f}%): {other.lose}")
        for phase in self.shown_phases:
            when = "This round" if self.in_progress else "Round 1"
            for side, typed in (("defender", phase.defender_rows() if self.defender_best else ()),
                                ("attacker", phase.attacker_rows())):
                if not typed:
                    continue
                out.append(f"  {when}, {phase.title()}, the {side} takes hits and loses:")
                wide = max(len(r.hits) for r in typed)
                for r in typed:
                    out.append(f"    {r.hits:<{wide}} ({100 * r.probability:5.1f}%): {r.lose}")
                    out += [f"        {w.words()} ({100 * w.probability:.1f}%): {w.lose}" for w in r.when]
        if len(self.phases) > len(self.shown_phases):
            out.append("  (general fire after each outcome of the surprise strike: --json's "
                       "casualty_policy.typed_grid)")
        if len(self.starts) > 1 and (self.attacker or self.defender):
            out.append("  (the advice after each AA outcome: --json's casualty_policy.grid)")
        return out

    def to_dict(self) -> dict[str, object]:
        return {"goal": self.goal, "value": float(self.value), "fixed_order_value": float(self.fixed),
                "attacker_best": self.attacker_best, "defender_best": self.defender_best,
                "in_progress": self.in_progress,
                "advice": "typed" if self.phases else "grid",
                "aa": [r.to_dict() for r in self.aa], "defender": [r.to_dict() for r in self.defender],
                "attacker": [r.to_dict(when=True) for r in self.attacker],
                "grid": [s.to_dict() for s in self.starts], "typed": [r.to_dict() for r in self.typed],
                "typed_grid": [p.to_dict() for p in self.phases]}


def collapse(rows: list[tuple[int, float, Loss, tuple[WhenScored, ...]]]) -> tuple[Advice, ...]:
    """Rows (hits, chance, loss, exceptions) as the table's: a run of ``RUN`` rows or more, of
    consecutive hits without exceptions, each losing one more unit of the same type than the row
    before (its first row losing one or more of it), is one row ("1-10 hits: 1-10 infantry")."""
    out: list[Advice] = []
    i = 0
    while i < len(rows):
        hits, p, loss, when = rows[i]
        j, part = i, None
        while not when and j + 1 < len(rows) and not rows[j + 1][3] and rows[j + 1][0] == rows[j][0] + 1:
            step = rows[j][2].one_more(rows[j + 1][2])
            if step is None or part is not None and step != part or loss.parts[step][1] == 0:
                break
            part, j = step, j + 1
        if part is not None and j - i + 1 >= RUN:
            last = rows[j][2]
            out.append(Advice(hits, sum(r[1] for r in rows[i:j + 1]), last.text((part, loss.parts[part][1])),
                              through=rows[j][0]))
            i = j + 1
        else:
            out.append(Advice(hits, p, loss.text(), when))
            i += 1
    return tuple(out)


class _ScoredLike(Protocol):
    @property
    def hits(self) -> int | HitGroups: ...
    @property
    def probability(self) -> float: ...
    @property
    def left(self) -> str: ...


def _attacker_column(scored: Sequence[_ScoredLike], attacker: tuple[tuple[Loss, ...], ...], j: int,
                     taken: float) -> tuple[Loss, tuple[WhenScored, ...]]:
    """Column j of the attacker's grid (hits taken j, chance ``taken``) for the table: the loss
    after most rolls (the largest chance of the hits scored; ties: the fewest hits scored), and the
    other losses with the hits scored that call for them."""
    groups: dict[Loss, list[_ScoredLike]] = {}
    for i, s in enumerate(scored):
        groups.setdefault(attacker[i][j], []).append(s)
    mass = {lose: sum(s.probability for s in group) for lose, group in groups.items()}
    usual = max(groups, key=mass.__getitem__)
    return usual, tuple(WhenScored(tuple(s.hits for s in group), tuple(dict.fromkeys(s.left for s in group)),
                                   taken * mass[lose], lose.text())
                        for lose, group in groups.items() if lose != usual)


def _columns(attacker: tuple[tuple[Loss, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """The grid's hits scored (indexes) grouped where the attacker's losses are the same for every
    number of hits taken, in order of their first."""
    groups: dict[tuple[Loss, ...], list[int]] = {}
    for i, column in enumerate(attacker):
        groups.setdefault(column, []).append(i)
    return tuple(tuple(group) for group in groups.values())


def _columns_dict(scored: Sequence[_ScoredLike],
                  attacker: tuple[tuple[Loss, ...], ...]) -> list[dict[str, object]]:
    """``_columns`` for --json: the hits scored, in words, their chance, what the defender has left
    after them, and ``first``: the index of the column of ``attacker`` that holds their losses."""
    return [{"scored": [_hits_dict(scored[i].hits) for i in group],
             "scored_words": _scored_words(tuple(scored[i].hits for i in group)),
             "probability": float(sum(scored[i].probability for i in group)),
             "defender_left": list(dict.fromkeys(scored[i].left for i in group)), "first": group[0]}
            for group in _columns(attacker)]


def _hits_dict(hits: int | HitGroups) -> object:
    return hits.to_dict() if isinstance(hits, HitGroups) else hits


def _scored_words(scored: tuple[int | HitGroups, ...]) -> str:
    """"2 or 3" (``_numbers``). Hits by group by their totals: "0, 2 or 3", "4-6 or more" (the
    largest total stands for that many or more); what the defender has left beside them is what the
    attacker's choice turns on, so the groups themselves are left to --json."""
    numbers = tuple(h for h in scored if isinstance(h, int))
    if len(numbers) == len(scored):
        return _numbers(numbers)
    groups = [h for h in scored if isinstance(h, HitGroups)]
    totals = sorted({h.total for h in groups})
    more = any(any(h.more) for h in groups if h.total == totals[-1])
    return _numbers(tuple(totals)) + (" or more" if more else "")


def _numbers(values: tuple[int, ...]) -> str:
    """"3", "2 or 3", "0, 2 or 3", "2-5" (a run of three or more)."""
    runs: list[list[int]] = []
    for v in values:
        if runs and v == runs[-1][-1] + 1:
            runs[-1].append(v)
        else:
            runs.append([v])
    parts = [f"{r[0]}-{r[-1]}" if len(r) >= 3 else ", ".join(map(str, r)) for r in runs]
    text = ", ".join(parts)
    head, sep, tail = text.rpartition(", ")
    return f"{head} or {tail}" if sep else text
