"""Fate Core's rules as dicecli calls them: this package's grammar, rolling and odds.
:class:`FateRules` is made by the declaration's ``rules`` function when the first
``fate`` line is read."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicecli.game import Rules
from dicecli.systems.fate.grammar import line_grammar
from dicecli.systems.fate.roll import roll_check

if TYPE_CHECKING:
    import pyparsing as pp

    from dicecli.game import Environment, Odds, Roller, RollResult
    from dicecli.systems.fate.checks import FateCheck


class FateRules(Rules["FateCheck"]):
    """Fate Core: lines read by :mod:`~dicecli.systems.fate.grammar`, rolled by
    :mod:`~dicecli.systems.fate.roll`, odds from :mod:`~dicecli.systems.fate.odds`."""

    def line_grammar(self) -> pp.ParserElement:
        return line_grammar()

    def roll(self, check: FateCheck, roller: Roller, env: Environment, text: str) -> RollResult:
        return roll_check(check, roller, env, text)

    def odds(self, check: FateCheck, env: Environment, text: str) -> Odds:
        # docs/startup.md
        from dicecli.systems.fate.odds import odds  # the odds engine: only for odds

        return odds(check, env, text)
