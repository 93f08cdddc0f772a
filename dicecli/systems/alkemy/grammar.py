"""The grammar of an Alkemy line (``alkemy ...``), built once on first use.

::

    line       = side ["vs" (difficulty modifiers | side | named)] [comment]
    side       = "alkemy" [label | name ":"] characteristic modifiers
    named      = name ":" characteristic modifiers
    modifiers  = {state | "+" [N] ("bonus" | "penalty") | "keep" I "," J}
    characteristic, difficulty = number | name

The state, bonus/penalty terms and keep choice come in any order, also after the
difficulty. A word before the characteristic labels the roll (``alkemy Mind 8 vs 15``).
A label may end in a colon, as other games' named sides are written (``alkemy Ayla: 2
vs Orc: 5``); a side so named after ``vs`` needs no second ``alkemy``.
Several bonus or penalty terms add up. Any other word is a clear error naming what may
stand there.
"""

from __future__ import annotations

import re
from functools import cache
from typing import cast

import pyparsing as pp

from dicecli.frozen import frozen
from dicecli.notation import grammar
from dicecli.notation.nodes import Check, Name
from dicecli.systems.alkemy.dice import Colour
from dicecli.systems.alkemy.nodes import (
    RESERVED,
    STATE_WORDS,
    AlkemyCheck,
    AlkemyOpposed,
    AlkemySide,
    KeepChoice,
)
from dicecli.systems.alkemy.settings import KEYWORDS


@frozen
class _Part:
    """One piece of a side, tagged, folded into :class:`AlkemySide` by ``_side``."""

    kind: str
    location: int
    value: object


def _tagged(element: pp.ParserElement, kind: str) -> pp.ParserElement:
    element.add_parse_action(lambda s, loc, t: _Part(kind, loc, t[0]))
    return element


def _word() -> pp.ParserElement:
    reserved = "|".join(RESERVED)
    return pp.Regex(rf"(?!(?:{reserved})\b)[A-Za-z_][A-Za-z0-9_]*", flags=re.IGNORECASE)


def _name() -> pp.ParserElement:
    element = _word().set_name("a name")
    element.set_parse_action(lambda s, loc, t: Name(t[0], loc))
    return element


def _number() -> pp.ParserElement:
    return grammar.integer.copy().set_name("a number")


def _state() -> pp.ParserElement:
    words = "|".join(STATE_WORDS)
    element = pp.Regex(rf"(?:{words})\b", flags=re.IGNORECASE).set_name("a health state")
    element.set_parse_action(lambda t: STATE_WORDS[t[0].casefold()])
    return _tagged(element, "colour")


def _extra_dice() -> pp.ParserElement:
    element = pp.Regex(
        r"\+\s*(?P<count>\d+)?\s*(?P<kind>bonus(?:es)?|penalty|penalties|b|p)\b",
        flags=re.IGNORECASE,
    ).set_name("+N bonus or +N penalty")

    def action(s: str, loc: int, t: pp.ParseResults) -> _Part:
        count = int(t["count"]) if t["count"] else 1
        kind = "bonus" if t["kind"].casefold().startswith("b") else "penalty"
        return _Part(kind, loc, count)

    element.set_parse_action(action)
    return element


def _keep() -> pp.ParserElement:
    number = grammar.integer.copy().set_name("a die's position (1, 2, 3 or 4)")
    comma = pp.Suppress(",").set_name("','")
    element = grammar.keyword("keep") - number + comma - number
    element.set_parse_action(lambda s, loc, t: _Part("keep", loc, KeepChoice(t[1], t[2], loc)))
    return element.set_name("keep I,J")


def _stray() -> pp.ParserElement:
    """Any other word after the characteristic: a clear error rather than a bare
    'unexpected'."""
    element = pp.Regex(r"(?!vs\b)[^\s#]+", flags=re.IGNORECASE).set_name("a word")

    def action(s: str, loc: int, t: pp.ParseResults) -> None:
        raise pp.ParseFatalException(
            s,
            loc,
            f"'{t[0]}' is not understood here: write a health "
            "state (white, yellow, red, unhurt, wounded, critical), +N bonus, +N penalty, "
            "keep I,J, or vs",
        )

    element.set_parse_action(action)
    return element


