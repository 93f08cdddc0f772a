"""How many times a line is rolled when the line says so itself: dicecli's own ``-n N``
written in it (``4d6kh3 -n 6``), or a repeat as another roller spells it (``6 4d6``,
``repeat(4d6kh3, 6)``, read by :mod:`dicecli.notation.repeats`). One place for the
rolls (:mod:`dicecli.app`, the REPL) and the odds (:mod:`dicecli.probability.report`),
which give the odds of one roll of a repeated line. Loaded by a line that has ``-n``
or ``--times`` in it, or that is refused (docs/startup.md).
"""

from __future__ import annotations

import re

from dicecli.command_line import REPEAT_SPELLINGS
from dicecli.errors import DiceError
from dicecli.limits import check_times
from dicecli.notation.reader import parse

_SPELLINGS = "|".join(map(re.escape, REPEAT_SPELLINGS))
_REPEAT = re.compile(rf"(?<!\S)(?:{_SPELLINGS})(?:\s*=\s*|\s*)(?P<count>\d+)(?!\S)")
"""``-n 6``, ``-n6``, ``--times 6``, ``--times=6`` in a line: roll it that many times."""


def repeat_count(line: str) -> tuple[str, int | None]:
    """``line`` without its ``-n N`` / ``--times N`` option (before any ``# comment``),
    and N; ``(line, None)`` when it has none. ``-n3`` is always the option, never a
    name: ``4d6kh3 -n3`` rolls three times."""
    code, hash_sign, comment = line.partition("#")
    match = _REPEAT.search(code)
    if match is None:
        return line, None
    count = int(match["count"])
    try:
        check_times(count)
    except DiceError as error:
        raise DiceError(error.message, line, match.start()) from None
    rest = (code[: match.start()] + code[match.end() :]).strip()
    return rest + (f" {hash_sign}{comment}" if hash_sign else ""), count


def other_repeat(line: str) -> str | None:
    """``line`` with dicecli's own ``-n N`` when it is a repeat as another roller spells
    it (``6 4d6``, ``repeat(4d6kh3, 6)``: :mod:`dicecli.notation.repeats`), else None.
    Asked only of a line refused as a roll."""
    from dicecli.notation.repeats import repeat_spelt_otherwise  # docs/startup.md

    found = repeat_spelt_otherwise(line)
    if found is None:
        return None
    text, count, where = found
    try:
        parse(text)
    except DiceError:
        return None  # the line's own error says more than one about the repeated roll
    try:
        check_times(count)
    except DiceError as error:
        raise DiceError(error.message, line, where) from None
    code, hash_sign, comment = text.partition("#")
    return f"{code.rstrip()} -n {count}" + (f" {hash_sign}{comment}" if hash_sign else "")


__all__ = ["other_repeat", "repeat_count"]
