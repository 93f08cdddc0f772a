"""The grammar of a ``cod`` line (pyparsing), building :mod:`dicecli.systems.cod.checks`.

::

    line  = ( keyword pool | counted ) { again | "rote" }
    pool  = expression                       (5, Dex+Stealth; 0 or less: a chance die)
    again = "10-again" | "9-again" | "8-again" | "no-again"   (the hyphen optional)
    counted = digits "cod" [ "10" | "9" | "8" ] [ "r" ]      (4cod, 4cod8, 4codr)

A line names one re-roll quality at most (rule K2). ``counted`` is Dice Maiden's
spelling: ``4cod`` is ``cod 4``, ``4cod8`` ``cod 4 8-again``, ``4codr`` ``cod 4 rote``.

Rule numbers (K1, K2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import re
from functools import cache

import pyparsing as pp

from dicecli.game import expression, keyword, parse_failure, whole_line
from dicecli.systems.cod.checks import PoolRoll
from dicecli.systems.cod.settings import KEYWORDS

_D10_TYPED = re.compile(r"\d*d10(?!\d)", re.IGNORECASE)


def _refuse_d10(text: str, loc: int, tokens: pp.ParseResults) -> None:
    """``cod 5d10`` would roll 5d10 to size the pool: the pool is a number of dice."""
    if _D10_TYPED.match(str(tokens[0])):
        where = len(text) - len(text[loc:].lstrip())
        raise parse_failure(text, where, "the pool is a number of dice: cod 5, not 5d10")


class _Word(str):
    """A quality word as read: ``9-again``, ``rote``."""


def _action(text: str, loc: int, tokens: pp.ParseResults) -> PoolRoll:
    parts = list(tokens)
    pool = parts.pop(0)
    agains = [str(p) for p in parts if p != "rote"]
    if len(set(agains)) > 1:
        where = text.casefold().find(agains[1].replace("-", ""), loc)
        raise parse_failure(text, max(where, loc), "a roll has one re-roll quality (rule K2)")
    return PoolRoll(pool, agains[0] if agains else "10-again", "rote" in parts)


def _again(tokens: pp.ParseResults) -> _Word:
    word = str(tokens[0]).lower().replace("-", "")
    return _Word(word.replace("again", "-again"))


def _counted(tokens: pp.ParseResults) -> list[object]:
    """``4cod8r``, as Dice Maiden writes it: the pool, then its quality and rote."""
    found: list[object] = [expression.parse_string(tokens["pool"], parse_all=True)[0]]
    if tokens["again"]:
        found.append(_Word(f"{tokens['again']}-again"))
    if tokens["rote"]:
        found.append(_Word("rote"))
    return found


@cache
def line_grammar() -> pp.ParserElement:
    """A whole ``cod`` line."""
    again = pp.Regex(r"(?i)(?:10|9|8|no)-?again(?![\w-])").set_name("a re-roll quality")
    again.set_parse_action(_again)
    rote = pp.CaselessKeyword("rote").set_parse_action(lambda: _Word("rote"))
    pool = pp.Group(~again + expression).set_name("a dice pool (5, Dex+Stealth)")
    pool.add_parse_action(lambda tokens: tokens[0][0])
    pool.add_parse_action(_refuse_d10)
    counted = pp.Regex(r"(?i)(?P<pool>\d+)cod(?P<again>10|9|8)?(?P<rote>r)?(?![\w-])").set_name(
        "a pool such as 4cod"
    )
    counted.set_parse_action(_counted)
    start = (pp.Suppress(keyword(*KEYWORDS)) - pool | counted).set_name(
        "cod and a pool (cod 5), or Dice Maiden's 4cod"
    )
    form = start + pp.ZeroOrMore(again | rote)
    form.set_parse_action(_action)
    return whole_line(form)
