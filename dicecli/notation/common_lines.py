"""A quick way in for the lines players type most, without loading the grammar.

:func:`read_common_line` reads numbers, dice (``2D6``, ``d%``, ``4dF``) with at most
one modifier among keep or drop (``4d6kh3``), re-roll (``4d6ro<3``, ``d20r``), success
counting (``6d6>4``, with failures: ``10d10>=7f1``) and an explosion on the highest face
(``d6!``, ``3d6!!``, ``2d6!p``), groups with at most a keep or drop (``{2d6, 1d8}kh1``),
``N% of``, ``+ - * / x``, unary minus, parentheses, labels (``2d6[fire]``)
and a ``# comment``, and builds the very tree :mod:`dicecli.notation.grammar` builds for
the same text. Anything else, or anything doubtful (a line past a bound of
:mod:`dicecli.limits`, a count or size out of range, a word that may be a game's
keyword, a character it does not know), gives None, and the line
goes to the grammar, which stays the grammar of record: every error comes from it.

Why it exists: importing pyparsing and building the grammar is most of a plain roll's
start-up, and parsing a line it has not seen before is most of a piped line's cost.
``tests/notation/test_common_lines.py`` checks, with Hypothesis, that every line this
reader accepts parses to the identical tree with the grammar.
"""

from __future__ import annotations

import re
from typing import cast

from dicecli.errors import DiceSyntaxError
from dicecli.frozen import frozen
from dicecli.limits import MAX_TERMS, check_line
from dicecli.notation.nodes import (
    NO_MODIFIERS,
    BinaryOp,
    BinaryOpSymbol,
    Condition,
    Dice,
    Explode,
    ExplodeKind,
    Expr,
    Group,
    Keep,
    KeepKind,
    Labelled,
    Modifiers,
    Negate,
    Number,
    PercentOf,
    Reroll,
    Roll,
    Sides,
)
from dicecli.notation.semantics import (
    MAX_DICE_COUNT,
    MAX_SIDES,
    bare_reroll_condition,
    condition_of,
    endless_roll,
    may_start_a_game_line,
)

_WHITESPACE = " \t\r\n"  # what pyparsing skips between tokens
_MAX_DIGITS = 50  # longer numbers go to the grammar, which has the rules for them
_MAX_DEPTH = 10  # deeper brackets and minus signs go to the grammar, which has the rules
_WITHIN_LIMITS_BELOW = MAX_TERMS
"""A line shorter than this passes every bound of :func:`~dicecli.limits.check_line`
when this reader accepts it, so it is not checked: it is within ``MAX_LINE_LENGTH`` and
has fewer than ``MAX_TERMS`` separators by its length; every number the reader takes
has at most ``_MAX_DIGITS`` digits (below ``MAX_DIGITS``) and its brackets nest at most
``_MAX_DEPTH`` deep (below ``MAX_NESTING``). Checking was about 6% of a new line's
instructions."""

_TOKEN = re.compile(
    r"[ \t\r\n]*(?:"
    r"(?P<dice>(?P<count>\d*)[dD](?P<sides>\d+|%|[fF])"
    r"(?:[ \t\r\n]*(?:(?P<keep>(?i:kh|kl|dh|dl|k))(?P<keep_n>\d*)"
    r"|(?P<reroll>(?i:ro|r))(?P<reroll_if>(?:>=|<=|>|<|=)?\d+)?"
    r"|(?P<success>(?:>=|<=|>|<|=)\d+)(?:f(?P<failure>(?:>=|<=|>|<|=)?\d+))?)"
    r"|(?P<explode>!!p|!!|!p|!)(?![!A-Za-z0-9<>=.{(]))?)"
    r"|(?P<percent>[0-9]+)[ \t]*%[ \t]*(?i:of)\b"  # ASCII digits, as the grammar's
    r"|(?P<number>\d+)"
    r"|\[(?P<label>[^\]\[]*)\]"
    r"|(?P<op>[-+*/(),{]|[xX](?![A-Za-z_])|[xX](?=[dD][\d%fF]))"
    r"|(?P<group_end>\}(?:[ \t\r\n]*(?P<group_keep>(?i:kh|kl|dh|dl|k))(?P<group_keep_n>\d*))?)"
    r"|#(?P<comment>[^\n]*)"
    r"|(?P<end>\Z)"
    r")"
)
_SYMBOLS: dict[str, BinaryOpSymbol] = {"+": "+", "-": "-", "*": "*", "x": "*", "X": "*", "/": "/"}
_ADDING = ("+", "-")
_MULTIPLYING = ("*", "/", "x", "X")


