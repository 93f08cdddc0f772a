"""Finding, reading and checking a dice file (format in ``docs/dice.md``).

A dice file is TOML: one table per die, named as the notation names it (``[Boost]`` is
rolled with ``3dBoost``), holding its ``faces``; a face is a whole number (``3``), its
symbols in quotes (``"success"``, ``"success+advantage"``, ``""`` for a blank face), or
both (``{value = 2, symbol = "⚔"}``). A die may give a ``symbols`` list beside its
numbers instead, one per face (the form a game's dice files use). ``cancel`` at the top
names the pairs of symbols that cancel each other (``[["success", "failure"]]``).

Every mistake is one :class:`DiceFileError` line naming the file, the line and the die,
found when the file is loaded, before anything is rolled. TOML readers give no line for
a value, so the line is found in the text: the die's ``[NAME]`` header, its ``faces``
key, the line of the face itself when the list spans lines.

Which file: ``--dice-file PATH``, the REPL's ``load``, a character file's ``dice``
key, else the per-user file ``$XDG_CONFIG_HOME/dicecli/dice.toml``
(``~/.config/dicecli/dice.toml`` by default) when it exists. The per-user file is
looked for once per run (:func:`default_book`), never per roll.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from dicecli.dicefiles.model import EMPTY_BOOK, DiceBook, face, face_name, file_die
from dicecli.errors import DiceError
from dicecli.frozen import replace
from dicecli.limits import MAX_VALUE
from dicecli.notation.dice import Die, Face
from dicecli.notation.nodes import Condition, Dice, Name, Reroll
from dicecli.notation.sides import DieName

if TYPE_CHECKING:
    from dicecli.environment import Environment

USER_FILE = Path("dicecli") / "dice.toml"
"""The per-user dice file, under ``$XDG_CONFIG_HOME`` (or ``~/.config``)."""

MAX_FACES = 1_000
"""Most faces one die of a dice file may have."""

DIE_KEYS = ("faces", "symbols", "description", "note", "assumption")
TOP_LEVEL_KEYS = ("description", "cancel", "succeeds")
FACE_KEYS = ("value", "symbol", "symbols")
NAME_PATTERN = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
FACE_SHAPE = 'a face is a whole number, symbols in quotes ("success+advantage"), or a table'


class DiceFileError(DiceError):
    """A dice file that cannot be read or has a mistake."""


class _Where:
    """Says where a mistake is: the file, the line, the die."""

    def __init__(self, source: str, lines: _Lines, die: str | None = None) -> None:
        self.source, self.lines, self.die = source, lines, die

    def error(self, message: str, line: int | None = None) -> DiceFileError:
        if line is None and self.die is not None:
            line = self.lines.header(self.die)
        where = f"dice file {self.source}"
        if line is not None:
            where += f", line {line}"
        if self.die is not None:
            where += f": die '{self.die}'"
        return DiceFileError(f"{where}: {message}")

    def of(self, die: str) -> _Where:
        return _Where(self.source, self.lines, die)


_NAME_WRITTEN = r"""[^\s\[\]"'.=#](?:[^\[\]"'.=#]*[^\s\[\]"'.=#])?|"[^"]*"|'[^']*'"""
_HEADER_OR_KEY = re.compile(
    rf"\s*(?:\[\s*(?P<header>{_NAME_WRITTEN})\s*\]|(?P<key>{_NAME_WRITTEN})\s*[.=])"
)
"""A table's header, ``[name]``, or a key, ``name = ...``, ``name.faces = ...``: bare or
quoted, as TOML writes a name."""


class _Lines:
    """Line numbers of a TOML file's headers and keys, found in its text (TOML readers
    give none for values)."""

    def __init__(self, text: str) -> None:
        self.text = text.split("\n")  # TOML's lines: \x1c-\x1e and U+2028 end none
        self._headers: dict[str, int] | None = None

    def header(self, name: str) -> int | None:
        """The line of ``[name]`` (or ``name = ...``, ``name.faces = ...``): the first,
        from an index of the file's headers and keys made once (a look-up per die and
        per face went over the whole file each time: 43 s for 8,000 dice)."""
        if self._headers is None:
            self._headers = {}
            for number, line in enumerate(self.text, 1):
                found = _HEADER_OR_KEY.match(line)
                if found is not None:
                    written = found["header"] or found["key"]
                    unquoted = written[1:-1] if written[:1] in ("'", '"') else written
                    self._headers.setdefault(unquoted, number)
        return self._headers.get(name)

    def key(self, die: str, key: str) -> int | None:
        """The line of ``key = ...`` in the table of ``die``."""
        start = self.header(die)
        if start is None:
            return None
        pattern = re.compile(rf"\s*(?:{re.escape(key)}|{re.escape(die)}\.{re.escape(key)})\s*=")
        if pattern.match(self.text[start - 1]) or key in self.text[start - 1]:
            return start
        for number in range(start + 1, len(self.text) + 1):
            line = self.text[number - 1]
            if line.lstrip().startswith("["):
                return None
            if pattern.match(line):
                return number
        return None

    def item(self, die: str, key: str, index: int, shown: str) -> int | None:
        """The line of item ``index`` of the list ``key`` of ``die``: the line of the
        key, or, when the list spans lines, the first line after it showing ``shown``."""
        start = self.key(die, key)
        if start is None:
            return self.header(die)
        for number in range(start, min(len(self.text), start + index + 2) + 1):
            line = self.text[number - 1].split("#", 1)[0]
            after = line.split("=", 1)[1] if number == start and "=" in line else line
            if shown in after:
                return number
        return start


def _toml_text(value: object) -> str:
    """How ``value`` reads in TOML, roughly: to find its line."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    return str(value)


# -- reading and checking -----------------------------------------------------------------


def parse_book(text: str, source: str) -> DiceBook:
    """The dice a file's ``text`` describes, checked; ``source`` names the file."""
    from dicecli.files import FileError, loads_toml  # docs/startup.md

    lines = _Lines(text)
    where = _Where(source, lines)
    try:
        data = loads_toml(text)
    except FileError as error:
        raise where.error(error.message) from None
    description = data.get("description", "")
    if not isinstance(description, str):
        raise where.error("description: write a string", lines.header("description"))
    dice: dict[str, Die] = {}
    places: dict[str, tuple[str, int | None]] = {}
    symbols: dict[str, None] = {}
    for name, raw in data.items():
        if name in TOP_LEVEL_KEYS:
            continue
        at = where.of(name)
        _check_name(at, name)
        folded = name.casefold()
        if folded in dice:
            raise at.error(
                f"the name is used twice (names are matched in any case: '{dice[folded].name}' "
                f"is on line {lines.header(dice[folded].name)})"
            )
        die = _die(at, name, raw)
        dice[folded] = die
        places[folded] = (source, lines.header(name))
        for each in die.faces:
            symbols.update(dict.fromkeys(each.symbols))
    if not dice:
        raise where.error("no dice in it: write [NAME] with faces = [...] (see dicecli help dice)")
    cancels = _cancels(where, data.get("cancel", []), tuple(symbols))
    succeeds = _succeeds(where, data.get("succeeds", ""), tuple(symbols))
    return DiceBook((source,), dice, tuple(symbols), cancels, places, succeeds=succeeds)


def _succeeds(where: _Where, raw: object, symbols: tuple[str, ...]) -> str:
    """The symbol a roll needs one of, net, to succeed (``succeeds = "success"``)."""
    line = where.lines.header("succeeds")
    if not isinstance(raw, str):
        raise where.error('succeeds: write the symbol a success needs, e.g. "success"', line)
    symbol = raw.strip()
    if symbol and symbol not in symbols:
        known = ", ".join(symbols) or "none"
        raise where.error(f"succeeds: no face shows '{symbol}' (symbols: {known})", line)
    return symbol


def _check_name(at: _Where, name: str) -> None:
    from dicecli.notation.grammar import is_named_die  # docs/startup.md

    if not NAME_PATTERN.fullmatch(name):
        raise at.error("not a die name: a letter, then letters, digits or _ (rolled as 3dName)")
    typed = f"d{name[0].upper()}{name[1:]}"
    if name.casefold() == "f":
        raise at.error("'dF' is the Fudge die: choose another name")
    if not is_named_die(typed):
        raise at.error(f"'{typed}' reads as the Fudge die dF and modifiers: choose another name")


def _die(at: _Where, name: str, raw: object) -> Die:
    if not isinstance(raw, dict):
        raise at.error(f"not a table: write [{name}] with faces = [...]")
    for key in raw:
        if key not in DIE_KEYS:
            raise at.error(
                f"unknown key '{key}' (keys: {', '.join(DIE_KEYS)})", at.lines.key(name, key)
            )
    for key in ("description", "note"):
        if not isinstance(raw.get(key, ""), str):
            raise at.error(f"{key}: write a string", at.lines.key(name, key))
    if not isinstance(raw.get("assumption", False), bool):
        raise at.error("assumption: write true or false", at.lines.key(name, "assumption"))
    raw_faces = raw.get("faces")
    if raw_faces is None:
        raise at.error("no faces: write faces = [...], one item per face")
    line = at.lines.key(name, "faces")
    if not isinstance(raw_faces, list) or not raw_faces:
        raise at.error("faces: write a list with one item per face, e.g. [1, 2, 3]", line)
    if len(raw_faces) > MAX_FACES:
        raise at.error(f"faces: at most {MAX_FACES:,} faces", line)
    faces = [_face(at, name, index, item) for index, item in enumerate(raw_faces)]
    if "symbols" in raw:
        faces = _with_symbols(at, name, faces, raw["symbols"])
    return file_die(name, tuple(faces))


def _face(at: _Where, die: str, index: int, item: object) -> Face:
    line = at.lines.item(die, "faces", index, _toml_text(item))
    which = f"face {index + 1} ({_shown(item)})"
    if isinstance(item, bool):
        raise at.error(f"{which}: {FACE_SHAPE}", line)
    if isinstance(item, int):
        return face(_value(at, which, item, line), ())
    if isinstance(item, str):
        if re.fullmatch(r"\s*[-+]?\d+\s*", item):
            raise at.error(f"{which}: write a number without quotes: {item.strip()}", line)
        return face(None, _symbols(at, which, item.split("+"), line))
    if isinstance(item, dict):
        return _table_face(at, which, item, line)
    raise at.error(f"{which}: {FACE_SHAPE}", line)


def _shown(item: object) -> str:
    if isinstance(item, str):
        return f'"{item}"'
    if isinstance(item, dict):
        inside = ", ".join(f"{key} = {_shown(value)}" for key, value in item.items())
        return f"{{{inside}}}"
    if isinstance(item, list):
        return f"[{', '.join(_shown(value) for value in item)}]"
    return _toml_text(item)


def _value(at: _Where, which: str, value: int, line: int | None) -> int:
    if not -MAX_VALUE <= value <= MAX_VALUE:
        raise at.error(f"{which}: a number of at most 100 digits", line)
    return value


def _symbols(at: _Where, which: str, parts: Sequence[object], line: int | None) -> tuple[str, ...]:
    symbols: list[str] = []
    for part in parts:
        if not isinstance(part, str):
            raise at.error(f"{which}: a symbol is text in quotes", line)
        symbol = part.strip()
        if not symbol and len(parts) > 1:
            raise at.error(f'{which}: an empty symbol: join symbols with one "+"', line)
        if re.fullmatch(r"[-+]?\d+", symbol):
            raise at.error(f"{which}: a symbol cannot be a number: give value = {symbol}", line)
        if symbol:
            symbols.append(symbol)
    return tuple(symbols)


def _table_face(at: _Where, which: str, item: dict[str, object], line: int | None) -> Face:
    for key in item:
        if key not in FACE_KEYS:
            raise at.error(f"{which}: unknown key '{key}' (keys: {', '.join(FACE_KEYS)})", line)
    if "symbol" in item and "symbols" in item:
        raise at.error(f"{which}: give symbol or symbols, not both", line)
    value = item.get("value")
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise at.error(f"{which}: value: write a whole number", line)
    if "symbol" in item:
        raw_symbol = item["symbol"]
        if not isinstance(raw_symbol, str):
            raise at.error(f"{which}: symbol: write the symbol in quotes", line)
        symbols = _symbols(at, which, [raw_symbol], line)
    else:
        raw_symbols = item.get("symbols", [])
        if not isinstance(raw_symbols, list):
            raise at.error(f'{which}: symbols: write a list, e.g. ["success", "success"]', line)
        symbols = _symbols(at, which, raw_symbols, line)
    if value is None and not symbols:
        raise at.error(f"{which}: give a value, a symbol or both", line)
    number = None if value is None else _value(at, which, value, line)
    return face(number, symbols)


def _with_symbols(at: _Where, die: str, faces: list[Face], raw: object) -> list[Face]:
    """The faces with the symbols of a ``symbols`` list beside ``faces`` (a game's form:
    one symbol per face, ``""`` for none)."""
    line = at.lines.key(die, "symbols")
    if not isinstance(raw, list) or len(raw) != len(faces):
        raise at.error(f"symbols: give {len(faces)} symbols, one per face", line)
    found = []
    for index, (each, symbol) in enumerate(zip(faces, raw, strict=True)):
        which = f"symbol {index + 1} ({_shown(symbol)})"
        if not isinstance(symbol, str):
            raise at.error(f"{which}: write the symbol in quotes", line)
        if each.symbols:
            raise at.error(f"face {index + 1} has symbols already: give them in one place", line)
        added = _symbols(at, which, symbol.split("+"), line)
        found.append(face(each.value, added))
    return found


def _cancels(where: _Where, raw: object, symbols: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    line = where.lines.header("cancel")
    shape = 'cancel: write pairs of symbols, e.g. cancel = [["success", "failure"]]'
    if not isinstance(raw, list):
        raise where.error(shape, line)
    pairs: list[tuple[str, str]] = []
    seen: set[str] = set()
    for pair in raw:
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not all(isinstance(s, str) for s in pair)
        ):
            raise where.error(shape, line)
        first, second = (str(s).strip() for s in pair)
        if first == second:
            raise where.error(f"cancel: '{first}' cannot cancel itself", line)
        for symbol in (first, second):
            if symbol not in symbols:
                known = ", ".join(symbols) or "none"
                raise where.error(f"cancel: no face shows '{symbol}' (symbols: {known})", line)
            if symbol in seen:
                raise where.error(f"cancel: '{symbol}' is in two pairs", line)
            seen.add(symbol)
        pairs.append((first, second))
    return tuple(pairs)


# -- books of several files ---------------------------------------------------------------


def combined(first: DiceBook, second: DiceBook) -> DiceBook:
    """The dice of both books; a die of ``second`` named as one of ``first`` is an error
    naming both files (a file loaded again replaces its own dice)."""
    kept_sources = tuple(s for s in first.sources if s not in second.sources)
    kept = {key: die for key, die in first.dice.items() if first.where[key][0] in kept_sources}
    for key, die in second.dice.items():
        if key in kept:
            raise DiceFileError(
                f"dice file {second.place(key)}: die '{die.name}': the name is taken by "
                f"the die '{kept[key].name}' of {first.place(key)}"
            )
    cancels = dict(first.cancels)
    for one, other in second.cancels:
        if cancels.get(one, other) != other:
            raise DiceFileError(
                f"dice file {second.sources[0]}: cancel: '{one}' cancels '{cancels[one]}' "
                "in a file loaded before"
            )
        cancels[one] = other
    where = {key: first.where[key] for key in kept}
    where.update(second.where)
    symbols = tuple(dict.fromkeys([*first.symbols, *second.symbols]))
    if first.succeeds and second.succeeds and first.succeeds != second.succeeds:
        raise DiceFileError(
            f"dice file {second.sources[0]}: succeeds: '{first.succeeds}' decides success "
            "in a file loaded before"
        )
    return DiceBook(
        (*kept_sources, *second.sources),
        {**kept, **second.dice},
        symbols,
        tuple(cancels.items()),
        where,
        succeeds=second.succeeds or first.succeeds,
    )


# -- where the dice come from -------------------------------------------------------------


def user_dice_file(environ: Mapping[str, str] = os.environ) -> Path | None:
    """``$XDG_CONFIG_HOME/dicecli/dice.toml``, else under ``~/.config``; None when the
    home folder is unknown."""
    from dicecli.files import user_config_file  # docs/startup.md

    return user_config_file(USER_FILE, environ)


def read_book(path: Path) -> DiceBook:
    """The dice of the file at ``path``, checked."""
    from dicecli.files import FileError, read_text  # docs/startup.md

    source = str(path)
    try:
        text = read_text(path.expanduser())
    except FileError as error:
        raise DiceFileError(f"dice file {source}: cannot read it: {error.message}") from None
    return parse_book(text, source)


def read_if_dice(path: Path) -> DiceBook | None:
    """The dice of the file at ``path`` when it is a dice file (a table of it has
    ``faces``), checked; None when it is not, or cannot be read as TOML (the caller
    reads it as the other kind of file it takes, and says what is wrong)."""
    from dicecli.files import FileError, loads_toml, read_text  # docs/startup.md

    try:
        text = read_text(path.expanduser())
        data = loads_toml(text)
    except FileError:
        return None
    if not any(isinstance(value, dict) and "faces" in value for value in data.values()):
        return None
    return parse_book(text, str(path))


def with_book(found: DiceBook | None, book: DiceBook) -> DiceBook:
    """The dice in force (``found``, else the per-user file's) and ``book``'s."""
    return combined(book_of(found), book)


_default: tuple[int, DiceBook] | None = None


def default_book() -> DiceBook:
    """The dice of the per-user file when it exists, else none: looked for once per run
    (:mod:`dicecli.runs`; ``--dice-file`` and the REPL's ``load`` give dice of their
    own)."""
    from dicecli.runs import run_number  # docs/startup.md

    global _default
    run = run_number()
    if _default is None or _default[0] != run:
        path = user_dice_file()
        found = EMPTY_BOOK
        if path is not None and os.path.isfile(path):
            found = read_book(path)
        _default = (run, found)
    return _default[1]


def book_of(found: DiceBook | None) -> DiceBook:
    """The dice in force: ``found`` (an environment's), else the per-user file's."""
    return found if found is not None else default_book()


def looked_up(node: Dice, env: Environment) -> Dice | Name:
    """``node`` with the die it names looked up in the dice in force (the environment's,
    else the per-user file's): a term the odds engine can weigh. A die no file defines
    whose spelling is a name with a value (``dEX`` for ``dex``) is that name."""
    sides = node.sides
    if not isinstance(sides, DieName):
        return node
    book = book_of(env.dice)
    die = book.die(sides.name)
    if die is None:
        word = f"d{sides.name}"
        if env.value(word) is not None or env.roll(word) is not None:
            return Name(word, sides.position)
        raise unknown_die(book, sides.name, sides.position)
    return file_dice(node, die)


def file_dice(node: Dice, die: Die) -> Dice:
    """``node``'s dice with ``die``, the die its name stands for, in place of the name;
    an error at the term when they would roll forever (``dAverage r<=5``, ``5dAverage
    u``), for rolling and odds alike."""
    from dicecli.dicefiles.model import has_numbers  # docs/startup.md
    from dicecli.notation.dice import FileDie
    from dicecli.notation.semantics import endless_roll

    modifiers = node.modifiers
    reroll = modifiers.reroll
    if reroll is not None and reroll.lowest and has_numbers(die):  # a bare r: the lowest face
        lowest = min(face.value for face in die.faces if face.value is not None)
        settled = Reroll(Condition("=", lowest), reroll.once)
        modifiers = replace(modifiers, reroll=settled)
    resolved = Dice(node.count, FileDie(die), modifiers)
    if has_numbers(die):
        endless = endless_roll(resolved)
        if endless is not None:
            position = node.sides.position if isinstance(node.sides, DieName) else -1
            raise DiceError(endless, position=position if position >= 0 else None)
    return resolved


def unknown_die(book: DiceBook, name: str, position: int = -1) -> DiceError:
    """The error for ``d{name}``, a die no dice file in force defines."""
    import difflib  # docs/startup.md

    names = book.names()
    if not names:
        where = f"~/.config/{USER_FILE}"
        message = (
            f"unknown die 'd{name}': no dice file is loaded (--dice-file PATH, load PATH in "
            f"the REPL, or {where}; see dicecli help dice)"
        )
    else:
        shown = ", ".join(names[:12]) + (", …" if len(names) > 12 else "")
        message = f"unknown die 'd{name}' (dice: {shown})"
        folded = name.casefold()
        starting = [n for n in names if n.casefold().startswith(folded)]
        if len(starting) == 1:  # a prefix of one name: dProf
            close = [starting[0].casefold()]
        else:
            close = difflib.get_close_matches(folded, [n.casefold() for n in names], 1, 0.6)
        if close:
            spelled = next(n for n in names if n.casefold() == close[0])
            message += f"; did you mean d{spelled[0].upper()}{spelled[1:]}?"
    return DiceError(message, position=position if position >= 0 else None)


__all__ = [
    "DiceFileError",
    "book_of",
    "combined",
    "default_book",
    "face_name",
    "looked_up",
    "parse_book",
    "read_book",
    "read_if_dice",
    "unknown_die",
    "with_book",
]
