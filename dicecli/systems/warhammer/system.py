"""Warhammer Fantasy Battle's rules as dicecli calls them: this package's grammar, rolling and odds.

:class:`WarhammerRules` is the game's :class:`~dicecli.game.Rules`, made by the declaration's
``rules`` function when the first line of the game is read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicecli.game import CheckStep, Rules
from dicecli.systems.warhammer.grammar import line_grammar
from dicecli.systems.warhammer.nodes import WarhammerForm, form_of
from dicecli.systems.warhammer.roll import prepare_step

if TYPE_CHECKING:
    import pyparsing as pp

    from dicecli.game import Environment, Odds, Roller, RollResult


class WarhammerRules(Rules[WarhammerForm]):
    """Warhammer Fantasy Battle: lines read by
    :mod:`~dicecli.systems.warhammer.grammar`, rolled by
    :mod:`~dicecli.systems.warhammer.roll`, their odds from
    :mod:`~dicecli.systems.warhammer.odds`."""

    def line_grammar(self) -> pp.ParserElement:
        return line_grammar()

    def prepare(self, check: WarhammerForm) -> CheckStep:
        return prepare_step(form_of(check))

    def roll(self, check: WarhammerForm, roller: Roller, env: Environment, text: str) -> RollResult:
        return self.prepare(check)(roller, env, text)

    def odds(self, check: WarhammerForm, env: Environment, text: str) -> Odds:
        from dicecli.systems.warhammer.odds import odds  # the odds engine: only for odds

        return odds(form_of(check), env, text)