@frozen
class _End:
    """The end of the line, with its comment."""

    note: str | None


@frozen
class _Label:
    """A ``[label]`` after a term."""

    text: str


@frozen
class _GroupEnd:
    """A group's closing ``}``, with the keep or drop after it."""

    modifiers: Modifiers


@frozen
class _Percent:
    """``N% of``, before the value it takes a share of."""

    percent: int


Token = Expr | str | _End | _Label | _GroupEnd | _Percent
"""A number or dice, an operator, bracket or comma, a label, a group's end, ``N% of``,
the end."""


class _NotCommonError(Exception):
    """The line is not one this reader takes: the grammar reads it."""


def read_common_line(text: str) -> Roll | None:
    """The tree of ``text`` if it is a common line, else None (see the module's doc)."""
    stripped = text.lstrip(_WHITESPACE)
    if stripped[:1].isalpha() and may_start_a_game_line(stripped.split(None, 1)[0]):
        return None
    if len(text) >= _WITHIN_LIMITS_BELOW:
        try:
            check_line(text)
        except DiceSyntaxError:  # past a bound of dicecli.limits: the grammar says which
            return None
    try:
        tokens = _tokens(text)
        body, at = _expression(tokens, 0, 0)
    except _NotCommonError:
        return None
    end = tokens[at]
    return Roll(body, end.note) if type(end) is _End else None


def _tokens(text: str) -> list[Token]:
    tokens: list[Token] = []
    position = 0
    match_at = _TOKEN.match
    while True:
        match = match_at(text, position)
        if match is None:
            raise _NotCommonError
        position = match.end()
        kind = match.lastgroup
        if kind == "dice":
            tokens.append(_dice(match))
        elif kind == "number":
            tokens.append(Number(_integer(match["number"])))
        elif kind == "op":
            tokens.append(match["op"])
        elif kind == "label":
            tokens.append(_Label(match["label"].strip()))
        elif kind == "percent":
            tokens.append(_Percent(_integer(match["percent"])))
        elif kind == "group_end":
            tokens.append(_GroupEnd(_kept(match["group_keep"], match["group_keep_n"])))
        else:
            note = match["comment"]
            if note is not None:
                if text[position:].strip(_WHITESPACE):
                    raise _NotCommonError
                note = note.strip() or None
            tokens.append(_End(note))
            return tokens


def _integer(digits: str) -> int:
    if len(digits) > _MAX_DIGITS:
        raise _NotCommonError
    return int(digits)


def _dice(match: re.Match[str]) -> Dice:
    count_digits, raw_sides, keep, keep_n, reroll, reroll_if, success, failure, explode = (
        match.group(
            "count",
            "sides",
            "keep",
            "keep_n",
            "reroll",
            "reroll_if",
            "success",
            "failure",
            "explode",
        )
    )  # one call for all the groups: a new line reads each dice term once
    count = _integer(count_digits) if count_digits else 1
    sides: Sides
    if raw_sides in ("%", "F", "f"):
        sides = "%" if raw_sides == "%" else "F"
    elif _integer(raw_sides) == 3:  # d3, d03: the D3 of rule N4
        sides = "3"
    else:
        sides = int(raw_sides)
        if not 1 <= sides <= MAX_SIDES:
            raise _NotCommonError
    if not 1 <= count <= MAX_DICE_COUNT:
        raise _NotCommonError
    if keep is not None:
        return Dice(count, sides, _kept(keep, keep_n))
    if success is not None:
        counted = None if failure is None else _condition(failure)
        return Dice(count, sides, Modifiers(success=_condition(success), failure=counted))
    if explode is not None:  # bare: on the highest face
        exploding = Dice(count, sides, Modifiers(explode=Explode(cast(ExplodeKind, explode), None)))
        if endless_roll(exploding) is not None:  # d1!: the grammar says why
            raise _NotCommonError
        return exploding
    if reroll is None:
        return Dice(count, sides, NO_MODIFIERS)
    bare = reroll_if is None
    condition = bare_reroll_condition(raw_sides) if bare else _condition(reroll_if)
    dice = Dice(count, sides, Modifiers(reroll=Reroll(condition, reroll.lower() == "ro")))
    if endless_roll(dice) is not None:  # the grammar says why
        raise _NotCommonError
    return dice


