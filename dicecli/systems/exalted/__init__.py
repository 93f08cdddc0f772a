"""Exalted, third edition: the ``ex`` keyword.

Forms (rules X1-X3 of ``docs/rules.md``)::

    ex 6            a pool of d10: 7-9 one success, 10 two
    ex 6 vs 3       against a difficulty: threshold successes
    ex6             Dice Maiden's spelling of ex 6
    ex Dex+Melee    a pool from named values

The package follows the games' template: ``settings``, ``rules``, ``checks``,
``grammar``, ``roll``, ``odds`` and ``system``. This module is the declaration,
:data:`GAME`, read by the registry."""

from __future__ import annotations

from typing import Any

from dicecli.game import API_VERSION, Game, HelpTopic, Hint, Rules
from dicecli.systems.exalted.settings import JOINED, KEYWORDS, NAME


def rules() -> Rules[Any]:
    """The game's rules (:mod:`~dicecli.systems.exalted.system`), imported with the
    first line of the game."""
    from dicecli.systems.exalted.system import ExaltedRules  # docs/startup.md

    return ExaltedRules()


GAME = Game(
    api_version=API_VERSION,
    name=NAME,
    keywords=KEYWORDS,
    joined=JOINED,
    example="ex 6 vs 3",
    odds_example=("ex 6 vs 3", "success and botch"),
    rules=rules,
    completions=("vs",),
    help=HelpTopic(
        "Exalted 3e: a pool of d10, 7+ a success, 10 two:",
        (
            ("ex 6", "the successes; none with a 1 rolled is a botch"),
            ("ex 6 vs 3", "against difficulty 3: threshold successes"),
            ("ex 8+2 vs 2", "a pool with two dice added"),
        ),
        "The pool is any expression: ex Dex+Melee with `let Dex = 3`, `let Melee = 4`.",
    ),
    hints=(Hint(r"(?i)(\d+)\s*d10\b", r"\1", "the pool is a number of dice: ex 6, not 6d10"),),
)
