"""The grammar of a ``fate`` line (pyparsing), building :mod:`dicecli.systems.fate.checks`.

::

    line  = keyword [ part ] [ "vs" part ]
    part  = rung | [ "+" ] expression          (Good, +2, -1, Fight+1)
    rung  = "Legendary" | "Epic" | ... | "Terrible"

Rule numbers (F1, F2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import re
from functools import cache

import pyparsing as pp

from dicecli.game import expression, keyword, parse_failure, whole_line
from dicecli.systems.fate.checks import FateRoll, Rung
from dicecli.systems.fate.rules import LADDER, RUNG
from dicecli.systems.fate.settings import KEYWORDS


class _Against:
    """The part after ``vs``, told apart from the skill."""

    def __init__(self, part: object) -> None:
        self.part = part


_FATE_DICE_TYPED = re.compile(r"\d*dF(?![\w.])", re.IGNORECASE)


def _refuse_fate_dice(text: str, loc: int, tokens: pp.ParseResults) -> None:
    """``fate 4dF+2`` would roll eight Fate dice: the four are rolled for the player."""
    if _FATE_DICE_TYPED.match(str(tokens[0])):
        where = len(text) - len(text[loc:].lstrip())
        raise parse_failure(text, where, "the four Fate dice are rolled for you: write the skill")


def _part(name: str) -> pp.ParserElement:
    rung = keyword(*LADDER.values()).copy()
    rung.set_parse_action(lambda tokens: Rung(RUNG[str(tokens[0]).casefold()]))
    body = pp.Group(~keyword("vs") + expression).set_name(name)
    body.add_parse_action(lambda tokens: tokens[0][0])
    body.add_parse_action(_refuse_fate_dice)
    return (rung | (pp.Suppress("+") - body) | body).set_name(name)


def _action(tokens: pp.ParseResults) -> FateRoll:
    parts = list(tokens)
    against = next((p.part for p in parts if isinstance(p, _Against)), None)
    skills = [p for p in parts if not isinstance(p, _Against)]
    return FateRoll(skills[0] if skills else None, against)  # type: ignore[arg-type]


@cache
def line_grammar() -> pp.ParserElement:
    """A whole ``fate`` line."""
    difficulty = _part("a difficulty (2, Good)").add_parse_action(lambda t: _Against(t[0]))
    form = (
        pp.Suppress(keyword(*KEYWORDS))
        - pp.Opt(_part("a skill (+2, Good)"))
        + pp.Opt(pp.Suppress(keyword("vs")) - difficulty)
    )
    form.set_parse_action(_action)
    return whole_line(form)
