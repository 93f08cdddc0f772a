"""The Savage Worlds ``SYSTEM`` object: the game protocol
(:class:`~dicecli.systems.declaration.GameSystem`) and nothing else. Each method imports
what it needs on first use: the grammar for a line's parse, the rolling or the odds for
what is asked."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pyparsing as pp
    from dicecli.environment import Environment
    from dicecli.notation.nodes import Check
    from dicecli.probability.distribution import Odds
    from dicecli.results import RollResult
    from dicecli.rolling.dice import Roller


class SavageWorldsSystem:
    """What the registry finds as ``SYSTEM``."""

    def line_grammar(self) -> pp.ParserElement:
        from savage_worlds.grammar import line_grammar

        return line_grammar()

    def resolve(self, check: Check, roller: Roller, env: Environment, text: str) -> RollResult:
        from savage_worlds.nodes import savage_form
        from savage_worlds.roll import resolve

        return resolve(savage_form(check), roller, env, text)

    def odds(self, check: Check, env: Environment, text: str) -> Odds:
        from savage_worlds.nodes import savage_form
        from savage_worlds.odds import odds

        return odds(savage_form(check), env, text)


SYSTEM = SavageWorldsSystem()
