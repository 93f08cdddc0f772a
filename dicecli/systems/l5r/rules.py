"""Legend of the Five Rings 4e's rule data and decisions (rules L1-L4 of
``docs/rules.md``), shared by the rolling and the odds. Nothing here rolls or renders.

Rule numbers (L1, L2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from dicecli.game import frozen

TEN = 10
"""No roll uses more than ten dice, rolled or kept (rule L3)."""

RAISE = 5
"""Each raise adds 5 to the target number (rule L4)."""

BONUS_PER_DIE = 2
"""What a die beyond the ten-dice rule's cap adds to the total (rule L3)."""

MOST_TYPED = 40
"""The most dice a line may roll or keep as typed (an assumption, against typos)."""


@frozen
class Effective:
    """A roll after the ten-dice rule: dice rolled, dice kept, and the bonus (rule L3)."""

    rolled: int
    kept: int
    bonus: int


def ten_dice_rule(rolled: int, kept: int) -> Effective:
    """Apply the ten-dice rule (rule L3): rolled dice past ten become kept dice, two for
    one, while fewer than ten are kept; once ten are kept, each rolled or kept die past
    ten adds 2 to the total. A single rolled die left over while fewer than ten are kept
    adds nothing (an assumption)."""
    extra = max(rolled - TEN, 0)
    rolled = min(rolled, TEN)
    while extra >= 2 and kept < TEN:
        kept += 1
        extra -= 2
    bonus = 0
    if kept >= TEN:
        bonus += BONUS_PER_DIE * extra
    if kept > TEN:
        bonus += BONUS_PER_DIE * (kept - TEN)
        kept = TEN
    return Effective(rolled, kept, bonus)


def target(number: int, raises: int) -> int:
    """The target number with the raises called (rule L4)."""
    return number + RAISE * raises
