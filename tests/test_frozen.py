"""``@frozen`` (dicecli/frozen.py) against ``@dataclass(frozen=True)``: the same values
must compare, hash, show, match and copy alike, since every tree and result uses it."""

from __future__ import annotations

import dataclasses
import inspect
import pickle
from collections.abc import Mapping
from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dicecli.frozen import field, field_names, frozen, made_when_read, replace


@frozen
class Point:
    x: int
    y: int = 0
    label: str = field(default="", compare=False)
    kind: ClassVar[str] = "point"


@dataclasses.dataclass(frozen=True)
class DataPoint:
    x: int
    y: int = 0
    label: str = dataclasses.field(default="", compare=False)
    kind: ClassVar[str] = "point"


@frozen
class Point3(Point):
    z: int = 0


@frozen
class Bag:
    items: Mapping[str, int] = field(default_factory=dict)
    seen: list[str] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "items", dict(sorted(self.items.items())))

    @cached_property
    def total(self) -> int:
        return sum(self.items.values())


@frozen(eq=False)
class Token:
    name: str


@frozen
class Pair:
    left: int
    right: int

    def __init__(self, left: int, right: int = 0) -> None:
        object.__setattr__(self, "left", left)
        object.__setattr__(self, "right", right)


@frozen
class One:
    only: int


def _as_data(point: Point) -> DataPoint:
    return DataPoint(point.x, point.y, point.label)


points = st.builds(Point, st.integers(-3, 3), st.integers(-3, 3), st.sampled_from(["", "a"]))


@given(points, points)
def test_equality_hash_and_repr_are_a_dataclass_s(a: Point, b: Point) -> None:
    twin_a, twin_b = _as_data(a), _as_data(b)
    assert (a == b) == (twin_a == twin_b)
    assert (a != b) == (twin_a != twin_b)
    if a == b:
        assert hash(a) == hash(b)
    assert repr(a) == repr(twin_a).replace("DataPoint", "Point")


def test_fields_defaults_and_class_variables() -> None:
    assert field_names(Point) == ("x", "y", "label")
    assert Point(1) == Point(1, 0, "")
    assert Point(1, label="a") == Point(1)  # label is not compared
    assert Point.kind == "point"
    assert "kind" not in field_names(Point)
    assert Point.__match_args__ == ("x", "y", "label")
    with pytest.raises(TypeError):
        Point()  # type: ignore[call-arg]


def test_inherited_fields_come_first() -> None:
    point = Point3(1, 2, "a", 3)
    assert field_names(point) == ("x", "y", "label", "z")
    assert point != Point(1, 2, "a")  # another class is never equal
    match point:
        case Point3(x, y, _, z):
            assert (x, y, z) == (1, 2, 3)
        case _:
            pytest.fail("no match")


ASSIGNS_A_FIELD = """
from dicecli.frozen import frozen


@frozen
class Point:
    x: int


point = Point(1)
point.x = 2
"""


@pytest.mark.slow  # a run of mypy; CI runs mypy --strict over the package and tests
def test_mypy_refuses_an_assignment_to_a_field(tmp_path: Path) -> None:
    """Values are frozen by contract (see dicecli/frozen.py): the type checker, not a
    ``__setattr__``, refuses an assignment."""
    api = pytest.importorskip("mypy.api")
    module = tmp_path / "assigns.py"
    module.write_text(ASSIGNS_A_FIELD, encoding="utf-8")
    cache = Path(__file__).resolve().parent.parent / ".mypy_cache"
    out, _, status = api.run(["--strict", "--cache-dir", str(cache), str(module)])
    assert status == 1
    assert 'Property "x" defined in "Point" is read-only' in out


def test_fields_are_kept_in_the_instance() -> None:
    """Made by plain assignment: the instance holds its fields as any object does."""
    point = Point3(1, 2, "a", 3)
    assert vars(point) == {"x": 1, "y": 2, "label": "a", "z": 3}
    init = Point3.__init__.__code__
    assert "__dict__" not in init.co_names  # no dict of the instance's written
    assert {"x", "y", "label", "z"} <= set(init.co_names)  # each field assigned


def test_factories_post_init_and_cached_properties() -> None:
    first, second = Bag(), Bag()
    assert first.items == {}
    assert first.items is not second.items
    bag = Bag({"b": 2, "a": 1})
    assert list(bag.items) == ["a", "b"]  # __post_init__ ran
    assert bag.total == 3
    assert vars(bag)["total"] == 3  # cached on the instance
    assert repr(bag) == "Bag(items={'a': 1, 'b': 2})"  # seen has repr=False


def test_eq_false_compares_by_identity() -> None:
    token = Token("a")
    assert token != Token("a")
    assert token == token
    assert hash(token) == object.__hash__(token)


def test_a_class_s_own_init_is_kept() -> None:
    pair = Pair(1)
    assert pair == Pair(1, 0)
    assert hash(pair) == hash(Pair(1, 0))
    assert Pair.__match_args__ == ("left", "right")


def test_a_single_compared_field() -> None:
    assert One(1) == One(1) != One(2)
    assert hash(One(1)) == hash((1,))


def test_replace_copies_with_changes() -> None:
    point = Point(1, 2, "a")
    moved = replace(point, y=5)
    assert moved == Point(1, 5, "a")
    assert moved.label == "a"
    assert point == Point(1, 2, "a")
    with pytest.raises(TypeError, match="Point has no field 'w'"):
        replace(point, w=1)


