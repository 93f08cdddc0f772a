"""Blades in the Dark's rules as dicecli calls them: this package's grammar, rolling and
odds. :class:`BladesRules` is made by the declaration's ``rules`` function when the
first ``blades`` line is read."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicecli.game import Rules
from dicecli.systems.blades.grammar import line_grammar
from dicecli.systems.blades.roll import roll_check

if TYPE_CHECKING:
    import pyparsing as pp

    from dicecli.game import Environment, Odds, Roller, RollResult
    from dicecli.systems.blades.checks import BladesCheck


class BladesRules(Rules["BladesCheck"]):
    """Blades in the Dark: lines read by :mod:`~dicecli.systems.blades.grammar`, rolled
    by :mod:`~dicecli.systems.blades.roll`, odds from :mod:`~dicecli.systems.blades.odds`."""

    def line_grammar(self) -> pp.ParserElement:
        return line_grammar()

    def roll(self, check: BladesCheck, roller: Roller, env: Environment, text: str) -> RollResult:
        return roll_check(check, roller, env, text)

    def odds(self, check: BladesCheck, env: Environment, text: str) -> Odds:
        # docs/startup.md
        from dicecli.systems.blades.odds import odds  # the odds engine: only for odds

        return odds(check, env, text)
