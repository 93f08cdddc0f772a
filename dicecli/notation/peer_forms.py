"""Forms of rollers other than Dice Maiden that dicecli refuses as written, spelt as
dicecli's own: python-dice's keeps and its total (``6d6^``, ``6d6 v 3``, ``6d6o``,
``4d6t``, ``6d6x``), its dice of other faces (``2u6``, ``6d6a``, ``4d1 .+ 3``),
kotlin-dice's ``2d20h``, DiceParser's ``4z6``, caith's double successes (``10d10 t7
tt9``), target lists (``3d6 t[2,4,6]``) and summed repetition (``(2d6 + 6) ^+ 2``),
Foundry VTT's ``4d6even``/``4d6odd``.

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
_BARE = re.compile(
    rf"{_DICE}(?P<gap>[ \t]*)(?P<letter>[tTxX^vVoOhHlL])"
    rf"(?P<n>[ \t]*(?:\d+|\([ \t]*-[ \t]*\d+[ \t]*\))|-\d+)?{_END}"
)
"""A dice term and one letter of python-dice (or kotlin-dice) after it, with or without
its number (``6d6 v 3``, ``6d6v(-3)``)."""
_OTHER_DICE = re.compile(
    rf"(?<![A-Za-z_\d])(?P<other_count>\d*)(?P<kind>[uUzZ])(?P<other_sides>\d+){_END}"
    rf"|{_DICE}(?P<again>a)(?P<on>\d*){_END}"
    rf"|{_DICE.replace('count', 'added_count').replace('sides', 'added_sides')}"
    rf"[ \t]*\.(?P<sign>[-+])[ \t]*(?P<added>\d+){_END}"
)
"""python-dice's ``2u6`` (faces -6 to 6), ``6d6a`` (a die on the highest face counts
twice), ``4d1 .+ 3`` (3 added to each die); DiceParser's and kotlin-dice's ``4z6``
(faces 0 to 5)."""
_SUMMED = re.compile(r"(?P<roll>[^#^]+?)[ \t]*\^\+[ \t]*(?P<times>\d{1,2})(?P<rest>\s*(?::.*)?)$")
"""caith's summed repetition, ``(2d6 + 6) ^+ 2``."""
MOST_SUMMED = 20
"""The most repetitions of caith's ``^+`` that are spelt out as a sum."""
_COMPUTED_TOTAL = re.compile(rf"(?<![A-Za-z_\d])(?P<dice>\d*[dD]\([^()]*\))[tT]{_END}")
"""python-dice's total after dice of computed sides, ``d(d6)t``."""
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
    it has none. ``text`` holds no number past the digits limit
    (:data:`~dicecli.limits.LONG_NUMBER`): its caller leaves such a line as written."""
    text = _summed(text)
    text = _BARE.sub(_bare, text)
    text = _COMPUTED_TOTAL.sub(lambda found: found["dice"], text)
    text = _OTHER_DICE.sub(_other_dice, text)
    text = _doubles(text)
    text = _TARGET_LIST.sub(_target_list, text)
    return _PARITY.sub(_parity, text)


def _bare(found: re.Match[str]) -> str:
    """python-dice's letters (README, "Notation"; elements.py): ``t`` totals (the sum,
    as here), ``x`` explodes on the highest face, ``^``/``h`` keep the highest N (all
    but the lowest without one), ``v``/``l`` the lowest N (all but the highest), ``o``
    the middle N (all but two; one more left out at the bottom than at the top); a
    negative N drops that many instead. kotlin-dice's bare ``h``/``l`` keep the highest
    (lowest) one: after two dice the two readings agree, after more they differ and the
    line stays refused. After one die python-dice keeps none or all: refused too.
    (``6d6v3`` right against the dice is justinian/dice's versus, read by the grammar.)"""
    dice = found[0][: found.start("gap") - found.start()]
    low, n = found["letter"].lower(), found["n"]
    count = int(found["count"] or 1)
    if low in "tx":
        spelt = dice if low == "t" else f"{dice}!"
        return spelt if not found["gap"] and n is None else found[0]
    if count < 2 or (found["gap"] and n is None):
        return found[0]
    number = None if n is None else int(re.sub(r"[\s()]", "", n))
    if low == "o":
        kept = count - 2 if number is None else number + count if number <= 0 else number
        return _middle(dice, count, kept)
    highest = low in "^h"
    if number is not None:
        if number == 0:
            return found[0]
        if number < 0:
            return f"{dice}d{'l' if highest else 'h'}{-number}"
        return f"{dice}k{'h' if highest else 'l'}{number}"
    if low in "^v":
        return f"{dice}d{'l' if highest else 'h'}1"
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


def _summed(text: str) -> str:
    """caith's ``X ^+ N`` (README, "Summed repetition"): N rolls of X, their totals
    added, spelt as the sum ``(X) + (X) ...``; up to :data:`MOST_SUMMED` rolls."""
    found = _SUMMED.match(text)
    if found is None or not 1 <= int(found["times"]) <= MOST_SUMMED:
        return text
    roll = found["roll"].strip()
    return " + ".join([f"({roll})"] * int(found["times"])) + found["rest"]


def _other_dice(found: re.Match[str]) -> str:
    """The dice of :data:`_OTHER_DICE` spelt as their faces; as written (for the grammar
    to refuse or read) past :data:`MOST_FACES_LISTED` faces, which are counted before
    any is made: a line may name a die of a hundred digits."""
    if found["kind"]:
        sides = int(found["other_sides"])
        plus_minus = found["kind"].lower() == "u"
        low, high = (-sides, sides) if plus_minus else (0, sides - 1)
        count, shift, doubled = found["other_count"], 0, None
    elif found["again"]:
        sides = 100 if found["sides"] == "%" else int(found["sides"])
        low, high = 1, sides
        count, shift, doubled = found["count"], 0, int(found["on"] or sides)
    else:
        sides = 100 if found["added_sides"] == "%" else int(found["added_sides"])
        low, high = 1, sides
        shift = int(found["added"]) * (1 if found["sign"] == "+" else -1)
        count, doubled = found["added_count"], None
    if not 0 < high - low + 1 <= MOST_FACES_LISTED:
        return found[0]
    faces = [face * 2 if face == doubled else face + shift for face in range(low, high + 1)]
    return f"{count}d{{{','.join(map(str, faces))}}}"


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


__all__ = ["MOST_FACES_LISTED", "MOST_SUMMED", "peer_forms"]
