"""Text of the REPL fitted to the terminal's width: a long line is wrapped between
words, never inside one, and its wrapped part is indented under the column it belongs
to (a command's description in ``help``, a roll's detail in ``history``), so that an
80-column terminal shows columns, not words cut at the edge."""

from __future__ import annotations

import re
import textwrap

_COLUMN = re.compile(r"\S {2,}(?=\S)")
"""Two spaces or more after a word: where a column of a table starts."""
NARROWEST = 40
"""Below this width, text is not wrapped: the terminal cuts it as it can."""


def fitted(text: str, width: int) -> str:
    """``text`` with each line longer than ``width`` wrapped between words; the
    continuation is indented to the line's last column within its first half (``help``,
    ``history``), else to the line's own indent."""
    if width < NARROWEST:
        return text
    return "\n".join(_line(line, width) for line in text.split("\n"))


def _line(line: str, width: int) -> str:
    if len(line) <= width:
        return line
    indent = len(line) - len(line.lstrip(" "))
    for found in _COLUMN.finditer(line, 0, width // 2):
        indent = found.end()
    wrapped = textwrap.wrap(
        line[indent:],
        width=width - indent,
        break_long_words=False,
        break_on_hyphens=False,
    )
    if not wrapped:
        return line
    head = line[:indent] + wrapped[0]
    return "\n".join([head, *(" " * indent + rest for rest in wrapped[1:])])
