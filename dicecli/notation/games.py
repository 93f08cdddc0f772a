"""The games, as the notation stage asks for them: a line whose first word is a game's
keyword is read by that game's grammar.

The games are handed to the stages (:mod:`dicecli.handed_games`): this stage does not
import the registry of games, which sits above it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, cast

from dicecli.handed_games import handed

if TYPE_CHECKING:
    import pyparsing as pp


class LineGames(Protocol):
    """What the notation stage asks of the games."""

    def may_be_keyword(self, word: str) -> bool:
        """False when ``word`` cannot be any game's keyword (``2D6+5``, ``d20``): then
        no game is asked."""

    def claims(self, word: str) -> bool:
        """Whether a game's lines start with ``word`` (any case)."""

    def line_grammar(self, word: str) -> pp.ParserElement | None:
        """The grammar of a whole line of the game whose lines start with ``word``,
        built when its first line is read; None when no game claims ``word``."""


def games() -> LineGames:
    """The games handed to the stages, as this stage asks for them."""
    return cast("LineGames", handed())
