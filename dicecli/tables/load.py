"""Finding, reading and checking a table file (format in ``docs/tables.md``).

Every mistake is found when the file is loaded, before anything is rolled, and is one
:class:`TableFileError` line naming the file, the table and the entry: a key that is not
a value or a range, ranges that leave a gap or overlap, an entry the roll can never
reach (the roll's possible values are computed exactly by the odds engine), a bad inline
roll, a reference to a table the file does not have, tables that refer to each other in
a loop or more than :data:`MAX_DEPTH` deep, a draw that could make more than
:data:`MAX_ROLLS` rolls. A roll that reads names (``d100+CRITS``) can give values that
depend on them: its entries are checked for gaps and unreachable values when the table
is drawn from, with the names in force (:func:`check_named_cover`).

Which file: the one named (``dicecli table FILE NAME``), else the per-user file
``$XDG_CONFIG_HOME/dicecli/tables.toml`` (``~/.config/dicecli/tables.toml`` by default).
A file is read again only when it changes (its modification time or size).
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

from dicecli.environment import Environment
from dicecli.errors import DiceError, UnknownNameError
from dicecli.files import user_config_file
from dicecli.frozen import field, frozen
from dicecli.identity_cache import SizedCache
from dicecli.notation.nodes import Check, Comparison, Expr, Roll
from dicecli.notation.semantics import MAX_SIDES
from dicecli.tables.model import (
    Entry,
    InlineRoll,
    Piece,
    Table,
    TableBook,
    TableReference,
    Words,
)

USER_FILE = Path("dicecli") / "tables.toml"
"""The per-user table file, under ``$XDG_CONFIG_HOME`` (or ``~/.config``)."""

MAX_DEPTH = 8
"""Most tables one draw may pass through: ``encounters`` drawing from ``loot`` drawing
from ``gems`` is 3 deep. Checked on the file, so a draw never stops half-way."""

MAX_ROLLS = 1_000
"""Most rolls one draw may make: the table's roll, its inline rolls and those of the
tables it draws from (each counted as often as it can be reached). Checked on the file:
twenty references to a table of twenty references, eight deep, would be 20**8 draws."""

MAX_TOTAL_WEIGHT = MAX_SIDES
"""Most a weighted table's weights may add up to: they are the sides of the die it is
rolled with, checked when the file is loaded."""

TABLE_KEYS = ("roll", "entries", "description")

_KEY = re.compile(r"\s*(?P<low>[-+]?\d+)\s*(?:(?:-|–|\.\.)\s*(?P<high>[-+]?\d+)\s*)?")
_REFERENCE = re.compile(r"\s*table\s*:(?P<name>.*)", re.IGNORECASE | re.DOTALL)


class TableFileError(DiceError):
    """A table file that cannot be read or has a mistake."""


class _Where:
    """Says where a mistake is: the file, the table, the entry."""

    def __init__(self, source: str, table: str | None = None, entry: str | None = None):
        self.source, self.table, self.entry = source, table, entry

    def error(self, message: str) -> TableFileError:
        where = f"table file {self.source}"
        if self.table is not None:
            where += f": table '{self.table}'"
        if self.entry is not None:
            where += f", entry '{self.entry}'"
        return TableFileError(f"{where}: {message}")

    def at(self, entry: str) -> _Where:
        return _Where(self.source, self.table, entry)


# -- where the tables come from ----------------------------------------------------------


def user_table_file(environ: Mapping[str, str] = os.environ) -> Path | None:
    """``$XDG_CONFIG_HOME/dicecli/tables.toml``, else under ``~/.config``; None when the
    home folder is unknown."""
    return user_config_file(USER_FILE, environ)


def load_book(path: Path | None = None) -> TableBook:
    """The tables of the file at ``path``, else of the per-user file, checked."""
    if path is None:
        path = user_table_file()
        if path is None or not os.path.lexists(path):
            where = path if path is not None else f"~/.config/{USER_FILE}"
            raise TableFileError(
                f"no table file: write {where} or name one: dicecli table FILE NAME "
                "(see dicecli help tables)"
            )
    source = str(path)
    try:
        stat = path.expanduser().stat()
    except OSError as error:
        raise _Where(source).error(f"cannot read it: {error.strerror or error}") from None
    except (ValueError, UnicodeEncodeError):  # a NUL, or a surrogate that is no byte
        from dicecli.files import UNUSABLE_NAME  # docs/startup.md

        raise _Where(source).error(f"cannot read it: {UNUSABLE_NAME}") from None
    return _read_book(str(path.expanduser()), source, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=8)
def _read_book(path: str, source: str, mtime_ns: int, size: int) -> TableBook:
    """A file's tables, read again only when the file changes (mtime or size)."""
    from dicecli.files import FileError, read_text  # docs/startup.md

    try:
        text = read_text(Path(path))
    except FileError as error:
        raise _Where(source).error(f"cannot read it: {error.message}") from None
    return parse_book(text, source)


