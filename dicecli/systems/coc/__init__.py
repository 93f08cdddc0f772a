"""Call of Cthulhu, seventh edition: the ``coc`` keyword.

Forms (rules C1-C5 of ``docs/rules.md``)::

    coc 45                  a d100 under the skill: the level of success
    coc 45 hard             a hard roll: a hard success or better passes
    coc 45 bonus            one bonus die (2 bonus, penalty, 2 penalty ...)
    coc 45 vs coc 60        an opposed roll: the higher level wins, then the skill

The package follows the games' template: ``settings``, ``rules`` (rule data and
decisions), ``checks`` (what was typed), ``grammar``, ``roll``, ``odds`` and
``system``. This module is the declaration, :data:`GAME`, read by the registry."""

from __future__ import annotations

from typing import Any

from dicecli.game import API_VERSION, Game, HelpTopic, Hint, Rules
from dicecli.systems.coc.settings import DIFFICULTIES, KEYWORDS, NAME


def rules() -> Rules[Any]:
    """The game's rules (:mod:`~dicecli.systems.coc.system`), imported with the first
    line of the game."""
    from dicecli.systems.coc.system import CocRules  # docs/startup.md

    return CocRules()


GAME = Game(
    api_version=API_VERSION,
    name=NAME,
    keywords=KEYWORDS,
    example="coc 45",
    odds_example=("coc 45 bonus", "each level of success"),
    rules=rules,
    completions=("bonus", "penalty", "dice", "vs", *DIFFICULTIES),
    follows=(("vs", KEYWORDS),),
    help=HelpTopic(
        "Call of Cthulhu 7e: a d100 at or under the skill:",
        (
            ("coc 45", "01 critical, a fifth extreme, half hard, the skill regular"),
            ("coc 45 hard", "a hard roll: a hard success or better passes"),
            ("coc 45 bonus", "a bonus die: the better of two tens dice"),
            ("coc 45 2 penalty", "two penalty dice: the worst of three tens dice"),
            ("coc 45 vs coc 60", "an opposed roll: level, then skill"),
        ),
        "A fumble is 100, or 96-100 when the skill is under 50. Bonus and penalty dice\n"
        "cancel. The skill is any expression (coc Spot+10 with `let Spot = 45`).",
    ),
    hints=(
        Hint(r"(?i)\bd100\s*", "", "the d100 is rolled for you: write the skill"),
        Hint(r"(?i)\bvs\s+(?!coc)(\d)", r"vs coc \1", "the other side is a roll of its own"),
        Hint(r"(?i)\+\s*(\d+)\s*b\b", r"\1 bonus", "bonus dice are the word bonus"),
        Hint(r"(?i)\+\s*b\b", "bonus", "a bonus die is the word bonus"),
        Hint(r"(?i)-\s*(\d+)\s*p\b", r"\1 penalty", "penalty dice are the word penalty"),
    ),
)
