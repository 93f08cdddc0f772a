"""Forms of rollers other than Dice Maiden that dicecli refuses as written, spelt as
dicecli's own: python-dice's bare keeps and its total (``6d6^``, ``6d6v``, ``6d6o``,
``4d6t``, ``6d6x``), kotlin-dice's ``2d20h``, caith's double successes (``10d10 t7
tt9``) and target lists (``3d6 t[2,4,6]``), Foundry VTT's ``4d6even``/``4d6odd``.

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
_TARGET = r"(?<![A-Za-z])t(?P<t>\d+)"
_DOUBLE = r"(?<![A-Za-z])tt(?P<d>\d+)"
_ANY_DICE = r"\d*[dD](?:\d+|%)"
_TARGET_LIST = re.compile(
    rf"{_DICE}[ \t]+t\[(?P<faces>\s*\d+(?:\s*,\s*\d+)*\s*)\]{_END}", re.IGNORECASE
)
_PARITY = re.compile(rf"{_DICE}(?P<parity>even|odd){_END}", re.IGNORECASE)
MOST_FACES_LISTED = 100
"""The most faces a die may have for a target list or parity to be spelt as its faces."""


def peer_forms(text: str) -> str:
    """``text`` with the forms of this module spelt as dicecli's; ``text`` itself when
    it has none."""
    text = _BARE.sub(_bare, text)
    text = _doubles(text)
    text = _TARGET_LIST.sub(_target_list, text)
    return _PARITY.sub(_parity, text)


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


def _doubles(text: str) -> str:
    """caith's ``tt9`` (README, "Target"; lib.rs's tests): a die of 9 or more counts two
    successes, else one of at least ``t`` counts one; without a ``t``, or with a higher
    one, the dice of ``tt`` or more count two and no others count. Read for a line of
    one dice term only, as dicecli's ``>=S ds>=D``."""
    double = re.search(_DOUBLE, text)
    if double is None or len(re.findall(_ANY_DICE, text)) != 1:
        return text
    twice = int(double["d"])
    target = re.search(_TARGET, text)
    once = min(twice, int(target["t"])) if target is not None else twice
    spans = sorted([double.span()] + ([target.span()] if target is not None else []))
    first, second = spans[0], spans[-1]
    rewritten = f">={once}ds>={twice}"
    if second != first:
        text = text[: second[0]] + text[second[1] :]
    return text[: first[0]] + rewritten + text[first[1] :]


def _faces_counted(sides: int, counts: set[int]) -> str | None:
    """A die of ``sides`` spelt as its faces, 1 for a face in ``counts``, else 0."""
    if sides > MOST_FACES_LISTED:
        return None
    return "{" + ",".join("1" if face in counts else "0" for face in range(1, sides + 1)) + "}"


def _target_list(found: re.Match[str]) -> str:
    """caith's ``3d6 t[2,4,6]``: one success for each die showing a listed face."""
    sides = 100 if found["sides"] == "%" else int(found["sides"])
    listed = {int(face) for face in found["faces"].split(",")}
    faces = _faces_counted(sides, listed)
    return found[0] if faces is None else f"{found['count']}d{faces}"


def _parity(found: re.Match[str]) -> str:
    """Foundry VTT's ``4d6even``/``4d6odd`` (dice-modifiers, "Count Even/Odd"): one
    for each die showing an even (odd) face."""
    sides = 100 if found["sides"] == "%" else int(found["sides"])
    even = found["parity"].lower() == "even"
    faces = _faces_counted(sides, {f for f in range(1, sides + 1) if (f % 2 == 0) == even})
    return found[0] if faces is None else f"{found['count']}d{faces}"


__all__ = ["MOST_FACES_LISTED", "peer_forms"]
