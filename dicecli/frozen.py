"""Frozen value classes for the values every roll builds, cheap to define at start-up.

``@frozen`` makes a class a frozen value, as ``@dataclass(frozen=True)`` would: an
``__init__`` from the annotated fields (with defaults, ``field(default_factory=...)``
and ``__post_init__``), equality and hashing by the compared fields, a ``repr``,
``__match_args__`` for ``match``, and assignment refused. Type checkers read it as a
dataclass (:func:`typing.dataclass_transform`).

Why not :mod:`dataclasses`: importing it imports :mod:`inspect` (with :mod:`ast`,
:mod:`dis`, :mod:`tokenize`), and it compiles six functions for every class. Together
that was about 90 million instructions of the 200 million a plain ``dicecli 2D6+5``
takes. Here only ``__init__`` is compiled per class (it is what every roll calls), and
only when the class is first instantiated: a run builds values of few of the classes
it loads. Equality, hashing and ``repr`` are shared functions reading the class's field
names.

The trees of :mod:`dicecli.notation.nodes`, the dice, the results, the environment and
the prepared steps use it: everything a plain roll builds. Values built only by slower
commands (the REPL's state, odds reports) may stay dataclasses.
"""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Any, TypeVar, overload

if TYPE_CHECKING:
    from collections.abc import Callable

    from typing_extensions import dataclass_transform
else:

    def dataclass_transform(**_: object) -> object:
        return lambda function: function


T = TypeVar("T")


class FrozenInstanceError(AttributeError):
    """Raised on an assignment to a field of a frozen value."""


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


class Field:
    """What :func:`field` declares of one field."""

    __slots__ = ("compare", "default", "default_factory", "repr")

    def __init__(
        self,
        default: object,
        default_factory: Callable[[], object] | Any,
        compare: bool,
        repr: bool,
    ) -> None:
        self.default = default
        self.default_factory = default_factory
        self.compare = compare
        self.repr = repr


def field(
    *,
    default: Any = MISSING,
    default_factory: Callable[[], Any] | Any = MISSING,
    compare: bool = True,
    repr: bool = True,
) -> Any:
    """A field's default (or a factory for it), and whether it takes part in equality,
    hashing and ``repr``."""
    return Field(default, default_factory, compare, repr)


def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is not self.__class__:
        return NotImplemented
    compared: Callable[[object], tuple[object, ...]] = self.__frozen_compared__
    return compared(self) == compared(other)


def _hash(self: Any) -> int:
    return hash(self.__frozen_compared__(self))


def _repr(self: Any) -> str:
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__frozen_shown__)
    return f"{type(self).__qualname__}({shown})"


def _setattr(self: object, name: str, value: object) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _delattr(self: object, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")


def _own_fields(cls: type) -> dict[str, Field]:
    """The fields ``cls`` itself annotates (not ``ClassVar`` s), with their defaults."""
    found: dict[str, Field] = {}
    # (not inspect.get_annotations: importing inspect is what this module avoids)
    annotations = cls.__dict__.get("__annotations__", {})  # noqa: RUF063
    for name, annotation in annotations.items():
        if str(annotation).startswith(("ClassVar", "typing.ClassVar")):
            continue
        declared = cls.__dict__.get(name, MISSING)
        if isinstance(declared, Field):
            found[name] = declared
            if declared.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, declared.default)
        else:
            found[name] = Field(declared, MISSING, True, True)
    return found


def _init_source(fields: dict[str, Field], post_init: bool) -> str:
    parameters = ["self"]
    body = []
    for name, declared in fields.items():
        if declared.default is not MISSING:
            parameters.append(f"{name}=__defaults[{name!r}]")
        elif declared.default_factory is not MISSING:
            parameters.append(f"{name}=__missing")
            body.append(f"    if {name} is __missing: {name} = __factories[{name!r}]()")
        else:
            parameters.append(name)
        body.append(f"    __set(self, {name!r}, {name})")
    lines = [f"def __init__({', '.join(parameters)}):", *(body or ["    pass"])]
    if post_init:
        lines.append("    self.__post_init__()")
    return "\n".join(lines)


def _make_init(cls: type, fields: dict[str, Field]) -> Callable[..., None]:
    scope: dict[str, Any] = {
        "__defaults": {n: f.default for n, f in fields.items() if f.default is not MISSING},
        "__factories": {
            n: f.default_factory for n, f in fields.items() if f.default_factory is not MISSING
        },
        "__missing": MISSING,
        # object.__setattr__, as dataclasses does: writing to ``self.__dict__`` would
        # make the instance's dict a real one, and reading its fields slower
        "__set": object.__setattr__,
    }
    exec(_init_source(fields, hasattr(cls, "__post_init__")), scope)
    init: Callable[..., None] = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


