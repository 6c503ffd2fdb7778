"""A request's ruleset (a built-in edition or a user's TOML text, with rule changes and unit
values applied as the CLI applies them), and an edition described as the page reads it."""

from __future__ import annotations

import dataclasses
import functools
import json

from oddsim.model.order_of_loss import DEFAULT_ORDER_PRINCIPLE, default_order
from oddsim.model.rules import (
    Ruleset,
    builtin_names,
    load_ruleset,
    rule_changes,
    ruleset_from_text,
    text_with_changes,
    with_changes,
)
from oddsim.web.limits import MAX_RULESET_ALIASES, WebError
from oddsim.web.request_fields import RULES_FIELDS, Body
from oddsim.web.work import Progress


def ruleset_of(body: Body) -> Ruleset:
    """``_ruleset_of``, refused when it has more aliases than the server keeps."""
    rules = _ruleset_of(body)
    _check_aliases(rules)
    return rules


def _ruleset_of(body: Body) -> Ruleset:
    """The request's ruleset: ``ruleset_toml`` (a user's file, as text) or a built-in ``rules``,
    with ``rule`` (``["combat.repair=end_of_turn"]``, as ``--rule``) and ``unit_values``
    (``"ftr=14,bmb=15"``, as ``--unit-values``) applied, as the CLI applies them; or the rules
    of a game read before (``game``: its token, ``oddsim.web.game_requests``)."""
    if body.get("game") is not None:
        return _game_ruleset(body)
    text = body.get("ruleset_toml")
    if text is not None:
        if body.get("rules") is not None:
            raise WebError("give rules (an edition's name) or ruleset_toml (a ruleset's text), "
                           "not both")
        base = ruleset_from_text(text, origin="ruleset_toml", what="ruleset_toml")
    else:
        name = body.get("rules", "1942-2e")
        if not isinstance(name, str) or name not in _builtin_names():
            raise WebError(f"unknown edition {name!r}: use one of {', '.join(builtin_names())}, or "
                           f"send your ruleset file's text as ruleset_toml")
        base = _builtin_ruleset(name)
    changes = _rule_changes(body.get("rule"), body.get("unit_values"), base)
    if not changes:
        return base
    if text is not None:
        return text_with_changes(text, changes, origin="ruleset_toml", what="ruleset_toml")
    try:
        return _changed_builtin(name, tuple(changes.items()))
    except TypeError:  # (a change to a list or a table: not kept)
        return with_changes(name, changes)


def _game_ruleset(body: Body) -> Ruleset:
    """The rules of the game a request names, alone: a game's map has its own rules."""
    from oddsim.web.game_requests import game_rules

    others = [name for name in RULES_FIELDS if name != "game" and body.get(name) is not None]
    if others:
        raise WebError(f"a game's battles are fought under its map's own rules: drop {others[0]} (or game)")
    return game_rules(body["game"])


def _check_aliases(rules: Ruleset) -> None:
    """Refuse a request's ruleset with more aliases than the server keeps (a kept answer keeps
    its ruleset: ``limits.MAX_RULESET_ALIASES``)."""
    count = sum(len(unit.aliases) for unit in rules.units)
    if count > MAX_RULESET_ALIASES:
        raise WebError(f"the ruleset gives its units {count:,} aliases, more than the "
                       f"{MAX_RULESET_ALIASES:,} the server takes: keep the names players type, or "
                       f"use the CLI (--rules FILE)", status=413)


def _rule_changes(rule: object, unit_values: object, base: Ruleset) -> dict[str, object]:
    """The file keys a request's ``rule`` (a change or a list of them) and ``unit_values`` set."""
    given = [rule] if isinstance(rule, str) else [] if rule is None else rule
    if not isinstance(given, list) or not all(isinstance(change, str) for change in given):
        raise WebError('rule: a list of rule changes like ["combat.repair=end_of_turn"] (as --rule)')
    return rule_changes(given, unit_values, base)  # type: ignore[arg-type]  # (it names a bad one)


@functools.lru_cache(maxsize=64)
def _changed_builtin(name: str, changes: tuple[tuple[str, object], ...]) -> Ruleset:
    """A built-in edition with some of its keys changed (parsing its file again took a few ms)."""
    return with_changes(name, dict(changes))


@functools.cache
def _builtin_ruleset(name: str) -> Ruleset:
    """A built-in edition (``load_ruleset`` keeps them too, but lists the package's files first)."""
    return load_ruleset(name)


def is_builtin(value: object) -> bool:
    """Whether ``value`` is a built-in edition the server keeps anyway (``_builtin_ruleset``):
    what a kept answer need not count."""
    name = getattr(value, "name", None)
    return (isinstance(value, Ruleset) and isinstance(name, str) and name in _builtin_names()
            and value is _builtin_ruleset(name))


@functools.cache
def _builtin_names() -> frozenset[str]:
    """The built-in editions' names, read once (listing the package's files on every request
    cost a tenth of a small battle's time)."""
    return frozenset(builtin_names())


def ruleset_json(rules: Ruleset) -> dict:
    """An edition as plain data: units (numbers and roles), technologies, special rules, and
    each side's default order of loss: what the page builds its pickers from."""
    def plain(value):
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        return getattr(value, "value", value)  # enums

    data = plain(dataclasses.asdict(rules))
    data["technologies"] = [t.name for t in rules.tech]
    data["order_of_loss"] = {"attacker": default_order(rules, True),
                             "defender": default_order(rules, False),
                             "principle": DEFAULT_ORDER_PRINCIPLE}
    return data


def rules_request(body: Body, progress: Progress | None = None) -> str:
    """``POST /api/rules``: a user's ruleset (TOML text), or an edition with rule changes and
    unit values (``ruleset_of``), checked and described like an edition."""
    unknown = sorted(set(body) - set(RULES_FIELDS))
    if unknown or not {"ruleset_toml", "rules", "game"} & set(body):
        raise WebError("send {\"ruleset_toml\": \"<the text of a ruleset file>\"} or "
                       "{\"rules\": \"<an edition>\", "
                       "\"unit_values\": \"ftr=14\", \"rule\": [\"KEY=VALUE\"]}")
    return json.dumps(ruleset_json(ruleset_of(body)))
