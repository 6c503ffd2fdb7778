"""The Monte Carlo engine's packed model, read back through ``describe_model``: the values are
derived by hand from the rulesets (unit costs and values, order of loss, AA and support rules)."""

from dataclasses import FrozenInstanceError

import pytest

from oddsim import Battle, Side
from oddsim.engines.lowering import lower
from oddsim.engines.montecarlo import describe_model
from oddsim.engines.montecarlo._layout import HEADER_WIDTH, SCALARS_WIDTH, STEP_WIDTH
from oddsim.engines.montecarlo._model import KernelModel


def test_land_battle_with_support_and_aa():
    # 1942-2e: infantry 3 IPC attacks 1 (2 with artillery), artillery 4 IPC attacks 2, fighter
    # 10 IPC attacks 3; infantry defends 2; an AA gun (5 IPC) rolls one die per aircraft, up to 3
    info = describe_model(Battle(rules="1942-2e", attacker="3 inf, 1 art, 1 ftr",
                                 defender="2 inf, 1 aa"))
    attacker, defender, rules = info["attacker"], info["defender"], info["rules"]
    assert [(s["unit"], s["size"]) for s in attacker["steps"]] == [
        ("infantry", 3), ("artillery", 1), ("fighter", 1)]  # the cheapest first
    assert [line["value"] for line in attacker["lines"]] == [1, 2, 3]
    assert [s["cost"] for s in attacker["steps"]] == [3, 4, 10]
    assert attacker["scalars"]["total_ipc"] == 3 * 3 + 4 + 10
    assert defender["scalars"]["total_ipc"] == 2 * 3 + 5
    # one support rule: each artillery raises one infantry to the line of value 2
    (support,) = attacker["support"]
    assert support["per_supporter"] == 1
    by_unit = dict(zip((t["unit"] for t in attacker["types"]), support["types"], strict=True))
    assert by_unit["artillery"]["supporter"] == 1 and by_unit["infantry"]["supported"] == 1
    assert attacker["lines"][by_unit["infantry"]["line"]]["value"] == 2
    # survivor keys: 4 land slots and 1 air slot -> 5 x 2 keys, the last one all lost
    assert (attacker["scalars"]["keys"], attacker["scalars"]["dead_key"]) == (10, 9)
    assert (defender["scalars"]["keys"], defender["scalars"]["dead_key"]) == (4, 3)
    assert defender["types"][1] == {"unit": "aa_gun", "line": -1, "rolls": 1, "order": 1}  # never fires
    assert (rules["aa_dice"], rules["land_battle"], rules["plain"], rules["low_luck"]) == (1, 1, 1, 0)
    assert (rules["retreat_after"], rules["retreat_units"]) == (0, -1)
    # a plain battle: the defender's chain (3 casualty slots), then the attacker's without and
    # with its fighter shot down by AA
    assert [chain["slots"] for chain in info["plain_chains"]] == [3, 5, 4]
    # ... so its lines need no binomial tables; only the AA dice (hitting on 1) have one, which
    # the lines of value 1 point at too
    rows = {line["value"]: line["rows"] for line in attacker["lines"] + defender["lines"]}
    assert rows == {1: rules["aa_rows"], 2: -1, 3: -1} and rules["aa_rows"] >= HEADER_WIDTH
    header = info["header"]
    assert header["steps"] == HEADER_WIDTH  # the first table follows the header
    assert header["step_side"] == 3 * STEP_WIDTH  # padded to the longer side
    assert header["scalar_side"] == SCALARS_WIDTH + 1  # one active support rule
    assert "retreat" not in info


def test_sea_battle_with_subs_and_restricted_aircraft():
    # 1942-2e: the attacker's fighter may not hit subs without a destroyer of its own, so it
    # rolls on an aircraft line of its own, after the submarine line
    info = describe_model(Battle(rules="1942-2e", attacker=Side("1 sub, 1 ftr", submerge="alone"),
                                 defender="2 sub, 1 cru", sea=True, retreat={"below_win": 0.3}))
    scalars = info["attacker"]["scalars"]
    assert (scalars["sub_lines"], scalars["air_lines"], scalars["lines"]) == (1, 1, 2)
    assert scalars["keys"] == 2 * 2  # one submarine slot, one air slot
    assert scalars["submerge"] == 2  # lowering.SUBMERGE_ALONE
    assert info["rules"]["plain"] == 0 and "plain_chains" not in info
    assert all(line["rows"] >= HEADER_WIDTH for line in info["attacker"]["lines"])  # it rolls them
    assert info["rules"]["submerge"] == 1
    assert "retreat" in info  # "below win" takes the exact engine's retreat decisions


def test_side_layout_is_frozen():
    battle = Battle(rules="1942-2e", attacker="3 inf, 1 art", defender="2 inf")
    side = KernelModel.build(battle, lower(battle)).sides[0]
    with pytest.raises(FrozenInstanceError):
        side.units = 0  # type: ignore[misc]
    with pytest.raises(ValueError):
        side.steps[0, 0] = 1
