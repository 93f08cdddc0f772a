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
:data:`GAME` (plain data, cheap to import, read by the registry), and its protocol
object :data:`SYSTEM`, which imports those modules as they are needed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from dicecli.errors import RuleError
from dicecli.systems.age.rules import ABILITIES, DIFFICULTIES
from dicecli.systems.declaration import Game, HelpTopic, Hint, Setting, TemplateSystem

if TYPE_CHECKING:
    from dicecli.environment import Environment


def _whole_number(key: str, default: int) -> Callable[[str | None], int]:
    """How a positive whole-number setting is read: ``default`` when unset."""

    def read(text: str | None) -> int:
        if text is None:
            return default
        try:
            number = int(text)
        except ValueError:
            number = 0
        if number < 1:
            raise RuleError(f"setting {key} must be a whole number of at least 1, not '{text}'")
        return number

    return read


ADVANCED_ROLLS = Setting(
    "age.max_rolls",
    "most rolls an advanced test makes (default 100)",
    _whole_number("age.max_rolls", 100),
    example="200",
)
"""Rolls an advanced test may take before it stops (an assumption: the rules set none)."""

TIE_REROLLS = Setting(
    "age.max_rerolls",
    "most re-rolls of a fully tied opposed test (default 20)",
    _whole_number("age.max_rerolls", 20),
)
"""Re-roll rounds an opposed test may take to break a complete tie (an assumption)."""


def setting(env: Environment, which: Setting) -> int:
    """The value of one of this game's whole-number settings in ``env``."""
    return cast(int, which.value(env))


_FULL_NAMES = tuple(name for names in ABILITIES.values() for name in names)

GAME = Game(
    name="age",
    keywords=("age",),
    example="age STR+2 vs 13",
    odds_example=("age STR+2 vs 13", "success, stunt points, degree"),
    system=__name__,
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

SYSTEM = TemplateSystem(__name__)
"""The game protocol object: its grammar, rolling and odds, each imported on first use."""
