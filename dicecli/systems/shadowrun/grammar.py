"""The grammar of an ``sr`` line (pyparsing), building
:mod:`dicecli.systems.shadowrun.checks`.

::

    line = keyword pool { "edge" | "limit" number } [ "vs" threshold ] { "edge" }
    pool = expression                                (8, Agility+Firearms)

Rule numbers (S1, S2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import re
from functools import cache

import pyparsing as pp

from dicecli.game import expression, keyword, parse_failure, whole_line
from dicecli.systems.shadowrun.checks import PoolTest
from dicecli.systems.shadowrun.settings import KEYWORDS

_D6_TYPED = re.compile(r"\d*d6(?!\d)", re.IGNORECASE)


class _Tagged:
    """A part of the line told apart by the word before it."""

    def __init__(self, word: str, value: object) -> None:
        self.word = word
        self.value = value


def _refuse_d6(text: str, loc: int, tokens: pp.ParseResults) -> None:
    """``sr 8d6`` would roll 8d6 to size the pool: the pool is a number of dice."""
    if _D6_TYPED.match(str(tokens[0])):
        where = len(text) - len(text[loc:].lstrip())
        raise parse_failure(text, where, "the pool is a number of dice: sr 8, not 8d6")


def _action(tokens: pp.ParseResults) -> PoolTest:
    parts = list(tokens)
    pool = parts.pop(0)
    tagged = {p.word: p.value for p in parts if isinstance(p, _Tagged)}
    edge = any(p == "edge" for p in parts if isinstance(p, str))
    return PoolTest(pool, tagged.get("vs"), tagged.get("limit"), edge)  # type: ignore[arg-type]


@cache
def line_grammar() -> pp.ParserElement:
    """A whole ``sr`` line."""
    words = keyword("edge", "limit", "vs")

    def part(name: str) -> pp.ParserElement:
        element = pp.Group(~words + expression).set_name(name)
        element.add_parse_action(lambda tokens: tokens[0][0])
        return element

    pool = part("a dice pool (8, Agility+Firearms)").add_parse_action(_refuse_d6)
    edge = pp.CaselessKeyword("edge").set_parse_action(lambda: "edge")
    limit = pp.Suppress(keyword("limit")) - part("a limit (4)")
    limit.add_parse_action(lambda tokens: _Tagged("limit", tokens[0]))
    threshold = pp.Suppress(keyword("vs")) - part("a threshold (3)")
    threshold.add_parse_action(lambda tokens: _Tagged("vs", tokens[0]))
    form = (
        pp.Suppress(keyword(*KEYWORDS) | pp.Regex(r"(?i)sr(?=\d)"))
        - pool
        + pp.ZeroOrMore(edge | limit)
        + pp.Opt(threshold)
        + pp.ZeroOrMore(edge)
    )
    form.set_parse_action(_action)
    return whole_line(form)
