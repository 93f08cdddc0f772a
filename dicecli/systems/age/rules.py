"""AGE system rule data: the focus bonus (rule G1), the named difficulties of a basic
test (rule G3), the named thresholds of an advanced test (rule G7) and the abilities
with the project's abbreviations (rule G8). Plain data, read by the grammar, the
rolling, the odds and the game's declaration (completion words, help).

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

FOCUS_BONUS = 2
"""Rule G1: +2 when a relevant focus applies (only one focus counts)."""

ABILITIES: dict[str, tuple[str, ...]] = {
    "STR": ("Strength",),
    "DEX": ("Dexterity",),
    "CON": ("Constitution",),
    "COM": ("Communication",),
    "CUN": ("Cunning",),
    "MAG": ("Magic",),
    "PER": ("Perception",),
    "WIL": ("Willpower",),
    "ACC": ("Accuracy",),
    "FGT": ("Fighting",),
    "INT": ("Intelligence",),
}
"""Rule G8: the project's abbreviation -> the ability's full name(s) in the books."""

DIFFICULTIES: dict[str, int] = {
    "routine": 7,
    "easy": 9,
    "average": 11,
    "challenging": 13,
    "hard": 15,
    "formidable": 17,
    "imposing": 19,
    "nigh-impossible": 21,
}
"""Rule G3: named target numbers of a basic test."""

THRESHOLDS: dict[str, int] = {
    "easy": 5,
    "average": 10,
    "challenging": 15,
    "hard": 20,
    "formidable": 25,
}
"""Rule G7: named thresholds of an advanced test (the Dragon dice to collect)."""


def spelled(name: str) -> str:
    """``nigh-impossible`` -> ``Nigh Impossible``: a table name as a player reads it."""
    return name.replace("-", " ").title()
