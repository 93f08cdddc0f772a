"""Call of Cthulhu 7e's rules as dicecli calls them: this package's grammar, rolling
and odds. :class:`CocRules` is made by the declaration's ``rules`` function when the
first ``coc`` line is read."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicecli.game import Rules
from dicecli.systems.coc.grammar import line_grammar
from dicecli.systems.coc.roll import roll_check

if TYPE_CHECKING:
    import pyparsing as pp

    from dicecli.game import Environment, Odds, Roller, RollResult
    from dicecli.systems.coc.checks import CocCheck


class CocRules(Rules["CocCheck"]):
    """Call of Cthulhu 7e: lines read by :mod:`~dicecli.systems.coc.grammar`, rolled
    by :mod:`~dicecli.systems.coc.roll`, their odds from :mod:`~dicecli.systems.coc.odds`."""

    def line_grammar(self) -> pp.ParserElement:
        return line_grammar()

    def roll(self, check: CocCheck, roller: Roller, env: Environment, text: str) -> RollResult:
        return roll_check(check, roller, env, text)

    def odds(self, check: CocCheck, env: Environment, text: str) -> Odds:
        # docs/startup.md
        from dicecli.systems.coc.odds import odds  # the odds engine: only for odds

        return odds(check, env, text)
