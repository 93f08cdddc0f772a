"""Legend of the Five Rings 4e's rules as dicecli calls them: this package's grammar,
rolling and odds. :class:`L5rRules` is made by the declaration's ``rules`` function when
the first ``l5r`` line is read."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicecli.game import Rules
from dicecli.systems.l5r.grammar import line_grammar
from dicecli.systems.l5r.roll import roll_check

if TYPE_CHECKING:
    import pyparsing as pp

    from dicecli.game import Environment, Odds, Roller, RollResult
    from dicecli.systems.l5r.checks import L5rCheck


class L5rRules(Rules["L5rCheck"]):
    """Legend of the Five Rings 4e: lines read by :mod:`~dicecli.systems.l5r.grammar`,
    rolled by :mod:`~dicecli.systems.l5r.roll`, odds from :mod:`~dicecli.systems.l5r.odds`."""

    def line_grammar(self) -> pp.ParserElement:
        return line_grammar()

    def roll(self, check: L5rCheck, roller: Roller, env: Environment, text: str) -> RollResult:
        return roll_check(check, roller, env, text)

    def odds(self, check: L5rCheck, env: Environment, text: str) -> Odds:
        # docs/startup.md
        from dicecli.systems.l5r.odds import odds  # the odds engine: only for odds

        return odds(check, env, text)