# -- reading and checking -----------------------------------------------------------------


def parse_book(text: str, source: str) -> TableBook:
    """The tables that a file's ``text`` describes, checked; ``source`` names the file
    in errors."""
    from dicecli.files import FileError, loads_toml  # docs/startup.md

    where = _Where(source)
    try:
        data = loads_toml(text)
    except FileError as error:
        raise where.error(error.message) from None
    if not data:
        raise where.error("no tables in it: write [NAME] with roll and entries")
    from dicecli.probability.weights import question  # docs/startup.md

    tables: dict[str, Table] = {}
    # one account for the values of every table's roll: a file of a hundred tables of
    # 100d900 took 50 s to load; together they are one question, answered or refused
    # in about a second (docs/limits.md)
    with question():
        for name, raw in data.items():
            folded = name.strip().casefold()
            if not folded:
                raise where.error("a table needs a name: write [NAME]")
            if folded in tables:
                raise _Where(source, name).error(
                    "the name is used twice (names are matched in any case: "
                    f"'{tables[folded].name}')"
                )
            tables[folded] = _table(_Where(source, name), name, raw)
    _check_references(source, tables)
    return TableBook(source, tables)


def _table(where: _Where, name: str, raw: object) -> Table:
    if not isinstance(raw, dict):
        raise where.error("not a table: write [NAME] with roll and entries")
    for key in raw:
        if key not in TABLE_KEYS:
            raise where.error(f"unknown key '{key}' (keys: {', '.join(TABLE_KEYS)})")
    description = raw.get("description", "")
    if not isinstance(description, str):
        raise where.error("description: write a string")
    entries = raw.get("entries")
    if not isinstance(entries, dict) or not entries:
        raise where.error(
            'no entries: write [NAME.entries] with keys and texts, e.g. "1-3" = "goblins"'
        )
    if "roll" in raw:
        return _rolled_table(where, name, raw["roll"], entries, description)
    return _weighted_table(where, name, entries, description)


def _rolled_table(
    where: _Where, name: str, raw_roll: object, raw: dict[str, object], description: str
) -> Table:
    if not isinstance(raw_roll, str):
        raise where.error('roll: write a roll as a string, e.g. roll = "d100"')
    roll = _table_roll(where, raw_roll)
    possible = _possible_values(where, raw_roll, roll)  # None: it reads names
    entries = []
    for key, value in raw.items():
        at = where.at(key)
        if not isinstance(value, str):
            raise at.error(
                "write the entry's text as a string (weights are for tables without a roll)"
            )
        low, high = _range(at, key, possible[-1] if possible else None)
        entries.append(Entry(key, low, high, 1, value, _pieces(at, value)))
    entries.sort(key=lambda entry: entry.low)
    _check_overlaps(where, entries)
    if possible is not None:
        _check_cover(where, raw_roll, entries, possible)
    named = possible is None
    return Table(name, raw_roll.strip(), roll, tuple(entries), False, description, named)


def check_named_cover(source: str, table: Table, env: Environment) -> None:
    """For a table whose roll reads names (:attr:`Table.named`): with the names of
    ``env``, every value the roll can give has one entry. An entry out of reach is
    fine here: a table for ``d100+CRITS`` holds entries for every modifier, and a
    modifier of 10 leaves its 1-10 out."""
    if not table.named:
        return
    where = _Where(source, table.name)
    possible = _named_values(where, table, env)
    _check_cover(where, table.roll_text, list(table.entries), possible, every_entry=False)


