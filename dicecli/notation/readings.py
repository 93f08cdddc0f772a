"""How a comparison after dice was read, said when another reading was plausible.

``10d6>=4`` counts the dice of 4 or more; ``10d6 >= 4`` checks the total (a space after
the operator makes it a check, docs/grammar.md). The two differ by a space, and either
gives a result without a word; :func:`reading_note` says which reading was taken and
how to write the other, when the spacing is lopsided (``5d6 >=4``, ``5d6>= 4``) or when
the reading taken can go only one way (no d6 reaches 8; 10d6 always totals 4 or more)
while the other could go either way. Only the simple form ``NdS OP T`` is looked at: a
longer line was written with care.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable

_SIMPLE = re.compile(
    r"\s*(?P<count>\d*)[dD](?P<sides>\d+)(?P<before>\s*)(?P<op>>=|<=|>|<)(?P<after>\s*)"
    r"(?P<target>\d+)\s*"
)
_OPS: dict[str, Callable[[int, int], bool]] = {
    ">=": operator.ge,
    "<=": operator.le,
    ">": operator.gt,
    "<": operator.lt,
}
_WORDS = {">=": "or more", "<=": "or less"}


def _spread(values: range, op: str, target: int) -> str:
    """``"never"``, ``"always"`` or ``"sometimes"``: how often a value of ``values``
    meets ``op target``."""
    test = _OPS[op]
    meeting = sum(1 for value in (values[0], values[-1]) if test(value, target))
    if meeting == 2:
        return "always"  # both ends meet a one-sided test: every value between does
    if meeting == 0 and not any(test(value, target) for value in values):
        return "never"
    return "sometimes"


def _than(op: str, target: int) -> str:
    """``8 or more``, ``over 3``: what ``op target`` asks, in words."""
    if op in (">", "<"):
        return f"{'over' if op == '>' else 'under'} {target}"
    return f"{target} {_WORDS[op]}"


def _dice(op: str, target: int) -> str:
    """``the dice of 4 or more``, ``the dice over 3``."""
    return f"the dice {'of ' if op in _WORDS and op not in ('>', '<') else ''}{_than(op, target)}"


def reading_note(line: str) -> str | None:
    """A note on how ``line`` was read, or None when nothing needs saying."""
    if ">" not in line and "<" not in line:
        return None
    found = _SIMPLE.fullmatch(line)
    if found is None:
        return None
    count, sides = int(found["count"] or 1), int(found["sides"])
    op, target = found["op"], int(found["target"])
    if count < 1 or sides < 2:
        return None
    dice = f"{found['count']}d{sides}"
    counting = not found["after"]  # the grammar: a space after the operator is a check
    lopsided = bool(found["before"]) != bool(found["after"])
    as_count, as_check = f"{dice}{op}{target}", f"{dice} {op} {target}"
    die = _spread(range(1, sides + 1), op, target)
    total = _spread(range(count, count * sides + 1), op, target)
    if counting:
        if die == "never":
            return (
                f"no d{sides} rolls {_than(op, target)}: {as_count} counts dice, and none "
                f"can count; {as_check}, with spaces, checks the total"
            )
        if lopsided:
            return (
                f"read as counting {_dice(op, target)}; {as_check}, with spaces, checks the total"
            )
        return None
    if count > 1 and die == "sometimes" and (lopsided or total != "sometimes"):
        certain = "" if total == "sometimes" else f"{dice} {total} totals {_than(op, target)}: "
        return (
            f"{certain}read as a check on the total; {as_count}, without spaces, counts "
            f"{_dice(op, target)}"
        )
    return None
