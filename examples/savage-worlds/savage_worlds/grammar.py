"""The grammar of a Savage Worlds line (pyparsing), building :mod:`savage_worlds.nodes`.

::

    line      = ("sw" | "savage") ["extra"] trait { modifier } ["vs" number] [comment]
    trait     = "d4" | "d6" | "d8" | "d10" | "d12"
    modifier  = ("+" | "-") number

Words are case-insensitive and spaces optional around the signs: ``sw d12+2``,
``sw d10 -2 vs 6``, ``SW EXTRA D6``. A trait above d12 is a d12 with a bonus
(``d12+2``). Target numbers and modifiers go up to :data:`~savage_worlds.rules.MAX_NUMBER`.
"""

from __future__ import annotations

from typing import cast

import pyparsing as pp
from dicecli.game import integer, keyword, parse_failure, whole_line

from savage_worlds.nodes import TraitTest
from savage_worlds.rules import MAX_NUMBER, TRAIT_SIDES

_TRAITS = ", ".join(f"d{sides}" for sides in TRAIT_SIDES)

trait = pp.Regex(r"[dD](?P<sides>\d+)(?![\w])").set_name(f"a trait die ({_TRAITS})")


def _trait_action(text: str, loc: int, tokens: pp.ParseResults) -> int:
    sides = int(tokens["sides"])
    if sides not in TRAIT_SIDES:
        raise parse_failure(text, loc, f"a trait die is {_TRAITS} (above d12: d12+1, d12+2 ...)")
    return sides


trait.set_parse_action(_trait_action)

_sign = pp.Regex("[-+\N{MINUS SIGN}]").set_name("'+' or '-'")
modifier = (_sign - integer).set_name("a modifier such as +2")


def _modifier_action(text: str, loc: int, tokens: pp.ParseResults) -> int:
    size = cast(int, tokens[1])
    if size > MAX_NUMBER:
        raise parse_failure(text, loc, f"a modifier goes up to {MAX_NUMBER}")
    return size if tokens[0] == "+" else -size


modifier.set_parse_action(_modifier_action)

target = integer.copy().set_name("a target number")


def _target_action(text: str, loc: int, tokens: pp.ParseResults) -> int:
    number = int(tokens[0])
    if number > MAX_NUMBER:
        raise parse_failure(text, loc, f"a target number goes up to {MAX_NUMBER}")
    return number


target.set_parse_action(_target_action)

_opening = pp.Suppress(keyword("sw", "savage"))
_extra = keyword("extra")
_vs = pp.Suppress(keyword("vs"))
_body = (
    _opening
    - pp.Optional(_extra)
    + trait
    + pp.Group(pp.ZeroOrMore(modifier))
    + pp.Optional(_vs - target)
)


def _body_action(text: str, loc: int, tokens: pp.ParseResults) -> TraitTest:
    parts = list(tokens)
    wild_card = True
    if isinstance(parts[0], str):  # the word "extra"
        wild_card = False
        parts = parts[1:]
    sides = cast(int, parts[0])
    modifiers = tuple(cast(list[int], parts[1].as_list()))
    if abs(sum(modifiers)) > MAX_NUMBER:
        raise parse_failure(text, loc, f"the modifiers add up to more than {MAX_NUMBER}")
    found = cast(int, parts[2]) if len(parts) > 2 else None
    return TraitTest(sides, modifiers, found, wild_card)


_body.set_parse_action(_body_action)


def line_grammar() -> pp.ParserElement:
    """The whole line: ``sw`` or ``savage``, a trait test, an optional comment."""
    return whole_line(_body)
