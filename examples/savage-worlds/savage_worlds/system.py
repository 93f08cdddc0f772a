"""The game's rules as dicecli calls them: the grammar, rolling and odds of this package."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicecli.game import Rules

from savage_worlds.grammar import line_grammar
from savage_worlds.nodes import SavageForm
from savage_worlds.roll import resolve

if TYPE_CHECKING:  # names for the annotations only: Odds would load the odds' modules
    import pyparsing as pp
    from dicecli.game import Environment, Odds, Roller, RollResult


class SavageWorldsRules(Rules[SavageForm]):
    """Savage Worlds trait tests: read by :mod:`savage_worlds.grammar`, rolled by
    :mod:`savage_worlds.roll`, their odds from :mod:`savage_worlds.odds`."""

    def line_grammar(self) -> pp.ParserElement:
        return line_grammar()

    def roll(self, check: SavageForm, roller: Roller, env: Environment, text: str) -> RollResult:
        return resolve(check, roller, env, text)

    def odds(self, check: SavageForm, env: Environment, text: str) -> Odds:
        from savage_worlds.odds import odds  # exact fractions: loaded for odds only

        return odds(check, env, text)
