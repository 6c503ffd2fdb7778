"""The operations of ``oddsim.trench``: solve a battle exactly, simulate it, or either."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from oddsim.limits import EXACT_OR_MC, refuse_for_exact
from oddsim.trench.exact import exact_counts
from oddsim.trench.model import (
    UNKNOWN,
    DiceFronts,
    Information,
    Policy,
    RollOrder,
    SupportFleet,
    TiedFront,
    TrenchBattle,
    TrenchError,
)
from oddsim.trench.montecarlo import DEFAULT_RUNS, check_runs, check_seed, mc_counts
from oddsim.trench.outcomes import DESTROY_MARGIN
from oddsim.trench.play import PlayRules
from oddsim.trench.prepared import prepare
from oddsim.trench.result import PerSide, TrenchCounts, TrenchResult


def _check_battle(battle) -> TrenchBattle:
    if not isinstance(battle, TrenchBattle):
        raise TrenchError(f"expected a TrenchBattle, got {type(battle).__name__}")
    return battle


def _result(battle: TrenchBattle, play: PlayRules, counts: TrenchCounts, method: str,
            runs: int | None = None, seed: int | None = None,
            interrupted: bool = False) -> TrenchResult:
    play_text = play.describe() + _belief_text(battle, play) + ("" if seed is None else f", seed {seed}")
    return result_of(battle, play, counts, method, play_text, runs, interrupted)


def result_of(battle: TrenchBattle, play: PlayRules, counts: TrenchCounts, method: str,
              play_text: str, runs: int | None = None,
              interrupted: bool = False) -> TrenchResult:
    """The result of ``battle``'s counts, with its support-slot fleets and readings."""
    fleets = None
    if battle.sea:
        fleets = PerSide(battle.face_down("attacker"), battle.face_down("defender"))
    return TrenchResult.from_counts(
        counts, battle=battle.describe(), method=method, play=play_text, points=battle.points,
        has_card=PerSide(battle.has_card("attacker"), battle.has_card("defender")), runs=runs,
        interrupted=interrupted, support_fleets=fleets,
        fleets_destroyed=play.support_fleet is SupportFleet.DESTROYED, readings=play.readings())


def _belief_text(battle: TrenchBattle, play: PlayRules) -> str:
    """The belief about face-down supports, where it is used."""
    supports = battle.attacker_support + battle.defender_support
    hidden = play.information is Information.HIDDEN and any(s != 0 for s in supports)
    if not hidden and UNKNOWN not in supports:
        return ""
    values = ",".join(f"{v}:{w}" for v, w in battle.hidden_support_values)
    return f", face-down support values {values}"


def solve_trench(battle: TrenchBattle, policy: Policy | str = Policy.OPTIMAL,
                 defender_policy: Policy | str | None = None,
                 roll_order: RollOrder | str = RollOrder.BOTH_FIRST,
                 information: Information | str = Information.HIDDEN,
                 dice_fronts: DiceFronts | str = DiceFronts.ANY,
                 destroy_margin: int = DESTROY_MARGIN,
                 tied_front: TiedFront | str = TiedFront.NOBODY,
                 support_fleet: SupportFleet | str = SupportFleet.SURVIVES) -> TrenchResult:
    """Exact odds of ``battle``; ``policy`` places both sides' dice unless ``defender_policy``.
    ``information``: ``hidden`` (each side sees only where the enemy's supports lie) or
    ``full``; ``dice_fronts``: ``any`` front or only a side's ``own``; ``destroy_margin``: 4
    (won by 4 or more destroys the card) or 5; ``tied_front``: a front with equal totals is
    ``nobody``'s or the ``defender``'s; ``support_fleet``: at sea the fleet in a lost front's
    support slot ``survives`` or is ``destroyed`` with the front's fleet."""
    battle = _check_battle(battle)
    play = PlayRules.of(policy, defender_policy, roll_order, information, dice_fronts,
                        destroy_margin, tied_front, support_fleet)
    return _result(battle, play, exact_counts(prepare(battle, play)), "exact")


def simulate_trench(battle: TrenchBattle, policy: Policy | str = Policy.OPTIMAL,
                    defender_policy: Policy | str | None = None,
                    roll_order: RollOrder | str = RollOrder.BOTH_FIRST,
                    runs: int = DEFAULT_RUNS, seed: int | None = None,
                    information: Information | str = Information.HIDDEN,
                    dice_fronts: DiceFronts | str = DiceFronts.ANY,
                    destroy_margin: int = DESTROY_MARGIN,
                    tied_front: TiedFront | str = TiedFront.NOBODY,
                    support_fleet: SupportFleet | str = SupportFleet.SURVIVES,
                    on_chunk: Callable[[int], bool] | None = None) -> TrenchResult:
    """Monte Carlo odds of ``battle`` with standard errors; same ``seed``, same figures. The
    other options are those of ``solve_trench``; ``on_chunk`` as in ``mc_counts`` (progress,
    and a way to stop early)."""
    battle = _check_battle(battle)
    play = PlayRules.of(policy, defender_policy, roll_order, information, dice_fronts,
                        destroy_margin, tied_front, support_fleet)
    runs, seed = check_runs(runs), check_seed(seed)
    counts, interrupted = mc_counts(prepare(battle, play), runs, seed, on_chunk)
    return _result(battle, play, counts, "mc", runs=counts.total, seed=seed,
                   interrupted=interrupted)


def run_trench(battle: TrenchBattle, method: str = "exact", policy: Policy | str = Policy.OPTIMAL,
               defender_policy: Policy | str | None = None,
               roll_order: RollOrder | str = RollOrder.BOTH_FIRST, runs: int | None = None,
               seed: int | None = None, information: Information | str = Information.HIDDEN,
               dice_fronts: DiceFronts | str = DiceFronts.ANY,
               destroy_margin: int = DESTROY_MARGIN,
               tied_front: TiedFront | str = TiedFront.NOBODY,
               support_fleet: SupportFleet | str = SupportFleet.SURVIVES,
               on_chunk: Callable[[int], bool] | None = None) -> TrenchResult:
    """``solve_trench`` or ``simulate_trench`` by ``method`` (``"exact"`` or ``"mc"``);
    ``on_chunk`` only matters with "mc"."""
    rules: dict[str, Any] = {"information": information, "dice_fronts": dice_fronts,
                             "destroy_margin": destroy_margin, "tied_front": tied_front,
                             "support_fleet": support_fleet}
    if method == "exact":
        if runs is not None:
            check_runs(runs)
        check_seed(seed)
        refuse_for_exact(runs, seed, TrenchError)
        return solve_trench(battle, policy, defender_policy, roll_order, **rules)
    if method == "mc":
        return simulate_trench(battle, policy, defender_policy, roll_order,
                               DEFAULT_RUNS if runs is None else runs, seed, **rules,
                               on_chunk=on_chunk)
    raise TrenchError(f"unknown method {method!r}: use one of {', '.join(EXACT_OR_MC)}")
