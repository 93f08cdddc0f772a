"""The AGE system (Dragon Age RPG, Fantasy AGE, Modern AGE): the ``age`` keyword.

Forms (rules G1-G9 of ``docs/rules.md``; the player's guide is ``docs/age.md``)::

    age STR+2 vs 13            basic test: 3D6 + ability + modifiers >= target
    age 3 +focus vs hard       a number for the ability, the focus (+2), a named target
    age STR+2                  no target: the total, the Dragon die and doubles
    age DEX+1 vs age PER+2     opposed test, two or more sides
    age 3 vs 13 until 15       advanced test: until the Dragon dice of successes reach 15

The package follows the games' template: ``rules`` (rule data), ``nodes`` (what was
typed), ``grammar`` (text -> nodes), ``dice`` (the Dragon die), ``roll`` (nodes + dice
-> result) and ``odds`` (nodes -> exact odds). This module is the game's declaration,
:data:`GAME` (plain data, cheap to import, read by the registry), and its ``rules``
function, which imports :mod:`~dicecli.systems.age.system` (the game's
:class:`~dicecli.game.Rules`) with the first line of the game."""

from __future__ import annotations

from typing import Any

from dicecli.game import API_VERSION, Game, HelpTopic, Hint, Rules
from dicecli.systems.age.rules import ABILITIES, DIFFICULTIES
from dicecli.systems.age.settings import ADVANCED_ROLLS, KEYWORDS, NAME, TIE_REROLLS

_FULL_NAMES = tuple(name for names in ABILITIES.values() for name in names)


def rules() -> Rules[Any]:
    """The game's rules (:mod:`~dicecli.systems.age.system`), imported with the first
    line of the game."""
    from dicecli.systems.age.system import AgeRules

    return AgeRules()


GAME = Game(
    api_version=API_VERSION,
    name=NAME,
    keywords=KEYWORDS,
    example="age STR+2 vs 13",
    odds_example=("age STR+2 vs 13", "success, stunt points, degree"),
    rules=rules,
    settings=(ADVANCED_ROLLS, TIE_REROLLS),
    completions=("vs", "focus", "until", *ABILITIES, *DIFFICULTIES),
    follows=(("age", tuple(ABILITIES)), ("vs", (*DIFFICULTIES, "age"))),
    help=HelpTopic(
        "AGE system: 3d6, one of them the Dragon die, + the ability:",
        (
            ("age STR+2 vs 13", "a basic test against 13"),
            ("age DEX+1+focus vs hard", "+focus adds 2; a named difficulty"),
            ("age 3 vs nigh impossible", "a number in place of the ability"),
            ("age DEX+1 vs age PER+2", "an opposed test"),
            ("age Ayla: DEX+1 vs Orc: DEX+2", "an opposed test, the sides named"),
            ("age STR+2 vs 13 until 15", "an advanced test: Dragon dice until 15"),
        ),
        "Difficulties: routine easy average challenging hard formidable imposing\n"
        "nigh-impossible. Abilities: STR DEX CON COM CUN MAG PER WIL ACC FGT INT (or the\n"
        "full names); their values come from `let STR = 3` or a character file (`load`).",
    ),
    hints=(
        Hint(
            r"\bvs\s+(?=(?:" + "|".join((*ABILITIES, *_FULL_NAMES)) + r")\b)",
            "vs age ",
            "the other side of an opposed test is a roll of its own",
        ),
    ),
    marks=(("dragon", "bold magenta"),),
)
