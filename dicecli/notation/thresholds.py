"""A computed threshold after a modifier of dice: ``1d6!>(1d2+3)``, ``4d6r<(STR)``.

Other rollers let a modifier's condition be worked out (Roll20's inline rolls, RPG Dice
Roller's expressions); dicecli's conditions are numbers. Read by the grammar's rules
alone, ``1d6!>(1d2+3)`` would be the explosion ``!`` and then a check of the total
against ``1d2+3``: a different roll, given without a word. The grammar asks
:func:`computed_threshold` before it takes a comparison for a check, and refuses the
line with its answer.
"""

from __future__ import annotations

import re
from functools import cache


@cache
def _modifier_before() -> re.Pattern[str]:
    """Dice and a modifier that takes a condition, at the end of the text searched
    (compiled when a comparison is first read, as the grammar's expressions are)."""
    return re.compile(
        r"\d*[dD](?:\d+|%|[fF](?:\.[12])?|\{[^{}]*\})[A-Za-z!<>=\d]*?"
        r"(?P<modifier>!!p|!!|!p|!|[rR][oO]?|[uU][oO]?)$"
    )


def computed_threshold(text: str, at: int) -> str | None:
    """Why the comparison at ``at`` in ``text`` is refused: written right after an
    explosion, a re-roll or a unique modifier of dice (no space between) with
    something other than a number after it; None when it is not such a comparison."""
    found = _modifier_before().search(text, 0, at)
    if found is None:
        return None
    rest = text[at:].lstrip("<>=!≥≤≠")
    if not rest or rest[0].isdigit() or rest[0] in "-+ \t":
        return None
    modifier = found["modifier"]
    op = text[at : len(text) - len(rest)]
    return (
        f"a computed threshold after {modifier} is not supported: write a number "
        f"({modifier}{op}5), or spaces around the comparison for a check of the total"
    )


__all__ = ["computed_threshold"]
