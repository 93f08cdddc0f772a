"""The Alkemy dice: one six-sided die per health-state colour, read from TOML files.

The shipped faces are :data:`SHIPPED_DICE` below (white 1-6, and the yellow and red
layouts that rule A9 flags as an assumption), written as the table of an Alkemy dice
file and checked as one: Python data rather than a TOML file beside the module, so that
an Alkemy line imports no TOML reader unless a player's file asks for one. A player's own dice file
replaces any colour's faces and may add a symbol (sword, axe, mace) to each face. Which
file: the ``alkemy.dice_file`` setting, else the dice of the general dice file in force
(``--dice-file``, the REPL's ``load``, a character file: ``docs/dice.md``) when it has
a ``[white]``, ``[yellow]`` or ``[red]`` die, else the per-user file
``$XDG_CONFIG_HOME/dicecli/alkemy-dice.toml`` (``~/.config/...`` by default) when it
exists, else only the shipped dice. Colours a custom file leaves out keep the shipped
faces. A bad file is a :class:`DiceFileError` naming the file and the fault.

An Alkemy dice file is a dice file of the general format (``docs/dice.md``): a die per
colour, ``faces`` and a ``symbols`` list beside them; its faces are built as every dice
file's are (:func:`dicecli.dicefiles.model.face`). Alkemy adds its own checks: six
faces, numbers 0 or more, one of its three symbols per face.

Which dice a roll uses is worked out once per run and environment (:func:`dice_for`):
a game line piped a million times looks at no file and no environment variable per roll.

Faces are named by their number (``"4"``), or ``"4-sword"`` when the face bears a
symbol; ``--given`` accepts the number (the first face with that number), the full name,
``4sword`` or ``4s`` (the symbol's initial).

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, cast

from dicecli.dicefiles.model import DiceBook
from dicecli.environment import Environment
from dicecli.errors import DiceError
from dicecli.frozen import frozen
from dicecli.notation.dice import Die, Face
from dicecli.runs import run_number
from dicecli.systems.alkemy.settings import DICE_FILE

Colour = Literal["white", "yellow", "red"]
COLOURS: tuple[Colour, ...] = ("white", "yellow", "red")
SYMBOLS = ("sword", "axe", "mace")
SIDES = 6
USER_FILE = Path("dicecli") / "alkemy-dice.toml"
_COLOUR_KEYS = ("faces", "symbols", "assumption", "note")
_TOP_LEVEL_KEYS = ("description",)

SHIPPED_DICE: Mapping[str, Mapping[str, object]] = {
    # ASSUMPTION (rule A9): the published rules give white 1-6, yellow 1-5 and red 1-4,
    # but not which number is printed twice or three times on the yellow and red dice,
    # nor the symbol on any face. The yellow and red layouts are dicecli's guess and
    # carry the assumption; no symbols are shipped. A player's dice file replaces any
    # colour (docs/alkemy.md; examples/alkemy-dice.toml).
    "white": {"faces": [1, 2, 3, 4, 5, 6]},
    "yellow": {"faces": [1, 2, 3, 4, 4, 5], "assumption": True},
    "red": {"faces": [1, 2, 3, 3, 3, 4], "assumption": True},
}
"""The shipped dice, as the tables of an Alkemy dice file (one per colour)."""


class DiceFileError(DiceError):
    """An Alkemy dice file that cannot be read or does not describe six-sided dice."""


@frozen
class ColourDice:
    """The die of one colour, the symbol on each face (None: not known) and whether its
    layout is an assumption (rule A9)."""

    colour: Colour
    die: Die
    values: tuple[int, ...]  # the number on each face, in face order
    symbols: tuple[str, ...] | None
    assumed: bool
    source: str

    def symbol(self, index: int) -> str | None:
        return None if self.symbols is None else self.symbols[index]

    def describe(self) -> str:
        return ",".join(str(value) for value in self.values)


@frozen
class DiceSet:
    """The dice of every colour."""

    white: ColourDice
    yellow: ColourDice
    red: ColourDice

    def __getitem__(self, colour: Colour) -> ColourDice:
        return cast(ColourDice, getattr(self, colour))


def build_colour(
    colour: Colour,
    values: tuple[int, ...],
    symbols: tuple[str, ...] | None,
    assumed: bool,
    source: str,
) -> ColourDice:
    """The :class:`Die` ``alkemy-<colour>`` with a face per value (and symbol)."""
    from dicecli.dicefiles.model import face

    faces: list[Face] = []
    aliases: list[tuple[int, str]] = []
    for index, value in enumerate(values):
        if symbols is None:
            faces.append(face(value, ()))
            continue
        symbol = symbols[index]
        faces.append(face(value, (symbol,)))
        aliases += [(index, f"{value}{symbol}"), (index, f"{value}{symbol[0]}")]
    die = Die(f"alkemy-{colour}", tuple(faces), tuple(aliases))
    return ColourDice(colour, die, values, symbols, assumed, source)


# -- reading and checking a file ----------------------------------------------------------


def _problem(source: str, message: str) -> DiceFileError:
    return DiceFileError(f"alkemy dice file {source}: {message}")


def _faces(source: str, colour: str, raw: object) -> tuple[int, ...]:
    if not isinstance(raw, list) or len(raw) != SIDES:
        raise _problem(source, f"[{colour}] faces: give {SIDES} whole numbers, one per face")
    for value in raw:
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise _problem(source, f"[{colour}] faces: {value!r} is not a whole number >= 0")
    return tuple(raw)


def _symbols(source: str, colour: str, raw: object) -> tuple[str, ...]:
    if not isinstance(raw, list) or len(raw) != SIDES:
        raise _problem(source, f"[{colour}] symbols: give {SIDES} symbols, one per face")
    symbols: list[str] = []
    for symbol in raw:
        name = symbol.strip().casefold() if isinstance(symbol, str) else None
        if name not in SYMBOLS:
            raise _problem(
                source,
                f"[{colour}] symbols: {symbol!r} is not a symbol ({', '.join(SYMBOLS)})",
            )
        symbols.append(name)
    return tuple(symbols)


def _colour(source: str, colour: Colour, table: object, fallback: ColourDice | None) -> ColourDice:
    if not isinstance(table, dict):
        raise _problem(source, f"[{colour}] must be a table such as [{colour}] faces = [...]")
    for key in table:
        if key not in _COLOUR_KEYS:
            raise _problem(
                source, f"[{colour}]: unknown key '{key}' (keys: {', '.join(_COLOUR_KEYS)})"
            )
    if "faces" in table:
        values, assumed_by_default = _faces(source, colour, table["faces"]), False
    elif fallback is not None:
        values, assumed_by_default = fallback.values, fallback.assumed
    else:
        raise _problem(source, f"[{colour}] has no faces")
    symbols = _symbols(source, colour, table["symbols"]) if "symbols" in table else None
    assumed = table.get("assumption", assumed_by_default)
    if not isinstance(assumed, bool):
        raise _problem(source, f"[{colour}] assumption: write true or false")
    if not isinstance(table.get("note", ""), str):
        raise _problem(source, f"[{colour}] note: write a string")
    return build_colour(colour, values, symbols, assumed, source)


def parse_dice_file(
    text: str, source: str, base: DiceSet | None, require_all: bool = False
) -> DiceSet:
    """The dice a file's ``text`` describes; colours it leaves out come from ``base``."""
    from dicecli.files import FileError, loads_toml

    try:
        data: dict[str, Any] = loads_toml(text)
    except FileError as error:
        raise _problem(source, error.message) from None
    return dice_of_tables(data, source, base, require_all)


