"""The grammar of a ``blades`` line (pyparsing), building
:mod:`dicecli.systems.blades.checks`.

::

    line = keyword [ "resist" | "resistance" ] pool
    keyword = "blades" | "bitd" | "fitd" | "fitd" joined to a number (fitd2)
    pool = expression                           (2, Prowl+1, 0)

Rule numbers (B1, B2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import re
from functools import cache

import pyparsing as pp

from dicecli.game import expression, keyword, parse_failure, whole_line
from dicecli.systems.blades.checks import BladesRoll
from dicecli.systems.blades.settings import KEYWORDS

_D6_TYPED = re.compile(r"\d*d6(?!\d)", re.IGNORECASE)


def _refuse_d6(text: str, loc: int, tokens: pp.ParseResults) -> None:
    """``blades 3d6`` would roll 3d6 to size the pool: the pool is a number of dice."""
    if _D6_TYPED.match(str(tokens[0])):
        where = len(text) - len(text[loc:].lstrip())
        raise parse_failure(text, where, "the pool is a number of dice: blades 3, not 3d6")


@cache
def line_grammar() -> pp.ParserElement:
    """A whole ``blades`` line."""
    resist = pp.Opt(keyword("resist", "resistance"))
    pool = pp.Group(expression).set_name("a dice pool (2, Prowl+1)")
    pool.add_parse_action(lambda tokens: tokens[0][0])
    pool.add_parse_action(_refuse_d6)
    joined = pp.Regex(r"(?i)fitd(?=\d)")  # Dice Maiden's fitd2
    form = pp.Suppress(keyword(*KEYWORDS) | joined) - resist + pool
    form.set_parse_action(lambda tokens: BladesRoll(tokens[-1], len(tokens) == 2))
    return whole_line(form)
