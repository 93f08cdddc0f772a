"""Chronicles of Darkness's rules as dicecli calls them: this package's grammar, rolling
and odds. :class:`CodRules` is made by the declaration's ``rules`` function when the
first ``cod`` line is read."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicecli.game import Rules
from dicecli.systems.cod.grammar import line_grammar
from dicecli.systems.cod.roll import roll_check

if TYPE_CHECKING:
    import pyparsing as pp

    from dicecli.game import Environment, Odds, Roller, RollResult
    from dicecli.systems.cod.checks import CodCheck


class CodRules(Rules["CodCheck"]):
    """Chronicles of Darkness: lines read by :mod:`~dicecli.systems.cod.grammar`, rolled
    by :mod:`~dicecli.systems.cod.roll`, odds from :mod:`~dicecli.systems.cod.odds`."""

    def line_grammar(self) -> pp.ParserElement:
        return line_grammar()

    def roll(self, check: CodCheck, roller: Roller, env: Environment, text: str) -> RollResult:
        return roll_check(check, roller, env, text)

    def odds(self, check: CodCheck, env: Environment, text: str) -> Odds:
        # docs/startup.md
        from dicecli.systems.cod.odds import odds  # the odds engine: only for odds

        return odds(check, env, text)
