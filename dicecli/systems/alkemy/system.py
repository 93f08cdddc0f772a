"""Alkemy's rules as dicecli calls them: this package's grammar, rolling and odds.

:class:`AlkemyRules` is the game's :class:`~dicecli.game.Rules`, made by the declaration's
``rules`` function when the first line of the game is read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicecli.game import CheckStep, Rules
from dicecli.systems.alkemy.grammar import line_grammar
from dicecli.systems.alkemy.nodes import AlkemyForm, form_of
from dicecli.systems.alkemy.roll import prepare_step

if TYPE_CHECKING:
    import pyparsing as pp

    from dicecli.game import Environment, Odds, Roller, RollResult


class AlkemyRules(Rules[AlkemyForm]):
    """Alkemy: lines read by :mod:`~dicecli.systems.alkemy.grammar`, rolled by
    :mod:`~dicecli.systems.alkemy.roll`, their odds from :mod:`~dicecli.systems.alkemy.odds`."""

    def line_grammar(self) -> pp.ParserElement:
        return line_grammar()

    def prepare(self, check: AlkemyForm) -> CheckStep:
        return prepare_step(form_of(check))

    def roll(self, check: AlkemyForm, roller: Roller, env: Environment, text: str) -> RollResult:
        return self.prepare(check)(roller, env, text)

    def odds(self, check: AlkemyForm, env: Environment, text: str) -> Odds:
        from dicecli.systems.alkemy.odds import odds  # the odds engine: only for odds

        return odds(form_of(check), env, text)
