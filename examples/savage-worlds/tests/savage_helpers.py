"""Helpers shared by the package's tests: parse a line with the game's own grammar (no
registry needed, so the tests run installed or not) and roll it with given faces."""

from __future__ import annotations

from dicecli.game import EMPTY_ENVIRONMENT, GivenSource, RandomSource, Roll, Roller, RollResult

from savage_worlds.grammar import line_grammar
from savage_worlds.nodes import TraitTest, form_of
from savage_worlds.system import SavageWorldsRules

RULES = SavageWorldsRules()
"""The game's rules, as dicecli makes them."""


def parse_line(text: str) -> Roll:
    """The whole line, as dicecli's parser would give it."""
    roll = line_grammar().parse_string(text, parse_all=True)[0]
    assert isinstance(roll, Roll)
    return roll


def check(text: str) -> TraitTest:
    """The trait test of a line."""
    body = parse_line(text).body
    assert isinstance(body, TraitTest)
    return form_of(body)


def roll(text: str, given: str | None = None, seed: int = 1) -> RollResult:
    """Roll a line with the faces ``given`` (``"8,3,2"``), or seeded dice."""
    source = GivenSource.from_text(given) if given is not None else RandomSource(seed)
    result = RULES.roll(check(text), Roller(source), EMPTY_ENVIRONMENT, text)
    if isinstance(source, GivenSource):
        source.check_all_used()
    return result
