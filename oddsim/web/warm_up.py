"""``oddsim serve``'s warm-up, while it answers: the background process compiles every kernel the
first time (``oddsim._runtime.warm``), then ``warm_up`` loads them all into the server."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

_SMALL = {"attacker": "1 inf, 1 art", "defender": "1 inf", "method": "exact"}
_SEA = {"attacker": "1 sub, 1 ftr", "defender": "1 dd", "sea": True, "method": "exact"}
_TRENCH = {"attacker": "3,-,-", "defender": "2,-,-", "year": 1915}
_MC = {"method": "mc", "runs": 1000, "seed": 1}
WARM_UPS: tuple[tuple[str, dict], ...] = (
    ("battle", _SMALL), ("battle", {**_SMALL, "retreat": {"after_round": 1}}), ("battle", _SEA),
    ("battle", {**_SMALL, "defender": "1 inf, 1 aa", "dice": "lowluck"}),
    ("battle", {**_SMALL, "retreat": {"best": "tuv"}}), ("battle", {**_SMALL, **_MC}),
    ("battle", {**_SEA, **_MC}), ("raid", {"bombers": 1, "territory_value": 3}),
    ("trench", _TRENCH), ("trench", {**_TRENCH, **_MC}),
)
"""Small requests that between them run every kernel the API uses."""


def warm_in_background(say: Callable[[str], None] = print) -> None:
    """Start warming the engines on a thread of its own (see the module)."""

    def run() -> None:
        from oddsim._runtime import warm
        from oddsim._runtime.kernel_cache import current_kernel_dir

        compiling = warm.start(current_kernel_dir(), announce=False)
        if compiling is not None:
            say("oddsim serve: compiling the engines in the background (first run only); requests "
                "are answered meanwhile, the first of each kind in a few seconds")
            compiling.wait()
        say(f"oddsim serve: every engine ready ({warm_up(say):.1f} s to load)")

    threading.Thread(target=run, name="oddsim-warm-up", daemon=True).start()


def warm_up(say: Callable[[str], None] = print) -> float:
    """Run the warm-up requests, saying what it does; returns the seconds it took."""
    from oddsim.web.capabilities import CAPABILITIES

    started = time.monotonic()
    say("oddsim serve: loading the engines")
    for kind, body in WARM_UPS:
        begun = time.monotonic()
        CAPABILITIES[kind](body, None)
        say(f"  {kind:7s} {'mc' if body.get('method') == 'mc' else 'exact':5s} "
            f"ready in {time.monotonic() - begun:5.1f} s")
    return time.monotonic() - started