def _kept(keep: str | None, amount_digits: str) -> Modifiers:
    """The modifiers of a keep or drop (``kh3``, ``dl``, ``k2``) of dice or a group's
    items; none without one. Keeping none (``kh0``) goes to the grammar."""
    if keep is None:
        return NO_MODIFIERS
    kind = keep.lower()
    kind = "kh" if kind == "k" else kind
    amount = _integer(amount_digits) if amount_digits else 1
    if amount == 0 and kind in ("kh", "kl"):
        raise _NotCommonError
    return Modifiers(keep=Keep(cast(KeepKind, kind), amount))


def _condition(text: str) -> Condition:
    """A condition the regular expression found: a long number goes to the grammar."""
    if len(text.lstrip("<>=")) > _MAX_DIGITS:
        raise _NotCommonError
    return condition_of(text)


# Recursive descent over the tokens, folding as the grammar does: left to right, and
# ``* / x`` before ``+ -``. Each takes the tokens, where to start and how many brackets
# and minus signs are open, and gives the node read and where it ended.


def _expression(tokens: list[Token], at: int, depth: int) -> tuple[Expr, int]:
    result, at = _term(tokens, at, depth)
    while (op := tokens[at]) in _ADDING and type(op) is str:
        right, at = _term(tokens, at + 1, depth)
        result = BinaryOp(_SYMBOLS[op], result, right)
    return result, at


def _term(tokens: list[Token], at: int, depth: int) -> tuple[Expr, int]:
    result, at = _unary(tokens, at, depth)
    while (op := tokens[at]) in _MULTIPLYING and type(op) is str:
        right, at = _unary(tokens, at + 1, depth)
        result = BinaryOp(_SYMBOLS[op], result, right)
    return result, at


def _unary(tokens: list[Token], at: int, depth: int) -> tuple[Expr, int]:
    token = tokens[at]
    kind = type(token)
    if kind is not str and kind is not _Percent:
        if kind is _End or kind is _Label or kind is _GroupEnd:
            raise _NotCommonError
        return _labelled(cast(Expr, token), tokens, at + 1)
    if depth == _MAX_DEPTH:
        raise _NotCommonError
    if kind is _Percent:  # 10% of 51: binds as a sign does
        operand, at = _unary(tokens, at + 1, depth + 1)
        return PercentOf(cast(_Percent, token).percent, operand), at
    if token == "-":
        operand, at = _unary(tokens, at + 1, depth + 1)
        return Negate(operand), at
    if token == "{":
        return _group(tokens, at, depth + 1)
    if token != "(":
        raise _NotCommonError
    inner, at = _expression(tokens, at + 1, depth + 1)
    if tokens[at] != ")":
        raise _NotCommonError
    return _labelled(inner, tokens, at + 1)


def _group(tokens: list[Token], at: int, depth: int) -> tuple[Expr, int]:
    """``{2d6, 1d8}kh1``: the items after the ``{`` at ``at``, each one value, and the
    keep or drop on them."""
    items: list[Expr] = []
    while True:
        item, at = _expression(tokens, at + 1, depth)
        items.append(item)
        end = tokens[at]
        if type(end) is _GroupEnd:
            return _labelled(Group(tuple(items), end.modifiers), tokens, at + 1)
        if end != ",":
            raise _NotCommonError


def _labelled(operand: Expr, tokens: list[Token], at: int) -> tuple[Expr, int]:
    """``operand``, with the label that follows it if there is one."""
    label = tokens[at]
    if type(label) is _Label:
        return Labelled(operand, label.text), at + 1
    return operand, at
