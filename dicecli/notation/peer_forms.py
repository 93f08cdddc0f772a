"""Forms of rollers other than Dice Maiden that dicecli refuses as written, spelt as
dicecli's own: python-dice's bare keeps and its total (``6d6^``, ``6d6v``, ``6d6o``,
``4d6t``, ``6d6x``) and kotlin-dice's ``2d20h``.

Each is read only for a line the grammar refuses (:mod:`dicecli.notation.chat_text`
offers the rewritten line), so a line that reads today reads as before, and the common
path never loads this module. Each form means one thing in every roller that writes
it; where rollers differ (a bare ``h`` after more than two dice: the highest one in
kotlin-dice, all but the lowest in python-dice) the line is left refused.
docs/grammar.md, "Other rollers' spellings", tables them with their sources.
"""

from __future__ import annotations

import re

_DICE = r"(?<![A-Za-z_\d])(?P<count>\d*)[dD](?P<sides>\d+|%)"
_END = r"(?=\s|$|[-+*/)#,])"
_BARE = re.compile(rf"{_DICE}(?P<gap>[ \t]*)(?P<letter>[tTxX^vVoOhHlL])(?P<n>[ \t]*\d+)?{_END}")
"""A dice term and one bare letter of python-dice (or kotlin-dice) after it."""


def peer_forms(text: str) -> str:
    """``text`` with the forms of this module spelt as dicecli's; ``text`` itself when
    it has none."""
    return _BARE.sub(_bare, text)


def _bare(found: re.Match[str]) -> str:
    """python-dice's bare letters (README, "Notation"; elements.py): ``t`` totals (the
    sum, as here), ``x`` explodes on the highest face, ``^``/``h`` keep all but the
    lowest, ``v``/``l`` all but the highest, ``o`` all but the lowest and the highest
    (``o 3``: the middle 3, one more left out at the bottom than at the top).
    kotlin-dice's ``h``/``l`` keep the highest (lowest) one: after two dice the two
    readings agree, after more they differ and the line stays refused. After one die
    python-dice keeps none or all, so that stays refused too."""
    dice = found[0][: found.start("gap") - found.start()]
    low, n = found["letter"].lower(), found["n"]
    count = int(found["count"] or 1)
    if low == "t" and not found["gap"] and n is None:
        return dice
    if low == "x" and not found["gap"] and n is None:
        return f"{dice}!"
    if count < 2 or (found["gap"] and (low != "o" or n is None)):
        return found[0]
    if low == "o":
        return _middle(dice, count, count - 2 if n is None else int(n))
    if n is not None:
        return found[0]
    if low == "^":
        return f"{dice}dl1"
    if low == "v":
        return f"{dice}dh1"
    if count == 2:  # h, l: kotlin-dice and python-dice agree on two dice
        return f"{dice}k{low}1"
    return found[0]


def _middle(dice: str, count: int, kept: int) -> str:
    """python-dice's middle ``kept`` of ``count`` dice as drops: of the dice left out,
    half (rounded down) from the top and the rest from the bottom."""
    left_out = count - kept
    top = left_out // 2
    if not 0 < kept < count or top == 0:  # python-dice keeps none then: left refused
        return f"{dice}o{kept}"
    return f"{dice}dl{left_out - top}dh{top}"


__all__ = ["peer_forms"]
