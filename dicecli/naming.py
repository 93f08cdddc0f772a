"""Named values: which names can be given, and what the text of a value means.

One set of rules for ``--set NAME=VALUE``, the REPL's ``let NAME = VALUE`` and character
files: a name must read back as a name in a roll (letters, digits and ``_``, not dice
notation such as ``d6``, not a game keyword); a value without dice (``3``, ``-1``,
``STR + 2``) is worked out at once into a number, and a value with dice (``1d20+5``) is
a saved roll, rolled anew each time it is used; a game line (a game keyword and its form) is a
saved check, rolled anew when its name is typed as a whole line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from dicecli.environment import Environment
from dicecli.environment import saved_line as saved_line  # the REPL and app read it here
from dicecli.errors import DiceError, UnknownNameError
from dicecli.notation.dice import Die
from dicecli.notation.nodes import Expr, Name, children
from dicecli.notation.reader import parse, parse_as
from dicecli.notation.semantics import reference_cycle
from dicecli.rolling.evaluate import Evaluation
from dicecli.rolling.sources import Roller
from dicecli.systems import registry

NAME_PATTERN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be given a value, or None when it can."""
    if not NAME_PATTERN.fullmatch(name):
        return f"'{name}' is not a name: use letters, digits and _, starting with a letter"
    if name.casefold() in registry.keywords():
        return f"'{name}' is a game keyword: choose another name"
    try:
        reads_as_name = isinstance(parse(name).body, Name)
    except DiceError:
        reads_as_name = False
    if not reads_as_name:
        return f"'{name}' reads as dice notation: choose another name"
    return None


def names_in(expr: Expr) -> Iterator[Name]:
    """Every :class:`Name` in ``expr``, left to right."""
    if isinstance(expr, Name):
        yield expr
    for child in children(expr):
        yield from names_in(child)


def is_check_line(text: str, env: Environment | None = None) -> bool:
    """True when ``text`` (read in ``env``'s dialect) is a check, saved whole: a game's
    line (its first word a game keyword) or a comparison (``d20+5 >= 15``), not an
    expression."""
    return not isinstance(parse_as(text, None if env is None else env.dialect).body, Expr)


def value_expression(text: str, env: Environment) -> Expr:
    """The expression a value's text holds, read in ``env``'s dialect (docs/grammar.md,
    "Dialects"), its names checked against ``env`` (a game line is saved apart, with
    :meth:`Environment.with_check`)."""
    body = parse_as(text, env.dialect).body
    if not isinstance(body, Expr):
        raise DiceError("a check is saved whole (a saved check), not used in a roll", text, 0)
    for name in names_in(body):
        known = env.value(name.name) is not None or env.roll(name.name) is not None
        if not known and name.name.casefold() not in registry.words():
            raise UnknownNameError(
                f"unknown name '{name.name}': give it a value first", text, name.position
            )
    return body


class _NeedsDiceError(Exception):
    """Raised by :class:`_NoDice`: the expression rolls dice, so it is a saved roll."""


class _NoDice:
    def draw(self, die: Die) -> int:
        raise _NeedsDiceError


def constant_value(expr: Expr, env: Environment) -> int | None:
    """The value of ``expr`` when it rolls no dice (``3``, ``-1``, ``STR + 2``), computed
    now; None when it rolls dice (then it is saved and rolled each time it is used),
    a game's die included (a word a game gives a meaning, such as a special die)."""
    if any(name.name.casefold() in registry.words() for name in names_in(expr)):
        return None
    try:
        return Evaluation(Roller(_NoDice()), env).value(expr)
    except _NeedsDiceError:
        return None


def with_named(env: Environment, name: str, text: str) -> Environment:
    """``env`` with ``name`` given the value ``text`` means (a number or a saved roll)."""
    problem = name_problem(name)
    if problem is not None:
        raise DiceError(problem)
    if is_check_line(text, env):
        return env.with_check(name, text.strip())
    expr = value_expression(text, env)
    number = constant_value(expr, env)
    return with_saved_roll(env, name, expr) if number is None else env.with_value(name, number)


def with_sets(env: Environment, items: list[str]) -> Environment:
    """``env`` with each ``--set NAME=VALUE`` of ``items``, in order (a later one may
    use an earlier one's name); a :class:`DiceError` naming the item that cannot be
    given."""
    for item in items:
        name, equals, value = item.partition("=")
        if not equals:
            raise DiceError(f"--set takes NAME=VALUE, e.g. --set STR=3 (got '{item}')")
        try:
            env = with_named(env, name.strip(), value)
        except DiceError as error:
            raise DiceError(f"--set {item}: {error.message}") from None
    return env


def with_saved_roll(env: Environment, name: str, expr: Expr) -> Environment:
    """``env`` with the saved roll ``name``; refused when it would refer to itself
    (``let a = a + 1d6``: a roll that could never be rolled)."""
    saved = env.with_roll(name, expr)
    cycle = reference_cycle(name, saved)
    if cycle:
        raise DiceError(
            f"'{name}' would refer to itself ({' -> '.join(cycle)}): "
            "a saved roll cannot use its own name"
        )
    return saved
