"""Savage Worlds (Adventure Edition) trait tests for dicecli: the ``sw`` keyword.

Forms (the player's guide is this package's README)::

    sw d8                  a Wild Card's trait test: d8 and the d6 Wild Die, vs 4
    sw d8+1                with a modifier (several may follow: sw d8 +1 -2)
    sw d10 -2 vs 6         against target number 6 (a Parry of 6)
    sw d12+2               a trait above d12: a d12 with +2
    sw extra d6            an Extra: no Wild Die

The package follows dicecli's games' template: ``rules`` (rule data and decisions),
``dice`` (the Wild Die), ``nodes`` (what was typed), ``grammar`` (text -> nodes),
``roll`` (nodes + dice -> result) and ``odds`` (nodes -> exact odds). This module is
the game's declaration, :data:`GAME`, which dicecli finds through the ``dicecli.games``
entry point (plain data, cheap to import: it imports nothing but dicecli's declaration
types), and its protocol object :data:`SYSTEM`, dicecli's ``TemplateSystem``, which
imports the modules above as they are needed.
"""

from __future__ import annotations

from dicecli.systems.declaration import Game, HelpTopic, TemplateSystem

__version__ = "0.1.0"

GAME = Game(
    name="savage_worlds",
    keywords=("sw", "savage"),
    example="sw d8 vs 4",
    odds_example=("sw d8 vs 4", "success, raises, critical failure"),
    system=__name__,
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

SYSTEM = TemplateSystem(__name__)
"""The game protocol object, on dicecli's template: grammar, rolling and odds of this
package, each imported on first use."""
