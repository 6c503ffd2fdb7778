"""A battle plan file: later waves with their own options, in TOML or JSON.

```toml
[[wave]]
attacker = "3 arm, 2 ftr"
ool_attacker = "arm,ftr"            # optional, like every key but attacker
keep_land = 1
retreat = { units_left = 2 }        # a RetreatPolicy's fields; {} for no retreat
attacker_submerge = "never"
defender_submerge = "alone"
dice = "lowluck"
attacker_destroyer_last = true      # sea: keep the last destroyer while the enemy has subs
defender_destroyer_last = false
defender_reinforcements = "2 inf"   # join the defender before this wave
reinforce_emptied = true            # they also hold a territory emptied but not taken (default)
```

JSON: ``{"wave": [{"attacker": "3 arm, 2 ftr", ...}, ...]}``. Options a wave leaves out are the
first battle's (see ``oddsim.stages.waves.Wave``).
"""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

from oddsim._runtime.documents import load_json, load_toml
from oddsim._runtime.files import InputFile
from oddsim.errors import BattleError, OddsimError
from oddsim.model.battle import RetreatPolicy
from oddsim.stages.waves import Wave

WAVE_KEYS = tuple(f.name for f in fields(Wave) if f.name not in ("source", "defender"))

MAX_WAVE_PLAN_BYTES = 1 << 20
"""A plan is a few tables a wave; anything over 1 MiB is refused unread."""
WAVE_PLAN_FILE = InputFile("wave plan", MAX_WAVE_PLAN_BYTES, "a plan is a short TOML or JSON file",
                           "write the plan in a .toml or .json file", BattleError)


def load_wave_plan(path: str | Path) -> list[Wave]:
    """The waves of a plan file (``.toml`` or ``.json``), each checked; BattleError naming the
    first problem."""
    path = Path(path)
    text = WAVE_PLAN_FILE.read_text(path)
    load = load_json if path.suffix.lower() == ".json" else load_toml
    data = load(text, f"wave plan {path}", BattleError)
    if not isinstance(data, dict) or set(data) != {"wave"} or not isinstance(data["wave"], list):
        raise BattleError(f"wave plan {path}: write one list of waves under 'wave' ([[wave]] tables "
                          f"in TOML)")
    if not data["wave"]:
        raise BattleError(f"wave plan {path}: the list of waves is empty: give at least one wave, "
                          f"or leave --wave-plan out for a single battle")
    return [_wave(entry, path, number) for number, entry in enumerate(data["wave"], start=1)]


def _wave(entry: object, path: Path, number: int) -> Wave:
    return wave_of(entry, f"wave plan {path}, wave {number}")


def wave_of(entry: object, where: str) -> Wave:
    """One wave from its table of options (a plan file's, or a web request's), checked; its
    errors name ``where``."""
    if not isinstance(entry, dict):
        raise BattleError(f"{where}: a wave is a table of options, not {entry!r}")
    unknown = sorted(set(entry) - set(WAVE_KEYS))
    if unknown:
        raise BattleError(f"{where}: unknown option '{unknown[0]}': use {', '.join(WAVE_KEYS)}")
    if "attacker" not in entry:
        raise BattleError(f"{where}: every wave needs an attacker")
    for key in ("attacker", "defender_reinforcements"):
        if key in entry and not isinstance(entry[key], str | dict):
            raise BattleError(f"{where}: {key} is an army in quotes, like \"3 arm, 2 ftr\", "
                              f"not {entry[key]!r}")
    if not isinstance(entry.get("reinforce_emptied", True), bool):
        raise BattleError(f"{where}: reinforce_emptied is true or false, not {entry['reinforce_emptied']!r}")
    for key in ("attacker_destroyer_last", "defender_destroyer_last"):
        if entry.get(key) is not None and not isinstance(entry[key], bool):  # JSON null: the first battle's
            raise BattleError(f"{where}: {key} is true or false, not {entry[key]!r}")
    options = dict(entry)
    retreat = options.get("retreat")
    if retreat is not None:
        if not isinstance(retreat, dict):
            raise BattleError(f"{where}: retreat is a table of RetreatPolicy options, not {retreat!r}")
        try:
            options["retreat"] = RetreatPolicy(**retreat)
        except TypeError:
            raise BattleError(f"{where}: unknown retreat option in {sorted(retreat)}") from None
        except OddsimError as error:
            raise error.located(where) from None
    return Wave(**options, source=where)  # (the rest is checked against the battle: errors name ``where``)