def dice_of_tables(
    data: Mapping[str, object], source: str, base: DiceSet | None, require_all: bool = False
) -> DiceSet:
    """The dice of a dice file's tables (``data``, as read from its TOML); colours it
    leaves out come from ``base``, or are a fault when ``require_all``."""
    for key in data:
        if key not in COLOURS and key not in _TOP_LEVEL_KEYS:
            raise _problem(source, f"unknown colour '{key}' (colours: {', '.join(COLOURS)})")
    colours: dict[str, ColourDice] = {}
    for colour in COLOURS:
        fallback = base[colour] if base is not None else None
        if colour in data:
            colours[colour] = _colour(source, colour, data[colour], fallback)
        elif fallback is not None and not require_all:
            colours[colour] = fallback
        else:
            raise _problem(source, f"no [{colour}] dice")
    return DiceSet(**colours)


# -- where the dice come from -------------------------------------------------------------


@lru_cache(maxsize=1)
def shipped_dice() -> DiceSet:
    """The shipped dice (:data:`SHIPPED_DICE`)."""
    return dice_of_tables(SHIPPED_DICE, "(shipped)", None, require_all=True)


def user_dice_file(environ: Mapping[str, str] = os.environ) -> Path | None:
    """``$XDG_CONFIG_HOME/dicecli/alkemy-dice.toml``, or under ``~/.config``; None when
    the home directory is unknown."""
    from dicecli.files import user_config_file

    return user_config_file(USER_FILE, environ)


