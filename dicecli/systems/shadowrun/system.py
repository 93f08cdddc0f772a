"""Shadowrun 5e's rules as dicecli calls them: this package's grammar, rolling and odds.
:class:`ShadowrunRules` is made by the declaration's ``rules`` function when the first
``sr`` line is read."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicecli.game import Rules
from dicecli.systems.shadowrun.grammar import line_grammar
from dicecli.systems.shadowrun.roll import roll_check

if TYPE_CHECKING:
    import pyparsing as pp

    from dicecli.game import Environment, Odds, Roller, RollResult
    from dicecli.systems.shadowrun.checks import ShadowrunCheck


class ShadowrunRules(Rules["ShadowrunCheck"]):
    """Shadowrun 5e: lines read by :mod:`~dicecli.systems.shadowrun.grammar`, rolled by
    :mod:`~dicecli.systems.shadowrun.roll`, odds from
    :mod:`~dicecli.systems.shadowrun.odds`."""

    def line_grammar(self) -> pp.ParserElement:
        return line_grammar()

    def roll(
        self, check: ShadowrunCheck, roller: Roller, env: Environment, text: str
    ) -> RollResult:
        return roll_check(check, roller, env, text)

    def odds(self, check: ShadowrunCheck, env: Environment, text: str) -> Odds:
        # docs/startup.md
        from dicecli.systems.shadowrun.odds import odds  # the odds engine: only for odds

        return odds(check, env, text)
