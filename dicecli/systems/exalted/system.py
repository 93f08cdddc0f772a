"""Exalted 3e's rules as dicecli calls them: this package's grammar, rolling and odds.
:class:`ExaltedRules` is made by the declaration's ``rules`` function when the first
``ex`` line is read."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicecli.game import Rules
from dicecli.systems.exalted.grammar import line_grammar
from dicecli.systems.exalted.roll import roll_check

if TYPE_CHECKING:
    import pyparsing as pp

    from dicecli.game import Environment, Odds, Roller, RollResult
    from dicecli.systems.exalted.checks import ExaltedCheck


class ExaltedRules(Rules["ExaltedCheck"]):
    """Exalted 3e: lines read by :mod:`~dicecli.systems.exalted.grammar`, rolled by
    :mod:`~dicecli.systems.exalted.roll`, odds from :mod:`~dicecli.systems.exalted.odds`."""

    def line_grammar(self) -> pp.ParserElement:
        return line_grammar()

    def roll(self, check: ExaltedCheck, roller: Roller, env: Environment, text: str) -> RollResult:
        return roll_check(check, roller, env, text)

    def odds(self, check: ExaltedCheck, env: Environment, text: str) -> Odds:
        # docs/startup.md
        from dicecli.systems.exalted.odds import odds  # the odds engine: only for odds

        return odds(check, env, text)
