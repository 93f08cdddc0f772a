"""The grammar of an ``ex`` line (pyparsing), building
:mod:`dicecli.systems.exalted.checks`.

::

    line = keyword pool [ "vs" difficulty ]        (ex 6, ex Dex+Melee vs 3)

Rule numbers (X1, X2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import re
from functools import cache

import pyparsing as pp

from dicecli.game import expression, keyword, parse_failure, whole_line
from dicecli.systems.exalted.checks import ExaltedRoll
from dicecli.systems.exalted.settings import KEYWORDS

_D10_TYPED = re.compile(r"\d*d10(?!\d)", re.IGNORECASE)


def _refuse_d10(text: str, loc: int, tokens: pp.ParseResults) -> None:
    """``ex 6d10`` would roll 6d10 to size the pool: the pool is a number of dice."""
    if _D10_TYPED.match(str(tokens[0])):
        where = len(text) - len(text[loc:].lstrip())
        raise parse_failure(text, where, "the pool is a number of dice: ex 6, not 6d10")


@cache
def line_grammar() -> pp.ParserElement:
    """A whole ``ex`` line."""

    def part(name: str) -> pp.ParserElement:
        element = pp.Group(~keyword("vs") + expression).set_name(name)
        element.add_parse_action(lambda tokens: tokens[0][0])
        return element

    pool = part("a dice pool (6, Dex+Melee)").add_parse_action(_refuse_d10)
    difficulty = pp.Suppress(keyword("vs")) - part("a difficulty (3)")
    form = pp.Suppress(keyword(*KEYWORDS) | pp.Regex(r"(?i)ex(?=\d)")) - pool + pp.Opt(difficulty)
    form.set_parse_action(lambda tokens: ExaltedRoll(*tokens))
    return whole_line(form)
