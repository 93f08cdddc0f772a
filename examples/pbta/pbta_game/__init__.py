"""Powered by the Apocalypse moves for dicecli: 2d6 + a stat, ``pbta +2``, ``pbta roll+Hard``.

10+ is a strong hit, 7-9 a weak hit, 6- a miss. This module is the declaration only
(plain data, cheap to import); the grammar, rolling and odds are in
:mod:`pbta_game.system`, imported when the first ``pbta`` line is read.
"""

from __future__ import annotations

from typing import Any

from dicecli.game import Game, HelpTopic, Hint, Rules

__all__ = ["GAME", "rules"]


def rules() -> Rules[Any]:
    """The game's rules, made when dicecli reads the first ``pbta`` line."""
    from pbta_game.system import PbtaRules

    return PbtaRules()


GAME = Game(
    api_version=1,
    name="pbta",
    keywords=("pbta",),
    example="pbta +2",
    rules=rules,
    odds_example=("pbta +1", "the chance of a strong hit, a weak hit and a miss"),
    completions=("roll",),
    help=HelpTopic(
        "Powered by the Apocalypse: a move is 2d6 + a stat",
        (
            ("pbta +2", "roll+2: 10+ strong hit, 7-9 weak hit, 6- miss"),
            ("pbta -1", "roll-1, a negative stat"),
            ("pbta roll+Hard", "roll+Hard, as the move says it (--set Hard=2)"),
            ("pbta +Cool+1", "a stat and a +1 forward"),
            ("pbta", "2d6 and no stat (roll+0)"),
        ),
        "The stat is any expression: a number, a named value (--set Hard=2), or both.",
    ),
    hints=(
        Hint(
            r"^(\s*pbta)\s*(?:roll\s*)?\+?\s*2d6\b\s*",
            r"\1 ",
            "the move rolls the 2d6 itself: write only the stat",
        ),
    ),
)
