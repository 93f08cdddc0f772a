"""The quickest way in, for the lines players type most: dice, numbers and names added up.

:func:`read_dice_sum` reads a line that is dice terms, numbers and names joined by ``+``
and ``-`` (``2D6+5``, ``d20 + 7``, ``4d6kh3``, ``1d8+1d6+3``, ``3d6-3``, ``d%``,
``4dF``, ``1d20 + DEX``), each dice term with at most one keep or drop (``kh3``, ``kl``,
``dl1``, ``k2``), and builds the very tree :mod:`dicecli.notation.grammar` builds for
it. It cuts such a line into its terms with one regular expression over the whole line,
where :mod:`dicecli.notation.common_lines` (which reads more forms) reads a token at a
time: a line seen for the first time is mostly this reading. A line with no gap
(``2d20kh1``, ``2D6+5``) is cut by string methods instead, so that a process that reads
a few such lines (a one-shot roll, a first ``odds`` call) never compiles the expression.
Anything else gives None and goes on to the next reader; every error comes from the
grammar of record.

What it declines, to be sure it never reads a line otherwise than the grammar: a
comment, a label, brackets, a sign first, a name first, a number past 50 digits, a
count or size out of range, ``kh0``/``kl0``, a line whose first word may be a game's
keyword (the grammar asks the games first), a line of
:data:`~dicecli.limits.MAX_TERMS` characters or more (past it a bound of
:mod:`dicecli.limits` may apply).

The dice terms and numbers it reads are shared values (a name is not: its node keeps
where it stands in the line): the same term written again (``4d6kh3`` on many lines) is
the same node, so what is worked out once per node (a dice term's step,
:data:`dicecli.rolling.evaluate.prepared`) is worked out once for all of them.
``tests/notation/test_dice_sums.py`` checks, with Hypothesis and over many generated
lines, that every line this reader accepts is the grammar's tree.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import cast

from dicecli.limits import MAX_DIGITS, MAX_TERMS
from dicecli.notation.nodes import (
    NO_MODIFIERS,
    BinaryOp,
    BinaryOpSymbol,
    Dice,
    Expr,
    Keep,
    KeepKind,
    Modifiers,
    Name,
    Number,
    Roll,
    Sides,
)
from dicecli.notation.semantics import MAX_DICE_COUNT, MAX_SIDES, may_start_a_game_line

_GAP = r"[ \t\r\n]*"  # what pyparsing skips between tokens (not every \s)
_DIGITS = r"\d{1,50}"  # a longer number goes to the grammar, which has the rules for it
_NAME = rf"(?!d[A-Z])[A-Za-z_]\w{{0,{MAX_DIGITS - 1}}}"
"""A name as the grammar reads one where a term may go, once a dice term has been
ruled out (in :data:`_PIECES`, the alternative before it): not a lower-case ``d`` and a
capital, which is a die of a dice file (``dBoost``). At most :data:`MAX_DIGITS`
characters: a longer word may hold a run of digits longer than a number may have,
which the grammar refuses (:func:`~dicecli.limits.check_line`); its rest is cut as a
term of its own, with no sign before it, and the line declined. (``\\w`` is
``[A-Za-z0-9_]``: the pattern is ASCII.)"""
_PIECES = (
    rf"([-+]?){_GAP}(?:(\d{{0,50}})[dD]({_DIGITS}|%|[fF])(?:((?i:kh|kl|dh|dl|k))(\d{{0,50}}))?"
    rf"|({_DIGITS}|{_NAME}))"
    r"|([^ \t\r\n])"
    r"|[ \t\r\n]+"
)
"""The pieces of a line, in order, all of it: a term (a dice term, a number or a name) with
the sign before it; any other character, alone (the line is not a sum); or the spaces
before the end or before such a character. A dice term stops where the modifiers this
reader does not take begin, which are then cut as a word of their own (``d6r1``, and
``x5`` in ``D6x5``): a term with no sign before it, so the line is declined.
Compiled (:func:`_pieces`) only for the first line :func:`_pieces_by_hand` leaves to it:
compiling it costs as much as reading hundreds of lines, most of a first odds call or a
one-shot roll."""

_Piece = tuple[str, str, str, str, str, str, str]
"""A piece's sign, count, sides, keep, amount, number or name, and other character. A
number and a name share a group: each group is work for every piece cut."""

_WORD_GROUP = 6
"""The group of :data:`_PIECES` that holds a number or a name (where a name starts is
its position, which its node keeps for an error's caret)."""

SHARED_TERMS = 1024
"""Most dice terms (and, apart, numbers) kept to be shared; past it they start again."""

_shared_dice: dict[tuple[str, str, str, str], Dice] = {}
_shared_numbers: dict[str, Number] = {}


class _DeclinedError(Exception):
    """The line is not one this reader takes: the next reader reads it."""


def read_dice_sum(text: str) -> Roll | None:
    """The tree of ``text`` if it is dice, numbers and names added up, else None (see
    the module's doc)."""
    if len(text) >= MAX_TERMS:
        return None
    body: Expr | None = None
    names: Iterator[int] | None = None
    try:
        pieces: list[_Piece] | None = None
        if _compiled_pieces is None and _hand_cut_lines < HAND_CUT_LINES:
            pieces = _cut_by_hand(text)
        if pieces is None:
            pieces = _pieces().findall(text)
        for piece in pieces:
            sign = piece[0]
            if piece[2]:
                term: Expr = _dice(piece)
            elif piece[5]:  # a number or a name (group _WORD_GROUP)
                word = piece[5]
                if word[0] in _NUMBER_STARTS:
                    term = _number(word)
                else:  # a name (at the same place in the line as the grammar's)
                    if body is None or not sign:  # a word first (a game's line?), or a
                        return None  # word run into the term before it (4d6r1, D6x5)
                    if names is None:
                        names = _name_positions(text)
                    term = Name(word, next(names))
            elif piece[6]:  # not a sum
                return None
            else:  # spaces before a sign or the end
                continue
            if body is None:
                if sign:  # a sign first: -d6 negates, +d6 is refused
                    return None
                body = term
            elif not sign:  # two terms with no sign between them
                return None
            else:
                body = BinaryOp(cast("BinaryOpSymbol", sign), body, term)  # + or -
    except _DeclinedError:
        return None
    if body is None:
        return None
    head = text.lstrip(" \t\r\n")[:1]
    if head in "dD" and may_start_a_game_line(text.split(None, 1)[0]):
        return None
    return Roll(body)


_compiled_pieces: re.Pattern[str] | None = None

HAND_CUT_LINES = 32
"""Most lines cut by hand before :data:`_PIECES` is compiled: enough for the few lines
of a one-shot roll, a first odds call or the start of a session; the pattern cuts a
line quicker than string methods do, so a stream of lines compiles it early."""

_hand_cut_lines = 0


def _cut_by_hand(text: str) -> list[_Piece] | None:
    """:func:`_pieces_by_hand`, counted against :data:`HAND_CUT_LINES`."""
    global _hand_cut_lines
    _hand_cut_lines += 1
    return _pieces_by_hand(text)


def _pieces() -> re.Pattern[str]:
    """:data:`_PIECES`, compiled when a line first needs it."""
    global _compiled_pieces
    if _compiled_pieces is None:
        # the digits 0-9 only, as the grammar reads them
        _compiled_pieces = re.compile(_PIECES, re.ASCII)
    return _compiled_pieces


_BY_HAND = frozenset("0123456789dDfF%+-kKhHlL")
"""The characters of the lines :func:`_pieces_by_hand` reads: no gap, nothing but
dice terms, keeps, numbers and signs."""

_ASCII_DIGITS = "0123456789"

_NUMBER_STARTS = frozenset(_ASCII_DIGITS)
"""How a number starts: a word of the number-or-name group that does not is a name
(the set: a cheaper look-up than the string, on every number read)."""


def _pieces_by_hand(text: str) -> list[_Piece] | None:
    """The pieces :data:`_PIECES` finds in ``text``, read without it, for a line of
    signed terms with no gap and no other character (``2d20kh1``, ``2D6+5``,
    ``1d8+1d6-3``); None for any other line, which the pattern reads
    (``tests/notation/test_dice_sums.py`` checks that the two agree)."""
    if not text or not _BY_HAND.issuperset(text):
        return None
    terms = text.replace("-", "+-").split("+")
    if not terms[0]:  # a sign first (or a doubled sign)
        return None
    pieces: list[_Piece] = []
    for place, term in enumerate(terms):
        sign = ""
        if place:
            if term[:1] == "-":
                sign, term = "-", term[1:]
            else:
                sign = "+"
            if not term:
                return None
        piece = _term_by_hand(sign, term)
        if piece is None:
            return None
        pieces.append(piece)
    return pieces


def _term_by_hand(sign: str, term: str) -> _Piece | None:
    """The piece of one term with no sign in it, as :data:`_PIECES` reads it; None when
    the pattern would read it otherwise than as one whole term."""
    at = term.lower().find("d")
    if at < 0:
        if term.isdigit() and len(term) <= 50:
            return (sign, "", "", "", "", term, "")
        return None
    count, rest = term[:at], term[at + 1 :]
    if len(count) > 50 or (count and not count.isdigit()):
        return None
    tail = rest.lstrip(_ASCII_DIGITS)
    sides = rest[: len(rest) - len(tail)]
    if not sides:
        sides = rest[:1]
        if sides not in ("%", "f", "F"):
            return None
        tail = rest[1:]
    elif len(sides) > 50:
        return None
    if not tail:
        return (sign, count, sides, "", "", "", "")
    keep = tail[:2]
    if keep.lower() not in ("kh", "kl", "dh", "dl"):
        keep = tail[:1]
        if keep not in ("k", "K"):
            return None
    amount = tail[len(keep) :]
    if amount and (len(amount) > 50 or not amount.isdigit()):
        return None
    return (sign, count, sides, keep, amount, "", "")


def _name_positions(text: str) -> Iterator[int]:
    """Where each name in ``text`` starts, in order (a line with a name is cut by the
    pattern: :func:`_pieces_by_hand` reads no names)."""
    return (
        found.start(_WORD_GROUP)
        for found in _pieces().finditer(text)
        if _is_name(found.group(_WORD_GROUP))
    )


def _is_name(word: str | None) -> bool:
    """Whether the number-or-name group's text ``word`` is a name (None: no term)."""
    return word is not None and word != "" and word[0] not in _NUMBER_STARTS


def reads_as_name(word: str) -> bool:
    """Whether ``word`` is a name to the grammar wherever a term may go after a line's
    first word (a first word may be a game's keyword: the games say, as the grammar asks
    them), as far as this reader can tell: True for ``STR``, ``dex``, ``Str_2``; False
    for dice (``d6``, ``dF``, ``dBoost``), anything else (``2x``), and a name longer than
    :data:`_NAME` takes, which the grammar must judge."""
    pieces = _pieces().findall(word)
    return bool(pieces) and pieces[0][5] == word and _is_name(word)


def _number(digits: str) -> Number:
    number = _shared_numbers.get(digits)
    if number is None:
        if len(_shared_numbers) >= SHARED_TERMS:
            _shared_numbers.clear()
        number = _shared_numbers[digits] = Number(int(digits))
    return number


def _dice(piece: _Piece) -> Dice:
    key = piece[1:5]
    dice = _shared_dice.get(key)
    if dice is None:
        dice = _new_dice(*key)
        if len(_shared_dice) >= SHARED_TERMS:
            _shared_dice.clear()
        _shared_dice[key] = dice
    return dice


def _new_dice(count_digits: str, raw_sides: str, keep: str, amount_digits: str) -> Dice:
    count = int(count_digits) if count_digits else 1
    sides: Sides
    if raw_sides in ("%", "F", "f"):
        sides = "%" if raw_sides == "%" else "F"
    else:
        sides = int(raw_sides)  # a 3 becomes the D3 of rule N4 (Dice does it)
        if not 1 <= sides <= MAX_SIDES:
            raise _DeclinedError
    if not 1 <= count <= MAX_DICE_COUNT:
        raise _DeclinedError
    if not keep:
        return Dice(count, sides, NO_MODIFIERS)
    kind = keep.lower()
    kind = "kh" if kind == "k" else kind
    amount = int(amount_digits) if amount_digits else 1
    if amount == 0 and kind in ("kh", "kl"):
        raise _DeclinedError
    return Dice(count, sides, Modifiers(keep=Keep(cast(KeepKind, kind), amount)))
