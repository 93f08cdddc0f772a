"""The rules of a PbtA move: grammar, roll and exact odds."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from operator import add
from typing import ClassVar

import pyparsing as pp
from dicecli.game import (
    D6,
    ZERO,
    Check,
    DiceShown,
    DieRoll,
    Distribution,
    Environment,
    Expr,
    Odds,
    Outcome,
    Roller,
    RollResult,
    Rules,
    Segment,
    Text,
    expression,
    expression_odds,
    keyword,
    parse_failure,
    roll_expression,
    whole_line,
)

STRONG_HIT = 10  # 10+ is a strong hit
WEAK_HIT = 7  # 7-9 a weak hit; 6- a miss
TWO_D6 = Distribution.uniform(range(1, 7)).combine(Distribution.uniform(range(1, 7)), add)
_DICE_TYPED = re.compile(r"2d6(?![0-9])", re.IGNORECASE)


def verdict(total: int) -> str:
    """The result of a move in PbtA's words: ``strong hit``, ``weak hit`` or ``miss``."""
    if total >= STRONG_HIT:
        return "strong hit"
    if total >= WEAK_HIT:
        return "weak hit"
    return "miss"


@dataclass(frozen=True)
class Move(Check):
    """A move as typed: ``pbta +2`` (stat 2), ``pbta`` (no stat, +0)."""

    system: ClassVar[str] = "pbta"
    stat: Expr | None = None

    def __str__(self) -> str:
        if self.stat is None:
            return "pbta"
        stat = str(self.stat)
        return f"pbta {stat}" if stat.startswith("-") else f"pbta +{stat}"


def _refuse_dice_typed(text: str, loc: int, tokens: pp.ParseResults) -> None:
    """``pbta 2d6+1``: judged on the canonical text, so ``(2d6)`` is refused too."""
    if _DICE_TYPED.match(str(tokens[0])):
        raise parse_failure(text, loc, "the move rolls the 2d6 itself: write only the stat")


def _stat_shown(shown: tuple[Segment, ...]) -> tuple[Segment, ...]:
    """``[3, 4] + 2``, and ``[3, 4] - 1`` rather than ``[3, 4] + -1``."""
    match shown:
        case (Text(text="-", role="op"), *rest):
            return (Text(" - ", "op"), *rest)
        case _:
            return (Text(" + ", "op"), *shown)


class PbtaRules(Rules[Move]):
    def line_grammar(self) -> pp.ParserElement:
        stat = expression.copy().set_name("a stat (+2, -1, Hard)")
        stat.add_parse_action(_refuse_dice_typed)
        signed = (pp.Suppress("+") - stat) | stat
        roll_word = pp.Opt(pp.Suppress(keyword("roll")))  # `roll+Hard`, as the books say
        form = pp.Suppress(keyword("pbta")) - roll_word + pp.Opt(signed)
        form.set_parse_action(lambda tokens: Move(tokens[0] if tokens else None))
        return whole_line(form)

    def roll(self, check: Move, roller: Roller, env: Environment, text: str) -> RollResult:
        first, second = roller.roll(D6), roller.roll(D6)
        dice: tuple[DieRoll, ...] = (first, second)
        total = (first.value or 0) + (second.value or 0)
        shown: tuple[Segment, ...] = (DiceShown(dice),)
        modifier = 0
        if check.stat is not None:
            stat = roll_expression(check.stat, roller, env)
            modifier = stat.value
            total += modifier
            dice = (*dice, *stat.dice)
            shown = (*shown, *_stat_shown(stat.shown))
        said = verdict(total)
        hit = said.removesuffix(" hit")
        outcome = Outcome(said, total >= WEAK_HIT, (("hit", hit), ("modifier", modifier)))
        return RollResult(text, str(check), total, dice, shown, outcome)

    def odds(self, check: Move, env: Environment, text: str) -> Odds:
        totals = TWO_D6
        notes: tuple[str, ...] = ()
        if check.stat is not None:
            stats, notes = expression_odds(check.stat, env)
            totals = TWO_D6.combine(stats, add)

        def chance(low: int | None, high: int | None) -> Fraction:
            return sum(
                (
                    p
                    for t, p in totals.outcomes
                    if (low is None or t >= low) and (high is None or t <= high)
                ),
                ZERO,
            )

        chances = (
            ("success", chance(WEAK_HIT, None)),  # a hit, strong or weak: exit status 0
            ("strong_hit", chance(STRONG_HIT, None)),
            ("weak_hit", chance(WEAK_HIT, STRONG_HIT - 1)),
            ("miss", chance(None, WEAK_HIT - 1)),
        )
        return Odds(
            text,
            str(check),
            distribution=totals,
            chances=chances,
            notes=notes,
            passing=(WEAK_HIT, None),
        )
