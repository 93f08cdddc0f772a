"""The games, handed to the stages by the entry module.

The notation, rolling and odds stages hand a game's line to its game: the game's
grammar reads the line, its rules roll it and work out its odds. The stages do not
import the registry of games (:mod:`dicecli.systems`) to find them: a game's
declaration names the stages' types (a check, a roller, odds), so the registry sits
above the stages. The entry module, which knows both, hands this module a function
giving the games (docs/startup.md, "The games handed to the stages"), and each stage
asks for them as a protocol of its own that says what it needs of them:
:class:`dicecli.notation.games.LineGames`,
:class:`dicecli.rolling.games.CheckRollers` and
:class:`dicecli.probability.games.CheckOdds`.

This module lies below every stage and names none of their types: the games are an
``object`` here, and each stage's ``games()`` says what they are to it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

_give: Callable[[], object] | None = None
_games: object | None = None


def hand(give: Callable[[], object]) -> None:
    """Hand the stages the games: ``give()`` gives them, called when a stage first asks
    (so that the registry is imported only by a line that needs a game)."""
    global _give, _games
    _give, _games = give, None


def handed() -> object:
    """The games handed to the stages; a :class:`LookupError` when none were."""
    global _games
    if _games is None:
        if _give is None:
            raise LookupError("no games were handed to the stages (dicecli.entry hands them)")
        _games = _give()
    return _games
