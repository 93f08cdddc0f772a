"""The Year Zero Engine's rules as dicecli calls them: this package's grammar, rolling
and odds. :class:`YearZeroRules` is made by the declaration's ``rules`` function when
the first ``yz`` line is read."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicecli.game import Rules
from dicecli.systems.yearzero.grammar import line_grammar
from dicecli.systems.yearzero.roll import roll_check

if TYPE_CHECKING:
    import pyparsing as pp

    from dicecli.game import Environment, Odds, Roller, RollResult
    from dicecli.systems.yearzero.checks import YearZeroCheck


class YearZeroRules(Rules["YearZeroCheck"]):
    """The Year Zero Engine: lines read by :mod:`~dicecli.systems.yearzero.grammar`,
    rolled by :mod:`~dicecli.systems.yearzero.roll`, odds from
    :mod:`~dicecli.systems.yearzero.odds`."""

    def line_grammar(self) -> pp.ParserElement:
        return line_grammar()

    def roll(self, check: YearZeroCheck, roller: Roller, env: Environment, text: str) -> RollResult:
        return roll_check(check, roller, env, text)

    def odds(self, check: YearZeroCheck, env: Environment, text: str) -> Odds:
        # docs/startup.md
        from dicecli.systems.yearzero.odds import odds  # the odds engine: only for odds

        return odds(check, env, text)
