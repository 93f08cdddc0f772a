"""Character files: a TOML sheet of named numbers and saved rolls -> an :class:`Environment`.

A character file has two tables, both optional, and an optional ``name``::

    name = "Brannoc"

    [stats]          # named numbers: `d20 + STR` reads STR
    STR = 3
    Ld = 8

    [rolls]          # saved rolls in dice notation, rolled anew each time they are used
    attack = "1d20+5"
    damage = "2d6+STR"
    check = "KEYWORD ..."  # a game's line: a saved check, rolled when `check` is a line

``dialect = "roll20"`` at the top reads every line in that roller's dialect, the file's
saved rolls included (``docs/grammar.md``, "Dialects"); ``--dialect`` (or the REPL's
``dialect``) wins over it, and the file's rolls are then read in that one; it wins over
the ``dialect`` setting. ``dialect = "off"`` is dicecli's own reading.

``dice = "genesys.toml"`` at the top names a dice file (``docs/dice.md``; a path relative
to the character file's folder): its dice join those in force (``3dBoost``).

Names follow the notation's rule for names (a letter or ``_``, then letters, digits and
``_``) and must not read as dice (``d6``). Names are case-insensitive, as everywhere in
dicecli, so ``STR`` and ``str`` in one file are the same name twice: an error. Every
fault is a :class:`CharacterFileError` naming the file and what is wrong, never a
traceback. Names a saved roll refers to are looked up when it is rolled, so a roll may
use a stat of the same file or a value set later.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from dicecli.environment import Environment
from dicecli.errors import DiceError
from dicecli.frozen import field, frozen, replace
from dicecli.limits import MAX_DIGITS, MAX_VALUE
from dicecli.naming import name_problem
from dicecli.notation.dialects import OFF, DialectError, dialect_named
from dicecli.notation.nodes import Expr
from dicecli.notation.reader import parse_as

if TYPE_CHECKING:
    from dicecli.dicefiles.model import DiceBook

TOP_LEVEL_KEYS = ("name", "description", "dice", "dialect", "stats", "rolls")


class CharacterFileError(DiceError):
    """A character file that cannot be read or does not describe a character."""


@frozen
class Character:
    """What a character file holds, names spelled as in the file."""

    name: str | None = None
    stats: Mapping[str, int] = field(default_factory=dict)
    rolls: Mapping[str, Expr | str] = field(default_factory=dict)
    """Saved rolls (notation) and saved checks (a game line's text)."""
    dice: DiceBook | None = None
    """The dice of the dice file the character file names (``dice = "PATH"``)."""
    dialect: str | None = None
    """The dialect its lines are read in (``dialect = "roll20"``, ``"off"`` for
    dicecli's own); None when the file names none."""

    def names(self) -> tuple[str, ...]:
        return (*self.stats, *self.rolls)

    def apply(self, env: Environment, file_name: str = "the character file") -> Environment:
        """``env`` with this character's stats and saved rolls (replacing same names),
        marked as holding a character (its name, else ``file_name``)."""
        env = replace(env, character=self.name or file_name)
        rolls = {name: expr for name, expr in self.rolls.items() if not isinstance(expr, str)}
        checks = {name: line for name, line in self.rolls.items() if isinstance(line, str)}
        if self.dice is not None:
            from dicecli.dicefiles.load import with_book  # docs/startup.md

            env = replace(env, dice=with_book(env.dice, self.dice))
        if self.dialect is not None and not env.dialect_chosen:
            env = env.with_dialect(None if self.dialect == OFF else self.dialect, chosen=False)
        return env.with_names(self.stats, rolls, checks)


def load_character(path: Path, env: Environment) -> Environment:
    """``env`` with the stats and saved rolls of the character file at ``path``."""
    return read_character(path, env).apply(env, path.name)


def read_character(path: Path, env: Environment | None = None) -> Character:
    """Read and check a character file, its saved rolls read in the dialect that is in
    force once it is applied to ``env`` (:func:`reading_dialect`); raises
    :class:`CharacterFileError`."""
    data = _read_toml(path)
    checker = _Checker(path)
    checker.keys(data, TOP_LEVEL_KEYS, "the file")
    name = data.get("name")
    if name is not None and not isinstance(name, str):
        raise checker.error("'name' must be text in quotes")
    dialect = checker.dialect(data.get("dialect"))
    read_in = reading_dialect(dialect, env)
    stats = {key: checker.stat(key, value) for key, value in checker.table(data, "stats").items()}
    rolls = {
        key: checker.roll(key, value, read_in)
        for key, value in checker.table(data, "rolls").items()
    }
    checker.no_repeats([*stats, *rolls])
    return Character(name, stats, rolls, checker.dice(data.get("dice")), dialect)


def reading_dialect(named: str | None, env: Environment | None) -> str | None:
    """The dialect a file naming ``named`` (None: none) is read in over ``env``: the
    one the player chose (``--dialect``), else the file's, else the setting's."""
    if env is not None and (env.dialect_chosen or named is None):
        return env.dialect
    return None if named is None or named == OFF else named


def _read_toml(path: Path) -> dict[str, object]:
    from dicecli.files import FileError, loads_toml, read_text  # docs/startup.md

    try:
        return loads_toml(read_text(path.expanduser()))
    except FileError as error:
        raise CharacterFileError(f"character file {path}: {error.message}") from None


class _Checker:
    """The checks of one file, each failing with the file's name in the message."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def error(self, message: str) -> CharacterFileError:
        return CharacterFileError(f"character file {self.path}: {message}")

    def keys(self, table: Mapping[str, object], allowed: tuple[str, ...], where: str) -> None:
        for key in table:
            if key not in allowed:
                known = ", ".join(allowed)
                raise self.error(f"unknown key '{key}' in {where} (known: {known})")

    def table(self, data: Mapping[str, object], key: str) -> Mapping[str, object]:
        table = data.get(key, {})
        if not isinstance(table, dict):
            raise self.error(f"'{key}' must be a table: [{key}] on a line of its own")
        return table

    def name(self, name: str, table: str) -> None:
        problem = name_problem(name)
        if problem is not None:
            raise self.error(f"[{table}] {problem}")

    def stat(self, name: str, value: object) -> int:
        self.name(name, "stats")
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(f"[stats] {name} must be a whole number, e.g. {name} = 3")
        if not -MAX_VALUE <= value <= MAX_VALUE:
            raise self.error(f"[stats] {name} has more than {MAX_DIGITS} digits, the limit")
        return value

    def dialect(self, value: object) -> str | None:
        """The dialect ``dialect = "NAME"`` names (:data:`OFF` for dicecli's own), or None
        when the file names none."""
        if value is None:
            return None
        if not isinstance(value, str):
            raise self.error("'dialect' must be a dialect's name in quotes, e.g. \"roll20\"")
        try:
            return dialect_named(value) or OFF
        except DialectError as error:
            raise self.error(error.message) from None

    def roll(self, name: str, value: object, dialect: str | None = None) -> Expr | str:
        """A saved roll's expression (read in ``dialect``), or a saved check's game line
        (its text)."""
        self.name(name, "rolls")
        if not isinstance(value, str):
            raise self.error(f'[rolls] {name} must be dice notation in quotes, e.g. "1d20+5"')
        try:
            body = parse_as(value, dialect).body
        except DiceError as error:
            where = f" at column {error.position + 1}" if error.position is not None else ""
            raise self.error(f"[rolls] {name} = {value!r}: {error.message}{where}") from None
        if not isinstance(body, Expr):
            return value.strip()
        return body

    def dice(self, value: object) -> DiceBook | None:
        """The dice of the dice file ``dice = "PATH"`` names, relative to this file."""
        if value is None:
            return None
        if not isinstance(value, str) or not value.strip():
            raise self.error("'dice' must be the path of a dice file, e.g. dice = \"dice.toml\"")
        from dicecli.dicefiles.load import read_book  # docs/startup.md

        path = Path(value.strip()).expanduser()
        if not path.is_absolute():
            path = self.path.expanduser().parent / path
        return read_book(path)

    def no_repeats(self, names: list[str]) -> None:
        seen: dict[str, str] = {}
        for name in names:
            folded = name.casefold()
            if folded in seen:
                raise self.error(
                    f"'{seen[folded]}' and '{name}' are the same name (names ignore case)"
                )
            seen[folded] = name
