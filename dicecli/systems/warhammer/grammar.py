"""The grammar of a Warhammer line (``wfb ...``), built once on first use.

::

    line      = ("wfb" | "whfb" | "warhammer") form [comment]
    form      = "scatter" [expression]
              | "test" values
              | ("ld" | "leadership") values
              | "break" values ["lost"] "by" expression
              | ("rolloff" | "roll-off") contenders
              | "allocate" [number "among"] contenders
              | expression                  (may use the word "artillery")
    values    = expression {"," expression}
    contenders = number | name {[","] name}

The words after ``wfb`` are reserved: ``wfb test`` is always the test form. A keyword
is followed by ``-`` (no backtracking), so an error points at what follows it.
"""

from __future__ import annotations

from functools import cache
from typing import cast

import pyparsing as pp

from dicecli.notation import grammar
from dicecli.notation.nodes import Expr
from dicecli.systems.warhammer.nodes import (
    Allocate,
    BreakTest,
    CharacteristicTest,
    Contenders,
    LeadershipTest,
    RollOff,
    ScatterRoll,
    WarhammerRoll,
)
from dicecli.systems.warhammer.settings import KEYWORDS

MAX_PLAYERS = 100
"""Most players in a numbered roll-off: more is surely a typo."""
MAX_CANDIDATES = 10_000
"""Most candidates of an allocation."""


MAX_ITEMS = 1_000
"""Most items one allocation hands out."""


def _items(text: str, loc: int, tokens: pp.ParseResults) -> int:
    """The number of items of ``allocate N among ...``: 1 to :data:`MAX_ITEMS`."""
    count = int(tokens[0])
    if not 1 <= count <= MAX_ITEMS:
        raise pp.ParseFatalException(text, loc, f"1 to {MAX_ITEMS} items, please")
    return count


def _values() -> pp.ParserElement:
    values = pp.DelimitedList(grammar.expression).set_name("a value such as 4")
    values.set_parse_action(lambda t: pp.ParseResults([tuple(t)]))
    return values


def _contenders(what: str, least: int, most: int) -> pp.ParserElement:
    """A count (``3``) or names (``Alice Bob``), refusing counts out of range and
    repeated names."""
    name = pp.Regex(r"[^\W\d][\w'\-]*").set_name(f"a {what} name")
    count = grammar.integer.copy().set_name(f"a number of {what}s")
    names = pp.Group(name + pp.ZeroOrMore(pp.Optional(pp.Suppress(",")) + name))
    element = (count | names).set_name(f"a number of {what}s or their names")

    def build(text: str, loc: int, tokens: pp.ParseResults) -> Contenders:
        loc += len(text[loc:]) - len(text[loc:].lstrip())  # point at the word, not the space
        found = tokens[0]
        if isinstance(found, int):
            if not least <= found <= most:
                raise pp.ParseFatalException(text, loc, f"{least} to {most} {what}s, please")
            return Contenders(found)
        typed = tuple(cast(list[str], found.as_list()))
        if len(typed) < least:
            raise pp.ParseFatalException(
                text, loc, f"name at least {least} {what}s, or give their number"
            )
        folded = [n.casefold() for n in typed]
        repeated = [n for i, n in enumerate(typed) if folded.index(n.casefold()) != i]
        if repeated:
            raise pp.ParseFatalException(text, loc, f"{what} '{repeated[0]}' is named twice")
        return Contenders.named(typed)

    element.set_parse_action(build)
    return element


def _forms() -> pp.ParserElement:
    kw = grammar.keyword
    expression = grammar.expression
    scatter = kw("scatter") - pp.Optional(expression)
    scatter.set_parse_action(lambda t: ScatterRoll(t[1] if len(t) > 1 else None))
    test = kw("test") - _values()
    test.set_parse_action(lambda t: CharacteristicTest(t[1]))
    leadership = kw("ld", "leadership") - _values()
    leadership.set_parse_action(lambda t: LeadershipTest(t[1]))
    lost_by = pp.Suppress(pp.Regex(r"(?i)(?:lost\s+)?by\b").set_name("'lost by'"))
    breaks = kw("break") - _values() - lost_by - expression
    breaks.set_parse_action(lambda t: BreakTest(t[1], cast(Expr, t[2])))
    rolloff = kw("rolloff", "roll-off") - _contenders("player", 2, MAX_PLAYERS)
    rolloff.set_parse_action(lambda t: RollOff(t[1]))
    items = grammar.integer.copy().set_name("a number of items") + pp.Suppress(kw("among"))
    items.set_parse_action(_items)
    allocate = kw("allocate") - pp.Optional(items) - _contenders("candidate", 1, MAX_CANDIDATES)
    allocate.set_parse_action(lambda t: Allocate(t[-1], t[1] if len(t) > 2 else 1))
    plain = pp.And([expression]).set_name("an expression")
    plain.set_parse_action(lambda t: WarhammerRoll(cast(Expr, t[0])))
    forms = scatter | test | leadership | breaks | rolloff | allocate | plain
    return forms.set_name(
        "scatter, test, ld, break, rolloff, allocate or an expression such as artillery + 2"
    )


@cache
def line_grammar() -> pp.ParserElement:
    """The whole line: a Warhammer keyword, one form, an optional comment."""
    opening = pp.Suppress(grammar.keyword(*KEYWORDS))
    return grammar.whole_line(opening - _forms())