def _named_values(where: _Where, table: Table, env: Environment) -> tuple[int, ...]:
    """:func:`_possible_values` of a roll that reads names, kept for the values of those
    names (and the dialect): twenty draws from a table rolled with ``100d1000+X`` worked
    them out twenty times, 0.4 s each."""
    from dicecli.probability.engine import names_read  # docs/startup.md

    named: _NamedRoll | None = None
    try:
        read = names_read(_body(table.roll), env)
        named = _NamedRoll(where, table.roll_text, table.roll, env, (env.dialect, read))
        hash(named)
    except (DiceError, TypeError):
        # an unknown name (which _possible_values reports, naming the table), or a
        # meaning that cannot be a key: worked out each time
        named = None
    if named is None:
        possible = _possible_values(where, table.roll_text, table.roll, env)
        assert possible is not None  # with an environment, the values or an error
        return possible
    return _NAMED_VALUES(named)


@frozen
class _NamedRoll:
    """A roll that reads names, in an environment: equal (and hashed) by the roll and
    what its names stand for (``key``) only, so that its values are found again for the
    same names whatever else the environment holds."""

    where: _Where = field(compare=False)
    text: str = field(compare=False)
    roll: Roll
    env: Environment = field(compare=False)
    key: tuple[object, ...]


def _values_of(named: _NamedRoll) -> tuple[int, ...]:
    possible = _possible_values(named.where, named.text, named.roll, named.env)
    assert possible is not None  # with an environment, the values or an error
    return possible


def _values_size(named: _NamedRoll, values: tuple[int, ...]) -> int:
    """About the bytes an entry holds: a pointer and a small integer per value."""
    return 200 + 40 * len(values)


_NAMED_VALUES: SizedCache[_NamedRoll, tuple[int, ...]] = SizedCache(
    _values_of, _values_size, 16 << 20, 64
)
"""The values of named rolls, by the roll and its names' values: at most 64 of them, and
about 16 MiB (a roll's values are at most 100,000: 4 MiB)."""


def _body(roll: Roll) -> Expr:
    body = roll.body
    assert not isinstance(body, (Check, Comparison))  # checked when loaded
    return body


def _weighted_table(where: _Where, name: str, raw: dict[str, object], description: str) -> Table:
    entries = []
    low = 1
    for key, value in raw.items():
        at = where.at(key)
        if _KEY.fullmatch(key):  # "1-3" with no roll: a forgotten roll, not a name
            raise at.error(
                'a key that is a value or a range needs a roll for the table (roll = "d6"); '
                "a weighted table names its entries"
            )
        text, weight = _weighted_entry(at, value)
        entries.append(Entry(key, low, low + weight - 1, weight, text, _pieces(at, text)))
        low += weight
        if low - 1 > MAX_TOTAL_WEIGHT:
            raise where.error(
                f"the weights add up to more than {MAX_TOTAL_WEIGHT:,}, the most sides "
                "of the die a weighted table is rolled with"
            )
    sides = low - 1
    from dicecli.notation.reader import parse  # docs/startup.md

    return Table(name, f"d{sides}", parse(f"d{sides}"), tuple(entries), True, description)


def _weighted_entry(at: _Where, value: object) -> tuple[str, int]:
    if isinstance(value, str):
        return value, 1
    shape = 'write a text, or { weight = 3, text = "..." } (no roll: a weighted table)'
    if not isinstance(value, dict):
        raise at.error(shape)
    unknown = [key for key in value if key not in ("weight", "text")]
    if unknown or not isinstance(value.get("text"), str):
        raise at.error(shape)
    weight = value.get("weight", 1)
    if not isinstance(weight, int) or isinstance(weight, bool) or weight < 1:
        raise at.error(f"weight: write a whole number of 1 or more (got {weight!r})")
    if weight > MAX_TOTAL_WEIGHT:
        raise at.error(f"weight: at most {MAX_TOTAL_WEIGHT:,}")
    return str(value["text"]), weight


