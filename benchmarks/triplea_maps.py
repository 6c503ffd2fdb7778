"""Load TripleA game files as oddsim rulesets: how long each takes, how many load, what each does
not model, and, for the official editions' files, how their rules and battles compare with
oddsim's built-in editions.

    python benchmarks/triplea_maps.py DIR_OR_FILE... [--repeat 3] [--battles]

A folder is searched for ``*.xml`` files (a map repository's ``map/games``). Each file is loaded
``--repeat`` times (the first read cold, the rest warm: the fastest is reported). A file loads when
it gives a Ruleset; it is *whole* when no unit is refused (``Ruleset.not_modelled``).

For the official editions' files (matched by file name, ``OFFICIAL``), the keys where the file
differs from the built-in edition are listed (those are the rulebook's readings); with
``--battles``, a set of battles (land, sea with submarines and destroyers, AA, bombardment) is
solved under the file with the rulebook's readings set (``with_changes``) and under the
built-in edition, and the largest difference of any figure is reported (it should be under 1e-9).

The map files are not oddsim's: fetch them (github.com/triplea-maps/...), never commit them.
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import sys
import time
from pathlib import Path

import oddsim
from oddsim.errors import OddsimError
from oddsim.model.rules import Ruleset, load_ruleset, with_changes
from oddsim.triplea.ruleset import load_game_rules

OFFICIAL = {
    "WW2v5_1942_2nd.xml": "1942-2e",
    "ww2global40_2nd_edition.xml": "global-1940-2e",
    "ww2v2.xml": "revised",
    "lhtr.xml": "revised",
    "WW2v3-1941.xml": "anniversary",
    "WW2v3-1942.xml": "anniversary",
}
"""Official map files and the built-in edition each plays (file name -> edition)."""

SECTIONS = ("combat", "transport", "amphibious", "bombard", "raid")
"""The ruleset's tables compared key by key (units are compared by name, below)."""
NOT_COMPARED = {"bombard.units"}
"""Keys that name units, which the map may name otherwise (compared with the units)."""
UNORDERED = {"raid.facility_caps", "raid.tactical_targets"}
"""Keys whose order says nothing."""

BATTLES = [
    dict(attacker="3 infantry, 1 artillery, 2 armour", defender="4 infantry, 1 armour"),
    dict(attacker="2 infantry, 1 fighter, 1 bomber", defender="3 infantry, 1 aa gun"),
    dict(attacker="2 submarines, 1 destroyer", defender="1 submarine, 1 destroyer, 1 fighter", sea=True),
    dict(attacker="2 submarines, 1 fighter", defender="1 destroyer, 1 transport", sea=True),
    dict(attacker="1 battleship, 1 carrier, 2 fighters", defender="2 destroyers, 1 cruiser", sea=True),
    dict(attacker=("2 infantry, 1 armour", "2 infantry", "1 battleship"), defender="3 infantry"),
]
"""Battles every official edition has units for (bombardment: army, landed, bombarding ships)."""
GLOBAL_BATTLES = [
    dict(attacker="2 mech infantry, 1 artillery, 1 tactical bomber, 1 armour", defender="4 infantry"),
    dict(attacker="1 fighter, 2 tactical bombers", defender="2 infantry, 1 aa gun"),
]
FIGURES = ("attacker_win", "defender_win", "draw", "stalemate", "attacker_ipc_lost",
           "defender_ipc_lost", "expected_rounds")


def game_files(paths: list[str]) -> list[Path]:
    found: list[Path] = []
    for text in paths:
        path = Path(text)
        found += sorted(path.rglob("*.xml")) if path.is_dir() else [path]
    return found


def _plain(value: object) -> object:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value