def _fold_side(s: str, parts: list[_Part]) -> AlkemySide:
    """One side from its parts, refusing a second state or keep choice. Bonus and
    penalty terms add up."""
    label: str | None = None
    characteristic: int | Name = 0
    colour: Colour | None = None
    bonus = penalty = 0
    keep: KeepChoice | None = None
    for part in parts:
        if part.kind == "label":
            label = cast(str, part.value)
        elif part.kind == "characteristic":
            characteristic = cast("int | Name", part.value)
        elif part.kind == "colour":
            if colour is not None:
                raise pp.ParseFatalException(s, part.location, "a second health state")
            colour = cast(Colour, part.value)
        elif part.kind == "bonus":
            bonus += cast(int, part.value)
        elif part.kind == "penalty":
            penalty += cast(int, part.value)
        else:
            if keep is not None:
                raise pp.ParseFatalException(s, part.location, "a second keep choice")
            keep = cast(KeepChoice, part.value)
    return AlkemySide(characteristic, label, colour or "white", bonus, penalty, keep)


def _modifiers() -> pp.ParserElement:
    """The state, bonus/penalty terms and keep choice, in any order, as a group."""
    return pp.Group(pp.ZeroOrMore(_state() | _extra_dice() | _keep() | _stray()))


def _side_body() -> pp.ParserElement:
    """A side's parts: ``[LABEL] CHARACTERISTIC modifiers``, as a group."""
    characteristic = _tagged(
        (_number() | _name()).set_name("a characteristic (a number or a name)"),
        "characteristic",
    )
    label = _tagged(_word().set_name("a label") + pp.FollowedBy(_number() | _word()), "label")
    head = pp.Optional(_named() | label) + characteristic
    return pp.Group(head + _modifiers())


def _named() -> pp.ParserElement:
    """``Ayla:``, a side's name written as other games' named sides are."""
    return _tagged(_word().set_name("a name") + pp.Suppress(":"), "label")


def _named_side_body() -> pp.ParserElement:
    """``Orc: 5 ...`` after ``vs``: a named side, as a group like :func:`_side_body`'s."""
    characteristic = _tagged(
        (_number() | _name()).set_name("a characteristic (a number or a name)"),
        "characteristic",
    )
    return pp.Group(_named() + characteristic + _modifiers())


def _parts(group: pp.ParseResults) -> list[_Part]:
    """A side's group flattened: the head's parts, then the modifiers'."""
    items = group.as_list()
    return [part for item in items for part in (item if isinstance(item, list) else [item])]


def _line_form() -> pp.ParserElement:
    alkemy = pp.Suppress(grammar.keyword(*KEYWORDS))
    vs = pp.Suppress(grammar.keyword("vs"))
    opponent = (pp.Group(alkemy - _side_body()) | pp.Group(_named_side_body())).set_name(
        "'alkemy' and the opposing side"
    )
    difficulty = (_number() | _name()).set_name("a difficulty (a number or a name)")
    against = (opponent | difficulty + _modifiers()).set_name(
        "a difficulty, or 'alkemy' and the opposing side"
    )
    form = alkemy - _side_body() + pp.Optional(vs - against)

    def action(s: str, loc: int, tokens: pp.ParseResults) -> Check:
        side_parts = _parts(tokens[0])
        if len(tokens) == 1:
            return AlkemyCheck(_fold_side(s, side_parts))
        if isinstance(tokens[1], pp.ParseResults):
            opponent_parts = _parts(tokens[1][0])
            return AlkemyOpposed(_fold_side(s, side_parts), _fold_side(s, opponent_parts))
        trailing = _parts(tokens[2])
        side = _fold_side(s, side_parts + trailing)
        return AlkemyCheck(side, cast("int | Name", tokens[1]))

    form.set_parse_action(action)
    return form


@cache
def line_grammar() -> pp.ParserElement:
    """A whole Alkemy line, built once."""
    return grammar.whole_line(_line_form())