def _table_roll(where: _Where, text: str) -> Roll:
    from dicecli.notation.reader import parse  # docs/startup.md

    try:
        roll = parse(text)
    except DiceError as error:
        raise where.error(f"roll '{text.strip()}': {error.message}") from None
    if isinstance(roll.body, (Check, Comparison)) or roll.comment is not None:
        raise where.error(
            f"roll '{text.strip()}': write a dice roll with a total, such as d100 or 2d6"
        )
    return roll


def _possible_values(
    where: _Where, text: str, roll: Roll, env: Environment | None = None
) -> tuple[int, ...] | None:
    """Every total ``roll`` can give, in order, computed exactly (not sampled), with the
    names of ``env``; None when the roll reads a name and no ``env`` is given (the
    values then depend on the names in force when it is drawn from)."""
    from dicecli.probability.engine import distribution  # docs/startup.md

    assert not isinstance(roll.body, (Check, Comparison))
    try:
        found = distribution(roll.body, env)
    except UnknownNameError as error:
        if env is None:
            return None
        raise where.error(f"roll '{text.strip()}': {error.message}") from None
    except DiceError as error:
        raise where.error(f"roll '{text.strip()}': {error.message}") from None
    if not found.exact:
        raise where.error(
            f"roll '{text.strip()}': it has no highest value (it explodes or re-rolls "
            "without end), so no table can cover it"
        )
    return tuple(value for value, _ in found.outcomes)


def _range(at: _Where, key: str, highest: int | None = None) -> tuple[int, int]:
    """The values a key covers. ``00`` is 100 when the roll's ``highest`` value is 100,
    as on percentile dice in printed tables (``96-00``)."""
    match = _KEY.fullmatch(key)
    if match is None:
        raise at.error("a key is a value (7) or a range (1-3)")
    if len(key) > 40:
        raise at.error("the key is too long for a value or a range")
    low, high = _bound(match["low"], highest), _bound(match["high"] or match["low"], highest)
    if high < low:
        if match["high"] is not None and match["high"].strip("+") == "00":
            raise at.error(
                f"the range runs backwards: 00 stands for 100 only when the roll's highest "
                f'value is 100 (roll = "d100"); else write {match["low"]}-'
                f"{highest if highest is not None else low}"
            )
        raise at.error(f"the range runs backwards: write {high}-{low}")
    return low, high


def _bound(text: str, highest: int | None) -> int:
    """A key's number; ``00`` read as 100 when the roll reaches 100."""
    if text.strip("+") == "00" and highest == PERCENTILE:
        return PERCENTILE
    return int(text)


PERCENTILE = 100
"""What ``00`` stands for in a table whose roll reaches it (d100: 01-00)."""


def spans(values: tuple[int, ...], most: int = 6) -> str:
    """``2-12``, ``1-3, 5``: sorted values as runs; after ``most`` runs, ``…``."""
    runs: list[str] = []
    start = previous = values[0]
    for value in (*values[1:], None):
        if value is not None and value == previous + 1:
            previous = value
            continue
        runs.append(str(start) if start == previous else f"{start}-{previous}")
        if value is not None:
            start = previous = value
    shown = ", ".join(runs[:most])
    return shown + (", …" if len(runs) > most else "")


def _check_overlaps(where: _Where, entries: list[Entry]) -> None:
    """No value has two entries (``entries`` sorted by their lowest value)."""
    for before, after in itertools.pairwise(entries):
        if after.low <= before.high:
            last = min(before.high, after.high)
            overlap = str(last) if after.low == last else f"{after.low}-{last}"
            raise where.at(after.key).error(f"overlaps entry '{before.key}' at {overlap}")


