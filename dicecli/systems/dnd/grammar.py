"""The grammar of a ``dnd`` line (pyparsing), building :mod:`dicecli.systems.dnd.checks`.

::

    line    = keyword [ kind ] { edge } [ modifier ] { edge } [ "vs" target ] { edge }
            | keyword "damage" dice { "+" dice } [ modifier ] [ "crit" ]
            | keyword "stats"
    kind    = "attack" | "check" | "save" | "death"          (none: a check)
    edge    = "adv" | "advantage" | "dis" | "disadvantage"
    modifier = "+" expression | expression                   (+5, -1, +STR+2, +d4)
                                              (unsigned, it starts with no letter)
    target  = [ "AC" | "DC" ] expression                     (vs 15, vs AC 15, vs DC15)

Words are case-insensitive. A modifier that starts with the d20 is refused: the d20 is
rolled for the player (rules D1, D2). A death saving throw takes no target (its DC is
10, rule D6).

Rule numbers (D1, D3 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

import pyparsing as pp

from dicecli.game import expression, keyword, parse_failure, whole_line
from dicecli.systems.dnd.checks import D20Roll, DamageRoll, StatsRoll
from dicecli.systems.dnd.settings import ADVANTAGE_WORDS, KEYWORDS

if TYPE_CHECKING:
    from dicecli.game import Expr

_D20_TYPED = re.compile(r"[12]?d20(?!\d)", re.IGNORECASE)
_MOST_DICE = 1000
"""Most dice of one damage term: more is surely a typo, and would roll slowly."""


class _Edge(str):
    """``adv`` or ``dis`` as read, told apart from the other tokens."""


class _Dice:
    """``2d6`` as read: how many dice, how many sides."""

    def __init__(self, count: int, sides: int) -> None:
        self.pair = (count, sides)


class _Target:
    """The expression after ``vs``, told apart from the modifier."""

    def __init__(self, expr: Expr) -> None:
        self.expr = expr


def _at_word(text: str, loc: int) -> int:
    """``loc`` moved past the spaces before the word that starts there: the caret's place."""
    return len(text) - len(text[loc:].lstrip())


def _refuse_d20(text: str, loc: int, tokens: pp.ParseResults) -> None:
    if _D20_TYPED.match(str(tokens[0])):
        raise parse_failure(
            text,
            _at_word(text, loc),
            "the d20 is rolled for you: write only the modifier (+5), and adv or dis",
        )


def _signed_expression(name: str) -> pp.ParserElement:
    """``+5``, ``-1``, ``+STR + 2``: an expression with an optional leading ``+``."""
    edge = pp.MatchFirst([pp.CaselessKeyword(word) for word in ADVANTAGE_WORDS])
    body = pp.Group(~edge + ~keyword("vs", "crit") + expression).set_name(name)
    body.add_parse_action(lambda tokens: tokens[0][0])
    # Unsigned, it starts with no letter but a die's d: `dnd stat` is a misspelt word, not a name.
    return (pp.Suppress("+") - body) | (~pp.Regex(r"(?![dD]\d)[^\W\d_]") + body)


def _refuse_doubling(text: str, loc: int, tokens: pp.ParseResults) -> None:
    """``dnd damage 2d6+3 x2``: read as 2d6 + 6, which is no critical hit (rule D5)."""
    if str(tokens[0]).replace(" ", "").endswith("*2"):
        raise parse_failure(
            text,
            _at_word(text, loc),
            "a critical hit doubles the dice, not the modifier: write crit (rule D5)",
        )


def _d20_action(text: str, loc: int, tokens: pp.ParseResults) -> D20Roll:
    parts = list(tokens)
    kind = "check"
    if parts and parts[0] in ("attack", "check", "save", "death"):
        kind = str(parts.pop(0))
    edges = {str(part) for part in parts if isinstance(part, _Edge)}
    targets = [part.expr for part in parts if isinstance(part, _Target)]
    modifiers = [part for part in parts if not isinstance(part, _Edge | _Target)]
    target = targets[0] if targets else None
    if kind == "death" and target is not None:
        where = text.casefold().find(" vs", loc)
        raise parse_failure(text, max(where + 1, loc), "a death saving throw's DC is 10: no vs")
    return D20Roll(
        kind,
        modifiers[0] if modifiers else None,
        "advantage" in edges,
        "disadvantage" in edges,
        target,
    )


def _damage_action(text: str, loc: int, tokens: pp.ParseResults) -> DamageRoll:
    parts = list(tokens)
    critical = bool(parts) and parts[-1] == "crit"
    if critical:
        parts.pop()
    dice = tuple(part.pair for part in parts if isinstance(part, _Dice))
    rest = [part for part in parts if not isinstance(part, _Dice)]
    return DamageRoll(dice, rest[0] if rest else None, critical)


def _dice_action(text: str, loc: int, tokens: pp.ParseResults) -> _Dice:
    count = int(tokens["count"] or 1)
    sides = int(tokens["sides"])
    if count < 1 or count > _MOST_DICE:
        raise parse_failure(
            text, _at_word(text, loc), f"a damage term rolls 1 to {_MOST_DICE} dice"
        )
    if sides < 1:
        raise parse_failure(text, loc, "a die has at least one side")
    return _Dice(count, sides)


@cache
def line_grammar() -> pp.ParserElement:
    """A whole ``dnd`` line."""
    start = pp.Suppress(keyword(*KEYWORDS))
    edge = pp.MatchFirst([pp.CaselessKeyword(word) for word in ADVANTAGE_WORDS])
    edge.set_parse_action(
        lambda tokens: _Edge("advantage" if tokens[0].startswith("adv") else "disadvantage")
    )
    edges = pp.ZeroOrMore(edge)
    modifier = _signed_expression("a modifier (+5, -1, +STR)")
    modifier.add_parse_action(_refuse_d20)
    armour = pp.Opt(pp.Suppress(pp.Regex(r"(?i)(?:ac|dc)(?=\s*\d)\s*")))
    target = pp.Group(expression).set_name("an AC or DC (15, AC 15)")
    target.add_parse_action(lambda tokens: _Target(tokens[0][0]))
    kind = keyword("attack", "check", "save", "death")
    d20 = (
        pp.Opt(kind)
        + edges
        + pp.Opt(modifier)
        + edges
        + pp.Opt(pp.Suppress(keyword("vs")) - armour + target)
        + edges
    )
    d20.set_parse_action(_d20_action)
    dice = pp.Regex(r"(?i)(?P<count>\d*)d(?P<sides>\d+)(?![\w!])").set_name("damage dice (2d6)")
    dice.set_parse_action(_dice_action)
    damage_modifier = _signed_expression("a damage modifier (+3)")
    damage_modifier.add_parse_action(_refuse_doubling)
    damage = (
        pp.Suppress(keyword("damage", "dmg"))
        - dice
        + pp.ZeroOrMore(pp.Suppress("+") + dice)
        + pp.Opt(damage_modifier)
        + pp.Opt(keyword("crit", "critical").set_parse_action(lambda: "crit"))
    )
    damage.set_parse_action(_damage_action)
    stats = pp.Suppress(keyword("stats"))
    stats.set_parse_action(lambda: StatsRoll())
    return whole_line(start - (damage | stats | d20))
