"""``oddsim rules list|show|keys``: the built-in editions, what a ruleset says, and every key a
ruleset file may hold."""

from __future__ import annotations

import click

from oddsim.model.order_of_loss import DEFAULT_ORDER_PRINCIPLE, default_order
from oddsim.model.rules import (
    Ruleset,
    SubFirstStrike,
    SubStrikeDestroyer,
    SubStrikeRounds,
    SupportFaction,
    SupportRule,
    UnitType,
    builtin_names,
    load_ruleset,
)
from oddsim.model.schema import declared, key_rows


@click.group()
def rules() -> None:
    """List the editions and show their units."""


@rules.command("list")
def rules_list() -> None:
    """The editions shipped with oddsim."""
    for name in builtin_names():
        click.echo(f"{name:16s} {load_ruleset(name).title}")


@rules.command("show")
@click.argument("name")
def rules_show(name: str) -> None:
    """Unit table and special rules of an edition (name, .toml path or TripleA game file)."""
    click.echo(describe_ruleset(load_ruleset(name)))


@rules.command("keys")
def rules_keys() -> None:
    """Every key a ruleset file may hold: its type or allowed values, default and meaning."""
    rows = key_rows(Ruleset)
    width = max(len(name) for name, *_ in rows)
    for name, kind, default, help_text in rows:
        said = default if default == "required" else f"default {default}"
        click.echo(f"{name:{width}s}  {kind}; {said}: {help_text}")


UNIT_ROLES = tuple(sorted(((k.name, k.default, k.spec.role) for k in declared(UnitType) if k.spec.role),
                          key=lambda role: role[1]))
"""(flag, default, what ``rules show`` says when a unit's flag is not its default), as declared:
what a unit is (the flags off by default) before what it is not."""


def unit_roles(unit: UnitType) -> list[str]:
    """The roles ``rules show`` names for a unit: its flags that are not their default."""
    rolls = [f"{n} {side} dice" for side, n in (("attack", unit.attack_rolls),
                                                ("defense", unit.defense_rolls)) if n != 1]
    return [role for flag, default, role in UNIT_ROLES if getattr(unit, flag) != default] + rolls


def describe_support(rule: SupportRule) -> str:
    """One support rule in words (``rules show``)."""
    if rule.bonus is None:
        return (f"each {'/'.join(rule.supporters)} raises {rule.per_supporter} "
                f"{'/'.join(rule.supported)} to {rule.value} on {rule.side}")
    whose = "" if rule.faction is SupportFaction.ALLIED else "enemy "
    kind = f" (bonus type {rule.bonus_type}, at most {rule.bonus_type_count} a unit)" \
        if rule.bonus_type else ""
    return (f"each {'/'.join(rule.supporters)} gives {rule.per_supporter} {whose}"
            f"{'/'.join(rule.supported)} {rule.bonus:+d} {rule.bonus_to} on {rule.side}{kind}")


def describe_ruleset(ruleset: Ruleset) -> str:
    """Readable unit table and rule flags."""
    lines = [f"{ruleset.name}: {ruleset.title}", ""]
    lines.append(f"{'unit':16s} {'cost':>4s} {'att':>4s} {'def':>4s} {'move':>4s} {'hits':>4s}  "
                 f"{'domain':6s} {'abbreviations':24s} roles")
    for u in ruleset.units:
        lines.append(f"{u.name:16s} {u.cost:4d} {u.attack:4d} {u.defense:4d} {u.move:4d} "
                     f"{u.hits:4d}  {u.domain.value:6s} {', '.join(u.aliases):24s} "
                     f"{', '.join(unit_roles(u))}")
    c = ruleset.combat
    lines += ["", f"subs strike first: {c.sub_first_strike.value}; aircraft hit subs: "
              f"{c.air_hits_subs.value}; AA dice: {c.aa_dice.value}"
              + (f" ({c.aa_dice_per_gun} per gun)" if c.aa_dice.value == "per_gun" else "")
              + f", hit on {c.aa_hit}; AA casualties: {c.aa_casualties.value}; two-hit units "
              f"repaired: {c.repair.value.replace('_', ' ')}"]
    if c.sub_first_strike is not SubFirstStrike.NONE:
        rounds = ("every round" if c.sub_strike_rounds is SubStrikeRounds.EVERY
                  else "in round 1 only, then with general fire")
        cancels = ("not in a round the enemy starts with a destroyer"
                   if c.sub_strike_destroyer is SubStrikeDestroyer.EACH_ROUND
                   else "not at all in a battle the enemy starts with a destroyer")
        lines.append(f"first strike: {rounds} (sub_strike_rounds = {c.sub_strike_rounds.value}); "
                     f"{cancels} (sub_strike_destroyer = {c.sub_strike_destroyer.value})")
    heavy = ", ".join(u.name for u in ruleset.units if u.heavy_cargo) or "none"
    lines.append(f"transport: {ruleset.transport.capacity} land units, at most "
                 f"{ruleset.transport.max_heavy} of {heavy}; may ignore lone subs/transports: "
                 f"{'yes' if ruleset.amphibious.ignore_subs_and_transports else 'no'}; raid "
                 f"built-in AA: {'yes' if ruleset.raid.builtin_aa else 'no'}")
    if c.dice_sides != 6:
        lines.append(f"dice: {c.dice_sides}-sided (a unit hits on a roll at or under its value)")
    for rule in ruleset.support:
        lines.append(f"support: {describe_support(rule)}")
    if ruleset.bombard.units:
        ships = ", ".join(f"{name} @{value}" for name, value in ruleset.bombard.units)
        lines.append(f"bombard: {ships}")
    lines += ["", f"default order of loss: {DEFAULT_ORDER_PRINCIPLE}"]
    for side, attacking in (("attacker", True), ("defender", False)):
        lines.append(f"  {side}: {', '.join(default_order(ruleset, attacking))}")
    if ruleset.not_modelled:
        lines += ["", "not modelled (what the game file says that oddsim does not compute; "
                      "a battle with a unit marked 'refused' is refused):"]
        for note in ruleset.not_modelled:
            kind = "unit" if note.unit else "rule"
            lines.append(f"  {kind} {note.subject}: {note.reason}"
                         + ("  [refused]" if note.refuses else ""))
    return "\n".join(lines)
