"""oddsim's default orders of loss against aacalc2's (its first preset of each list,
frontend/src/data/oolPresets.ts), for 1942-2e: the orders side by side, and battles solved with
each, so a difference shows what it is worth.

    python benchmarks/default_orders.py
"""

from __future__ import annotations

import oddsim
from oddsim.model.order_of_loss import default_order
from oddsim.model.rules import load_ruleset

AACALC2 = {  # (sea, attacking): aacalc2's default order, in oddsim's unit names
    (False, True): "infantry,artillery,armor,fighter,bomber",
    (False, False): "aa_gun,infantry,artillery,armor,bomber,fighter",
    (True, True): "carrier,submarine,destroyer,fighter,cruiser,bomber,battleship",
    (True, False): "submarine,destroyer,carrier,cruiser,fighter,battleship",
}

BATTLES = [  # (attacker, defender, sea)
    ("4 inf, 1 art, 2 arm, 1 ftr", "5 inf, 1 arm, 1 aa", False),
    ("3 inf, 2 arm, 2 ftr", "3 inf, 1 art, 1 aa", False),
    ("6 inf, 2 art, 3 arm, 2 ftr, 1 bmb", "7 inf, 1 art, 1 arm, 1 ftr, 1 bmb, 1 aa", False),
    ("2 dd, 1 cru, 1 cv, 2 ftr", "2 dd, 1 sub, 1 cv, 2 ftr", True),
    ("2 sub, 2 dd, 1 cv, 1 ftr, 1 bb", "3 dd, 1 cru, 1 cv, 2 ftr", True),
]


def main() -> None:
    rules = load_ruleset("1942-2e")
    print("1942-2e default orders (oddsim / aacalc2, oddsim's restricted to aacalc2's units)")
    for (sea, attacking), theirs in AACALC2.items():
        names = theirs.split(",")
        ours = [name for name in default_order(rules, attacking) if name in names]
        side = f"{'sea' if sea else 'land'} {'attacker' if attacking else 'defender'}"
        print(f"  {side:14s} {'same' if ours == names else 'DIFFERS'}: {','.join(ours)}")
        if ours != names:
            print(f"  {'':14s} aacalc2: {theirs}")
    print("\nbattle                                           oddsim default   aacalc2 default")
    for attacker, defender, sea in BATTLES:
        ours = oddsim.solve(oddsim.Battle("1942-2e", attacker, defender, sea=sea))
        theirs = oddsim.solve(oddsim.Battle("1942-2e",
                                            attacker=oddsim.Side(attacker, order_of_loss=AACALC2[sea, True]),
                                            defender=oddsim.Side(defender, order_of_loss=AACALC2[sea, False]),
                                            sea=sea))
        print(f"  {attacker} vs {defender}")
        print(f"  {'':47s}{100 * ours.attacker_win:8.2f}%{100 * theirs.attacker_win:16.2f}%  "
              f"(TUV {ours.tuv_swing:+.2f} / {theirs.tuv_swing:+.2f})")


if __name__ == "__main__":
    main()
