"""The AGE system's name, keywords and settings: what the declaration
(:data:`dicecli.systems.age.GAME`) and the rolling both need, kept apart so that the
rolling modules never import the declaration (which makes the rules)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from dicecli.game import RuleError, Setting

if TYPE_CHECKING:
    from dicecli.game import Environment

NAME = "age"
"""The game's name, which its checks give as ``Check.system``."""

KEYWORDS = ("age",)
"""The first words of its lines; the first names its help topic."""


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
