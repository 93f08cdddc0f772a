"""Call of Cthulhu 7e's rule data and decisions (rules C1-C5 of ``docs/rules.md``),
shared by the rolling and the odds. Nothing here rolls or renders.

Rule numbers (C1, C3 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

LEVELS = (
    "fumble",
    "failure",
    "regular success",
    "hard success",
    "extreme success",
    "critical success",
)
"""The levels of success, worst first: an opposed roll compares their places (rule C5)."""

REQUIRED = {"regular": "regular success", "hard": "hard success", "extreme": "extreme success"}
"""The least level each difficulty passes with (rule C3)."""

FUMBLE_RANGE_BELOW = 50
"""A skill under 50 fumbles on 96-100; any other on 100 only (rule C2)."""

MOST_EXTRA_DICE = 10
"""Most bonus or penalty dice one line may name (an assumption, against typos)."""


def percentile(tens: int, units: int) -> int:
    """The d100 result of a tens die (0, 10 ... 90) and a units die (0-9): 00 and 0
    make 100 (rule C1)."""
    value = tens + units
    return 100 if value == 0 else value


def level(roll: int, skill: int) -> str:
    """The level of success of a d100 result against a skill (rules C1, C2)."""
    if roll == 1:
        return "critical success"
    if roll == 100 or (skill < FUMBLE_RANGE_BELOW and roll >= 96):
        return "fumble"
    if roll <= skill // 5:
        return "extreme success"
    if roll <= skill // 2:
        return "hard success"
    if roll <= skill:
        return "regular success"
    return "failure"


def passes(found: str, difficulty: str) -> bool:
    """Whether a level meets the difficulty (rule C3)."""
    return LEVELS.index(found) >= LEVELS.index(REQUIRED[difficulty])


def extra_dice(bonus: int, penalty: int) -> tuple[int, str | None]:
    """How many extra tens dice are rolled and which is kept: bonus and penalty dice
    cancel one for one (rule C4)."""
    net = bonus - penalty
    if net == 0:
        return 0, None
    return abs(net), ("bonus" if net > 0 else "penalty")


def best_of(tens: tuple[int, ...], units: int, which: str | None) -> int:
    """The kept result: the lowest d100 a tens die makes with the units die for bonus
    dice, the highest for penalty dice (rule C4)."""
    results = [percentile(t, units) for t in tens]
    if which == "penalty":
        return max(results)
    return min(results)


def opposed_winner(levels: tuple[str, str], skills: tuple[int, int]) -> int | None:
    """The side (0 or 1) that wins an opposed roll: the higher level, then the higher
    skill; None for a tie, or when both sides fail (rule C5)."""
    a, b = (LEVELS.index(found) for found in levels)
    if max(a, b) < LEVELS.index("regular success"):
        return None
    if a != b:
        return 0 if a > b else 1
    if skills[0] != skills[1]:
        return 0 if skills[0] > skills[1] else 1
    return None
