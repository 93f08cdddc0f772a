"""The grammar of an ``age`` line (pyparsing), building :mod:`dicecli.systems.age.nodes` nodes.

::

    line     = "age" test [ "vs" ( target [ "until" threshold ] | opposed ) ]
    opposed  = side { "vs" side }
    side     = "age" test | NAME ":" test       (a named side needs no "age")
    test     = [ NAME ":" ] ability-or-number { modifier }
    test     = ( ability | signed-number ) { ("+" | "-") ( number | "focus" ) }
    target   = number | routine | easy | average | challenging | hard | formidable
             | imposing | nigh-impossible | "nigh impossible"
    threshold = number | easy | average | challenging | hard | formidable

Words are case-insensitive. A second ``+focus`` is refused (rule G1: only one focus
counts), so is ``-focus``, an ``until`` without a target number, and an opposed test
with more than :data:`MAX_SIDES` sides.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import re
from functools import cache
from typing import cast

import pyparsing as pp

from dicecli.frozen import frozen
from dicecli.notation.grammar import integer, keyword, whole_line
from dicecli.systems.age.nodes import AgeAdvanced, AgeOpposed, AgeRoll, AgeTest, Target
from dicecli.systems.age.rules import ABILITIES, DIFFICULTIES, THRESHOLDS
from dicecli.systems.age.settings import KEYWORDS

MAX_SIDES = 12
"""Most sides one opposed test may have: a crowded table, still one readable line."""

_SPELLING_TO_ABILITY: dict[str, str] = {}
for _abbreviation, _names in ABILITIES.items():
    _SPELLING_TO_ABILITY[_abbreviation.casefold()] = _abbreviation
    for _name in _names:
        _SPELLING_TO_ABILITY[_name.casefold()] = _abbreviation


def _word_regex(words: list[str]) -> str:
    """Any of ``words`` (longest first), case-insensitive, not the start of a longer
    word."""
    ordered = sorted(words, key=len, reverse=True)
    return r"(?i)(?:" + "|".join(ordered) + r")(?!\w)"


def _fail(text: str, loc: int, message: str) -> pp.ParseFatalException:
    return pp.ParseFatalException(text, loc, message)


@frozen
class _Focus:
    """A ``+focus`` as parsed, with where it was typed (for the error on a second one)."""

    loc: int
    negative: bool


@frozen
class _Until:
    """The threshold after ``until``, told apart from the target number."""

    threshold: Target


def _term_action(text: str, loc: int, tokens: pp.ParseResults) -> int | _Focus:
    negative = tokens[0] != "+"
    amount = tokens[1]
    if isinstance(amount, int):
        return -amount if negative else amount
    return _Focus(loc, negative)


class _Name(str):
    """A side's name before its test (``Ayla:``)."""


def _test_action(text: str, loc: int, tokens: pp.ParseResults) -> AgeTest:
    parts = list(tokens)
    name = str(parts.pop(0)) if isinstance(parts[0], _Name) else None
    head = parts[0]
    modifiers: list[int] = []
    focus: _Focus | None = None
    for token in parts[1:]:
        if isinstance(token, int):
            modifiers.append(token)
            continue
        token = cast(_Focus, token)
        if token.negative:
            raise _fail(text, token.loc, "a focus adds +2: write +focus")
        if focus is not None:
            raise _fail(text, token.loc, "a second +focus: only one focus counts (rule G1)")
        focus = token
    if isinstance(head, int):
        return AgeTest(None, head, tuple(modifiers), focus is not None, name)
    return AgeTest(cast(str, head), 0, tuple(modifiers), focus is not None, name)


def _test() -> pp.ParserElement:
    """One test: an ability (or a number) and its modifiers, ``+focus`` among them."""
    ability = pp.Regex(_word_regex(sorted(_SPELLING_TO_ABILITY))).set_name(
        "an ability (" + ", ".join(ABILITIES) + ") or a number"
    )
    ability.set_parse_action(lambda t: _SPELLING_TO_ABILITY[t[0].casefold()])
    signed_number = pp.Regex("[-\N{MINUS SIGN}]?\\d+").set_name("a number")
    signed_number.set_parse_action(lambda t: int(t[0].replace("\N{MINUS SIGN}", "-")))
    sign = pp.Regex("[-+\N{MINUS SIGN}]").set_name("'+' or '-'")
    amount = (keyword("focus") | integer).set_name("a number or 'focus'")
    term = sign - amount
    term.set_parse_action(_term_action)
    ability_or_number = (ability | signed_number).set_name(ability.name)
    name = pp.Regex(r"[^\W\d][\w'\-]*(?=\s*:)").set_name("a side's name")
    name.set_parse_action(lambda t: _Name(t[0]))
    named = pp.Optional(name + pp.Suppress(":"))
    test = (named + ability_or_number + pp.ZeroOrMore(term)).set_name(ability.name)
    return test.set_parse_action(_test_action)


