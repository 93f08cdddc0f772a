"""The games, as the rolling stage asks for them: a game's check is rolled by its game.

The games are handed to the stages (:mod:`dicecli.handed_games`): this stage does not
import the registry of games, which sits above it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, cast

from dicecli.handed_games import handed

if TYPE_CHECKING:
    from dicecli.environment import Environment
    from dicecli.notation.nodes import Check
    from dicecli.results import RollResult
    from dicecli.rolling.sources import Roller

CheckStep = Callable[["Roller", "Environment", str], "RollResult"]
"""A game's check made ready to roll: ``step(roller, env, text)`` rolls it. What
depends only on the line as typed (its canonical text, numbers typed as numbers, the
breakdown's fixed pieces) is worked out once, when the step is made; what depends on
the environment (named values, settings) is looked up on every roll."""


class CheckRollers(Protocol):
    """What the rolling stage asks of the games."""

    def prepare(self, check: Check) -> CheckStep:
        """``check`` made ready to roll by its game (the one ``check.system`` names)."""


def games() -> CheckRollers:
    """The games handed to the stages, as this stage asks for them."""
    return cast("CheckRollers", handed())
