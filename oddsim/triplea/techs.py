"""The game's combat technologies as oddsim's ``[tech.NAME]`` tables, for a side that has them
(``Side(tech=...)``; a game in progress says which players have which).

A technology's effect is its ``techAbilityAttachment`` where the file gives one (``attackBonus``,
``defenseBonus``, ``attackRollsBonus``, ``radarBonus``: ``N:unit``), else TripleA's default for
the technology's name: super subs +1 attack to first-strike units; jet power +1 attack to
aircraft that are not strategic bombers under "WW2V3 Tech Model", else +1 defence; heavy
bombers roll "Heavy Bomber Dice Rolls" dice (with "LHTR Heavy Bombers": the best one counts, and
a raid's best die +1); radar +1 to AA guns; destroyer bombard: destroyers bombard at their attack.
A file without a ``<technology>`` list has the technologies its players' ``techAttachment``
options name. Improved artillery comes with the support rules
(``impArtTech``).
"""

from __future__ import annotations

from collections.abc import Mapping

from oddsim.triplea.options import Attachment, GameParts

TECHS = {"superSub": "super-subs", "jetPower": "jets", "heavyBomber": "heavy-bombers",
         "aARadar": "radar", "destroyerBombard": "combined-bombardment"}
"""TripleA's technology names -> oddsim's."""


def _bonuses(attachment: Attachment, option: str) -> dict[str, int]:
    found: dict[str, int] = {}
    for value in attachment.all(option):
        amount, _, unit = value.partition(":")
        try:
            found[unit] = found.get(unit, 0) + int(amount)
        except ValueError:
            continue
    return found


def tech_tables(parts: GameParts, records: Mapping[str, Mapping[str, object]],
                names: Mapping[str, str], aa_hit: int, sides: int) -> dict[str, dict[str, object]]:
    """oddsim tech name -> its table, for the game's technologies oddsim has."""
    abilities = {a.attach_to: a for a in parts.attachments_of("TechAbilityAttachment")}
    options = {unit: parts.unit_attachment(unit) for unit in parts.units}

    def on(unit: str, name: str) -> bool:
        return (options[unit].get(name) or "").strip().lower() == "true"

    tables: dict[str, dict[str, object]] = {}
    for tech in technologies(parts):
        oddsim_name = TECHS.get(tech)
        if oddsim_name is None:
            continue
        given = abilities.get(tech)
        if given is not None:
            attack, defense = _bonuses(given, "attackBonus"), _bonuses(given, "defenseBonus")
            rolls, radar = _bonuses(given, "attackRollsBonus"), _bonuses(given, "radarBonus")
        else:
            attack, defense, rolls, radar = _defaults(tech, parts, on)
        table: dict[str, object] = {}
        for key, bonus in (("attack", attack), ("defense", defense)):
            values = {names[u]: max(0, min(int(str(records[u].get(key, 0))) + n, sides))
                      for u, n in bonus.items() if u in records and n}
            if values:
                table[key] = values
        dice = {names[u]: max(1, min(1 + n, 6)) for u, n in rolls.items() if u in records and n > 0}
        if dice:
            lhtr = parts.flag("LHTR Heavy Bombers")
            table.update(attack_dice=dice, attack_dice_rule="best" if lhtr else "all",
                         raid_dice=max(dice.values()), raid_rule="best" if lhtr else "sum")
            if lhtr and given is None:
                table["raid_bonus"] = 1
        if radar:
            table["aa_hit"] = max(0, min(aa_hit + max(radar.values()), sides))
        if tech == "destroyerBombard":
            table["bombard"] = {names[u]: max(1, min(int(str(records[u].get("attack", 1))), sides))
                                for u in parts.units if on(u, "isDestroyer")}
        if table:
            tables[oddsim_name] = table
    return tables


def technologies(parts: GameParts) -> list[str]:
    """The game's technologies: its ``<technology>`` list, or else (older files) the ones its
    players' ``techAttachment`` options name."""
    if parts.technologies:
        return list(parts.technologies)
    named = [key for a in parts.attachments_of("TechAttachment") for key, _ in a.options]
    return list(dict.fromkeys(name for name in named if name in TECHS))


def _defaults(tech: str, parts: GameParts, on) -> tuple[dict[str, int], ...]:
    """TripleA's effect of a standard technology the file gives no ``techAbilityAttachment``."""
    attack: dict[str, int] = {}
    defense: dict[str, int] = {}
    rolls: dict[str, int] = {}
    radar: dict[str, int] = {}
    if tech == "superSub":
        attack = {u: 1 for u in parts.units if on(u, "isSub") or on(u, "isFirstStrike")}
    elif tech == "jetPower":
        jets = [u for u in parts.units if on(u, "isAir") and not on(u, "isStrategicBomber")]
        (attack if parts.flag("WW2V3 Tech Model") else defense).update({u: 1 for u in jets})
    elif tech == "heavyBomber":
        extra = parts.number("Heavy Bomber Dice Rolls", 2) - 1
        rolls = {u: extra for u in parts.units if on(u, "isStrategicBomber")}
    elif tech == "aARadar":
        radar = {u: 1 for u in parts.units
                 if on(u, "isAA") or on(u, "isAAforCombatOnly")}
    return attack, defense, rolls, radar
