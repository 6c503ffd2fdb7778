"""The exact answer of a battle under best casualties: the game solved and fought forward
(``casualties``), the goal by the fixed orders beside it, and the advice for the first round
(``casualty_advice``). The Monte Carlo engine's counterpart: ``engines.montecarlo.best_casualties``."""

from __future__ import annotations

from dataclasses import replace

from oddsim.engines.exact.casualties import fixed_value, forward, game, result_of, retreat_plan, solve_game
from oddsim.engines.exact.casualty_advice import policy
from oddsim.model.battle import Battle
from oddsim.results.battle_result import BattleResult


def solve(battle: Battle) -> BattleResult:
    """The exact answer of ``battle`` under best casualties, with its ``casualty_policy``: the goal
    under best play, by the fixed orders, and the advice for the first round."""
    g = game(battle)
    solved = solve_game(g)
    end, gone, gone_w, rounds = forward(solved)
    result = replace(result_of(g, end, rounds, gone), casualty_policy=policy(solved, fixed_value(battle)))
    if not g.goal.retreat:
        return result
    return replace(result, objective=solved.value, retreat_plan=retreat_plan(g, gone, gone_w),
                   retreat_round=float(gone_w.sum() / gone.sum()) if gone.any() else None)
