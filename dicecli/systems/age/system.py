"""The AGE system (Dragon Age RPG, Fantasy AGE, Modern AGE): the ``age`` keyword.

Forms (rules G1-G9 of ``rules.md``; the user's guide is ``docs/age.md``)::

    age STR+2 vs 13            basic test: 3D6 + ability + modifiers >= target
    age 3 +focus vs hard       a number for the ability, the focus (+2), a named target
    age STR+2                  no target: the total, the Dragon die and doubles
    age DEX+1 vs age PER+2     opposed test, two or more sides
    age 3 vs 13 until 15       advanced test: until the Dragon dice of successes reach 15

The module is split by what each part does, so each stays small: rule data and nodes
(:mod:`.age_nodes`), the grammar (:mod:`.age_grammar`), rolling (:mod:`.age_rolls`) and
exact odds (:mod:`.age_odds`). This module only ties them to the
:class:`~dicecli.systems.GameSystem` protocol.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicecli.notation.nodes import Check
from dicecli.systems.age.nodes import AgeAdvanced, AgeOpposed, AgeRoll

if TYPE_CHECKING:
    import pyparsing as pp

    from dicecli.environment import Environment
    from dicecli.probability.distribution import Odds
    from dicecli.results import RollResult
    from dicecli.rolling.dice import Roller


class AgeSystem:
    """The AGE system's entry in the registry."""

    name = "age"
    keywords = ("age",)

    def line_grammar(self) -> pp.ParserElement:
        from dicecli.systems.age.grammar import LINE  # built once, on first use

        return LINE

    def resolve(self, check: Check, roller: Roller, env: Environment, text: str) -> RollResult:
        from dicecli.systems.age import roll as age_rolls

        if isinstance(check, AgeRoll):
            return age_rolls.resolve_roll(check, roller, env, text)
        if isinstance(check, AgeOpposed):
            return age_rolls.resolve_opposed(check, roller, env, text)
        if isinstance(check, AgeAdvanced):
            return age_rolls.resolve_advanced(check, roller, env, text)
        raise TypeError(f"not an AGE check: {check!r}")

    def odds(self, check: Check, env: Environment, text: str) -> Odds:
        from dicecli.systems.age import odds as age_odds

        if isinstance(check, AgeRoll):
            return age_odds.roll_odds(check, env, text)
        if isinstance(check, AgeOpposed):
            return age_odds.opposed_odds(check, env, text)
        if isinstance(check, AgeAdvanced):
            return age_odds.advanced_odds(check, env, text)
        raise TypeError(f"not an AGE check: {check!r}")


SYSTEM = AgeSystem()
