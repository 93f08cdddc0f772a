"""Drawing from a table with the session's dice (``docs/tables.md``).

The table's roll is made with the evaluator and the session's :class:`Roller`, so
``--seed`` reproduces a draw and ``--given`` gives its dice: first the table's roll, then,
in the order the entry's text reads, each inline roll's dice and each referred table's
draw (its roll, then its own inline rolls). A weighted table is rolled with one die of
as many sides as its weights add up to; entries take its faces in file order.

A draw is a :class:`~dicecli.results.RollResult`, so every renderer, ``--times`` and
JSON work as for other rolls: ``total`` is the table's roll, the dice are every die
rolled, the outcome's verdict is the entry chosen (``key: text`` with the inline rolls
resolved), its notes show each inline roll and nested draw, and its fields (JSON) carry
the table, the entry's key, the resolved text and every roll made.
"""

from __future__ import annotations

from dicecli.environment import EMPTY_ENVIRONMENT, Environment
from dicecli.errors import RollLimitError
from dicecli.notation.nodes import Roll
from dicecli.render.text import breakdown_text
from dicecli.results import DieRoll, JSONValue, Outcome, RollResult
from dicecli.rolling.evaluate import roll
from dicecli.rolling.sources import Roller
from dicecli.tables.load import check_named_cover
from dicecli.tables.model import InlineRoll, Table, TableBook, TableReference, Words


class _Drawing:
    """What one draw has rolled so far: dice, notes and the JSON of each roll."""

    def __init__(self, book: TableBook, roller: Roller, env: Environment) -> None:
        self.book, self.roller, self.env = book, roller, env
        self.dice: list[DieRoll] = []
        self.notes: list[str] = []

    def table(
        self, table: Table, within: str | None
    ) -> tuple[RollResult, str, str, list[JSONValue]]:
        """Draw from ``table``: its roll, the entry's key, its resolved text, its rolls."""
        check_named_cover(self.book.source, table, self.env)  # d100+CRITS: now CRITS is known
        result = self.roll(table.roll, table.roll_text)
        assert result.total is not None  # checked when loaded: a roll with a total
        entry = table.entry_for(result.total)
        note_at = len(self.notes)
        label = None if within is None else table.name  # notes of a nested draw say so
        parts: list[str] = []
        rolls: list[JSONValue] = []
        for piece in entry.pieces:
            if isinstance(piece, Words):
                parts.append(piece.text)
            elif isinstance(piece, InlineRoll):
                parts.append(self.inline(piece, label, rolls))
            else:
                parts.append(self.nested(piece, table.name, rolls))
        text = "".join(parts)
        if within is not None:
            # the entry's text is in the verdict already: the note names the entry only
            shown = f"{breakdown_text(result.breakdown)} = {result.total} → {entry.key}"
            self.notes.insert(note_at, f"table {table.name}: {shown}")
        return result, entry.key, text, rolls

    def roll(self, node: Roll, text: str) -> RollResult:
        """Roll ``node`` with what is left of the draw's budget: the dice of one roll's
        (:data:`~dicecli.rolling.sources.DEFAULT_BUDGET`) for the whole draw, its
        inline rolls and nested draws together (docs/tables.md)."""
        roller = self.roller
        budget = roller.budget
        roller.budget = budget - len(self.dice)
        try:
            result = roll(node, roller, self.env, text)
        except RollLimitError as error:
            raise RollLimitError(
                f"roll limit: one draw may use at most {budget:,} dice, its inline rolls "
                "and nested draws together",
                error.text,
                error.position,
            ) from None
        finally:
            roller.budget = budget
        self.dice.extend(result.dice)
        return result

    def inline(self, piece: InlineRoll, within: str | None, rolls: list[JSONValue]) -> str:
        result = self.roll(piece.roll, piece.text)
        if result.total is not None:
            value = str(result.total)
        else:
            value = result.outcome.verdict if result.outcome is not None else ""
        shown = breakdown_text(result.breakdown)
        where = "" if within is None else f"{within} "
        self.notes.append(f"{where}[[{piece.text}]]: {shown} = {value}")
        rolls.append(
            {
                "roll": piece.text,
                "expression": result.expression,
                "total": result.total,
                "text": value,
                "dice": [die.as_dict() for die in result.dice],
            }
        )
        return value

    def nested(self, piece: TableReference, within: str, rolls: list[JSONValue]) -> str:
        table = self.book.table(piece.name)
        result, key, text, inner = self.table(table, within)
        rolls.append(
            {
                "table": table.name,
                "expression": result.expression,
                "total": result.total,
                "key": key,
                "text": text,
                "dice": [die.as_dict() for die in result.dice],
                "rolls": inner,
            }
        )
        return text


def draw(
    book: TableBook,
    name: str,
    roller: Roller,
    env: Environment = EMPTY_ENVIRONMENT,
    typed: str | None = None,
) -> RollResult:
    """One draw from the table ``name`` of ``book``, with ``roller``'s dice; ``typed``
    is the input as typed (``table FILE NAME``), else ``table NAME``."""
    table = book.table(name)
    drawing = _Drawing(book, roller, env)
    result, key, text, rolls = drawing.table(table, None)
    fields: tuple[tuple[str, JSONValue], ...] = (
        ("table", table.name),
        ("key", key),
        ("text", text),
        ("rolls", rolls),
    )
    return RollResult(
        typed or f"table {table.name}",
        result.expression,
        result.total,
        tuple(drawing.dice),
        result.breakdown,
        Outcome(f"{key}: {text}", None, fields, tuple(drawing.notes)),
    )
