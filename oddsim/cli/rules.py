"""``oddsim rules list|show``: the built-in editions and what a ruleset says."""

from __future__ import annotations

import click


@click.group()
def rules() -> None:
    """List the editions and show their units."""


@rules.command("list")
def rules_list() -> None:
    """The editions shipped with oddsim."""
    from oddsim.model.rules import builtin_names, load_ruleset

    for name in builtin_names():
        click.echo(f"{name:16s} {load_ruleset(name).title}")


@rules.command("show")
@click.argument("name")
def rules_show(name: str) -> None:
    """Unit table and special rules of an edition (name or .toml path)."""
    from oddsim.model.rules import load_ruleset

    click.echo(describe_ruleset(load_ruleset(name)))


def describe_ruleset(ruleset) -> str:
    """Readable unit table and rule flags."""
    from oddsim.model.rules import SubFirstStrike, SubStrikeDestroyer, SubStrikeRounds

    lines = [f"{ruleset.name}: {ruleset.title}", ""]
    lines.append(f"{'unit':16s} {'cost':>4s} {'att':>4s} {'def':>4s} {'move':>4s} {'hits':>4s}  "
                 f"{'domain':6s} {'abbreviations':24s} roles")
    for u in ruleset.units:
        roles = [flag for flag in ("submarine", "destroyer", "aa", "defenceless", "casualty_last",
                                   "transport", "heavy_cargo") if getattr(u, flag)]
        if not u.combatant:
            roles.append("not a casualty")
        if not u.can_attack:
            roles.append("cannot attack")
        lines.append(f"{u.name:16s} {u.cost:4d} {u.attack:4d} {u.defense:4d} {u.move:4d} "
                     f"{u.hits:4d}  {u.domain.value:6s} {', '.join(u.aliases):24s} {', '.join(roles)}")
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
    for rule in ruleset.support:
        lines.append(f"support: each {'/'.join(rule.supporters)} raises {rule.per_supporter} "
                     f"{'/'.join(rule.supported)} to {rule.value} on {rule.side}")
    if ruleset.bombard.units:
        ships = ", ".join(f"{name} @{value}" for name, value in ruleset.bombard.units)
        lines.append(f"bombard: {ships}")
    from oddsim.model.order_of_loss import DEFAULT_ORDER_PRINCIPLE, default_order

    lines += ["", f"default order of loss: {DEFAULT_ORDER_PRINCIPLE}"]
    for side, attacking in (("attacker", True), ("defender", False)):
        lines.append(f"  {side}: {', '.join(default_order(ruleset, attacking))}")
    return "\n".join(lines)

