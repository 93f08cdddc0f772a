"""Several rolls on one line: ``1d20+5; 2d6+3`` (an attack and its damage).

A ``;`` separates rolls, except inside a ``[label]`` and in a ``# comment`` (which goes
with the roll it follows). Each roll is parsed on its own; an error points into the
whole line. Used by one-shot mode, piped lines and the REPL alike.
"""

from __future__ import annotations

from dicecli.errors import DiceError, DiceSyntaxError
from dicecli.notation.nodes import Roll
from dicecli.notation.reader import parse_as


def split_rolls(line: str) -> list[tuple[int, str]]:
    """The rolls of ``line`` and where each starts: ``"d20; 2d6"`` -> ``[(0, "d20"),
    (4, " 2d6")]``. Empty pieces (``d20;``) are left out."""
    if ";" not in line:
        return [(0, line)]
    pieces: list[tuple[int, str]] = []
    start, in_label = 0, False
    for index, char in enumerate(line):
        if char == "[":
            in_label = True
        elif char == "]":
            in_label = False
        elif char == "#" and not in_label:
            break
        elif char == ";" and not in_label:
            pieces.append((start, line[start:index]))
            start = index + 1
    pieces.append((start, line[start:]))
    return [(where, piece) for where, piece in pieces if piece.strip()]


def parse_rolls(line: str, dialect: str | None = None) -> list[tuple[str, Roll]]:
    """Each roll of ``line`` (its text, stripped, and its tree, read in ``dialect``),
    all parsed before any is rolled: a line with a syntax error in any roll rolls
    nothing."""
    pieces = split_rolls(line)
    if not pieces:
        raise DiceSyntaxError("nothing to roll", line, len(line))
    parsed = []
    for where, piece in pieces:
        try:
            parsed.append((piece.strip(), parse_as(piece, dialect)))
        except DiceError as error:
            position = None if error.position is None else where + error.position
            raise type(error)(error.message, line, position) from None
    return parsed
