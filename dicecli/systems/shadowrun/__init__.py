"""Shadowrun, fifth edition: the ``sr`` keyword.

Forms (rules S1-S5 of ``docs/rules.md``)::

    sr 8                a pool of d6: each 5 or 6 a hit; glitches
    sr 8 vs 3           against a threshold: net hits
    sr 8 limit 4        no more hits than the limit count
    sr 8 edge           Edge: 6s roll again, the limit ignored
    sr8                 Dice Maiden's spelling of sr 8

The package follows the games' template: ``settings``, ``rules``, ``checks``,
``grammar``, ``roll``, ``odds`` and ``system``. This module is the declaration,
:data:`GAME`, read by the registry."""

from __future__ import annotations

from typing import Any

from dicecli.game import API_VERSION, Game, HelpTopic, Hint, Rules
from dicecli.systems.shadowrun.settings import JOINED, KEYWORDS, NAME


def rules() -> Rules[Any]:
    """The game's rules (:mod:`~dicecli.systems.shadowrun.system`), imported with the
    first line of the game."""
    from dicecli.systems.shadowrun.system import ShadowrunRules  # docs/startup.md

    return ShadowrunRules()


GAME = Game(
    api_version=API_VERSION,
    name=NAME,
    keywords=KEYWORDS,
    joined=JOINED,
    example="sr 8 vs 3",
    odds_example=("sr 8 vs 3", "success, glitch and critical glitch"),
    rules=rules,
    completions=("vs", "edge", "limit"),
    help=HelpTopic(
        "Shadowrun 5e: a pool of d6, each 5 or 6 a hit:",
        (
            ("sr 8", "hits; more than half the dice 1s is a glitch"),
            ("sr 8 vs 3", "a threshold of 3: net hits"),
            ("sr 8 limit 4", "at most 4 hits count"),
            ("sr 8 edge", "Edge: 6s roll again and the limit is ignored"),
        ),
        "The pool is any expression: sr Agility+Firearms with `let Agility = 5`.",
    ),
    hints=(
        Hint(r"(?i)(\d+)\s*d6\b", r"\1", "the pool is a number of dice: sr 8, not 8d6"),
        Hint(r"(?i)\(\s*(\d+)\s*\)\s*$", r"vs \1", "a threshold is written vs 3"),
        Hint(r"(?i)\bthreshold\s+", "vs ", "a threshold is written vs 3"),
    ),
)
