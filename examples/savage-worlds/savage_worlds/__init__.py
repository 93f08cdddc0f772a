"""Savage Worlds (Adventure Edition) trait tests for dicecli: the ``sw`` keyword.

Forms (the player's guide is this package's README)::

    sw d8                  a Wild Card's trait test: d8 and the d6 Wild Die, vs 4
    sw d8+1                with a modifier (several may follow: sw d8 +1 -2)
    sw d10 -2 vs 6         against target number 6 (a Parry of 6)
    sw d12+2               a trait above d12: a d12 with +2
    sw extra d6            an Extra: no Wild Die

The package follows dicecli's games' template: ``rules`` (rule data and decisions),
``dice`` (the Wild Die), ``nodes`` (what was typed), ``grammar`` (text -> nodes),
``roll`` (nodes + dice -> result), ``odds`` (nodes -> exact odds) and ``system`` (the
game's :class:`~dicecli.game.Rules`, calling the three). Every module imports dicecli
only through :mod:`dicecli.game`, the game API.

This module is the game's declaration, :data:`GAME`, which dicecli finds through the
``dicecli.games`` entry point: plain data, cheap to import, since dicecli reads it on
every line that starts with a word. Its :func:`rules` imports the rest with the first
line of the game.
"""

from __future__ import annotations

from typing import Any

from dicecli.game import Game, HelpTopic, Rules

__version__ = "0.1.0"


def rules() -> Rules[Any]:
    """The game's rules, imported with its first line."""
    from savage_worlds.system import SavageWorldsRules

    return SavageWorldsRules()


GAME = Game(
    api_version=1,
    name="savage_worlds",
    keywords=("sw", "savage"),
    example="sw d8 vs 4",
    odds_example=("sw d8 vs 4", "success, raises, critical failure"),
    rules=rules,
    completions=("extra", "vs", "d4", "d6", "d8", "d10", "d12"),
    help=HelpTopic(
        "Savage Worlds (sw or savage): a trait die and the d6 Wild Die, both ace:",
        (
            ("sw d8", "a Wild Card's trait test against 4"),
            ("sw d8+1", "with a modifier"),
            ("sw d10 -2 vs 6", "against a target number of 6"),
            ("sw d12+2", "a trait above d12"),
            ("sw extra d6", "an Extra: no Wild Die"),
        ),
        "The better die plus the modifiers counts; 4 over the target is a raise. Both\n"
        "dice on 1 is a critical failure. `odds sw d8` gives the chances.",
    ),
    marks=(("wild", "bold yellow"),),
)
"""The game's declaration, named by the package's ``dicecli.games`` entry point."""
