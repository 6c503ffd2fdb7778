"""Charts of a strategic bombing raid (its damage distribution) and of an amphibious assault
(how many transports unload, and the chance to take the territory after each landing)."""

from __future__ import annotations

from matplotlib.figure import Figure

from oddsim.plot.errors import require
from oddsim.plot.style import (
    BLUE,
    GREEN,
    GREY,
    method_note,
    new_figure,
    percent_axis,
    percent_label,
    styled,
    wrap_title,
)
from oddsim.raid import RaidResult
from oddsim.stages.amphibious import AmphibiousResult


@styled
def raid_chart(result, title: str | None = None) -> Figure:
    """Bars of the chance of each damage total of a ``RaidResult`` (in %), the expected damage
    marked; titled with the raid."""
    require(result, RaidResult, "raid_chart")
    fig = new_figure(height=4.2)
    ax = fig.add_subplot()
    damage = sorted(result.damage.items())
    ax.bar([d for d, _ in damage], [100 * p for _, p in damage], width=0.8, color=BLUE,
           edgecolor="white")
    ax.axvline(result.expected_damage, color=GREY, linestyle="--",
               label=f"expected damage {result.expected_damage:.2f} IPCs")
    ax.legend(loc="upper right")
    percent_axis(ax.yaxis)
    ax.grid(axis="x", visible=False)
    ax.set_xlabel("damage (IPCs)")
    ax.set_ylabel("probability (%)")
    ax.set_title(f"Raid damage ({method_note(result)})")
    fig.suptitle(wrap_title(title if title is not None else result.raid))
    return fig


@styled
def amphibious_chart(result, title: str | None = None) -> Figure:
    """An ``AmphibiousResult``: the chance of each number of transports unloading, and with it
    the chance to take the territory (both in %); titled with the overall chance."""
    require(result, AmphibiousResult, "amphibious_chart")
    fig = new_figure(height=4.2)
    ax = fig.add_subplot()
    landings = [x for x in result.landings if x.probability > 0]
    labels = [f"{x.transports} transport{'s' * (x.transports != 1)}" for x in landings]
    positions = range(len(landings))
    reach = [100 * x.probability for x in landings]
    take = [100 * x.probability * ((x.result.takes_territory or 0.0) if x.result else 0.0)
            for x in landings]
    ax.bar(positions, reach, width=0.7, color=GREY, label="this many transports unload")
    ax.bar(positions, take, width=0.7, color=GREEN, hatch="//", edgecolor="white",
           label="... and the territory is taken")
    for x, height, share in zip(positions, reach, take, strict=True):
        ax.annotate(f"{percent_label(share / 100)} of {percent_label(height / 100)}", (x, height),
                    xytext=(0, 3), textcoords="offset points", ha="center", va="bottom", fontsize=9)
    ax.set_xticks(list(positions), labels)
    ax.set_ylim(0, max(reach, default=0) * 1.12 + 1)
    percent_axis(ax.yaxis)
    ax.grid(axis="x", visible=False)
    ax.set_ylabel("probability (%)")
    ax.set_xlabel("landing")
    fig.legend(loc="outside lower center", ncols=2)
    methods = {x.result.method for x in landings if x.result is not None}
    note = "exact" if methods <= {"exact"} else "Monte Carlo"
    ax.set_title(f"Takes the territory {percent_label(result.takes_territory)} ({note})")
    fig.suptitle(wrap_title(title if title is not None else result.describe()))
    return fig
