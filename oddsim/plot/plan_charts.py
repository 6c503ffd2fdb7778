"""A plan's chart: the best split (the units sent to each target, stacked by unit type, with the
target's chance to be taken or held), and the objective of the best split and its runners-up.

It reads the plan's ``to_dict()`` (or anything with ``.to_dict()``), so it does not depend on
how a plan is stored.
"""

from __future__ import annotations

from collections.abc import Mapping

from matplotlib.figure import Figure

from oddsim.plot.errors import PlotError
from oddsim.plot.style import BLUE, GREY, OKABE_ITO, new_figure, percent_axis, styled, wrap_title

CHANCE_GOALS = ("take-all", "take-at-least", "hold-after", "hold-all", "hold-at-least")


@styled
def plan_chart(plan, title: str | None = None) -> Figure:
    """Left: units sent per target (bars stacked by unit type), each target's chance to be
    taken (attack) or held (defence) written above it. Right: the objective of the best split
    and of each runner-up."""
    data = plan.to_dict() if hasattr(plan, "to_dict") else plan
    if not isinstance(data, Mapping) or "split" not in data:
        raise PlotError("plan_chart needs a plan result (oddsim.plan.attack/defend) or its to_dict()")
    split = data["split"]
    names = list(split)
    units = list(dict.fromkeys(u for t in split.values() for u in t["counts"]))
    fig = new_figure(3.6)
    left, right = fig.subplots(1, 2, width_ratios=(3, 2))
    bottoms = [0] * len(names)
    for i, unit in enumerate(units):
        heights = [split[n]["counts"].get(unit, 0) for n in names]
        left.bar(names, heights, bottom=bottoms, color=OKABE_ITO[i % len(OKABE_ITO)], label=unit)
        bottoms = [b + h for b, h in zip(bottoms, heights, strict=True)]
    defend = bool(data.get("defend"))
    for x, name in enumerate(names):
        taken = float(split[name]["takes_territory"])
        chance = 1.0 - taken if defend else taken
        said = (f"{'holds' if defend else 'takes'} {100 * chance:.1f}%" if split[name].get("fought", True)
                else "not attacked")
        left.annotate(said, (x, bottoms[x]),
                      ha="center", va="bottom", fontsize=8)
    left.set_ylabel("units placed" if defend else "units sent")
    left.set_ylim(0, max(bottoms + [1]) * 1.2)
    if units:
        left.legend(fontsize=8, loc="upper right")
    objectives = [float(data["objective"])] + [float(a["objective"]) for a in data.get("alternatives", ())]
    labels = ["best"] + [f"#{i + 2}" for i in range(len(objectives) - 1)]
    right.barh(labels[::-1], objectives[::-1], color=[GREY] * (len(objectives) - 1) + [BLUE])
    goal = str(data.get("goal", ""))
    if goal.split(":")[0] in CHANCE_GOALS:
        percent_axis(right.xaxis)
    right.set_xlabel(f"objective ({goal})")
    fig.suptitle(wrap_title(title or f"{'defence' if defend else 'attack'} plan, goal {goal}"))
    return fig
