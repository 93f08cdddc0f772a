"""The grammar of a ``coc`` line (pyparsing), building :mod:`dicecli.systems.coc.checks`.

::

    line   = roll [ "vs" roll ]
    roll   = keyword skill { extra } [ difficulty ]
    extra  = [ count ] ( "bonus" | "penalty" ) [ "dice" | "die" ]
    difficulty = "regular" | "hard" | "extreme"

The skill is any expression (``45``, ``Spot``, ``Spot+10``). Words are
case-insensitive. The sides of an opposed roll name no difficulty (rule C5).

Rule numbers (C1, C3 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from functools import cache
from typing import cast

import pyparsing as pp

from dicecli.game import expression, integer, keyword, parse_failure, whole_line
from dicecli.systems.coc.checks import OpposedRoll, SkillRoll
from dicecli.systems.coc.rules import MOST_EXTRA_DICE
from dicecli.systems.coc.settings import DIFFICULTIES, KEYWORDS


class _Extra:
    """``2 bonus`` as read."""

    def __init__(self, count: int, word: str) -> None:
        self.count = count
        self.word = word


def _extra_action(text: str, loc: int, tokens: pp.ParseResults) -> _Extra:
    count = cast(int, tokens[0]) if len(tokens) == 2 else 1
    if not 1 <= count <= MOST_EXTRA_DICE:
        raise parse_failure(
            text,
            len(text) - len(text[loc:].lstrip()),
            f"a roll takes 1 to {MOST_EXTRA_DICE} bonus or penalty dice",
        )
    return _Extra(count, str(tokens[-1]).lower())


def _roll_action(text: str, loc: int, tokens: pp.ParseResults) -> SkillRoll:
    parts = list(tokens)
    skill = parts.pop(0)
    extras = [part for part in parts if isinstance(part, _Extra)]
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
    skill = pp.Group(~words + expression).set_name("a skill (45, Spot)")
    skill.add_parse_action(lambda tokens: tokens[0][0])
    extra = (
        pp.Opt(integer + pp.FollowedBy(keyword("bonus", "penalty")))
        + keyword("bonus", "penalty")
        + pp.Opt(pp.Suppress(keyword("dice", "die")))
    )
    extra.set_parse_action(_extra_action)
    difficulty = keyword(*DIFFICULTIES)
    roll = pp.Suppress(keyword(*KEYWORDS)) - skill + pp.ZeroOrMore(extra) + pp.Opt(difficulty)
    roll.set_parse_action(_roll_action)
    line = roll + pp.Opt(pp.Suppress(keyword("vs")) - roll)
    line.set_parse_action(_line_action)
    return whole_line(line)
