"""Frozen values: the one way dicecli makes its trees, dice, results and outcomes.

``@frozen`` makes a class a frozen value, as ``@dataclass(frozen=True)`` would: an
``__init__`` from the annotated fields (with defaults, ``field(default_factory=...)``
and ``__post_init__``), equality and hashing by the compared fields, a ``repr``,
``__match_args__`` for ``match``, and pickling (the instance's dict is its state). Type
checkers read it as a frozen dataclass (:func:`typing.dataclass_transform`), so mypy
refuses an assignment to a field. As in dataclasses, a method the class writes itself
(``__init__``, ``__eq__``, ``__hash__``, ``__repr__``) is kept.

**Frozen by contract, not at run time.** No ``__setattr__`` refuses an assignment, as
a frozen dataclass's does: a class with its own ``__setattr__`` cannot fill its fields
by plain assignment, and every other way (``object.__setattr__`` per field, or writing
the instance's ``__dict__``) costs about twice as much per value made, and the second
makes each value about twice as large. A roll makes values by the thousand and shares
them between rolls, so the values are frozen the way dicecli checks everything else
about its types: ``mypy --strict`` over the package, its tests and the example
plug-ins. ``docs/games.md`` tells plug-in authors so, and the package's docstring tells
callers of the API. mypy refuses ``value.x = ...``, not ``del value.x`` or
``setattr(value, "x", ...)``, as for a frozen dataclass. A class that writes its own
``__setattr__`` keeps it, and ``__init__`` assigns through it.

Why not :mod:`dataclasses`: importing it imports :mod:`inspect` (with :mod:`ast`,
:mod:`dis`, :mod:`tokenize`), and it compiles six functions for every class, a large
part of what a plain roll's start-up would cost. Here equality, hashing and ``repr`` are
shared functions reading the class's field names; only ``__init__`` is made per class.

A *twin* (:func:`made_when_read`) is a plain subclass of a frozen class whose
instances may lack a field until it is read: the dice of a roll nobody reads one by one
(:class:`~dicecli.results.NumberedDice`). It is the same value as the frozen class's of
the same fields: equal, hashed alike, and copied by :func:`replace` as one.

How ``__init__`` is made, once, when the class is defined (so its signature is the real
one from the start, for ``help`` and Hypothesis's ``builds``):

- It assigns each field in turn (``self.x = x``): the cheapest way to fill an instance,
  which keeps its fields in the instance itself rather than in a dict of their own.
- Compiling Python source costs far more than everything else defining a class does,
  and start-up defines dozens of classes. So ``__init__`` is compiled once per *shape*
  (how many fields, which ones have a factory, whether there is ``__post_init__``),
  with placeholder names ``_0, _1, ...``; each class gets a copy of that code with its
  own field names put in place of the placeholders (:meth:`types.CodeType.replace`).
"""

from __future__ import annotations

from operator import attrgetter
from types import CodeType, FunctionType
from typing import TYPE_CHECKING, Any, TypeVar, overload

if TYPE_CHECKING:
    from collections.abc import Callable

    from typing_extensions import dataclass_transform
else:

    def dataclass_transform(**_: object) -> object:
        return lambda function: function


T = TypeVar("T")


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
    if other.__class__ is not self.__class__ and _value_class(other) is not _value_class(self):
        return NotImplemented
    compared: Callable[[object], tuple[object, ...]] = self.__frozen_compared__
    return compared(self) == compared(other)


def _hash(self: Any) -> int:
    return hash(self.__frozen_compared__(self))


def _repr(self: Any) -> str:
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__frozen_shown__)
    return f"{type(self).__qualname__}({shown})"


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


_Shape = tuple[int, tuple[int, ...], bool]
"""How many fields, the places of those with a factory, and whether to call
``__post_init__``: all an ``__init__``'s code depends on but the names."""

_INIT_CODE: dict[_Shape, CodeType] = {}
"""The ``__init__`` code of each shape met, with placeholder names."""


def _placeholders(count: int) -> tuple[str, ...]:
    return tuple(f"_{place}" for place in range(count))


def _init_code(shape: _Shape) -> CodeType:
    """The code of an ``__init__`` of ``shape``, its fields named ``_0, _1, ...``."""
    code = _INIT_CODE.get(shape)
    if code is None:
        count, factories, post_init = shape
        names = _placeholders(count)
        lines = [f"def __init__({', '.join(('self', *names))}):"]
        # a field given no value gets its factory's (__missing is its default)
        lines += [f"    if _{p} is __missing: _{p} = __factories[{p}]()" for p in factories]
        lines += [f"    self.{name} = {name}" for name in names]
        if post_init:
            lines.append("    self.__post_init__()")
        if len(lines) == 1:
            lines.append("    pass")
        scope: dict[str, Any] = {}
        exec("\n".join(lines), scope)
        code = _INIT_CODE[shape] = scope["__init__"].__code__
    return code


