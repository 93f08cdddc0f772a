"""The frozen values a table file becomes: a :class:`TableBook` of :class:`Table` s,
each entry's text cut into :data:`Piece` s (words, inline rolls, references)."""

from __future__ import annotations

from collections.abc import Mapping

from dicecli.errors import DiceError
from dicecli.frozen import frozen
from dicecli.notation.nodes import Roll


@frozen
class Words:
    """Text of an entry shown as written."""

    text: str


@frozen
class InlineRoll:
    """``[[2d4]]``: a roll made when the entry is drawn; ``text`` is what was written
    inside the brackets."""

    text: str
    roll: Roll


@frozen
class TableReference:
    """``[[table: loot]]``: a draw from another table of the same file."""

    name: str


Piece = Words | InlineRoll | TableReference


@frozen
class Entry:
    """One entry: its key as written (``"1-3"``, ``"7"``, or a weighted entry's name),
    the values of the table's roll it covers (``low`` to ``high``), its weight (1 in a
    table rolled with a die expression), its text as written, and that text in pieces."""

    key: str
    low: int
    high: int
    weight: int
    text: str
    pieces: tuple[Piece, ...]

    def covers(self, value: int) -> bool:
        return self.low <= value <= self.high


@frozen
class Table:
    """A table: its name, the roll that picks an entry (written as ``roll_text``; a
    weighted table is rolled with one die of as many sides as its weights add up to) and
    the entries, in the order of the values they cover; see :attr:`named`."""

    name: str
    roll_text: str
    roll: Roll
    entries: tuple[Entry, ...]
    weighted: bool
    description: str = ""
    named: bool = False
    """Whether the roll reads names (``d100+CRITS``): what it can give depends on their
    values, so every value is checked to have one entry when the table is drawn from
    (or its odds asked), with the names in force, rather than when the file is read."""

    def entry_for(self, value: int) -> Entry:
        for entry in self.entries:
            if entry.covers(value):
                return entry
        # The file was checked when loaded: every value the roll can give has an entry.
        raise DiceError(f"table '{self.name}': no entry for {value}")  # pragma: no cover


class TableNotFoundError(DiceError):
    """A table asked for by name that the file does not have."""


@frozen
class TableBook:
    """The tables of one file, by casefolded name, in file order; ``source`` is the file
    as the user named it."""

    source: str
    tables: Mapping[str, Table]

    def names(self) -> tuple[str, ...]:
        return tuple(table.name for table in self.tables.values())

    def table(self, name: str) -> Table:
        found = self.tables.get(name.strip().casefold())
        if found is None:
            import difflib  # docs/startup.md

            close = difflib.get_close_matches(name.strip().casefold(), list(self.tables), 1)
            hint = f"did you mean '{self.tables[close[0]].name}'? " if close else ""
            raise TableNotFoundError(
                f"table file {self.source} has no table '{name.strip()}' "
                f"({hint}tables: {', '.join(self.names())})"
            )
        return found
