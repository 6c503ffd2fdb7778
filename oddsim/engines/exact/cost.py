"""The exact solver's cost model: the seconds a solve takes, from its estimated work
(``solve.size``: joint casualty states times the hit spread of each side).

Fitted by ``benchmarks/auto_calibration.py``: least squares of log(seconds) on log(work) over
warm solves (processor seconds) of 50+ battles, land and sea, four editions, AA guns and Low Luck,
on the project's 2-core development machine (those of 50 ms or more), then raised so that none of
them took longer than it says. States and spreads apart fit no better (sea battles reach few of their joint
states). ``--method auto``, the exact engine's cap and the server's cap read seconds from here.
"""

from __future__ import annotations

SCALE = 6.307e-07
POWER = 0.6102
"""seconds = SCALE * work ** POWER: one second is about 1.45e10 units of work (the old rule of
thumb, "a nanosecond a unit", put it at 1e9 and sent battles of 0.05 to 0.25 s to Monte Carlo)."""


def seconds(work: float) -> float:
    """Predicted seconds of a solve of estimated ``work``."""
    return SCALE * max(work, 0.0) ** POWER
