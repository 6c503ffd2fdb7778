"""``oddsim game battles`` on a board with 20 battles, warm: a game file generated here (14 land
battles and 6 sea battles of 3 to 16 units a side, two players at war, the sea zones attacked by
the first), read and answered in-process after one warm-up run (the median of ``--repeat``
runs), and the command itself as a subprocess (``--cli``: a warm kernel cache, a new process).

    python benchmarks/game_battles.py                 # the map's own rules (oddsim.triplea.ruleset)
    python benchmarks/game_battles.py --rules 1942-2e # a built-in edition standing in for them
    python benchmarks/game_battles.py --cli --write game.xml
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from oddsim.game import game_battles, load_game
from oddsim.model.rules import load_ruleset

UNITS = {  # name: (attack, defense, cost, extra unitAttachment options)
    "infantry": (1, 2, 3, {"artillerySupportable": "true", "transportCost": "2"}),
    "artillery": (2, 2, 4, {"artillery": "true", "transportCost": "3"}),
    "armour": (3, 3, 6, {"transportCost": "3"}),
    "fighter": (3, 4, 10, {"isAir": "true", "carrierCost": "1"}),
    "bomber": (4, 1, 12, {"isAir": "true", "isStrategicBomber": "true"}),
    "submarine": (2, 1, 6, {"isSea": "true", "isSub": "true"}),
    "destroyer": (2, 2, 8, {"isSea": "true", "isDestroyer": "true"}),
    "carrier": (1, 2, 14, {"isSea": "true", "carrierCapacity": "2"}),
    "battleship": (4, 4, 20, {"isSea": "true", "hitPoints": "2"}),
}
LAND_ATTACK = ["infantry", "artillery", "armour", "fighter", "bomber"]
LAND_DEFENCE = ["infantry", "artillery", "armour", "fighter"]
SEA_UNITS = ["submarine", "destroyer", "carrier", "battleship", "fighter"]
PLAYERS = ("Reds", "Blues")


def game_xml(land: int = 14, sea: int = 6, seed: int = 2026) -> bytes:
    """A game file with ``land`` land battles and ``sea`` sea battles, generated from ``seed``."""
    rng = random.Random(seed)
    game = ElementTree.Element("game")
    ElementTree.SubElement(game, "info", name="Twenty Battles", version="1")
    board = ElementTree.SubElement(game, "map")
    names = [f"Land {n + 1}" for n in range(land)] + [f"Sea Zone {n + 1}" for n in range(sea)]
    for name in names:
        water = {"water": "true"} if name.startswith("Sea") else {}
        ElementTree.SubElement(board, "territory", name=name, **water)
    ElementTree.SubElement(ElementTree.SubElement(game, "resourceList"), "resource", name="PUs")
    players = ElementTree.SubElement(game, "playerList")
    for player in PLAYERS:
        ElementTree.SubElement(players, "player", name=player, optional="false")
    for player in PLAYERS:
        ElementTree.SubElement(players, "alliance", player=player, alliance=f"{player} side")
    unit_list = ElementTree.SubElement(game, "unitList")
    for name in UNITS:
        ElementTree.SubElement(unit_list, "unit", name=name)
    play = ElementTree.SubElement(game, "gamePlay")
    ElementTree.SubElement(play, "delegate", name="battle",
                           javaClass="games.strategy.triplea.delegate.BattleDelegate")
    sequence = ElementTree.SubElement(play, "sequence")
    for player in PLAYERS:
        ElementTree.SubElement(sequence, "step", name=f"{player}Battle", delegate="battle", player=player)
    production = ElementTree.SubElement(game, "production")
    for name, (_, _, cost, _) in UNITS.items():
        rule = ElementTree.SubElement(production, "productionRule", name=f"buy{name}")
        ElementTree.SubElement(rule, "cost", resource="PUs", quantity=str(cost))
        ElementTree.SubElement(rule, "result", resourceOrUnit=name, quantity="1")
    frontier = ElementTree.SubElement(production, "productionFrontier", name="production")
    for name in UNITS:
        ElementTree.SubElement(frontier, "frontierRules", name=f"buy{name}")
    for player in PLAYERS:
        ElementTree.SubElement(production, "playerProduction", player=player, frontier="production")
    attachments = ElementTree.SubElement(game, "attachmentList")
    for name, (attack, defense, _, extra) in UNITS.items():
        attachment = ElementTree.SubElement(attachments, "attachment", name="unitAttachment", attachTo=name,
                                            javaClass="games.strategy.triplea.attachments.UnitAttachment",
                                            type="unitType")
        options = {"movement": "2", "attack": str(attack), "defense": str(defense), **extra}
        for option, value in options.items():
            ElementTree.SubElement(attachment, "option", name=option, value=value)
    initialize = ElementTree.SubElement(game, "initialize")
    owners = ElementTree.SubElement(initialize, "ownerInitialize")
    units = ElementTree.SubElement(initialize, "unitInitialize")
    for name in names:
        water = name.startswith("Sea")
        if not water:
            ElementTree.SubElement(owners, "territoryOwner", territory=name, owner=PLAYERS[1])
        for player, kinds in ((PLAYERS[0], SEA_UNITS if water else LAND_ATTACK),
                              (PLAYERS[1], SEA_UNITS if water else LAND_DEFENCE)):
            for kind in rng.sample(kinds, rng.randint(2, 3)):
                ElementTree.SubElement(units, "unitPlacement", unitType=kind, territory=name,
                                       quantity=str(rng.randint(1, 6)), owner=player)
    return ElementTree.tostring(game, encoding="utf-8", xml_declaration=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default=None, help="a built-in edition standing in for the map's rules")
    parser.add_argument("--repeat", type=int, default=5, help="warm runs timed (the median is printed)")
    parser.add_argument("--cli", action="store_true", help="also time 'oddsim game battles' as a new process")
    parser.add_argument("--write", type=Path, default=None, help="keep the generated game file here")
    args = parser.parse_args()
    data = game_xml()
    rules = load_ruleset(args.rules) if args.rules else None
    start = time.perf_counter()
    game = load_game(data, "twenty battles", rules=rules)
    read = time.perf_counter() - start
    first = time.perf_counter()
    answer = game_battles(game, attacker=PLAYERS[0])
    first = time.perf_counter() - first
    methods = [a.result.method for a in answer.answers if a.result is not None]
    refused = [a.refused for a in answer.answers if a.refused]
    times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        game_battles(load_game(data, "twenty battles", rules=rules), attacker=PLAYERS[0])
        times.append(time.perf_counter() - start)
    print(f"board: {len(answer.answers)} battles ({methods.count('exact')} exact, "
          f"{len(methods) - methods.count('exact')} Monte Carlo, {len(refused)} refused), "
          f"{len(data) / 1e3:.1f} kB, rules {game.rules.name}")
    for line in refused:
        print(f"  refused: {line}")
    print(f"read the file (board and rules): {1e3 * read:.1f} ms")
    print(f"first run (compiles or loads kernels): {first:.2f} s")
    print(f"warm, read and every battle answered: median {statistics.median(times):.3f} s "
          f"(of {args.repeat}: {', '.join(f'{t:.3f}' for t in times)})")
    if args.cli or args.write:
        path = args.write or Path(tempfile.mkdtemp()) / "twenty_battles.xml"
        path.write_bytes(data)
        if args.cli:
            command = [sys.executable, "-m", "oddsim.cli", "game", "battles", str(path), "--attacker",
                       PLAYERS[0], "--json"]
            runs = []
            for _ in range(3):
                start = time.perf_counter()
                done = subprocess.run(command, capture_output=True, text=True)
                runs.append(time.perf_counter() - start)
                if done.returncode:
                    print(f"  oddsim game battles failed: {done.stderr.strip()}")
                    break
            print(f"oddsim game battles (a new process): {', '.join(f'{t:.2f}' for t in runs)} s")


if __name__ == "__main__":
    main()
