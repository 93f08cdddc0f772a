"""Fate Core (the SRD): the ``fate`` keyword.

Forms (rules F1-F3 of ``docs/rules.md``)::

    fate +2             four Fate dice + the skill: the result on the ladder
    fate +2 vs 3        against a difficulty: fail, tie, succeed, succeed with style
    fate Good vs Fair   the skill and the difficulty named on the ladder

The package follows the games' template: ``settings``, ``rules``, ``checks``,
``grammar``, ``roll``, ``odds`` and ``system``. This module is the declaration,
:data:`GAME`, read by the registry."""

from __future__ import annotations

from typing import Any

from dicecli.game import API_VERSION, Game, HelpTopic, Hint, Rules
from dicecli.systems.fate.rules import LADDER
from dicecli.systems.fate.settings import KEYWORDS, NAME


def rules() -> Rules[Any]:
    """The game's rules (:mod:`~dicecli.systems.fate.system`), imported with the first
    line of the game."""
    from dicecli.systems.fate.system import FateRules  # docs/startup.md

    return FateRules()


GAME = Game(
    api_version=API_VERSION,
    name=NAME,
    keywords=KEYWORDS,
    example="fate +2 vs 3",
    odds_example=("fate +2 vs Good", "fail, tie, succeed, succeed with style"),
    rules=rules,
    completions=("vs", *LADDER.values()),
    follows=(("vs", tuple(LADDER.values())),),
    help=HelpTopic(
        "Fate Core: 4dF + the skill, read on the ladder:",
        (
            ("fate +2", "4dF + 2: the result on the ladder"),
            ("fate +2 vs 3", "against a difficulty: the shifts and the outcome"),
            ("fate Good vs Fair", "the skill and difficulty named on the ladder"),
            ("fate +2+2 vs Great", "an invoked aspect adds +2"),
        ),
        "Ladder: Legendary +8, Epic +7, Fantastic +6, Superb +5, Great +4, Good +3,\n"
        "Fair +2, Average +1, Mediocre +0, Poor -1, Terrible -2. Succeed with style: 3+ shifts.",
    ),
    hints=(
        Hint(r"(?i)\b4df\s*\+?\s*", "", "the four Fate dice are rolled for you: write the skill"),
    ),
)
