"""oddsim._runtime.frozen: a builder makes the same frozen dataclass instance as its ``__init__``."""

from dataclasses import dataclass, field, replace

import pytest

from oddsim._runtime.frozen import builder


@dataclass(frozen=True)
class _Point:
    x: int
    d: str  # a field named like a local of the builder's code would be
    made: float = 0.5
    tags: list = field(default_factory=list)


def test_builder_makes_the_same_instance_as_init():
    build = builder(_Point)
    assert build(1, "a") == _Point(1, "a")
    assert build(x=2, d="b", made=1.5, tags=[3]) == _Point(2, "b", 1.5, [3])
    assert build(1, "a").__dict__ == _Point(1, "a").__dict__
    assert build(1, "a").tags is not build(1, "a").tags  # a fresh default each time
    with pytest.raises(AttributeError):
        build(1, "a").x = 3  # still frozen


def test_builder_rejects_what_init_rejects():
    build = builder(_Point)
    with pytest.raises(TypeError):
        build(1)
    with pytest.raises(TypeError):
        build(1, "a", unknown=2)


def test_builder_refuses_classes_with_post_init():
    @dataclass(frozen=True)
    class Checked:
        x: int

        def __post_init__(self) -> None:
            pass

    with pytest.raises(TypeError):
        builder(Checked)


def test_evolve_is_replace_without_init_and_refuses_unknown_fields():
    from oddsim._runtime.frozen import evolve

    @dataclass(frozen=True)
    class Point:
        x: int
        y: int = 2

    p = Point(1)
    moved = evolve(p, y=5)
    assert moved == replace(p, y=5) and p == Point(1, 2)
    with pytest.raises(TypeError, match="no field 'z'"):
        evolve(p, z=3)
