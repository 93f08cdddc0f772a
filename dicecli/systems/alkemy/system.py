"""The Alkemy ``SYSTEM`` object: the game protocol
(:class:`~dicecli.systems.registry.GameSystem`) and nothing else. Each method imports
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


class AlkemySystem:
    """What the registry finds as ``SYSTEM``."""

    def line_grammar(self) -> pp.ParserElement:
        from dicecli.systems.alkemy.grammar import line_grammar

        return line_grammar()

    def resolve(self, check: Check, roller: Roller, env: Environment, text: str) -> RollResult:
        from dicecli.systems.alkemy.nodes import alkemy_form
        from dicecli.systems.alkemy.roll import resolve

        return resolve(alkemy_form(check), roller, env, text)

    def odds(self, check: Check, env: Environment, text: str) -> Odds:
        from dicecli.systems.alkemy.nodes import alkemy_form
        from dicecli.systems.alkemy.odds import odds

        return odds(alkemy_form(check), env, text)


SYSTEM = AlkemySystem()
