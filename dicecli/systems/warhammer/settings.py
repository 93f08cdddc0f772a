"""Warhammer's name, keywords and settings: what the declaration
(:data:`dicecli.systems.warhammer.GAME`) and the rolling both need, kept apart so that
the rolling modules never import the declaration (which makes the rules)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicecli.game import RuleError, Setting

if TYPE_CHECKING:
    from dicecli.game import Environment

NAME = "warhammer"
"""The game's name, which its checks give as ``Check.system``."""

KEYWORDS = ("wfb", "whfb", "warhammer")
"""The first words of its lines; the first names its help topic."""


def _misfire_on_hit(text: str | None) -> bool:
    """``misfire`` (the default): a MISFIRE on the distance dice is still a misfire when
    the scatter die shows HIT; ``ignore``: it is ignored with the other distance dice."""
    setting = (text or "misfire").strip().casefold()
    if setting not in ("misfire", "ignore"):
        raise RuleError(f"{MISFIRE_ON_HIT.key} must be 'misfire' or 'ignore', not '{setting}'")
    return setting == "misfire"


MISFIRE_ON_HIT = Setting(
    "warhammer.misfire_on_hit",
    "'misfire' (default) or 'ignore': a MISFIRE on a HIT",
    _misfire_on_hit,
)


def misfire_on_hit(env: Environment) -> bool:
    """The :data:`MISFIRE_ON_HIT` setting: True unless set to ``ignore``."""
    return bool(MISFIRE_ON_HIT.value(env))
