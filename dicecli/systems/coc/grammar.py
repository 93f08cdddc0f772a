"""The grammar of a ``coc`` line (pyparsing), building :mod:`dicecli.systems.coc.checks`.

::

    line   = roll [ "vs" roll ]
    roll   = keyword skill { extra } [ difficulty ] { extra }
    extra  = [ [ "+" ] count ] ( "bonus" | "penalty" ) [ "dice" | "die" ]
    difficulty = "regular" | "hard" | "extreme"

The skill is any expression (``45``, ``Spot``, ``Spot+10``). Words are
case-insensitive. The sides of an opposed roll name no difficulty (rule C5).

``+1 bonus`` is one bonus die, as other games' lines write it (``coc 45 +1 bonus``, also
``45+2 penalty``): the skill's expression would otherwise take the ``+1`` as its own,
so a skill that ends in ``+ N`` right before a bonus or penalty word with no count of
its own gives that ``N`` to the dice (rule C4), for N of 1 or 2; a larger N
(``Spot+10 bonus``) is refused, with the skill's spelling and the dice's.

Rule numbers (C1, C3 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING, cast

import pyparsing as pp

from dicecli.game import expression, integer, keyword, parse_failure, whole_line
from dicecli.systems.coc.checks import OpposedRoll, SkillRoll
from dicecli.systems.coc.rules import MOST_EXTRA_DICE
from dicecli.systems.coc.settings import DIFFICULTIES, KEYWORDS

if TYPE_CHECKING:
    from dicecli.game import Expr


class _Extra:
    """``2 bonus`` as read, and whether it was written with its count."""

    def __init__(self, count: int, word: str, counted: bool) -> None:
        self.count = count
        self.word = word
        self.counted = counted


class _Skill:
    """A skill as read, with where its text ends."""

    def __init__(self, expr: Expr, start: int, end: int) -> None:
        self.expr = expr
        self.start = start
        self.end = end


_SIGNED_COUNT = re.compile(r"\+\s*(?P<count>\d+)\s*$")
"""The ``+1`` that ends a skill's text right before ``bonus`` or ``penalty``."""

MOST_SIGNED_DICE = 2
"""The most bonus or penalty dice a ``+ N`` before the word gives (``+1 bonus``, ``45+2
penalty``): past it, ``Spot+10 bonus`` is more likely a skill of Spot+10 than ten bonus
dice, and the line is refused with both spellings (rule C4)."""


def _count_in_range(text: str, loc: int, count: int) -> None:
    if not 1 <= count <= MOST_EXTRA_DICE:
        raise parse_failure(
            text,
            len(text) - len(text[loc:].lstrip()),
            f"a roll takes 1 to {MOST_EXTRA_DICE} bonus or penalty dice",
        )


def _extra_action(text: str, loc: int, tokens: pp.ParseResults) -> _Extra:
    count = cast(int, tokens[0]) if len(tokens) == 2 else 1
    _count_in_range(text, loc, count)
    return _Extra(count, str(tokens[-1]).lower(), len(tokens) == 2)


def _signed_count(
    text: str, skill: _Skill, extras: list[_Extra], right_after: bool, again: pp.ParserElement
) -> Expr:
    """The skill, giving a ``+ N`` it ends with to a first bonus or penalty word that
    has no count and comes ``right_after`` it (``coc 45 +1 bonus``: skill 45, one bonus
    die; rule C4); with a difficulty between them (``coc 45+2 hard bonus``) the ``+ 2``
    is the skill's."""
    written = text[skill.start : skill.end]
    found = _SIGNED_COUNT.search(written)
    if found is None or not extras or extras[0].counted or not right_after:
        return skill.expr
    head = written[: found.start()]
    if not head.strip():
        return skill.expr
    try:
        shorter = again.parse_string(head, parse_all=True)[0]
    except pp.ParseBaseException:
        return skill.expr
    count = int(found["count"])
    if not 1 <= count <= MOST_SIGNED_DICE:
        word, written_skill = extras[0].word, head.strip()
        dice = (
            f"{count} {word} dice are {written_skill} {count} {word}"
            if 1 <= count <= MOST_EXTRA_DICE
            else f"a roll takes 1 to {MOST_EXTRA_DICE} {word} dice"
        )
        raise parse_failure(
            text,
            skill.start + found.start(),
            f"+{count} {word}: a skill of {written_skill}+{count} with one {word} die is "
            f"({written_skill}+{count}) {word}; {dice}",
        )
    extras[0].count = count
    return cast("Expr", shorter)


def _roll_action(
    text: str, tokens: pp.ParseResults, loc: int, again: pp.ParserElement
) -> SkillRoll:
    parts = list(tokens)
    extras = [part for part in parts if isinstance(part, _Extra)]
    right_after = len(parts) > 1 and isinstance(parts[1], _Extra)  # no difficulty between
    skill = _signed_count(text, cast(_Skill, parts.pop(0)), extras, right_after, again)
    difficulty = next((str(p).lower() for p in parts if not isinstance(p, _Extra)), None)
    bonus = sum(e.count for e in extras if e.word == "bonus")
    penalty = sum(e.count for e in extras if e.word == "penalty")
    if max(bonus, penalty) > MOST_EXTRA_DICE:
        raise parse_failure(
            text, loc, f"a roll takes at most {MOST_EXTRA_DICE} bonus or penalty dice"
        )
    return SkillRoll(skill, bonus, penalty, difficulty)


def _line_action(text: str, loc: int, tokens: pp.ParseResults) -> SkillRoll | OpposedRoll:
    if len(tokens) == 1:
        return cast(SkillRoll, tokens[0])
    first, second = cast(SkillRoll, tokens[0]), cast(SkillRoll, tokens[1])
    if first.difficulty is not None or second.difficulty is not None:
        where = text.casefold().find(" vs ", loc)
        raise parse_failure(
            text, max(where + 1, loc), "an opposed roll names no difficulty: levels decide it"
        )
    return OpposedRoll((first, second))


@cache
def line_grammar() -> pp.ParserElement:
    """A whole ``coc`` line."""
    words = keyword("bonus", "penalty", *DIFFICULTIES, "vs")
    plain_skill = pp.Group(~words + expression).set_name("a skill (45, Spot)")
    plain_skill.add_parse_action(lambda tokens: tokens[0][0])
    skill = pp.Located(plain_skill).set_name("a skill (45, Spot)")
    skill.add_parse_action(lambda t: _Skill(t["value"][0], t["locn_start"], t["locn_end"]))
    extra = (
        pp.Opt(integer + pp.FollowedBy(keyword("bonus", "penalty")))
        + keyword("bonus", "penalty")
        + pp.Opt(pp.Suppress(keyword("dice", "die")))
    )
    extra.set_parse_action(_extra_action)
    difficulty = keyword(*DIFFICULTIES)
    # the difficulty before or after the dice: coc 45 bonus hard, coc 45 hard bonus
    roll = (
        pp.Suppress(keyword(*KEYWORDS))
        - skill
        + pp.ZeroOrMore(extra)
        + pp.Opt(difficulty)
        + pp.ZeroOrMore(extra)
    )
    roll.set_parse_action(lambda s, loc, t: _roll_action(s, t, loc, plain_skill))
    line = roll + pp.Opt(pp.Suppress(keyword("vs")) - roll)
    line.set_parse_action(_line_action)
    return whole_line(line)
