"""D&D 5e's rules as dicecli calls them: this package's grammar, rolling and odds.

:class:`DndRules` is the game's :class:`~dicecli.game.Rules`, made by the declaration's
``rules`` function when the first ``dnd`` line is read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicecli.game import Rules
from dicecli.systems.dnd.grammar import line_grammar
from dicecli.systems.dnd.roll import roll_check

if TYPE_CHECKING:
    import pyparsing as pp

    from dicecli.game import Environment, Odds, Roller, RollResult
    from dicecli.systems.dnd.checks import DndCheck


class DndRules(Rules["DndCheck"]):
    """D&D 5e: lines read by :mod:`~dicecli.systems.dnd.grammar`, rolled by
    :mod:`~dicecli.systems.dnd.roll`, their odds from :mod:`~dicecli.systems.dnd.odds`."""

    def line_grammar(self) -> pp.ParserElement:
        return line_grammar()

    def roll(self, check: DndCheck, roller: Roller, env: Environment, text: str) -> RollResult:
        return roll_check(check, roller, env, text)

    def odds(self, check: DndCheck, env: Environment, text: str) -> Odds:
        # docs/startup.md
        from dicecli.systems.dnd.odds import odds  # the odds engine: only for odds

        return odds(check, env, text)