def _check_cover(
    where: _Where,
    roll_text: str,
    entries: list[Entry],
    possible: tuple[int, ...],
    every_entry: bool = True,
) -> None:
    """Each possible value has exactly one entry, and (``every_entry``) each entry is
    reachable."""
    import bisect  # docs/startup.md

    gives = f"{roll_text.strip()} gives {spans(possible)}"
    for entry in entries if every_entry else ():
        first = bisect.bisect_left(possible, entry.low)
        if first == len(possible) or possible[first] > entry.high:
            raise where.at(entry.key).error(f"can never be rolled ({gives})")
    lows = [entry.low for entry in entries]
    missing = []
    for value in possible:
        index = bisect.bisect_right(lows, value) - 1
        if index < 0 or not entries[index].covers(value):
            missing.append(value)
    if missing:
        some = "value" if len(missing) == 1 else "values"
        raise where.error(
            f"no entry for the {some} {spans(tuple(missing))} ({gives}; every value the "
            "roll can give needs an entry)"
        )


def _pieces(at: _Where, text: str) -> tuple[Piece, ...]:
    """An entry's text cut into words, ``[[inline rolls]]`` and ``[[table: NAME]]``."""
    from dicecli.notation.reader import parse  # docs/startup.md

    pieces: list[Piece] = []
    index = 0
    while True:
        start = text.find("[[", index)
        if start < 0:
            break
        end = text.find("]]", start + 2)
        if end < 0:
            raise at.error(f"'[[' at character {start + 1} is not closed with ']]'")
        if start > index:
            pieces.append(Words(text[index:start]))
        inside = text[start + 2 : end]
        reference = _REFERENCE.fullmatch(inside)
        if reference is not None:
            name = reference["name"].strip()
            if not name:
                raise at.error("[[table: ]] names no table: write [[table: NAME]]")
            pieces.append(TableReference(name))
        else:
            try:
                roll = parse(inside)
            except DiceError as error:
                raise at.error(f"inline roll [[{inside}]]: {error.message}") from None
            pieces.append(InlineRoll(inside.strip(), roll))
        index = end + 2
    if index < len(text):
        pieces.append(Words(text[index:]))
    return tuple(pieces)


def _check_references(source: str, tables: Mapping[str, Table]) -> None:
    """Every ``[[table: NAME]]`` names a table of the file; no loops; at most
    :data:`MAX_DEPTH` tables deep and :data:`MAX_ROLLS` rolls in one draw."""
    names = ", ".join(table.name for table in tables.values())
    for table in tables.values():
        for entry in table.entries:
            for piece in entry.pieces:
                if isinstance(piece, TableReference) and piece.name.casefold() not in tables:
                    raise _Where(source, table.name, entry.key).error(
                        f"refers to table '{piece.name}', which the file does not have "
                        f"(tables: {names})"
                    )
    reach: dict[str, tuple[int, int]] = {}
    for table in tables.values():
        _reach(source, tables, table, (), reach)


def _reach(
    source: str,
    tables: Mapping[str, Table],
    table: Table,
    path: tuple[str, ...],
    reach: dict[str, tuple[int, int]],
) -> tuple[int, int]:
    """How many tables deep a draw from ``table`` can go, and the most rolls it can make
    (its own, inline rolls, other tables'); ``path``: the tables above it."""
    folded = table.name.casefold()
    if folded in reach:
        return reach[folded]
    deepest, most = 1, 1
    above = {name.casefold() for name in (*path, table.name)}
    for entry in table.entries:
        rolls = 1
        for piece in entry.pieces:
            if isinstance(piece, InlineRoll):
                rolls += 1
            if not isinstance(piece, TableReference):
                continue
            target = tables[piece.name.casefold()]
            chain = " -> ".join((*path, table.name, target.name))
            where = _Where(source, table.name, entry.key)
            if target.name.casefold() in above:
                raise where.error(f"tables refer to each other in a loop: {chain}")
            depth, inner = _reach(source, tables, target, (*path, table.name), reach)
            deepest = max(deepest, 1 + depth)
            if deepest + len(path) > MAX_DEPTH:
                raise where.error(
                    f"tables refer to each other more than {MAX_DEPTH} deep: {chain} -> …"
                )
            rolls += inner
        if rolls > MAX_ROLLS:
            raise _Where(source, table.name, entry.key).error(
                f"one draw could make more than {MAX_ROLLS:,} rolls (its inline rolls "
                "and draws from other tables)"
            )
        most = max(most, rolls)
    reach[folded] = deepest, most
    return deepest, most
