"""Shared helpers of the pbta tests: parse a line, roll it with given faces, brute force."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

from dicecli.game import (
    EMPTY_ENVIRONMENT,
    Environment,
    GivenSource,
    Roller,
    RollResult,
    plain_line,
)

from pbta_game.system import Move, PbtaRules

RULES = PbtaRules()
GRAMMAR = RULES.line_grammar()


def parse(line: str) -> Move:
    body = GRAMMAR.parse_string(line, parse_all=True)[0].body
    assert isinstance(body, Move)
    return body


def roll(line: str, given: str, env: Environment = EMPTY_ENVIRONMENT) -> RollResult:
    """``line`` rolled with the faces ``given`` (as ``--given``), every face used."""
    source = GivenSource.from_text(given)
    result = RULES.roll(parse(line), Roller(source), env, line)
    source.check_all_used()
    return result


def rolled(line: str, given: str, env: Environment = EMPTY_ENVIRONMENT) -> str:
    """What a player reads in plain output."""
    return plain_line(roll(line, given, env))


def brute_force(stat: int) -> dict[str, Fraction]:
    """The chances of a move with ``stat``, counted over all 36 rolls of 2d6."""
    bands: Counter[str] = Counter()
    for first, second in product(range(1, 7), repeat=2):
        total = first + second + stat
        bands["strong_hit" if total >= 10 else "weak_hit" if total >= 7 else "miss"] += 1
    chances = {band: Fraction(bands[band], 36) for band in ("strong_hit", "weak_hit", "miss")}
    chances["success"] = chances["strong_hit"] + chances["weak_hit"]
    return chances


def brute_force_totals(stat: int) -> dict[int, Fraction]:
    counts = Counter(a + b + stat for a, b in product(range(1, 7), repeat=2))
    return {total: Fraction(n, 36) for total, n in counts.items()}
