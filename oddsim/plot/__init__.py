"""Charts of oddsim results, drawn with matplotlib on figures of their own (no pyplot, no
window: safe on a headless machine). Each chart function takes a result or a sweep (computed
elsewhere: ``oddsim.sweeps`` for odds curves and heatmaps), returns the ``Figure`` and never
shows it; ``save_figure`` writes it as PNG, SVG or PDF. Charts only draw: they fight no battle.

    >>> import oddsim, oddsim.plot
    >>> result = oddsim.solve(oddsim.Battle(rules="1942-2e", attacker="3 inf, 2 arm",
    ...                                     defender="4 inf"))
    >>> fig = oddsim.plot.battle_chart(result)
    >>> oddsim.plot.save_figure(fig, "odds.png")  # doctest: +SKIP

Names load on first use, so ``import oddsim.plot`` (and the ``oddsim`` command) does not pay for
importing matplotlib until a chart is drawn.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from oddsim.plot.errors import PlotError

if TYPE_CHECKING:
    from oddsim.plot.battle_charts import battle_chart, outcome_chart, survivor_chart, swing_chart
    from oddsim.plot.convergence import convergence_chart
    from oddsim.plot.pareto import ParetoPoint, pareto_chart, pareto_points
    from oddsim.plot.plan_charts import plan_chart
    from oddsim.plot.saving import save_figure
    from oddsim.plot.stage_charts import amphibious_chart, raid_chart
    from oddsim.plot.sweep_charts import heatmap_chart, odds_curve_chart
    from oddsim.plot.trench_charts import trench_chart

_HOMES = {
    "battle_chart": "battle_charts", "outcome_chart": "battle_charts",
    "survivor_chart": "battle_charts", "swing_chart": "battle_charts",
    "convergence_chart": "convergence",
    "ParetoPoint": "pareto", "pareto_chart": "pareto", "pareto_points": "pareto",
    "plan_chart": "plan_charts",
    "save_figure": "saving",
    "amphibious_chart": "stage_charts", "raid_chart": "stage_charts",
    "heatmap_chart": "sweep_charts", "odds_curve_chart": "sweep_charts",
    "trench_chart": "trench_charts",
}

__all__ = [
    "ParetoPoint", "PlotError",
    "amphibious_chart", "battle_chart", "convergence_chart",
    "heatmap_chart", "odds_curve_chart", "outcome_chart",
    "pareto_chart", "pareto_points", "plan_chart", "raid_chart", "save_figure",
    "survivor_chart", "swing_chart",
    "trench_chart",
]


def __getattr__(name: str):
    """Import a public name's module the first time the name is used."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'oddsim.plot' has no attribute '{name}'")
    value = getattr(importlib.import_module(f"oddsim.plot.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})
