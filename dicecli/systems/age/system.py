"""The AGE system's rules as dicecli calls them: this package's grammar, rolling and odds.

:class:`AgeRules` is the game's :class:`~dicecli.game.Rules`, made by the declaration's
``rules`` function when the first line of the game is read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicecli.game import CheckStep, Rules
from dicecli.systems.age.grammar import line_grammar
from dicecli.systems.age.nodes import AgeForm, form_of
from dicecli.systems.age.roll import prepare_step

if TYPE_CHECKING:
    import pyparsing as pp

    from dicecli.game import Environment, Odds, Roller, RollResult


class AgeRules(Rules[AgeForm]):
    """The AGE system: lines read by :mod:`~dicecli.systems.age.grammar`, rolled by
    :mod:`~dicecli.systems.age.roll`, their odds from :mod:`~dicecli.systems.age.odds`."""

    def line_grammar(self) -> pp.ParserElement:
        return line_grammar()

    def prepare(self, check: AgeForm) -> CheckStep:
        return prepare_step(form_of(check))

    def roll(self, check: AgeForm, roller: Roller, env: Environment, text: str) -> RollResult:
        return self.prepare(check)(roller, env, text)

    def odds(self, check: AgeForm, env: Environment, text: str) -> Odds:
        from dicecli.systems.age.odds import odds  # the odds engine: only for odds

        return odds(form_of(check), env, text)
