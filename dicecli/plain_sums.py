"""The plainest piped lines, ``NdS`` and numbers added or taken away (``5d20+266``,
``3d743 - 4``), read, rolled and written without a tree: what a script pipes in most.

The general way (:func:`dicecli.notation.reader.parse`, then
:func:`dicecli.rolling.evaluate.roll`, then :func:`dicecli.render.text.result_line`)
builds a tree, a result tree and a result for every line, and keeps them in case the
line comes again. A line piped once pays for all of that, most of what it costs; here
such a line costs little more than rolling and writing it, whatever its dice's sides
(``bench/bench_issue25.py`` measures it against ``bench/floor_roller.py``).

The three steps keep the stages apart as the general way does: :func:`read` is the
notation (text to numbers, never rolling), :func:`roll` the rolling (the session's
:class:`~dicecli.rolling.sources.Roller`, drawing exactly what the general way draws),
:func:`line` the plain renderer (never rolling). A line the reader does not take goes
the general way; so does every line of a session with anything else to show (JSON, a
terminal, ``--given``, ``--odds``, a dialect, ``--times``:
:meth:`dicecli.app.Session.take_plain_sums`), and a roll on the command line. Each line
taken is written as the general way writes it, byte for byte, and draws the same faces
from the same seed: ``tests/test_plain_sums.py`` checks it against the general way, line
by line and over whole streams.
"""

from __future__ import annotations

import re

from dicecli.limits import MAX_TERMS
from dicecli.notation.dice import die_for_sides
from dicecli.rolling.sources import Roller

PlainSum = tuple[int, int, tuple[tuple[str, int], ...]]
"""A line read by :func:`read`: how many dice, their sides, and each number after them
with its sign (``("+", 266)``)."""

_LINE = re.compile(
    r"[ \t]*(?P<count>[0-9]{0,3})[dD](?P<sides>[0-9]{1,4})"
    r"(?P<numbers>(?:[ \t]*[-+][ \t]*[0-9]{1,9})*)[ \t]*"
)
"""A plain sum as the general reader reads it: ASCII digits only (``int`` reads other
scripts' digits too), spaces and tabs only, at most 999 dice of at most 9,999 sides and
numbers of at most nine digits. :func:`read` takes only lines shorter than
:data:`~dicecli.limits.MAX_TERMS` characters: such a line has fewer terms than that and
is shorter than a line may be, within every limit of ``docs/limits.md``, so none it
takes is refused."""

_NUMBER = re.compile(r"([-+])[ \t]*([0-9]+)")
"""Each number after the dice, with its sign."""


def rolled_line(text: str, roller: Roller) -> str | None:
    """The plain output line of ``text`` rolled with ``roller`` (:func:`read`, then
    :func:`roll`, then :func:`line`); None for a line that is no plain sum, which goes
    the general way."""
    plain = read(text)
    if plain is None:
        return None
    return line(text, plain, roll(plain, roller))


def read(text: str) -> PlainSum | None:
    """``text`` as a plain sum, or None for any other line, and for the plain sums
    whose dice show more than their faces (the general way marks them):

    - no dice or no sides (``0d6``, ``d0``: refused, with the general way's error);
    - ``d3``, the D3 of rule N4 (a d6 halved, its face shown as ``5→3``);
    - one ``d20``, whose natural 20 and 1 are marked critical (``docs/output.md``).
    """
    if len(text) >= MAX_TERMS:  # a line that could reach a limit: the general way's
        return None
    found = _LINE.fullmatch(text)
    if found is None:
        return None
    count_digits, sides_digits, written = found.group("count", "sides", "numbers")
    count = int(count_digits) if count_digits else 1
    sides = int(sides_digits)
    if count == 0 or sides in (0, 3) or (count == 1 and sides == 20):
        return None
    numbers = tuple((sign, int(digits)) for sign, digits in _NUMBER.findall(written))
    return count, sides, numbers


def roll(plain: PlainSum, roller: Roller) -> list[int]:
    """The dice of ``plain`` as they land: each die's number, in roll order, drawn from
    ``roller`` as the general way draws them (one :meth:`~dicecli.rolling.sources.
    Roller.draw_many` of the same die, the roll's budget whole again first)."""
    count, sides, _ = plain
    roller.remaining = roller.budget
    return [index + 1 for index in roller.draw_many(die_for_sides(sides), count)]


def line(text: str, plain: PlainSum, dice: list[int]) -> str:
    """The plain output line of ``text`` (``docs/output.md``): ``TOTAL<tab>INPUT<tab>
    DETAIL``, the detail as the breakdown writes it (``[3, 17] + 266``). ``text`` holds
    only what :func:`read` takes (digits, ``d``, signs, spaces and tabs): the tab it may
    hold is escaped as the general way escapes it, and nothing else needs escaping."""
    total = sum(dice)
    detail = "[" + ", ".join(map(str, dice)) + "]"
    for sign, number in plain[2]:
        total = total + number if sign == "+" else total - number
        detail += f" {sign} {number}"
    typed = text.strip()
    if "\t" in typed:
        typed = typed.replace("\t", "\\t")
    return f"{total}\t{typed}\t{detail}\n"
