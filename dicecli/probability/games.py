"""The games, as the odds stage asks for them: a game's check has the odds its game
works out.

The games are handed to the stages (:mod:`dicecli.handed_games`): this stage does not
import the registry of games, which sits above it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, cast

from dicecli.handed_games import handed

if TYPE_CHECKING:
    from dicecli.environment import Environment
    from dicecli.notation.nodes import Check
    from dicecli.probability.distribution import Odds


class CheckOdds(Protocol):
    """What the odds stage asks of the games."""

    def odds(self, check: Check, env: Environment, text: str) -> Odds:
        """The exact chances of ``check`` by its game (the one ``check.system`` names);
        ``env`` holds the named values and settings, ``text`` is the line as typed."""


def games() -> CheckOdds:
    """The games handed to the stages, as this stage asks for them."""
    return cast("CheckOdds", handed())