def _first_init(cls: type, fields: dict[str, Field]) -> Callable[..., None]:
    """The ``__init__`` of ``cls`` until its first call, which compiles the real one
    (:func:`_make_init`), puts it on the class in its place, and calls it."""

    def first_init(self: object, *args: object, **kwargs: object) -> None:
        init = _make_init(cls, fields)
        setattr(cls, "__init__", init)  # noqa: B010
        init(self, *args, **kwargs)

    first_init.__name__ = "__init__"
    first_init.__qualname__ = f"{cls.__qualname__}.__init__"
    return first_init


def _getter(names: tuple[str, ...]) -> Callable[[object], tuple[object, ...]]:
    """The compared fields of a value, as one tuple (``attrgetter`` gives a bare value
    for a single name, and fails for none)."""
    if len(names) > 1:
        return attrgetter(*names)
    if len(names) == 1:
        (name,) = names
        return lambda value: (getattr(value, name),)
    return lambda value: ()


def _build(cls: type[T], init: bool, eq: bool, init_now: bool = False) -> type[T]:
    fields: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        fields.update(base.__dict__.get("__frozen_fields__", {}))
    fields.update(_own_fields(cls))
    setattr(cls, "__frozen_fields__", fields)  # noqa: B010
    names = tuple(fields)
    if init and "__init__" not in cls.__dict__:  # a class's own __init__ stays, as in dataclasses
        made = _make_init if init_now else _first_init
        setattr(cls, "__init__", made(cls, fields))  # noqa: B010
    setattr(cls, "__match_args__", names)  # noqa: B010
    compared = tuple(name for name, declared in fields.items() if declared.compare)
    setattr(cls, "__frozen_compared__", staticmethod(_getter(compared)))  # noqa: B010
    setattr(cls, "__frozen_shown__", tuple(n for n, f in fields.items() if f.repr))  # noqa: B010
    if "__repr__" not in cls.__dict__:
        setattr(cls, "__repr__", _repr)  # noqa: B010
    if eq and "__eq__" not in cls.__dict__:
        setattr(cls, "__eq__", _eq)  # noqa: B010
    if eq and "__hash__" not in cls.__dict__:
        setattr(cls, "__hash__", _hash)  # noqa: B010
    setattr(cls, "__setattr__", _setattr)  # noqa: B010
    setattr(cls, "__delattr__", _delattr)  # noqa: B010
    return cls


@overload
def frozen(cls: type[T], /) -> type[T]: ...


@overload
def frozen(
    *, init: bool = True, eq: bool = True, init_now: bool = False
) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(field, Field))
def frozen(
    cls: type[T] | None = None,
    /,
    *,
    init: bool = True,
    eq: bool = True,
    init_now: bool = False,
) -> type[T] | Callable[[type[T]], type[T]]:
    """Make ``cls`` a frozen value (see the module's docstring). ``init=False``: the
    class writes its own ``__init__`` (through :func:`object.__setattr__`); ``eq=False``:
    values compare by identity. ``__init__`` is compiled when the class is first
    instantiated: until then its signature reads ``(*args, **kwargs)`` to
    :func:`inspect.signature` (so to ``help`` and to Hypothesis's ``builds``);
    ``init_now=True`` compiles it at once, for classes others build from their
    signature (a plug-in game's declarations)."""
    if cls is None:
        return lambda decorated: _build(decorated, init, eq, init_now)
    return _build(cls, init, eq)


def replace(value: T, /, **changes: Any) -> T:
    """A copy of the frozen ``value`` with some fields changed (as
    :func:`dataclasses.replace`)."""
    fields: dict[str, Field] = getattr(value, "__frozen_fields__")  # noqa: B009
    unknown = set(changes) - set(fields)
    if unknown:
        raise TypeError(f"{type(value).__name__} has no field {sorted(unknown)[0]!r}")
    arguments = {name: changes.get(name, getattr(value, name)) for name in fields}
    return type(value)(**arguments)


def field_names(value: object) -> tuple[str, ...]:
    """The names of a frozen value's (or class's) fields, in order."""
    fields: dict[str, Field] = getattr(value, "__frozen_fields__")  # noqa: B009
    return tuple(fields)
