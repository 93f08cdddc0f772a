"""Bounds on what one line may ask, checked before any work (``docs/limits.md`` lists
every limit of dicecli, these and the others).

A line longer than :data:`MAX_LINE_LENGTH`, with more than :data:`MAX_TERMS` terms,
brackets nested deeper than :data:`MAX_NESTING` or a number of more than
:data:`MAX_DIGITS` digits is refused by :func:`check_line` at once, with a one-line
error naming the bound, before the grammar sees it. Values worked out while rolling are
held within :data:`MAX_DIGITS` digits too (:func:`check_value`), so no number is ever
too long to print (Python refuses to turn an integer of more than 4,300 digits into
text) or to turn into a float for a percentage.

Flat terms (``1+1+1+…``) are not nesting: the syntax tree of a long sum is as deep as
it has terms, and Python's recursion limit is raised (:data:`RECURSION_LIMIT`) so that
every line within these bounds is rolled, and its odds worked out.
"""

from __future__ import annotations

import re
import sys

from dicecli.errors import DiceError, DiceSyntaxError, RollLimitError

MAX_LINE_LENGTH = 10_000
"""Most characters in one line (a roll, a REPL line, a piped line)."""
MAX_TERMS = 1_000
"""Most terms in one line: one more than its operators ``+ - * / x`` and commas."""
MAX_NESTING = 100
"""Most brackets ``( { [`` open at once."""
MAX_MODIFIERS = 100
"""Most modifiers written on one dice term or group (``4d6r1r2kh3`` has three): far
more than any roll needs, and few enough that reading them stays quick (chained
re-rolls and keeps are folded one into the next)."""
MAX_DIGITS = 100
"""Most digits in a number, typed or worked out."""
MAX_VALUE = 10**MAX_DIGITS - 1
MAX_FACES = 10_000
"""Most faces one custom die may have (``d{1..4,10}``), ranges counted out, as many as
the largest numbered die (``d10000``): each face is built once."""
MAX_FACE_VALUE = 1_000_000
"""Largest face of a custom die, either way (``d{-1000000..1000000}`` has too many
faces, but ``d{0,1000000}`` is fine): modifiers' conditions compare faces far below."""

MAX_TIMES = 100_000
"""Most rolls ``--times`` (or ``-n`` in a line) may ask for in one go."""

RECURSION_LIMIT = 12_000
"""Python's recursion limit while dicecli runs (at least): enough for a line of
:data:`MAX_TERMS` terms and :data:`MAX_NESTING` brackets."""

if sys.getrecursionlimit() < RECURSION_LIMIT:
    sys.setrecursionlimit(RECURSION_LIMIT)

_TERM_SEPARATOR = re.compile("[-+*/,xX]")
_WIDE_SIGNS = str.maketrans("×\N{MINUS SIGN}", "*-")
"""The separators outside ASCII, read as their ASCII twins: one character for one, so
positions stay. (In the class beside ASCII, they made ``re`` build a 64k-character
bitmap at every start; as alternatives, ``re`` merges them back into the class.)"""
LONG_NUMBER = re.compile(rf"\d{{{MAX_DIGITS + 1},}}")
"""A number of more digits than any line may hold: a line with one is refused, and the
other readings of a line leave it as written (past 4,300 digits Python reads none)."""
_BRACKETS = re.compile(r"[(){}\[\]]")
_LABEL = re.compile(r"\[[^\]\[]*\]")  # as the grammar reads a label


def check_line(text: str) -> None:
    """Refuse ``text`` when it passes a bound, pointing at where it does."""
    if len(text) > MAX_LINE_LENGTH:
        raise DiceSyntaxError(
            f"line too long: more than {MAX_LINE_LENGTH:,} characters, the limit",
            text,
            MAX_LINE_LENGTH,
        )
    # A comment is free text: it starts at the first # outside a [label] (labels are
    # blanked to spaces of the same length, so positions stay those of the text).
    body = _LABEL.sub(lambda label: " " * len(label[0]), text).split("#", 1)[0]
    long_number = LONG_NUMBER.search(body)
    if long_number is not None:
        raise DiceSyntaxError(
            f"number too long: {len(long_number[0]):,} digits, the limit is {MAX_DIGITS}",
            text,
            long_number.start(),
        )
    if not body.isascii():
        body = body.translate(_WIDE_SIGNS)
    for separators, separator in enumerate(_TERM_SEPARATOR.finditer(body), start=1):
        if separators >= MAX_TERMS:
            raise DiceSyntaxError(
                f"too many terms: the limit is {MAX_TERMS:,} in one line", text, separator.start()
            )
    depth = 0
    for bracket in _BRACKETS.finditer(body):
        depth += 1 if bracket[0] in "({[" else -1
        if depth > MAX_NESTING:
            raise DiceSyntaxError(
                f"too deeply nested: at most {MAX_NESTING} brackets inside each other",
                text,
                bracket.start(),
            )


def check_value(value: int) -> int:
    """``value``, when it has at most :data:`MAX_DIGITS` digits; else an error."""
    if -MAX_VALUE <= value <= MAX_VALUE:
        return value
    raise RollLimitError(f"value too large: more than {MAX_DIGITS} digits, the limit")


def check_times(times: int) -> None:
    """Refuse a count of rolls (``--times``, ``-n``) outside 1 to :data:`MAX_TIMES`."""
    if not 1 <= times <= MAX_TIMES:
        raise DiceError(f"--times takes 1 to {MAX_TIMES:,}")