def dice_file_for(env: Environment) -> Path | None:
    """The custom dice file in force: the setting, else the per-user file if it exists."""
    setting = DICE_FILE.value(env)
    if setting:
        return Path(str(setting)).expanduser()
    user = user_dice_file()
    return user if user is not None and os.path.isfile(user) else None


_last: tuple[int, Environment, DiceSet] | None = None
"""The dice of the last run and environment asked about (:func:`dice_for`)."""


def dice_for(env: Environment) -> DiceSet:
    """The dice to roll with ``env``: a custom file over the shipped dice. Worked out
    once per run and environment (the REPL's ``load`` or ``set`` make a new one): piped
    game lines share their run's environment, so they look at no file per roll."""
    global _last
    last, run = _last, run_number()
    if last is not None and last[1] is env and last[0] == run:
        return last[2]
    dice = _dice_for(env)
    _last = (run, env, dice)
    return dice


def _dice_for(env: Environment) -> DiceSet:
    setting = DICE_FILE.value(env)
    book = env.dice
    if not setting and book is not None and any(book.die(colour) for colour in COLOURS):
        return _book_dice(book)
    path = dice_file_for(env)
    if path is None:
        return shipped_dice()
    try:
        stat = path.stat()
    except OSError as error:
        raise _problem(str(path), f"cannot read it: {error.strerror or error}") from None
    return _custom_dice(str(path), stat.st_mtime_ns, stat.st_size)


def _book_dice(book: DiceBook) -> DiceSet:
    """The colours of a general dice file's ``[white]``, ``[yellow]``, ``[red]`` dice
    over the shipped ones, checked as an Alkemy file's are."""
    base = shipped_dice()
    colours: dict[str, ColourDice] = {}
    for colour in COLOURS:
        die = book.die(colour)
        if die is None:
            colours[colour] = base[colour]
            continue
        source = book.where[colour][0] if colour in book.where else "(dice file)"
        values = _faces(source, colour, [face.value for face in die.faces])
        symbols = None
        if any(face.symbols for face in die.faces):
            raw = ["+".join(face.symbols) for face in die.faces]
            symbols = _symbols(source, colour, raw)
        colours[colour] = build_colour(colour, values, symbols, False, source)
    return DiceSet(**colours)


@lru_cache(maxsize=16)
def _custom_dice(path: str, mtime_ns: int, size: int) -> DiceSet:
    """A custom file's dice, read again only when the file changes (mtime or size)."""
    from dicecli.files import FileError, read_text

    try:
        text = read_text(Path(path))
    except FileError as error:
        raise _problem(path, f"cannot read it: {error.message}") from None
    return parse_dice_file(text, path, shipped_dice())