def _named(table: dict[str, int], text: str, loc: int, tokens: pp.ParseResults) -> Target:
    name = re.sub(r"[-\s]+", "-", tokens[0].casefold())
    return Target(table[name], name)


def _named_regex(table: dict[str, int]) -> str:
    return _word_regex([name.replace("-", r"[-\s]+") for name in table])


def _target() -> pp.ParserElement:
    """A target number, or a named difficulty (rule G3)."""
    named = pp.Regex(_named_regex(DIFFICULTIES)).set_name("a difficulty")
    named.set_parse_action(lambda s, loc, t: _named(DIFFICULTIES, s, loc, t))
    number = integer.copy().set_parse_action(lambda t: Target(int(t[0])))
    names = ", ".join(DIFFICULTIES)
    return (named | number).set_name(f"a target number or a difficulty ({names})")


def _threshold_number(text: str, loc: int, tokens: pp.ParseResults) -> Target:
    value = int(tokens[0])
    if value < 1:
        raise _fail(text, loc, "an advanced test needs a threshold of at least 1")
    return Target(value)


def _threshold() -> pp.ParserElement:
    """The threshold of an advanced test: a number or a named one (rule G7)."""
    named = pp.Regex(_named_regex(THRESHOLDS)).set_name("a threshold")
    named.set_parse_action(lambda s, loc, t: _named(THRESHOLDS, s, loc, t))
    number = integer.copy()
    number.set_parse_action(_threshold_number)
    threshold = (named | number).set_name(
        "a threshold (a number, or " + ", ".join(THRESHOLDS) + ")"
    )
    return threshold.add_parse_action(lambda t: _Until(t[0]))


def _misplaced_until(message: str) -> pp.ParserElement:
    """An ``until`` where none may stand, refused with ``message``."""
    element = keyword("until")

    def refuse(text: str, loc: int, tokens: pp.ParseResults) -> None:
        raise _fail(text, loc, message)

    return element.set_parse_action(refuse)


def _body_action(
    text: str, loc: int, tokens: pp.ParseResults
) -> AgeRoll | AgeOpposed | AgeAdvanced:
    parts = list(tokens)
    tests = [part for part in parts if isinstance(part, AgeTest)]
    if len(tests) > 1:
        if len(tests) > MAX_SIDES:
            raise _fail(text, loc, f"an opposed test may have at most {MAX_SIDES} sides")
        return AgeOpposed(tuple(tests))
    targets = [part for part in parts if isinstance(part, Target)]
    untils = [part for part in parts if isinstance(part, _Until)]
    if untils:
        return AgeAdvanced(tests[0], targets[0], untils[0].threshold)
    return AgeRoll(tests[0], targets[0] if targets else None)


def _forms() -> pp.ParserElement:
    """A basic, opposed or advanced test, after the keyword."""
    age, vs, until = keyword(*KEYWORDS), keyword("vs"), keyword("until")
    test = _test()
    against_target = _target() + pp.Optional(until - _threshold())
    # A named side needs no second keyword: `age Ayla: DEX+1 vs Orc: DEX+2`.
    named_side = pp.FollowedBy(pp.Regex(r"[^\W\d][\w'\-]*\s*:")) + test
    side = ((age.suppress() - test) | named_side).set_name("'age'")
    opposed_tail = (
        side
        + pp.ZeroOrMore(vs.suppress() - side)
        + pp.Optional(
            _misplaced_until("an advanced test rolls against a target number, not an opposed test")
        )
    )
    body = (
        age.suppress()
        - test
        + pp.Optional(
            vs.suppress()
            - (opposed_tail | against_target).set_name(
                "a target number, a difficulty or 'age' (an opposed test)"
            )
            | _misplaced_until("an advanced test needs a target: age 3 vs 13 until 15")
        )
    )
    return body.set_parse_action(_body_action)


@cache
def line_grammar() -> pp.ParserElement:
    """The whole line: ``age``, one form, an optional comment, built once."""
    return whole_line(_forms())


"""A whole ``age`` line, with an optional ``# comment``."""