def _make_init(cls: type, fields: dict[str, Field]) -> Callable[..., None]:
    """The ``__init__`` of ``cls``: its shape's code with the field names put in, as
    parameters and as the attributes assigned."""
    names = tuple(fields)
    defaults: list[object] = []
    factories: dict[int, Callable[[], object]] = {}
    for place, (name, declared) in enumerate(fields.items()):
        if declared.default is not MISSING:
            defaults.append(declared.default)
        elif declared.default_factory is not MISSING:
            defaults.append(MISSING)
            factories[place] = declared.default_factory
        elif defaults:
            raise TypeError(f"{cls.__name__}: field {name!r} without a default follows one with")
    shape = (len(names), tuple(factories), hasattr(cls, "__post_init__"))
    template = _init_code(shape)
    named = dict(zip(_placeholders(len(names)), names, strict=True))
    code = template.replace(
        co_varnames=("self", *names),
        co_names=tuple(named.get(name, name) for name in template.co_names),
    )
    scope = {"__missing": MISSING, "__factories": factories}
    init = FunctionType(code, scope, "__init__", tuple(defaults))
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    return init


def _getter(names: tuple[str, ...]) -> Callable[[object], tuple[object, ...]]:
    """The compared fields of a value, as one tuple (``attrgetter`` gives a bare value
    for a single name, and fails for none)."""
    if len(names) > 1:
        return attrgetter(*names)
    if len(names) == 1:
        (name,) = names
        return lambda value: (getattr(value, name),)
    return lambda value: ()


def _build(cls: type[T], eq: bool) -> type[T]:
    fields: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        fields.update(base.__dict__.get("__frozen_fields__", {}))
    fields.update(_own_fields(cls))
    setattr(cls, "__frozen_fields__", fields)  # noqa: B010
    names = tuple(fields)
    if "__init__" not in cls.__dict__:
        setattr(cls, "__init__", _make_init(cls, fields))  # noqa: B010
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
    return cls


@overload
def frozen(cls: type[T], /) -> type[T]: ...


@overload
def frozen(*, eq: bool = True) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(field, Field))
def frozen(
    cls: type[T] | None = None, /, *, eq: bool = True
) -> type[T] | Callable[[type[T]], type[T]]:
    """Make ``cls`` a frozen value (see the module's docstring); ``eq=False``: values
    compare by identity."""
    if cls is None:
        return lambda decorated: _build(decorated, eq)
    return _build(cls, eq)


def replace(value: T, /, **changes: Any) -> T:
    """A copy of the frozen ``value`` with some fields changed (as
    :func:`dataclasses.replace`)."""
    fields: dict[str, Field] = getattr(value, "__frozen_fields__")  # noqa: B009
    unknown = set(changes) - set(fields)
    if unknown:
        raise TypeError(f"{type(value).__name__} has no field {sorted(unknown)[0]!r}")
    arguments = {name: changes.get(name, getattr(value, name)) for name in fields}
    made: T = _value_class(value)(**arguments)
    return made


class _MadeWhenRead:
    """The class attribute of a field that :func:`made_when_read` lets a twin's
    instances lack. Only ``__get__``: a descriptor without ``__set__`` comes after the
    instance's own attributes, so an instance that holds the field reads it as ever."""

    __slots__ = ("make", "name")

    def __init__(self, name: str, make: Callable[[Any], object]) -> None:
        self.name = name
        self.make = make

    def __get__(self, instance: object, owner: type | None = None) -> object:
        if instance is None:  # the class has no default for the field
            raise AttributeError(self.name)
        value = instance.__dict__[self.name] = self.make(instance)
        return value


def made_when_read(name: str, make: Callable[[Any], object]) -> Callable[[type[T]], type[T]]:
    """Make the decorated class, a plain subclass of a frozen class (its *twin*), one
    whose instances may be made without the field ``name``: ``make`` makes the field
    from the instance the first time it is read, and the instance keeps it. A twin's
    value compares equal to, and hashes as, the frozen class's value of the same fields,
    and :func:`replace` makes one of the frozen class. The frozen class itself is left
    as it is: a descriptor on it would slow every read of the field, made or not."""

    def decorate(twin: type[T]) -> type[T]:
        frozen_class = twin.__mro__[1]
        if name not in frozen_class.__dict__.get("__frozen_fields__", {}):
            raise TypeError(f"{twin.__name__}: {name!r} is no field of its base class")
        setattr(twin, name, _MadeWhenRead(name, make))
        setattr(twin, "__frozen_twin_of__", frozen_class)  # noqa: B010
        return twin

    return decorate


def _value_class(value: object) -> type:
    """The frozen class ``value`` is a value of: its own, or the one it is a twin of."""
    twin_of: type | None = getattr(value, "__frozen_twin_of__", None)
    return twin_of or type(value)


def field_names(value: object) -> tuple[str, ...]:
    """The names of a frozen value's (or class's) fields, in order."""
    fields: dict[str, Field] = getattr(value, "__frozen_fields__")  # noqa: B009
    return tuple(fields)
