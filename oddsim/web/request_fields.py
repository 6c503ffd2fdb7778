"""A JSON request's fields: the value's own fields (a dataclass's), checked against what the
request may name, refusing an unknown field or a missing one in one line."""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import Mapping
from typing import Any

from oddsim.web.limits import WebError

Body = Mapping[str, Any]
"""A request's JSON object."""
RULES_FIELDS = ("rules", "ruleset_toml", "rule", "unit_values", "game")
"""A request's fields that choose its ruleset (``ruleset_of``)."""


@functools.cache
def field_names(value_type: type) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the init fields of ``value_type`` but ``rules``, those of them without a default), worked
    out once per type."""
    own = tuple(f.name for f in dataclasses.fields(value_type) if f.init and f.name != "rules")
    required = tuple(name for name, parameter in inspect.signature(value_type).parameters.items()
                     if parameter.default is inspect.Parameter.empty and name != "rules")
    return own, required


def refuse_unknown(body: Body, allowed: set[str], where: str) -> None:
    """Refuse a request with a field none of ``allowed``, naming it and the fields there are."""
    unknown = sorted(set(body) - allowed)
    if unknown:
        raise WebError(f"unknown field '{unknown[0]}' in the {where} request: use "
                       f"{', '.join(sorted(allowed))}")


def fields_of(body: Body, value_type: type, engine: tuple[str, ...], where: str) -> dict[str, Any]:
    """The request's fields of ``value_type`` (a dataclass), refusing any unknown field."""
    own, required = field_names(value_type)
    refuse_unknown(body, {*own, *engine, *RULES_FIELDS}, where)
    missing = [name for name in required if name not in body]
    if missing:
        raise WebError(f"missing field '{missing[0]}' in the {where} request: it needs "
                       f"{', '.join(required)}")
    return {name: body[name] for name in own if name in body}
