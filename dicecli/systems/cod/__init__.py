"""Chronicles of Darkness (the new World of Darkness): the ``cod`` keyword.

Forms (rules K1-K5 of ``docs/rules.md``)::

    cod 5               a pool of d10: each 8+ a success, 10s roll again
    cod 5 9-again       9-again, 8-again, no-again
    cod 5 rote          failed dice rolled again once
    cod 0               a chance die: 10 succeeds, 1 is a dramatic failure

The package follows the games' template: ``settings``, ``rules``, ``checks``,
``grammar``, ``roll``, ``odds`` and ``system``. This module is the declaration,
:data:`GAME`, read by the registry."""

from __future__ import annotations

from typing import Any

from dicecli.game import API_VERSION, Game, HelpTopic, Hint, Rules
from dicecli.systems.cod.settings import AGAIN_WORDS, COUNTED, KEYWORDS, NAME


def rules() -> Rules[Any]:
    """The game's rules (:mod:`~dicecli.systems.cod.system`), imported with the first
    line of the game."""
    from dicecli.systems.cod.system import CodRules  # docs/startup.md

    return CodRules()


GAME = Game(
    api_version=API_VERSION,
    name=NAME,
    keywords=KEYWORDS,
    example="cod 5",
    odds_example=("cod 5", "success, exceptional success, failure"),
    rules=rules,
    counted=COUNTED,
    completions=(*AGAIN_WORDS, "rote"),
    help=HelpTopic(
        "Chronicles of Darkness: a pool of d10, each 8+ a success:",
        (
            ("cod 5", "10s roll again (10-again); 5 successes: exceptional"),
            ("cod 5 9-again", "9s and 10s roll again (8-again, no-again too)"),
            ("cod 5 rote", "a rote action: failed dice rolled again once"),
            ("cod 0", "a chance die: 10 succeeds, 1 is a dramatic failure"),
        ),
        "The pool is any expression: cod Dex+Stealth-2 with `let Dex = 3`.",
    ),
    hints=(
        Hint(r"(?i)(\d+)\s*d10\b", r"\1", "the pool is a number of dice: cod 5, not 5d10"),
        Hint(r"(?i)\b(10|9|8)\s+again\b", r"\1-again", "the quality is one word: 9-again"),
    ),
)