def test_values_survive_pickling() -> None:
    values: list[Any] = [Point(1, 2, "a"), Point3(1, z=4), Bag({"a": 1}), Pair(3, 4)]
    for value in values:
        copy = pickle.loads(pickle.dumps(value))
        assert copy == value
        assert repr(copy) == repr(value)


@frozen
class Scaled:
    value: int

    def __init__(self, value: int, scale: int = 1) -> None:
        object.__setattr__(self, "value", value * scale)


def test_a_class_s_own_init_is_kept_as_dataclasses_keep_it() -> None:
    assert Scaled(2, 3).value == 6
    assert Scaled(6) == Scaled(2, 3)


def test_init_is_made_when_the_class_is_defined() -> None:
    @frozen
    class Fresh:
        name: str
        sides: int = 6
        faces: list[int] = field(default_factory=list)

    # no instance built yet: the signature is already the fields' (for help, builds)
    assert str(inspect.signature(Fresh)) == "(name, sides=6, faces=MISSING)"
    assert Fresh.__init__.__qualname__.endswith("Fresh.__init__")


@frozen
class Left:
    a: int
    b: int = 1
    c: list[int] = field(default_factory=list)


@frozen
class Right:
    p: int
    q: int = 2
    r: dict[str, int] = field(default_factory=dict)


def test_classes_of_one_shape_keep_their_own_names_defaults_and_factories() -> None:
    # Left and Right share one compiled __init__ code, copied with their own names
    assert repr(Left(c=[5], a=3)) == "Left(a=3, b=1, c=[5])"
    assert repr(Right(q=4, p=3)) == "Right(p=3, q=4, r={})"
    assert Left(1).c == []
    assert Left(1).c is not Left(1).c
    assert vars(Right(1)) == {"p": 1, "q": 2, "r": {}}
    with pytest.raises(TypeError, match="'p'"):
        Left(p=1)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Right(1, 2, {}, 4)  # type: ignore[call-arg]


def test_a_field_without_a_default_after_one_with_is_refused() -> None:
    with pytest.raises(TypeError, match="'b' without a default"):

        @frozen
        class Wrong:
            a: int = 0
            b: int  # type: ignore[misc]


@pytest.mark.parametrize(
    "line", ["2d6+5", "4d6r1!kh3 >= 12", "wfb artillery", "alkemy 8 vs 15", "age 2 vs 13"]
)
def test_results_survive_pickling(line: str) -> None:
    import dicecli

    result = dicecli.roll(line, seed=3)
    copy = pickle.loads(pickle.dumps(result))
    assert copy == result
    assert copy.as_dict() == result.as_dict()
    assert [die.rerollable for die in copy.dice] == [die.rerollable for die in result.dice]


@pytest.mark.parametrize("count", [1, 15, 16, 17, 40])
def test_every_field_is_stored_under_its_own_name_however_many(count: int) -> None:
    # each field's name is put in place of its placeholder, however many there are
    names = [f"field_{place}" for place in range(count)]
    made: type[Any] = frozen(type("Wide", (), {"__annotations__": dict.fromkeys(names, "int")}))
    value = made(*range(count))
    assert list(vars(value)) == names
    assert [getattr(value, name) for name in names] == list(range(count))


def _made_total(pair: LazyTotal) -> int:
    pair.makes += 1
    return pair.left + pair.right


@frozen
class Summed:
    left: int
    right: int
    total: int


@made_when_read("total", _made_total)
class LazyTotal(Summed):
    """A twin whose total is made from left and right when first read."""

    def __init__(self, left: int, right: int) -> None:
        self.__dict__.update(left=left, right=right)
        self.makes = 0


def test_a_twin_makes_its_field_once_when_first_read() -> None:
    lazy = LazyTotal(2, 3)
    assert "total" not in vars(lazy)
    assert lazy.total == 5
    assert lazy.total == 5
    assert lazy.makes == 1
    with pytest.raises(AttributeError):
        LazyTotal.total  # noqa: B018  (the class has no default for it)


@given(st.integers(-3, 3), st.integers(-3, 3))
def test_a_twin_is_the_frozen_value_of_the_same_fields(left: int, right: int) -> None:
    lazy, made = LazyTotal(left, right), Summed(left, right, left + right)
    assert lazy == made
    assert made == lazy
    assert hash(lazy) == hash(made)
    assert LazyTotal(left, right) != Summed(left, right, left + right + 1)
    assert Summed(left, right, left + right + 1) != LazyTotal(left, right)
    other_class: object = Point(left, right)
    assert LazyTotal(left, right) != other_class
    changed = replace(LazyTotal(left, right), right=right + 1)
    assert type(changed) is Summed
    assert changed == Summed(left, right + 1, left + right)  # the total as it was made


def test_a_twin_survives_pickling_before_and_after_it_is_read() -> None:
    unread = pickle.loads(pickle.dumps(LazyTotal(4, 5)))
    assert "total" not in vars(unread)
    assert unread == Summed(4, 5, 9)
    read = LazyTotal(1, 1)
    assert read.total == 2
    assert pickle.loads(pickle.dumps(read)) == Summed(1, 1, 2)


def test_a_twin_is_made_of_a_frozen_class_and_one_of_its_fields() -> None:
    with pytest.raises(TypeError, match="'size' is no field of its base class"):

        @made_when_read("size", _made_total)
        class NoSuchField(Summed):
            pass

    with pytest.raises(TypeError, match="'total' is no field of its base class"):

        @made_when_read("total", _made_total)
        class NotFrozen(dict[str, int]):
            pass
