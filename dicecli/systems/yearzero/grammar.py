"""The grammar of a ``yz`` line (pyparsing), building
:mod:`dicecli.systems.yearzero.checks`.

::

    line  = ( keyword ( base [ skill [ gear ] ] | named { named } ) | counted )
            [ "push" | "pushed" ]
    named = ( "base" | "skill" | "gear" ) expression      (yz base 3 skill 2 gear 1)
    counted = digits "yz"                                 (6yz: yz 6)

Unnamed, the numbers are base, skill and gear dice in that order (``yz 3 2 1``). A named
line must name its base dice, and each kind once. ``counted`` is Dice Maiden's
spelling, a count of 6s: ``6yz`` is ``yz 6``, six base dice (an assumption: its dice
are of no kind, and the attribute's base dice are the plain pool).

Rule numbers (Y1, Y2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import re
from functools import cache

import pyparsing as pp

from dicecli.game import expression, keyword, parse_failure, whole_line
from dicecli.systems.yearzero.checks import YearZeroRoll
from dicecli.systems.yearzero.settings import KEYWORDS, KINDS

_D6_TYPED = re.compile(r"\d*d6(?!\d)", re.IGNORECASE)


def _refuse_d6(text: str, loc: int, tokens: pp.ParseResults) -> None:
    """``yz 3d6`` would roll 3d6 to count the dice: each kind is a number of dice."""
    if _D6_TYPED.match(str(tokens[0])):
        where = len(text) - len(text[loc:].lstrip())
        raise parse_failure(text, where, "each kind is a number of dice: yz 3 2 1, not 3d6")


class _Named:
    def __init__(self, kind: str, expr: object, loc: int) -> None:
        self.kind = kind
        self.expr = expr
        self.loc = loc


def _action(text: str, loc: int, tokens: pp.ParseResults) -> YearZeroRoll:
    parts = list(tokens)
    push = bool(parts) and parts[-1] == "push"
    if push:
        parts.pop()
    named = [p for p in parts if isinstance(p, _Named)]
    if not named:
        values = dict(zip(KINDS, parts, strict=False))
    else:
        values = {}
        for part in named:
            if part.kind in values:
                raise parse_failure(text, part.loc, f"{part.kind} dice are named twice")
            values[part.kind] = part.expr
        if "base" not in values:
            raise parse_failure(text, loc, "name the base dice: yz base 3 skill 2")
    return YearZeroRoll(values["base"], values.get("skill"), values.get("gear"), push)


@cache
def line_grammar() -> pp.ParserElement:
    """A whole ``yz`` line."""
    words = keyword(*KINDS, "push", "pushed")

    def part(name: str) -> pp.ParserElement:
        element = pp.Group(~words + expression).set_name(name)
        element.add_parse_action(lambda tokens: tokens[0][0])
        element.add_parse_action(_refuse_d6)
        return element

    named = keyword(*KINDS) - part("a number of dice (3)")
    named.set_parse_action(
        lambda s, loc, t: _Named(str(t[0]).lower(), t[1], len(s) - len(s[loc:].lstrip()))
    )
    plain = part("base dice (3)") + pp.Opt(part("skill dice") + pp.Opt(part("gear dice")))
    push = keyword("push", "pushed").set_parse_action(lambda: "push")
    counted = pp.Regex(r"(?i)(?P<count>\d+)(?:yze|yz)(?![\w-])").set_name("dice such as 6yz")
    counted.set_parse_action(lambda t: [expression.parse_string(t["count"], parse_all=True)[0]])
    start = (pp.Suppress(keyword(*KEYWORDS)) - (pp.OneOrMore(named) | plain) | counted).set_name(
        "yz and its dice (yz 3 2 1), or Dice Maiden's 6yz"
    )
    form = start + pp.Opt(push)
    form.set_parse_action(_action)
    return whole_line(form)
