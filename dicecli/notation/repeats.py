"""Repeats as other rollers spell them: Dice Maiden's ``6 4d6`` (a count, a space, the
roll, after any of its display flags: ``p s 6 4d6``), ``repeat(4d6kh3, 6)`` (d20's
and RPG Dice Roller's function form) and caith's sorted repetition ``(2d6 + 6) ^# 8``
(given in the order rolled; caith sorts them by total). Each rolls the line that many
times, as dicecli's own ``4d6 -n 6`` does.

None of these forms parses as a roll, so the program asks here only after the grammar has
refused a line: a line that reads today is never a repeat, and the common path pays
nothing. (``6#4d6`` is not read: ``#`` starts a comment here, so it is the number 6.)
"""

from __future__ import annotations

import re

_COUNT_THEN_ROLL = re.compile(
    r"\s*(?:(?:p|s|nr|ul)[ \t]+)*(?P<count>[0-9]{1,9})[ \t]+(?P<roll>[0-9dD(].*)", re.DOTALL
)
_SORTED_REPEAT = re.compile(
    r"(?P<roll>[^#]+?)[ \t]*\^#[ \t]*(?P<count>[0-9]{1,9})(?P<rest>\s*(?::.*)?)", re.DOTALL
)
_REPEAT_CALL = re.compile(
    r"\s*repeat\(\s*(?P<roll>[^#]+?)\s*,\s*(?P<count>[0-9]{1,9})\s*\)(?P<rest>\s*(?:#.*)?)",
    re.IGNORECASE | re.DOTALL,
)


def repeat_spelt_otherwise(line: str) -> tuple[str, int, int] | None:
    """``line`` as a roll and a count when another roller's repeat spells it (``6 4d6``
    -> ``("4d6", 6, 0)``), with where the count is written; else None. The count is
    not checked: the caller holds it to the bounds of ``--times``."""
    found = _REPEAT_CALL.fullmatch(line)
    if found is not None:
        return found["roll"] + found["rest"], int(found["count"]), found.start("count")
    found = _SORTED_REPEAT.fullmatch(line)
    if found is not None:
        return found["roll"] + found["rest"], int(found["count"]), found.start("count")
    found = _COUNT_THEN_ROLL.fullmatch(line)
    if found is not None:
        return found["roll"], int(found["count"]), found.start("count")
    return None
