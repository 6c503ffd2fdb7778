"""Frozen dataclasses made without their generated ``__init__``, which sets every field through
``object.__setattr__``: some 0.1 us a field, several microseconds of each small exact solve
(its lowered arrays, layouts, prepared inputs and result have a hundred fields together)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

_BUILDERS: dict[type, Callable[..., Any]] = {}
_FACTORY = object()
"""The default of a field with a default factory, in a builder's signature."""


def builder(cls: type[T]) -> Callable[..., T]:
    """A function that makes ``cls(...)`` (a frozen dataclass without ``__post_init__``) from the
    same arguments, the same instance, by writing its fields into its ``__dict__``."""
    made = _BUILDERS.get(cls)
    if made is None:
        made = _BUILDERS[cls] = _make_builder(cls)
    return made


def _make_builder(cls: type) -> Callable[..., Any]:
    if not dataclasses.is_dataclass(cls) or hasattr(cls, "__post_init__") or hasattr(cls, "__slots__"):
        raise TypeError(f"{cls.__name__} is not a plain dataclass")
    fields = [f for f in dataclasses.fields(cls) if f.init]
    # (names of the code's own start with two underscores: no field's does)
    namespace: dict[str, Any] = {"__new": object.__new__, "__cls": cls, "__factory": _FACTORY}
    params, body = [], []
    for i, f in enumerate(fields):
        if f.default is not dataclasses.MISSING:
            namespace[f"__default{i}"] = f.default
            params.append(f"{f.name}=__default{i}")
        elif f.default_factory is not dataclasses.MISSING:
            namespace[f"__factory{i}"] = f.default_factory
            params.append(f"{f.name}=__factory")
            body.append(f"    if {f.name} is __factory: {f.name} = __factory{i}()")
        else:
            params.append(f.name)
        body.append(f"    __fields[{f.name!r}] = {f.name}")
    if any(f.name.startswith("__") for f in fields):
        raise TypeError(f"{cls.__name__} has a field whose name starts with two underscores")
    source = "\n".join([f"def build({', '.join(params)}):", "    __made = __new(__cls)",
                        "    __fields = __made.__dict__", *body, "    return __made"])
    exec(source, namespace)  # noqa: S102 - code made here from the class's field names
    return namespace["build"]


def evolve(instance: T, **changes: Any) -> T:
    """``dataclasses.replace(instance, **changes)`` for a frozen dataclass that ``builder``
    makes: a copy of its ``__dict__`` with ``changes`` (each one of its fields), without its
    ``__init__`` (replace took a tenth of a small best-retreat solve, twice). Only for classes that
    keep nothing but their fields in ``__dict__`` (no cached properties)."""
    cls = type(instance)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = frozenset(f.name for f in dataclasses.fields(cls))  # type: ignore[arg-type]
    unknown = set(changes) - names
    if unknown:
        raise TypeError(f"{cls.__name__} has no field {sorted(unknown)[0]!r}")
    made = object.__new__(cls)
    made.__dict__.update(instance.__dict__, **changes)
    return made


_FIELDS: dict[type, frozenset[str]] = {}
"""Each class's field names, as ``evolve`` checks them."""