def readings(ours: Ruleset, edition: Ruleset) -> dict[str, object]:
    """The keys where the game file's ruleset differs from the built-in edition: dotted key ->
    the edition's value (what ``with_changes`` sets to read the file as the rulebook)."""
    changes: dict[str, object] = {}
    for section in SECTIONS:
        mine, theirs = getattr(ours, section), getattr(edition, section)
        for field in dataclasses.fields(theirs):
            key = f"{section}.{field.name}"
            if key in NOT_COMPARED:
                continue
            a, b = getattr(mine, field.name), getattr(theirs, field.name)
            if (set(a) != set(b)) if key in UNORDERED else a != b:
                changes[key] = _plain(b)
    for unit in edition.units:
        name = ours.resolve_name(unit.name) or next(
            (ours.resolve_name(alias) for alias in unit.aliases if ours.resolve_name(alias)), None)
        if name is None:
            changes[f"units.{unit.name}"] = "absent from the file"
            continue
        mine = ours.unit(name)
        for field in dataclasses.fields(unit):
            if field.name in ("name", "aliases"):
                continue
            if getattr(mine, field.name) != getattr(unit, field.name):
                changes[f"units.{name}.{field.name}"] = _plain(getattr(unit, field.name))
    return changes


def largest_difference(ours: Ruleset, edition: str) -> tuple[float, int]:
    """The largest difference of any figure over the battles both rulesets have the units for,
    and how many battles that was."""
    battles = BATTLES + (GLOBAL_BATTLES if ours.resolve_name("tactical bomber") else [])
    worst, fought = 0.0, 0
    for spec in battles:
        spec = dict(spec)
        if isinstance(spec["attacker"], tuple):
            army, landed, ships = spec["attacker"]
            spec["attacker"] = oddsim.Side(army, landed=landed, bombard=ships)
        try:
            mine_battle = oddsim.Battle(rules=ours, **spec)
            theirs_battle = oddsim.Battle(rules=edition, **spec)
        except OddsimError:  # (a unit one of them lacks: revised has no cruiser)
            continue
        mine, theirs = oddsim.solve(mine_battle), oddsim.solve(theirs_battle)
        worst = max([worst] + [abs(getattr(mine, f) - getattr(theirs, f)) for f in FIGURES])
        fought += 1
    return worst, fought


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", help="game files, or folders searched for *.xml")
    parser.add_argument("--repeat", type=int, default=3, help="loads of each file (fastest kept)")
    parser.add_argument("--battles", action="store_true",
                        help="solve the official editions' battles under the file and the built-in edition")
    args = parser.parse_args(argv)
    files = game_files(args.paths)
    loaded = whole = 0
    biggest: tuple[int, Path, float] | None = None
    for path in files:
        times = []
        try:
            for _ in range(max(1, args.repeat)):
                start = time.perf_counter()
                rules = load_game_rules(path)
                times.append(time.perf_counter() - start)
        except OddsimError as error:
            print(f"{path}: does not load: {error}")
            continue
        loaded += 1
        refused = sorted({note.subject for note in rules.not_modelled if note.refuses and note.unit})
        whole += not refused
        size = path.stat().st_size
        if biggest is None or size > biggest[0]:
            biggest = (size, path, min(times))
        print(f"{path}: {size / 1e6:.2f} MB, {len(rules.ruleset.units)} unit types, loaded in "
              f"{min(times) * 1000:.0f} ms (first {times[0] * 1000:.0f} ms); "
              + (f"{len(refused)} refused: {', '.join(refused[:8])}{' ...' if len(refused) > 8 else ''}"
                 if refused else "every unit modelled"))
        edition = OFFICIAL.get(path.name)
        if edition is not None:
            base = load_ruleset(edition)
            changes = readings(rules.ruleset, base)
            said = ", ".join(f"{k}={v}" for k, v in changes.items()) or "none"
            print(f"    {edition}: the file differs from the rulebook in: {said}")
            if args.battles:
                absent = [k for k, v in changes.items() if v == "absent from the file"]
                if absent:
                    print(f"    battles not compared: {', '.join(absent)}")
                    continue
                read = with_changes(str(path), changes) if changes else rules.ruleset
                worst, fought = largest_difference(read, edition)
                print(f"    {fought} battles with the rulebook's readings: largest difference "
                      f"{worst:.1e}")
    print(f"\n{loaded} of {len(files)} files load; {whole} with every unit modelled")
    if biggest is not None:
        print(f"largest: {biggest[1]} ({biggest[0] / 1e6:.2f} MB) in {biggest[2] * 1000:.0f} ms warm")
    return 0


if __name__ == "__main__":
    sys.exit(main())
