"""Every battle of a game's board answered: each through the one request path every battle takes
(``BattleRequest``, ``run_request``: exact where it is cheap, else Monte Carlo with its error),
listed in the map's order with the territories whose battle oddsim refuses and why."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from oddsim.errors import OddsimError
from oddsim.game.loading import Game
from oddsim.limits import MethodChoice
from oddsim.model.forces import Force
from oddsim.results.battle_result import BattleResult
from oddsim.results.estimates import percent, swing
from oddsim.stages.request import BattleRequest, check_engine_options, run_request
from oddsim.triplea.armies import Armies, battle_of
from oddsim.triplea.battlefields import Battlefield, Standoff, battlefields

BOARD_KEYS = ("territory", "sea", "owner", "attacker_players", "defender_players", "players", "attacker",
              "defender", "attacker_army", "defender_army", "attacker_tech", "defender_tech", "notes",
              "refused")
"""The keys of a listed territory that say what stands there (``BoardAnswer.to_dict``); a battle
answered adds the figures of ``oddsim battle --json``."""


@dataclass(frozen=True)
class BoardAnswer:
    """One territory of the board: its battle's ``armies`` and ``result``, or ``refused``, the
    one line saying why oddsim does not answer it (``field`` None: a sea zone whose attacker is
    not known, ``standoff`` says who stands there)."""

    territory: str
    sea: bool
    owner: str | None
    field: Battlefield | None = None
    armies: Armies | None = None
    result: BattleResult | None = None
    refused: str | None = None
    standoff: Standoff | None = None

    def to_dict(self) -> dict[str, Any]:
        """``territory``, ``sea``, ``owner``, each side's players, unit ``counts`` and army text
        (as ``oddsim battle -a`` takes it), ``refused`` (or None) and, for a battle answered,
        every figure of ``oddsim battle --json``."""
        field, armies = self.field, self.armies
        data: dict[str, Any] = {
            "territory": self.territory, "sea": self.sea, "owner": self.owner,
            "attacker_players": list(field.attackers) if field else None,
            "defender_players": list(field.defenders) if field else None,
            "players": list(self.standoff.players) if self.standoff else None,
            "attacker": _counts(armies.attacker) if armies else None,
            "defender": _counts(armies.defender) if armies else None,
            "attacker_army": armies.attacker.describe() if armies else None,
            "defender_army": armies.defender.describe() or "none" if armies else None,
            "attacker_tech": list(armies.attacker_tech) if armies else None,
            "defender_tech": list(armies.defender_tech) if armies else None,
            "notes": list(armies.notes) if armies else [],
            "refused": self.refused,
        }
        if self.result is not None:
            data.update(self.result.to_dict())
        return data


@dataclass(frozen=True)
class GameBattles:
    """A board's battles answered (``answers``, the map's order), of the game ``label``."""

    label: str
    board_name: str
    round: int
    rules_name: str
    answers: tuple[BoardAnswer, ...]

    @property
    def interrupted(self) -> bool:
        return any(a.result is not None and a.result.interrupted for a in self.answers)

    def to_list(self) -> list[dict[str, Any]]:
        """``oddsim game battles --json``: one object per territory (``BoardAnswer.to_dict``)."""
        return [answer.to_dict() for answer in self.answers]

    def to_table(self) -> str:
        """The battles for people: per territory its sides, then its odds (or why none)."""
        answered = [a for a in self.answers if a.result is not None]
        title = self.board_name or self.label
        left = len(self.answers) - len(answered)
        rules = "" if self.rules_name == title else f" ({self.rules_name})"
        lines = [f"{title}, round {self.round}{rules}: {len(answered)} battle"
                 f"{'' if len(answered) == 1 else 's'} answered" + (f", {left} not" if left else "")]
        if not self.answers:
            lines.append("no territory holds units of players at war")
        for answer in self.answers:
            lines.append("")
            lines.extend(_lines(answer))
        return "\n".join(lines)


def game_battles(game: Game, attacker: str | None = None, method: str = MethodChoice.AUTO,
                 runs: int | None = None, seed: int | None = None,
                 options: Mapping[str, object] | None = None,
                 on_chunk: Callable[[int], bool] | None = None) -> GameBattles:
    """Every battle on ``game``'s board answered (``attacker``: the player attacking at sea; the
    file does not say whose turn it is). ``method``, ``runs``, ``seed`` as ``oddsim battle``'s
    (auto: exact where cheap, else Monte Carlo), for every battle; ``options``: battle options
    by their flat names for every battle. A battle oddsim cannot fight is listed with its reason;
    BoardError for an unknown ``attacker``, BattleError for bad engine options."""
    check_engine_options(method, runs, seed)
    fields, standoffs = battlefields(game.board, attacker)
    order = {name: index for index, name in enumerate(game.board.territories)}
    answers: list[BoardAnswer] = []
    for field in fields:
        answers.append(_answer(game, field, method, runs, seed, options, on_chunk))
    for standoff in standoffs:
        territory = standoff.territory
        answers.append(BoardAnswer(territory.name, territory.water, territory.owner,
                                   refused=standoff.reason, standoff=standoff))
    answers.sort(key=lambda a: order[a.territory])
    board = game.board
    return GameBattles(game.label, board.name, board.round, game.rules.name, tuple(answers))


def _answer(game: Game, field: Battlefield, method: str, runs: int | None, seed: int | None,
            options: Mapping[str, object] | None, on_chunk: Callable[[int], bool] | None) -> BoardAnswer:
    territory = field.territory
    try:
        battle, armies = battle_of(field, game.board, game.rules, options, names=game.unit_names)
        request = BattleRequest(battle, method=method, runs=runs, seed=seed)
    except OddsimError as error:
        return BoardAnswer(territory.name, territory.water, territory.owner, field, refused=str(error))
    result = run_request(request, on_chunk=on_chunk)
    assert isinstance(result, BattleResult)
    return BoardAnswer(territory.name, territory.water, territory.owner, field, armies, result)


def _counts(force: Force) -> dict[str, int]:
    return {name: count for name, count in force.counts if count}


def _side(players: tuple[str | None, ...], army: Force | None) -> str:
    who = " and ".join("no player" if p is None else p for p in players)
    return f"{who}: {army.describe() or 'none'}" if army is not None else who


def _lines(answer: BoardAnswer) -> list[str]:
    kind = "sea" if answer.sea else f"land, owned by {answer.owner or 'no player'}"
    head = f"{answer.territory} ({kind})"
    field, armies, result = answer.field, answer.armies, answer.result
    if field is None:
        return [head, f"  not answered: {answer.refused}"]
    lines = [f"{head}: {_side(field.attackers, armies.attacker if armies else None)}  attack  "
             f"{_side(field.defenders, armies.defender if armies else None)}"]
    if armies is not None:
        techs = [f"{role} tech {', '.join(t)}" for role, t in
                 (("attacker", armies.attacker_tech), ("defender", armies.defender_tech)) if t]
        lines.extend(f"  {line}" for line in (*techs, *armies.notes))
    if result is None:
        lines.append(f"  not answered: {answer.refused}")
        return lines
    error = result.std_error.get
    how = "exact" if result.runs is None else f"Monte Carlo, {result.runs:,} runs"
    takes = "" if result.takes_territory is None else \
        f", takes it {percent(result.takes_territory, error('takes_territory'))}"
    lines.append(f"  attacker wins {percent(result.attacker_win, error('attacker_win'))}{takes}, "
                 f"defender wins {percent(result.defender_win, error('defender_win'))}; TUV swing "
                 f"{swing(result.tuv_swing, error('tuv_swing'))} ({how})")
    return lines
